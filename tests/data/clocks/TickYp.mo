model TickYp "a 10 Hz sampled P controller on a first-order plant, a load step at 0.55 between ticks"
  Real x(start = 1, fixed = true), u;
equation
  u = -2*sample(x, Clock(1, 10));
  der(x) = hold(u) - x + (if time > 0.55 then 1 else 0);
  annotation(experiment(StopTime = 1, Interval = 0.1, Tolerance = 1e-9));
end TickYp;
