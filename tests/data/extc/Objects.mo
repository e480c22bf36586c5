// External objects (tests/test_extc.c): two instances of one class side by side, made once
// when the parameters are known and destroyed when the simulation ends (also after a failure).
package Objects
  class Gain
    extends ExternalObject;
    function constructor
      input Real k;
      output Gain g;
    external "C" g = extc_gain_new(k)
      annotation(Include = "#include \"extc_obj.c\"", IncludeDirectory = "modelica://Objects/csrc");
    end constructor;

    function destructor
      input Gain g;
    external "C" extc_gain_free(g)
      annotation(Include = "#include \"extc_obj.c\"", IncludeDirectory = "modelica://Objects/csrc");
    end destructor;
  end Gain;

  function apply
    input Gain g;
    input Real u;
    output Real y;
  external "C" y = extc_gain_apply(g, u)
    annotation(Include = "#include \"extc_obj.c\"", IncludeDirectory = "modelica://Objects/csrc");
  end apply;

  model Two
    parameter Real k1 = 2;
    parameter Gain g1 = Gain(k1);
    parameter Gain g2 = Gain(3);
    Real y1 = apply(g1, time);
    Real y2 = apply(g2, time);
  end Two;

  model Failing "the C code fails at t = 0.5: both objects are still destroyed"
    parameter Gain g1 = Gain(2);
    parameter Gain g2 = Gain(300);
    Real y1 = apply(g1, time);
    Real y2 = apply(g1, apply(g2, time) - 50);
  end Failing;
end Objects;
