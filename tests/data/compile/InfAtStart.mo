// fails at t = 0, before the first result row (tests/test_runerrors.c)
model InfAtStart
  parameter Real d = 0;
  Real y;
equation
  y = 1/d;
end InfAtStart;
