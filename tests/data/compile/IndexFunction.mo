// Index reduction through a user function (tests/test_lang.c): x2 = dbl(x1) ties two
// integrators together (index 2); Pantelides differentiates the constraint through the
// inlined body 2*x1 (through smooth(), whose derivative is that of its expression), which
// gives u = 2 x1, so x1 = exp(t), x2 = u = 2 exp(t).
model IndexFunction
  function dbl "k*u through a protected variable, k = 2 by default"
    input Real u;
    input Real k = 2;
    output Real y;
  protected
    Real h;
  algorithm
    h := k*u;
    y := smooth(1, h);
  end dbl;
  Real x1(start = 1, fixed = true);
  Real x2;
  Real u;
equation
  der(x1) = -x1 + u;
  der(x2) = u;
  x2 = dbl(x1);
  annotation(experiment(StopTime = 1, Interval = 0.25));
end IndexFunction;
