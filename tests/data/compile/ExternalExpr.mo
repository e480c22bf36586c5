// An external call whose argument is an expression, not an input (tests/test_external.c):
// stiction binds inputs by name only, a located error at the call.
model ExternalExpr
  function sgn
    input Real v;
    input Real w;
    output Real s;
  external "C" s = stiction_friction_sign(5, v, w) annotation (Library="stiction");
  end sgn;
  Real x(start = 1, fixed = true);
equation
  der(x) = -sgn(x, 1);
end ExternalExpr;
