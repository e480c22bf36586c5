within Modelica.Mechanics.Rotational.Interfaces;
partial model PartialTorque "Base of torque sources: flange angle relative to the support"
  extends PartialElementaryOneFlangeAndSupport2;
  SI.Angle phi "Angle of the flange relative to the support (= flange.phi - support.phi)";
equation
  phi = flange.phi - phi_support;
end PartialTorque;
