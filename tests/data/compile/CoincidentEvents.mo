model CoincidentEvents
  "A time event at 0.5 and a state event a few units of rounding before it: one event"
  Real x(start = 0, fixed = true);
  Integer n(start = 0, fixed = true) "counts the crossings of the steep indicator";
  Integer m(start = 0, fixed = true) "counts the time events";
equation
  der(x) = 1;
  // root at x = 0.5 - 2e-15 (the 1e-10 hysteresis is 1e-17 in x here)
  when 1e7*(x - 0.5) + 2e-8 > 0 then
    n = pre(n) + 1;
  end when;
  when time >= 0.5 then
    m = pre(m) + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end CoincidentEvents;
