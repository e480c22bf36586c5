// A mixed system whose real part is nonlinear and cannot be evaluated at the default start
// h = 0 (sqrt of a negative number): torn at m, which has a start value, h and d are computed
// from it and the Newton over m alone converges. Consistent: on = true, d^2 = 50 + 0.1 d.
model TornMixed
  Boolean on(start = false);
  Real m(start = 0);
  Real h, d;
equation
  h = 100 + m;
  d = sqrt(h - 50);
  m = if on then 0.1*d else 0.2*d - 1;
  on = d > 5;
  annotation(experiment(StopTime = 1));
end TornMixed;
