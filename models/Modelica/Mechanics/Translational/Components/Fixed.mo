within Modelica.Mechanics.Translational.Components;
model Fixed "Flange fixed in the housing at position s0"
  parameter SI.Position s0 = 0 "Fixed position of the flange";
  Translational.Interfaces.Flange_b flange "Fixed flange";
equation
  flange.s = s0;
end Fixed;
