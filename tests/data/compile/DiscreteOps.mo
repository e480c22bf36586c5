// Discrete operators (tests/test_lang.c): sample() with a parameter start and interval,
// edge(), change(), when/elsewhen priority, an assert of level warning and terminate() with
// a message. x = time.
model DiscreteOps
  parameter Real T0 = 0.25 "first sample";
  parameter Real dT = 0.1 "sample interval";
  parameter Real tStop = 2 "terminate() when x exceeds it";
  Real x(start = 0, fixed = true);
  Boolean b;
  Integer n(start = 0, fixed = true) "samples so far";
  discrete Real tLast(start = -1, fixed = true) "time of the last sample";
  Integer m(start = 0, fixed = true) "rising edges of b";
  Integer c(start = 0, fixed = true) "changes of n";
  Integer k(start = 0, fixed = true) "1 once x > 0.7, 2 once x > 0.9";
  Integer j(start = 0, fixed = true) "1 at t = 0.45 (both branches rise), then 2 at samples";
equation
  der(x) = 1;
  b = x > 0.5;
  when sample(T0, dT) then
    n = pre(n) + 1;
    tLast = time;
  end when;
  when edge(b) then
    m = pre(m) + 1;
  end when;
  when change(n) then
    c = pre(c) + 1;
  end when;
  when x > 0.7 then
    k = 1;
  elsewhen x > 0.9 then
    k = 2;
  end when;
  when time >= 0.45 then
    j = 1;
  elsewhen sample(T0, dT) then
    j = 2;
  end when;
  assert(x < 0.6, "x passed 0.6", AssertionLevel.warning);
  when x > tStop then
    terminate("x reached tStop");
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end DiscreteOps;
