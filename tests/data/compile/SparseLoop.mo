// A 60-unknown cyclic linear algebraic loop with time-varying coefficients (KLU, solve.c
// block_lu_solve; tests/test_lang.c). Closed form: every x[i] = 1 + time (then x[i] - 2c x[i]
// equals the right-hand side for any c), so s = time + time^2/2.
model SparseLoop
  parameter Integer N = 60;
  Real x[N];
  Real c = 0.25 + 0.1 * sin(3 * time);
  Real s(start = 0, fixed = true);
equation
  x[1] - c * (x[N] + x[2]) = (1 - 2 * c) * (1 + time);
  for i in 2:N - 1 loop
    x[i] - c * (x[i - 1] + x[i + 1]) = (1 - 2 * c) * (1 + time);
  end for;
  x[N] - c * (x[N - 1] + x[1]) = (1 - 2 * c) * (1 + time);
  der(s) = x[1];
  annotation(experiment(StopTime = 2, Interval = 0.01));
end SparseLoop;
