model SizeMismatch
  Real x[2];
equation
  x = {1, 2, 3};
end SizeMismatch;
