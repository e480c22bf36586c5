model EventClockAtStart "an event clock whose condition is true at the start ticks there (edge, pre = false)"
  Real x(start = 0, fixed = true);
  Integer n(start = 0) "ticks of Clock(x < 0.5 or x > 1): at 0 and at 1";
  Integer m(start = 0) "ticks of Clock(x > 0.25 and x < 1.5): at 0.25 only";
equation
  der(x) = 1;
  when Clock(x < 0.5 or x > 1) then
    n = previous(n) + 1;
  end when;
  when Clock(x > 0.25 and x < 1.5) then
    m = previous(m) + 1;
  end when;
  annotation(experiment(StopTime = 2, Interval = 0.1));
end EventClockAtStart;
