model NoClock "noClock(): the value of a faster partition at the last tick of it at or before the slower one's tick"
  Integer n(start = 0), m(start = 0);
  Integer k;
equation
  when Clock(1, 10) then
    n = previous(n) + 1;
  end when;
  k = noClock(n);
  when Clock(1, 2) then
    m = k;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end NoClock;
