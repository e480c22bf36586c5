// A user's library with C code beside it (tests/test_extc.c): the Library "extcuser" ships only
// as sources in Resources/C-Sources, its header in Resources/Include (the default
// IncludeDirectory), and a Library the test builds as an archive in Resources/Library.
package UserLib
  function poly "a x^2 + b x + c with the coefficients in an array"
    input Real coef[3];
    input Real x;
    output Real y;
  external "C" y = extcuser_poly(coef, x) annotation(Library = "extcuser", Include = "#include \"extcuser.h\"");
  end poly;

  function minmax "two outputs through pointers, Integer array input"
    input Integer k[:];
    output Integer lo;
    output Integer hi;
  external "C" extcuser_minmax(k, size(k, 1), lo, hi) annotation(Library = "extcuser", Include = "#include \"extcuser.h\"");
  end minmax;

  model Model
    Real y = poly({1, 2, 3}, time);
    Integer lo, hi;
  equation
    (lo, hi) = minmax({4, -2, 9, 1});
  end Model;
end UserLib;
