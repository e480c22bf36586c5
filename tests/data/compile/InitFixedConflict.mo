// A fixed start the other equations contradict (tests/test_compile_cli.c): phi is held at 0,
// so w = der(phi) = 0 and w(start = 2, fixed = true) cannot hold: an over-determined,
// inconsistent initial system, reported at w.
model InitFixedConflict
  Real phi;
  Real w(start = 2, fixed = true);
equation
  phi = 0;
  w = der(phi);
end InitFixedConflict;
