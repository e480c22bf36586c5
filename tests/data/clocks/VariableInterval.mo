model VariableInterval "clocks of variable interval (Modelica 3.6 section 16.3's examples)"
  Integer nextInterval(start = 2) "Clock(nextInterval, 1000): ticks at 0, 3, 7, 12, 18, ... ms";
  Integer n(start = 0);
  Real dt "interval() of that clock";
  Real interval1(start = 2e-3) "Clock(interval1): ticks at 0, 2, 7, 15, 26, 40 ms";
  Integer m(start = 0);
equation
  when Clock(nextInterval, 1000) then
    nextInterval = previous(nextInterval) + 1;
    n = previous(n) + 1;
    dt = interval();
  end when;
  when Clock(interval1) then
    interval1 = previous(interval1) + 3e-3;
    m = previous(m) + 1;
  end when;
  annotation(experiment(StopTime = 0.045, Interval = 0.001));
end VariableInterval;
