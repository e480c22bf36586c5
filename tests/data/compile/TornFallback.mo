model TornFallback
  "A loop torn at x (it occurs in the most equations): from x = 1 the sequence divides by z = x - 1 = 0, so the torn Newton fails at its first iterate; the Newton over all unknowns starts from z = 1 and solves it"
  Real x(start = 1), z(start = 1), w, v;
  Real y(start = 0, fixed = true);
equation
  z = x - 1;
  w = 1/z;
  x = 2 + 0.1*w + 0.01*v;
  v = x^2;
  der(y) = w - y;
  annotation(experiment(StopTime = 1));
end TornFallback;
