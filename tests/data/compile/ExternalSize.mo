// An array size computed while flattening by an external function stiction provides: the
// front end runs the call on the function machine (src/func), which binds the friction
// library's entry. sgn(1, 1e-6) with the law 1 is 1 (v far beyond the regularization width):
// n = 2 + 1 = 3 states, der(x[i]) = -i*x[i].
model ExternalSize
  function sgn
    input Integer law;
    input Real v;
    input Real w;
    output Real s;
  external "C" s = stiction_friction_sign(law, v, w) annotation (Library="stiction");
  end sgn;
  parameter Integer n = 2 + integer(sgn(1, 1.0, 1e-6) + 0.5);
  Real x[n](each start = 1, each fixed = true);
equation
  for i in 1:n loop
    der(x[i]) = -i * x[i];
  end for;
end ExternalSize;
