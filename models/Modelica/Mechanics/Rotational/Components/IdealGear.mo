within Modelica.Mechanics.Rotational.Components;
model IdealGear "Ideal gear without inertia, elasticity or losses"
  extends Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real ratio(start=1) "Transmission ratio (flange_a.phi/flange_b.phi)";
  SI.Angle phi_a "Angle of flange_a relative to the support";
  SI.Angle phi_b "Angle of flange_b relative to the support";
equation
  phi_a = flange_a.phi - phi_support;
  phi_b = flange_b.phi - phi_support;
  phi_a = ratio*phi_b;
  0 = ratio*flange_a.tau + flange_b.tau;
end IdealGear;
