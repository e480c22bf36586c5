// log(x) with x = 1 - t: -Inf at t = 1, NaN after (tests/test_runerrors.c)
model NonFiniteLog
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -1;
  y = log(x);
  annotation(experiment(StopTime = 2, Interval = 0.25));
end NonFiniteLog;
