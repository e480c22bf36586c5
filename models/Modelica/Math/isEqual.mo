within Modelica.Math;
function isEqual "True if two reals differ by at most eps"
  extends Modelica.Icons.Function;
  input Real s1;
  input Real s2;
  input Real eps(min=0) = 0 "Allowed difference";
  output Boolean result;
algorithm
  result := abs(s1 - s2) <= eps;
end isEqual;
