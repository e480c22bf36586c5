model EventClockReset "an event clock whose condition its own partition makes false again at the tick"
  Real x(start = 0, fixed = true);
  Boolean b "x passed the threshold";
  Real th(start = 0.25) "the next threshold, moved at each tick";
  Integer n(start = 0) "ticks of the clock";
  Integer m "n on the same clock, latched after n's partition";
  Integer ns "n on the clock shifted by one tick";
equation
  der(x) = 1;
  b = x > hold(th);
  when Clock(b) then
    th = sample(x) + 0.25;
    n = previous(n) + 1;
  end when;
  m = subSample(n, 1);
  ns = shiftSample(n, 1);
  annotation(experiment(StopTime = 1.1, Interval = 0.01));
end EventClockReset;
