within Modelica.Mechanics.Translational.Interfaces;
partial model PartialElementaryTwoFlangesAndSupport2
  "Two flanges and an optional support; without support the housing is grounded (s_support = 0)"
  parameter Boolean useSupport = false "true: support connector present, else grounded"
    annotation (Evaluate=true, HideResult=true);
  Flange_a flange_a "Left flange";
  Flange_b flange_b "Right flange";
  Support support(s=s_support, f=-flange_a.f - flange_b.f) if useSupport
    "Support (housing); it takes the reaction force";
protected
  SI.Position s_a = flange_a.s - s_support "Position of flange_a relative to the support";
  SI.Position s_b = flange_b.s - s_support "Position of flange_b relative to the support";
  SI.Position s_support "Absolute position of the support";
equation
  if not useSupport then
    s_support = 0;
  end if;
end PartialElementaryTwoFlangesAndSupport2;
