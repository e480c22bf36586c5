// An under-determined initial system (tests/test_compile_cli.c): three states without
// fixed = true and one initial equation, which determines x from z; y or z could be fixed.
model InitUnder
  Real x(start = 1);
  Real y(start = 2);
  Real z(start = 3);
initial equation
  x = 2*z;
equation
  der(x) = -x;
  der(y) = -y;
  der(z) = -z;
end InitUnder;
