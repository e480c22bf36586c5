within Modelica.Blocks.Math;
block Add "y = k1*u1 + k2*u2"
  parameter Real k1 = +1 "Gain of u1";
  parameter Real k2 = +1 "Gain of u2";
  extends Interfaces.SI2SO;
equation
  y = k1*u1 + k2*u2;
end Add;
