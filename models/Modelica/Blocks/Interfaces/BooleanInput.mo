within Modelica.Blocks.Interfaces;
connector BooleanInput = input Boolean "'input Boolean' as a connector";
