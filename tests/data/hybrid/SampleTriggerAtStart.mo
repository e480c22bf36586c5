// A discrete variable given by sample(), as the MSL's DiscreteBlock declares sampleTrigger,
// and an algorithm `when sampleTrigger`: it fires at t = 0 right after initialization, as
// `when sample(0, T)` does, so the first period uses u(0), not the start values.
model SampleTriggerAtStart
  parameter Real samplePeriod = 0.01;
  Boolean sampleTrigger;
  discrete Real held(start = -1, fixed = true);
  discrete Real T0(start = -1, fixed = true);
  Real u = 2 + time;
equation
  sampleTrigger = sample(0, samplePeriod);
algorithm
  when sampleTrigger then
    held := u;
    T0 := time;
  end when;
  annotation(experiment(StopTime = 0.03, Interval = 0.005));
end SampleTriggerAtStart;
