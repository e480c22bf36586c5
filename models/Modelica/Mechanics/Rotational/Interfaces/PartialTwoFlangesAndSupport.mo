within Modelica.Mechanics.Rotational.Interfaces;
partial model PartialTwoFlangesAndSupport
  "Component with two flanges and an optional support (support angle and torque visible inside)"
  parameter Boolean useSupport = false "true: support connector present, else grounded"
    annotation (Evaluate=true, HideResult=true);
  Flange_a flange_a "Flange of the left shaft";
  Flange_b flange_b "Flange of the right shaft";
  Support support if useSupport "Support (housing)";
protected
  Support internalSupport "Internal support: the support connector or ground";
equation
  connect(internalSupport, support);
  if not useSupport then
    internalSupport.phi = 0;
  end if;
end PartialTwoFlangesAndSupport;
