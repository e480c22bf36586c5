// x = 1 - t becomes negative after t = 1: sqrt(x) is NaN there (tests/test_runerrors.c)
model NonFiniteSqrt
  Real x(start = 1, fixed = true);
  Real y;
  Real z(start = 0, fixed = true);
equation
  der(x) = -1;
  y = sqrt(x);
  der(z) = y;
  annotation(experiment(StopTime = 2, Interval = 0.25));
end NonFiniteSqrt;
