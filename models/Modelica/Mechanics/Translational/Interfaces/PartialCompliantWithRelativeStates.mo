within Modelica.Mechanics.Translational.Interfaces;
partial model PartialCompliantWithRelativeStates
  "Compliant connection whose relative distance and speed are the preferred states"
  extends PartialTwoFlanges;
  parameter StateSelect stateSelect = StateSelect.prefer "Priority of s_rel and v_rel as states";
  parameter SI.Distance s_nominal = 1e-4 "Nominal value of s_rel (for error control)";
  SI.Position s_rel(start=0, stateSelect=stateSelect, nominal=s_nominal)
    "Relative distance (= flange_b.s - flange_a.s)";
  SI.Velocity v_rel(start=0, stateSelect=stateSelect) "Relative velocity (= der(s_rel))";
  SI.Acceleration a_rel(start=0) "Relative acceleration (= der(v_rel))";
  SI.Force f "Force between the flanges (positive in tension; = flange_b.f)";
equation
  s_rel = flange_b.s - flange_a.s;
  v_rel = der(s_rel);
  a_rel = der(v_rel);
  flange_b.f = f;
  flange_a.f = -f;
end PartialCompliantWithRelativeStates;
