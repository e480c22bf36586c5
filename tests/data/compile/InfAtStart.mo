// fails at t = 0, before the first result row (tests/test_runerrors.c)
model InfAtStart
  Real y;
equation
  y = 1/time;
end InfAtStart;
