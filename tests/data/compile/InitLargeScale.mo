// A residual of size 1e12: at the double nearest sqrt(2) it is ~1e-4 by rounding alone,
// never below an absolute 1e-10, yet 1e-16 of the size of its terms.
model InitLargeScale
  Real x(start = 1);
initial equation
  1e12*(x*x - 2) = 0;
equation
  der(x) = -x;
end InitLargeScale;
