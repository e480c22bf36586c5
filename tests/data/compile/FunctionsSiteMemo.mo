// Each call site of a pure function keeps its last arguments and value (func_calls.c
// last_hit): two sites of cubic() with different arguments do not evict each other, a zero
// tangent does not run the body again, and the impure counted() always runs, as does a site
// returning the String output of labelled() (tests/test_func_compile.c site_memo). A small nonlinear loop through both sites.
model FunctionsSiteMemo
  function cubic
    input Real x;
    input Real c;
    output Real y;
  algorithm
    y := x^3 + c*x;
  end cubic;
  impure function counted
    input Real x;
    output Real y;
  algorithm
    y := 2*x;
  end counted;
  function labelled "a Real and a String output"
    input Real x;
    output Real y;
    output String s;
  algorithm
    y := 3*x;
    s := "three times";
  end labelled;
  Real a(start = 1), b(start = 1), c, d;
equation
  cubic(a, 1) + b = 3 + time;
  cubic(b, 2) - a = 1;
  c = counted(a);
  d = labelled(b);
end FunctionsSiteMemo;
