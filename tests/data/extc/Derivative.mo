// Index reduction through the derivative annotation of external C functions (tests/test_extc.c
// external_derivative): p = s(time) with p a state needs der(s(time)) = ds(time, 1); s is the
// C library's sin (found through the object's libm), ds C code of the Include annotation.
model Derivative
  function s
    input Real x;
    output Real y;
  external "C" y = sin(x);
    annotation(derivative = ds);
  end s;

  function ds
    input Real x;
    input Real dx;
    output Real dy;
  external "C" dy = extc_dsin(x, dx)
    annotation(Include = "#include <math.h>\ndouble extc_dsin(double x, double dx) { return cos(x) * dx; }");
  end ds;

  Real p(start = 0, fixed = false);
  Real v;
equation
  der(p) = v;
  p = s(time);
end Derivative;
