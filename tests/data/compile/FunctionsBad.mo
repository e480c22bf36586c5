// A function whose assert fails from t = 0.5 on (tests/test_compile_functions.c): the call
// gives NaN and the run stops there with an error instead of integrating through it.
model FunctionsBad
  function f
    input Real u;
    input Real t[:];
    output Real y;
  algorithm
    assert(u < 0.5, "u too large");
    y := t[1] + u;
  end f;
  Real x(start = 0, fixed = true);
equation
  der(x) = f(time, {1, 2});
end FunctionsBad;
