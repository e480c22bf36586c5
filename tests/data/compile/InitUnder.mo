// An under-determined initial system (tests/test_compile_cli.c): three states without
// fixed = true and one initial equation, which determines z from x; x and y keep their start
// values (a warning names them).
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
