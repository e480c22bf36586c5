// Two algebraic unknowns whose linear equations contradict each other (a = b + 2 and b = a
// cannot both hold): initialization stops with the located error, no result rows.
model InconsistentLoop
  Real a, b;
  Real s(start = 1, fixed = true);
equation
  a = b + 2;
  b = a;
  der(s) = -s;
end InconsistentLoop;
