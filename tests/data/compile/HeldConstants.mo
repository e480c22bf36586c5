// Values that are constant between events although their equations are not: f reads time
// only through a relation (held between events), g = 2 f, and h = c f with c a function of
// the discrete `late` alone (a block evaluated in event passes only). Between events all
// three fold to constants (specialize.c) and the 2x2 linear loop for a, b reads g.
// Closed form: der(x) = g + h = 2 + 7 = 9 before t = 0.5, 6 + 15 = 21 after;
// x = 9 t, then 4.5 + 21 (t - 0.5); a = (g t + x)/2, b = (g t - x)/2
// (tests/test_specialize.c held_constants).
model HeldConstants
  Real x(start = 0, fixed = true);
  Real f;
  Real g;
  Real c;
  Real h;
  Real a;
  Real b;
  Boolean late;
equation
  late = time >= 0.5;
  f = if time >= 0.5 then 3 else 1;
  g = 2*f;
  c = if late then 5 else 7;
  h = c*f;
  der(x) = g + h;
  a + b = g*time;
  a - b = x;
  annotation(experiment(StopTime = 1, Interval = 0.125));
end HeldConstants;
