within Modelica.Blocks.Interfaces;
partial block BooleanSO "Block with a single Boolean output"
  BooleanOutput y "Output signal";
end BooleanSO;
