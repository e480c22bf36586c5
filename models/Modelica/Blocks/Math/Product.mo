within Modelica.Blocks.Math;
block Product "y = u1*u2"
  extends Interfaces.SI2SO;
equation
  y = u1*u2;
end Product;
