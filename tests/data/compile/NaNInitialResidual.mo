model NaNInitialResidual
  // At the start values the first residual is NaN (sqrt of -1) and the second is zero: the
  // initial Newton must not read the pair as converged.
  Real x(start = -1);
  Real y(start = 0);
initial equation
  sqrt(x) + y = 1;
  x + y*y*y = 0.5*y + x;
equation
  der(x) = 0;
  der(y) = 0;
end NaNInitialResidual;
