within Modelica.Blocks.Interfaces;
partial block SO "Block with a single Real output"
  RealOutput y "Output signal";
end SO;
