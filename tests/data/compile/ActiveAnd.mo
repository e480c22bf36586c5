model ActiveAnd
  "Relations behind a decided and/or operand make no events (doc/events.md, Active relations)"
  Real x(start = 0, fixed = true);
  Boolean late = time >= 0.5 "a time event at 0.5";
  Real gated "1 while late and sin(20 x) > 0";
  Real gated2 "1 while late and cos(20 x) <= 0";
  Real y(start = 0, fixed = true);
  Real y2(start = 0, fixed = true);
equation
  der(x) = 1;
  gated = if late and sin(20*x) > 0 then 1 else 0;
  gated2 = if not late or cos(20*x) > 0 then 0 else 1;
  der(y) = gated;
  der(y2) = gated2;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ActiveAnd;
