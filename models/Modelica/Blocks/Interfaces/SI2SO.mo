within Modelica.Blocks.Interfaces;
partial block SI2SO "Block with two Real inputs and one Real output"
  RealInput u1 "First input signal";
  RealInput u2 "Second input signal";
  RealOutput y "Output signal";
end SI2SO;
