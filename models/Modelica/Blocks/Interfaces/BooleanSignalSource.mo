within Modelica.Blocks.Interfaces;
partial block BooleanSignalSource "Boolean source"
  extends BooleanSO;
end BooleanSignalSource;
