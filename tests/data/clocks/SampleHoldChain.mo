model SampleHoldChain "sample(hold()) chains across three periodic partitions, all in bindings"
  Real u = sample(time, Clock(1, 10));
  Real v = sample(hold(u) + 1, Clock(1, 4));
  Real w = sample(2*hold(v), Clock(1, 3));
  Real x = hold(w);
  annotation(experiment(StopTime = 1, Interval = 0.01));
end SampleHoldChain;
