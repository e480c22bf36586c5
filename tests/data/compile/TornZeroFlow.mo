model TornZeroFlow
  Real p(start = 2);
  Real m;
  Real h(start = 1);
  Real eta;
  Real W;
equation
  m = p - 2;
  eta = 0.8 + 0.01*h;
  W = m*p/eta;
  0 = m*(h - 5) + W;
  p = 3 + 0.1*m*h;
  annotation(experiment(StopTime = 1));
end TornZeroFlow;
