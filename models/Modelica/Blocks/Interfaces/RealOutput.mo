within Modelica.Blocks.Interfaces;
connector RealOutput = output Real "'output Real' as a connector";
