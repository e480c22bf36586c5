within Modelica.Blocks.Interfaces;
partial block SISO "Block with one Real input and one Real output"
  RealInput u "Input signal";
  RealOutput y "Output signal";
end SISO;
