model IndexReducedRK "IndexReduced.mo on ExplicitRungeKutta4: not supported with index reduction"
  parameter Real tau = 0.5;
  Real u "the sampled reference";
  Real f(start = 0.2) "filter state";
  Real c(start = 0.2) "the inverse model's state";
  Real v "the input the inverse model computes";
  Real y "v held";
equation
  u = sample(1 + time, Clock(Clock(1, 10), solverMethod = "ExplicitRungeKutta4"));
  der(f) = (u - f)/tau;
  c = f;
  der(c) = -c + v;
  y = hold(v);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end IndexReducedRK;
