// Located errors for the diagnostics test: an undeclared name on line 5.
model Broken
  Real x(start = 1, fixed = true);
equation
  der(x) = -k * x;
end Broken;
