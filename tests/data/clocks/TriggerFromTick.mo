model TriggerFromTick "a when-clause triggered by change(hold()) of a clocked variable fires at every tick, also the first at the start"
  Boolean y2(start = false);
  Boolean y3(start = false, fixed = true);
  Boolean trigger;
  Real u, y, count(start = 0, fixed = true);
equation
  when Clock(1, 10) then
    y2 = not previous(y2);
  end when;
  y3 = hold(y2);
  trigger = change(y3);
  u = 1 + time;
  when trigger then
    y = u;
    count = pre(count) + 1;
  end when;
initial equation
  y = 0;
  annotation(experiment(StopTime = 0.45, Interval = 0.05));
end TriggerFromTick;
