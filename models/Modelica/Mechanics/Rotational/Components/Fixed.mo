within Modelica.Mechanics.Rotational.Components;
model Fixed "Flange fixed in the housing at angle phi0"
  parameter SI.Angle phi0 = 0 "Fixed angle of the flange";
  Rotational.Interfaces.Flange_b flange "Fixed flange";
equation
  flange.phi = phi0;
end Fixed;
