// An over-determined initial system (tests/test_compile_cli.c): y is fixed and also set by
// an initial equation; x is free and set by the other. Only y's fixed can be given up (z's
// takes no part in the initial equations).
model InitOver
  Real x(start = 1);
  Real y(start = 2, fixed = true);
  Real z(start = 3, fixed = true);
initial equation
  x = 1;
  y = 2*x;
equation
  der(x) = -x;
  der(y) = -y;
  der(z) = -z;
end InitOver;
