within Modelica.Blocks.Math;
block Feedback "y = u1 - u2"
  Interfaces.RealInput u1 "Input";
  Interfaces.RealInput u2 "Input subtracted from u1";
  Interfaces.RealOutput y "Difference u1 - u2";
equation
  y = u1 - u2;
end Feedback;
