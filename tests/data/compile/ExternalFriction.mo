// External functions stiction provides (tests/test_external.c). sgn declares its inputs in
// another order than the C arguments: they are bound by name. Closed forms:
// der(x) = -tanh(x), x(0) = 1: sinh(x) = sinh(1)*exp(-t);
// der(y) = g(time) = 1 + exp(-time) (Stribeck Fc = 1, Fs = 2, vs = 1, alpha = 1): y = t + 1 - exp(-t).
model ExternalFriction
  function sgn "Regularized sign, inputs in another order"
    input Real w;
    input Real v;
    input Integer law;
    output Real s;
  external "C" s = stiction_friction_sign(law, v, w) annotation (Library="stiction");
  end sgn;
  function twiceSgn "A Modelica function whose body calls the external one"
    input Real v;
    output Real f;
  protected
    Real s;
  algorithm
    s := sgn(5, v, 6); // law 6: (2/pi) atan(v/w)
    f := 2 * s;
  end twiceSgn;
  Real x(start = 1, fixed = true);
  Real y(start = 0, fixed = true);
  Real f = twiceSgn(x) "an external call inside a function body: 2 (2/pi) atan(x/5)";
equation
  der(x) = -sgn(1, x, 5);
  der(y) = Stiction.Functions.stribeckMagnitude(1, 2, 1, 1, time);
end ExternalFriction;
