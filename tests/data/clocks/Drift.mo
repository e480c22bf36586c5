model Drift "10^6 ticks of a 1 ms clock: the tick time sampled at each tick is k/1000 exactly"
  Integer k(start = -1) "ticks so far - 1";
  Real t "time sampled at the tick";
  Real err "t - k/1000 at the tick";
  Real worst(start = 0) "max |err| over the ticks";
equation
  k = previous(k) + 1;
  t = sample(time, Clock(1, 1000));
  err = t - k/1000;
  worst = max(previous(worst), abs(err));
  annotation(experiment(StopTime = 1000, Interval = 100));
end Drift;
