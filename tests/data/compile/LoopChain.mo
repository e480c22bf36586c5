// WallChain's masses with each coupling force in a linear algebraic loop of two unknowns
// (f[i] and g[i]), so that on IDA the chain has algebraic unknowns: the DAE form's Jacobian
// pattern (tests/test_pattern.c).
model LoopChain
  parameter Integer N = 6;
  parameter Real m = 1, k = 100, d = 0.5, wall = 0.02, push = 5;
  Integer hits(start = 0, fixed = true);
  Real x[N](each start = 0, each fixed = true);
  Real v[N](each start = 0, each fixed = true);
  Real f[N + 1], g[N];
equation
  f[1] = k*x[1] + d*v[1] - 0.1*g[1];
  g[1] = 0.5*f[1] + x[1];
  f[N + 1] = 0;
  for i in 2:N loop
    f[i] = k*(x[i] - x[i - 1]) + d*(v[i] - v[i - 1]) - 0.1*g[i];
    g[i] = 0.5*f[i] + x[i] - x[i - 1];
  end for;
  for i in 1:N loop
    der(x[i]) = v[i];
    m*der(v[i]) = f[i + 1] - f[i] + (if i == 1 then 20*sin(3*time) else 0)
      - (if i == N and x[N] > wall then push else 0);
  end for;
  when x[N] > wall then
    hits = pre(hits) + 1;
  end when;
  annotation(experiment(StopTime = 10));
end LoopChain;
