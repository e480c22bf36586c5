// Functions declared external "builtin" (Modelica 3.6 section 12.9) are stiction's built-in
// math: called from equations, from another function's body, with named arguments and with
// the default external call (same name, inputs in order). Closed forms in test_lang_func.c.
package ExternalBuiltin
  package M
    function sine
      input Real u;
      output Real y;
    external "builtin" y = sin(u);
    end sine;

    function arcTan2
      input Real u1;
      input Real u2 = 1;
      output Real y;
    external "builtin" y = atan2(u1, u2);
    end arcTan2;

    function exp
      input Real u;
      output Real y;
    external "builtin";
    end exp;

    function twiceSine
      input Real u;
      output Real y;
    algorithm
      y := 2 * sine(u);
    end twiceSine;
  end M;

  model Test
    Real x(start = 1, fixed = true);
    Real s = M.sine(time);
    Real a = M.arcTan2(u2 = 2, u1 = time);
    Real a1 = M.arcTan2(time);
    Real w = M.twiceSine(time);
  equation
    der(x) = -M.exp(0) * x;
  end Test;
end ExternalBuiltin;
