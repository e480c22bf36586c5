// der(1) = 1 has no unknown at all (a mutant of tests/data/compile/DiscreteCycle.mo).
model DerOfConstant
  Real x(start = 0, fixed = true);
  Boolean b1, b2;
equation
  der(1) = 1;
  b1 = not b2;
  b2 = b1 and x > -1;
end DerOfConstant;
