model EventClock "an event clock ticking when x crosses 0.3, 0.6, ... (der(x) = 1); interval() and firstTick()"
  Real x(start = 0, fixed = true);
  Integer k(start = 0) "level crossed";
  Real dt, tk;
  Boolean first;
equation
  der(x) = 1;
  when x > 0.3*(pre(k) + 1) then
    k = pre(k) + 1;
  end when;
  when Clock(change(k), 0.25) then
    dt = interval();
    first = firstTick();
    tk = sample(time);
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.05));
end EventClock;
