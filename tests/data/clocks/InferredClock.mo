model InferredClock "Clock() takes its clock from the sample it is used with"
  Integer n(start = 0);
  Real y;
  Real x = time;
equation
  when Clock() then
    n = previous(n) + 1;
  end when;
  y = sample(x, Clock(1, 4)) + 0*n;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end InferredClock;
