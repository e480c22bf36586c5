within Modelica.Blocks.Interfaces;
connector IntegerInput = input Integer "'input Integer' as a connector";
