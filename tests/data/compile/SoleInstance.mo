// Run-time parts of every kind: a relation with an event (x crosses 0.5), a linear loop
// of y and z whose factors are cached between events, a nonlinear w that keeps seeds.
model SoleInstance
  Real x(start = 1, fixed = true);
  Real y, z, w;
equation
  der(x) = -y + (if x > 0.5 then 0 else -0.1);
  y + 2 * z = x;
  3 * y - z = 1;
  w ^ 3 + w = x;
end SoleInstance;
