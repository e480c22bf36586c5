model Undefined
  Real x;
equation
  x = y + 1;
end Undefined;
