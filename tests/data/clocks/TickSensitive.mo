model TickSensitive "TickBlocks with a time relation in the plant: d's block is evaluated at every event pass"
  Real x(start = 1, fixed = true), a, b, c, d, u;
equation
  u = -2*sample(x, Clock(1, 10));
  der(x) = hold(u) + a + d;
  a = -x;
  d = if time > 5 then 1 else 0;
  b = x*x;
  c = b + a;
  annotation(experiment(StopTime = 1, Interval = 0.1, Tolerance = 1e-9));
end TickSensitive;
