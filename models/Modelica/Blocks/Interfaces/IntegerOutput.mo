within Modelica.Blocks.Interfaces;
connector IntegerOutput = output Integer "'output Integer' as a connector";
