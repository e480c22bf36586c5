// u is an alias of der(y) after alias elimination; the algorithm section reads it in the
// middle of a pass, so it must see this pass's value: z = 2 (1 + t) at every row, and the
// assert holds at the start (u = 1, not a stale 0).
model AlgorithmReadsAlias
  Real u;
  Real y(start = 0, fixed = true);
  Real z;
algorithm
  assert(u > 0, "u must be positive");
  z := 2 * u;
equation
  u = 1 + time;
  der(y) = u;
end AlgorithmReadsAlias;
