// The same structure as InitFixedConflict.mo with a start the equations agree with
// (tests/test_compile_cli.c): redundant but consistent, so it simulates.
model InitFixedConsistent
  Real phi;
  Real w(start = 0, fixed = true);
equation
  phi = 0;
  w = der(phi);
end InitFixedConsistent;
