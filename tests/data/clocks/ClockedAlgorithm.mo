model ClockedAlgorithm "an algorithm section on Clock(1, 10): a counter and a running sum of the sampled input"
  Real u = sample(time, Clock(1, 10));
  Integer n(start = 0);
  Real s(start = 0) "sum of the sampled u";
  Real m "mean so far";
  Real y "m held";
algorithm
  n := previous(n) + 1;
  s := previous(s) + u;
  m := s/n;
  if m > 0.2 then
    m := 0.2;
  end if;
equation
  y = hold(m);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end ClockedAlgorithm;
