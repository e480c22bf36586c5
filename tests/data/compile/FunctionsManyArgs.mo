// A function of more arguments than the function machine once took (16): a record of
// twenty fields counts one argument per field, as Spice3's transistor functions with their
// parameter records (tests/test_func_compile.c, many_arguments_compiled). y = 210 x + 1.
model FunctionsManyArgs
  record Coefficients "twenty numbers, 1 .. 20"
    Real c1 = 1;
    Real c2 = 2;
    Real c3 = 3;
    Real c4 = 4;
    Real c5 = 5;
    Real c6 = 6;
    Real c7 = 7;
    Real c8 = 8;
    Real c9 = 9;
    Real c10 = 10;
    Real c11 = 11;
    Real c12 = 12;
    Real c13 = 13;
    Real c14 = 14;
    Real c15 = 15;
    Real c16 = 16;
    Real c17 = 17;
    Real c18 = 18;
    Real c19 = 19;
    Real c20 = 20;
  end Coefficients;

  function weighted "the sum of the coefficients times x, plus the offset"
    input Coefficients r;
    input Real x;
    input Real offset;
    output Real y;
  algorithm
    y := (r.c1 + r.c2 + r.c3 + r.c4 + r.c5 + r.c6 + r.c7 + r.c8 + r.c9 + r.c10 + r.c11 +
      r.c12 + r.c13 + r.c14 + r.c15 + r.c16 + r.c17 + r.c18 + r.c19 + r.c20)*x + offset;
  end weighted;

  parameter Coefficients k;
  Real y = weighted(k, time, 1);
end FunctionsManyArgs;
