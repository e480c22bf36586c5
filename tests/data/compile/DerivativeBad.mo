// A derivative function with the wrong number of inputs is refused at the annotation
// (tests/test_lang.c).
model DerivativeBad
  function h
    input Real u;
    output Real y;
  algorithm
    y := u*u;
    annotation(derivative = h_der);
  end h;
  function h_der
    input Real u;
    output Real dy;
  algorithm
    dy := 2*u;
  end h_der;
  Real x(start = 1, fixed = true);
equation
  der(x) = -h(x);
end DerivativeBad;
