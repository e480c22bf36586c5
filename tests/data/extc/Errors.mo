// External C code that fails (tests/test_extc.c): each a located error, never a crash.
package Errors
  function checked "reports an error through ModelicaFormatError above x = 1.5"
    input Real x;
    output Real y;
  external "C" y = extc_checked(x)
    annotation(Include = "#include \"extc_sum.c\"", IncludeDirectory = "modelica://Errors/csrc");
  end checked;

  model CError "the error at t = 0.5: rows up to it are kept"
    Real y = checked(1 + time);
  end CError;

  function broken
    input Real x;
    output Real y;
  external "C" y = extc_broken(x) annotation(Include = "double extc_broken(double x) { return x +; }");
  end broken;

  model CompileError
    Real y = broken(time);
  end CompileError;

  function missing
    input Real x;
    output Real y;
  external "C" y = extc_missing(x) annotation(Include = "double extc_other(double x) { return x; }");
  end missing;

  model MissingSymbol
    Real y = missing(time);
  end MissingSymbol;

  model UnusedParameter "a parameter nothing reads whose C call fails: an error, not a NaN"
    parameter Real p = checked(2);
    Real x = time;
  end UnusedParameter;
end Errors;
