// Stiction.Functions.lugreForce called with a state (tests/test_external.c binds the call and
// checks its tangents).
model ExternalLuGre
  Real z(start = 0, fixed = true);
  Real f;
equation
  der(z) = 0.002 - 100*z;
  f = Stiction.Functions.lugreForce(1e5, 316, 0.4, 1, 1.5, 0.001, 2, z, 0.002);
end ExternalLuGre;
