within Modelica.Blocks.Interfaces;
connector BooleanOutput = output Boolean "'output Boolean' as a connector";
