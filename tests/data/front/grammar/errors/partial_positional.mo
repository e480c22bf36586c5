// expect: 3:33: a function partial application takes named arguments only
model PA
  Real y = integrate(function f(1), 0, 1);
end PA;
