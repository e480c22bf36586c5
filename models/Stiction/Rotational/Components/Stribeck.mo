within Stiction.Rotational.Components;
model Stribeck
  "Stribeck friction against the support: (tau_c + (tau_s - tau_c)*exp(-|w/w_s|^alpha))*law(w) + d*w"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  extends Stiction.Interfaces.PartialRegularizedSign;
  parameter SI.Torque tau_c(min=0) = 1 "Coulomb (kinetic) torque";
  parameter SI.Torque tau_s(min=0) = 1.5 "Static (break-away) torque";
  parameter SI.AngularVelocity w_s(min=1e-15) = 0.1 "Stribeck speed";
  parameter Real alpha(min=1e-3) = 2 "Shape exponent (2 Gaussian, 1 exponential)";
  parameter Real d(unit="N.m.s/rad", min=0) = 0 "Viscous coefficient";
  SI.Angle phi "Angle of the flanges relative to the support";
  SI.AngularVelocity w "Angular velocity of the flanges relative to the support";
  SI.AngularAcceleration a "Angular acceleration of the flanges relative to the support";
  SI.Torque tau "Friction torque (positive when it brakes a forward motion)";
  SI.Torque g "Stribeck magnitude at the present speed";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  // doc/friction.md, Stribeck curve (Armstrong-Helouvry 1994): the magnitude falls from the
  // static to the Coulomb level over w_s; the viscous part is linear and needs no regularization
  g = Stiction.Functions.stribeckMagnitude(tau_c, tau_s, w_s, alpha, w);
  v_law = w;
  tau = s_law*g + d*w;
end Stribeck;
