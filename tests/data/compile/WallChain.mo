// N masses coupled by spring-dampers, the first driven by a sine force, the last pushed back
// by a soft wall (a step force beyond x = wall): a chain with state events and no algebraic
// unknowns, for the sparse Jacobians on IDA (tests/test_pattern.c).
model WallChain
  parameter Integer N = 6;
  parameter Real m = 1, k = 100, d = 0.5, wall = 0.02, push = 5;
  Integer hits(start = 0, fixed = true);
  Real x[N](each start = 0, each fixed = true);
  Real v[N](each start = 0, each fixed = true);
  Real f[N + 1];
equation
  f[1] = k*x[1] + d*v[1]; // the first mass is tied to the ground
  f[N + 1] = 0;
  for i in 2:N loop
    f[i] = k*(x[i] - x[i - 1]) + d*(v[i] - v[i - 1]);
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
end WallChain;
