within Modelica;
package Constants "Mathematical and physical constants (subset)"
  import Modelica.Units.SI;
  final constant Real pi = 3.14159265358979323846 "Ratio of circumference to diameter";
  final constant Real e = 2.71828182845904523536 "Euler's number";
  final constant Real D2R = pi/180 "Degree to radian";
  final constant Real R2D = 180/pi "Radian to degree";
  final constant Real eps = 1.0e-15 "Smallest number such that 1.0 + eps <> 1.0 (rounded)";
  final constant Real small = 1.0e-60 "Smallest positive number worth distinguishing from zero";
  final constant Real inf = 1.0e60 "A number treated as infinity";
  final constant SI.Acceleration g_n = 9.80665 "Standard acceleration of gravity";
  final constant SI.CelsiusTemperature T_zero = -273.15 "Absolute zero in degC";
end Constants;
