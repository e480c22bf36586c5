// A derivative annotation inside a compiled body keeps precedence over the body's own
// tangent (tests/test_func_compile.c): marked(x) = x^3 declares marked_der = 2*x*dx on purpose
// (a made-up derivative that differs from 3 x^2 dx), so d/dx wrapped(x) = 2*(2*x) + 1, not
// 2*(3 x^2) + 1, through the compiled call of marked from wrapped.
model FunctionsDerivative
  function marked
    input Real x;
    output Real y;
  algorithm
    y := x^3;
    annotation(derivative = marked_der);
  end marked;
  function marked_der
    input Real x;
    input Real dx;
    output Real dy;
  algorithm
    dy := 2*x*dx;
  end marked_der;
  function wrapped
    input Real x;
    output Real y;
  algorithm
    y := 2*marked(x) + x;
  end wrapped;
  Real y = wrapped(time);
end FunctionsDerivative;
