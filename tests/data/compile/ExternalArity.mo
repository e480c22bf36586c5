// A stiction external function declared with the wrong number of arguments
// (tests/test_external.c): a located error at the call.
model ExternalArity
  function sgn
    input Real v;
    input Real w;
    output Real s;
  external "C" s = stiction_friction_sign(v, w) annotation (Library="stiction");
  end sgn;
  Real x(start = 1, fixed = true);
equation
  der(x) = -sgn(x, 1);
end ExternalArity;
