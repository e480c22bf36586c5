within Modelica.Mechanics.Rotational.Interfaces;
partial connector Flange "Rotational flange: absolute angle and cut torque"
  SI.Angle phi "Absolute rotation angle of the flange";
  flow SI.Torque tau "Cut torque in the flange";
end Flange;
