// Finite values whose sum overflows: 1.5e308 + 1.5e308 is +Inf in doubles, yet no variable is
// infinite; the run must not stop (the finiteness check sums a vector first and scans it
// only when the sum is not finite; tests/test_runerrors.c)
model LargeFinite
  Real x(start = 0, fixed = true);
  Real y1;
  Real y2;
equation
  der(x) = 1;
  y1 = 1.5e308 + x;
  y2 = 1.5e308 - x;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end LargeFinite;
