// External C functions with Include text, IncludeDirectory and the two call forms.
package Basic
  function square "C code in the Include annotation"
    input Real x;
    output Real y;
  external "C" y = extc_square(x) annotation(Include = "double extc_square(double x) { return x * x; }");
  end square;

  function weighted "explicit form: array with its size as int"
    input Real u[:];
    input Real w;
    output Real y;
  external "C" y = extc_weighted(u, size(u, 1), w)
    annotation(Include = "#include \"extc_sum.c\"", IncludeDirectory = "modelica://Basic/csrc");
  end weighted;

  function scale "default form: inputs, then outputs, arrays followed by their sizes"
    input Real u[3];
    input Real k;
    output Real y[3];
  external "C" extc_scale(u, size(u, 1), k, y, size(y, 1))
    annotation(Include = "#include \"extc_sum.c\"", IncludeDirectory = "modelica://Basic/csrc");
  end scale;

  function count "String argument, Integer result"
    input String s;
    output Integer n;
  external "C" n = extc_count(s)
    annotation(Include = "#include \"extc_sum.c\"", IncludeDirectory = "modelica://Basic/csrc");
  end count;

  function cube "the default form with one scalar output: the C function returns it"
    input Real x;
    output Real y;
  external "C" annotation(Include = "double cube(double x) { return x * x * x; }");
  end cube;

  model M
    Real x(start = 1, fixed = true);
    Real s, w, c;
    Real y[3] = scale({1, 2, 3}, 2);
    Integer n = count("hello");
  equation
    der(x) = -square(x);
    s = weighted({1, 2, 3}, time);
    w = cube(time);
    c = y[2] + n;
  end M;
end Basic;
