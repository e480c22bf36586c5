model ActiveAfterInitial
  "The relations active after initialization are those read with initial() false"
  Real g "1 while sin(20 t) > 0.5, after initialization";
  Real h "behind initial(): never read after initialization";
  Real y(start = 0, fixed = true);
  Real z(start = 0, fixed = true);
equation
  g = if not initial() and sin(20*time) > 0.5 then 1 else 0;
  h = if initial() and cos(20*time) > 0.5 then 1 else 0;
  der(y) = g;
  der(z) = h;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ActiveAfterInitial;
