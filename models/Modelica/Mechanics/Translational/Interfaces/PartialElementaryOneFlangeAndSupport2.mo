within Modelica.Mechanics.Translational.Interfaces;
partial model PartialElementaryOneFlangeAndSupport2
  "One flange and an optional support; without support the housing is grounded (s_support = 0)"
  parameter Boolean useSupport = false "true: support connector present, else grounded"
    annotation (Evaluate=true, HideResult=true);
  Flange_b flange "Flange of the component";
  Support support(s=s_support, f=-flange.f) if useSupport
    "Support (housing); it takes the reaction force";
protected
  SI.Position s_support "Absolute position of the support";
equation
  if not useSupport then
    s_support = 0;
  end if;
end PartialElementaryOneFlangeAndSupport2;
