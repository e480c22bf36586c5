// A linear loop whose unknowns are some 1e11 (a kick of an interrupted inductor current):
// at an event pass that starts from its solution, the residual is a few units of rounding
// of those magnitudes, far above an absolute 1e-9, and still solved.
model LargeLinearLoop
  Real x(start = 1, fixed = true);
  Real a, b;
  Boolean late = time >= 0.5;
equation
  der(x) = if late then -x else x;
  0.3 * a + 0.7 * b = 3.1e11 * x;
  0.9 * a - 0.2 * b = 1.7e10 * x * time;
end LargeLinearLoop;
