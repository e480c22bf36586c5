// SparseLoop.mo with frozen coefficients: c is a parameter, so the cyclic loop's LU is
// reused between events (solve.c cached_linear); large and sparse, KLU factors it once per
// event interval (tests/test_compile.c). The right-hand side steps at the time event
// t = 0.5. Closed form: every x[i] = u, so s = t + t^2/2 + max(t - 0.5, 0).
model SparseLoopFrozen
  parameter Integer N = 60;
  parameter Real c = 0.3;
  Real x[N];
  Real u = 1 + time + (if time > 0.5 then 1 else 0);
  Real s(start = 0, fixed = true);
equation
  x[1] - c * (x[N] + x[2]) = (1 - 2 * c) * u;
  for i in 2:N - 1 loop
    x[i] - c * (x[i - 1] + x[i + 1]) = (1 - 2 * c) * u;
  end for;
  x[N] - c * (x[N - 1] + x[1]) = (1 - 2 * c) * u;
  der(s) = x[1];
  annotation(experiment(StopTime = 2, Interval = 0.01));
end SparseLoopFrozen;
