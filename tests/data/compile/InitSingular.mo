// The second initial equation repeats the first: the Jacobian of the initial system is
// singular but the equations are consistent. The solution nearest the start values
// (x, y) = (3, 1) on the line x + y = 2 is (2, 0).
model InitSingular
  Real x(start = 3);
  Real y(start = 1);
initial equation
  x + y = 2;
  2*x + 2*y = 4;
equation
  der(x) = -x;
  der(y) = -y;
end InitSingular;
