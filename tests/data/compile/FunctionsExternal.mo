// An external C function that no code defines (tests/test_compile_functions.c, test_external.c):
// a located error naming the missing C function.
model FunctionsExternal
  function g
    input Real u;
    output Real y;
    external "C" y = extc_undefined_function(u);
  end g;
  Real x(start = 0, fixed = true);
equation
  der(x) = g(time);
end FunctionsExternal;
