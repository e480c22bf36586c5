within Modelica.Blocks.Interfaces;
connector RealInput = input Real "'input Real' as a connector";
