// An external function in an equation (tests/test_compile_functions.c): a located error.
model FunctionsExternal
  function g
    input Real u;
    output Real y;
    external "C" y = sin(u);
  end g;
  Real x(start = 0, fixed = true);
equation
  der(x) = g(time);
end FunctionsExternal;
