within Modelica.Blocks.Math;
block Gain "y = k*u"
  parameter Real k(start=1) "Gain";
  Interfaces.RealInput u "Input signal";
  Interfaces.RealOutput y "Output signal";
equation
  y = k*u;
end Gain;
