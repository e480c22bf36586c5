model Singular
  Real y;
  Real z;
equation
  y = 1;
  2*y = 2;
end Singular;
