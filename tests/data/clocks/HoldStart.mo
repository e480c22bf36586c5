model HoldStart "values read before a partition's first tick, relations at the ticks, bindings"
  Real u(start = -1) "time sampled at 0.2, 0.3, ...";
  Real y "hold(u): u.start before 0.2";
  Real ub "u on the clock shifted back by half an interval: 0.15, 0.25, ...";
  Real yb "hold(ub)";
  Real tol = 0.5*interval(u) "a binding with interval()";
  Real s "time sampled on Clock(0.1)";
  Boolean on "s >= 0.2, true from the tick at 0.2";
  Boolean hb "hold(on)";
equation
  u = sample(time, shiftSample(Clock(1, 10), 2));
  y = hold(u);
  ub = backSample(u, 1, 2);
  yb = hold(ub);
  s = sample(time, Clock(0.1));
  on = s >= 0.2;
  hb = hold(on);
  annotation(experiment(StopTime = 0.6, Interval = 0.025));
end HoldStart;
