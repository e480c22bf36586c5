within Modelica.Mechanics.Rotational.Interfaces;
partial model PartialElementaryOneFlangeAndSupport2
  "One flange and an optional support; without support the housing is grounded (phi_support = 0)"
  parameter Boolean useSupport = false "true: support connector present, else grounded"
    annotation (Evaluate=true, HideResult=true);
  Flange_b flange "Flange of the shaft";
  Support support(phi=phi_support, tau=-flange.tau) if useSupport
    "Support (housing); it takes the reaction torque";
protected
  SI.Angle phi_support "Absolute angle of the support";
equation
  if not useSupport then
    phi_support = 0;
  end if;
end PartialElementaryOneFlangeAndSupport2;
