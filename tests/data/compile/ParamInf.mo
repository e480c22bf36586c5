// a parameter that evaluates to +Inf is named at its declaration (tests/test_runerrors.c)
model ParamInf
  parameter Real d = 0;
  parameter Real p = 1/d;
  Real y;
equation
  y = p*time;
end ParamInf;
