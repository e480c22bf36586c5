// A speed w whose initial equations hold at its start value 0, solved in one system with
// currents that move: the LU of the initial Newton leaves rounding noise in w (-4e-16),
// which must not decide the relation w < 0 at initialization (a friction at rest starting
// to slide).
model InitialRoundingNoise
  Real w(start = 0);
  Real i(start = 0);
  Real v(start = 0);
  Integer dir;
equation
  der(w) = 0;
  der(i) = 0;
  der(v) = 0;
  dir = if w < 0 then -1 elseif w > 0 then 1 else 0;
initial equation
  1e3 * w + 370 * i - 370 * v = 0;
  300 * i + 700 * w = 100;
  900 * v - 300 * w = 300;
end InitialRoundingNoise;
