model TickBlocks "a 10 Hz sampled P controller on a first-order plant; b and c do not read its output"
  Real x(start = 1, fixed = true), a, b, c, u;
equation
  u = -2*sample(x, Clock(1, 10));
  der(x) = hold(u) + a;
  a = -x;
  b = x*x;
  c = b + a;
  annotation(experiment(StopTime = 1, Interval = 0.1, Tolerance = 1e-9));
end TickBlocks;
