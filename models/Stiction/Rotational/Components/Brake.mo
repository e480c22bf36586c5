within Stiction.Rotational.Components;
model Brake
  "Brake with normal force input: torque cgeo*mu*fn times law(w) against the support (no events)"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  extends Stiction.Interfaces.PartialFrictionLaw;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  parameter SI.AngularVelocity w_small = 1e10
    "Not used (no stuck mode): the MSL machine's parameter, so that an MSL element's modifiers
     apply when stiction study substitutes this element for it";
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[w, mu] as in the MSL: friction coefficient vs |w|, interpolated linearly";
  parameter Real peak(final min=1) = 1 "Break-away level = peak times the Coulomb level";
  parameter SI.AngularVelocity w_peak(min=1e-15) = 10*eps
    "Speed over which the break-away peak decays to the Coulomb level (Gaussian)";
  parameter Real cgeo(final min=0) = 1 "Geometry constant of the pads: torque = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  SI.Angle phi "Angle of the flanges relative to the support";
  SI.AngularVelocity w "Angular velocity of the flanges relative to the support";
  SI.AngularAcceleration a "Angular acceleration of the flanges relative to the support";
  SI.Torque tau "Brake torque (positive when it brakes a forward motion)";
  SI.Force fn "Normal force (fn_max*f_normalized)";
  SI.Torque tau0 "Coulomb torque at rest at the present normal force (table at w = 0)";
  SI.Torque tau_slide "Sliding torque at the present normal force and |w| (table at |w|)";
  SI.Torque tau0_max "Break-away torque at the present normal force";
  Modelica.Blocks.Interfaces.RealInput f_normalized "Normalized normal force, nominally 0..1";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  fn = fn_max*f_normalized;
  // a negative normal force lifts the pads: no torque (noEvent: max is continuous)
  tau0 = Modelica.Math.tempInterpol1(0, mu_pos, 2)*cgeo*noEvent(max(fn, 0));
  tau_slide = Modelica.Math.tempInterpol1(noEvent(abs(w)), mu_pos, 2)*cgeo*noEvent(max(fn, 0));
  tau0_max = peak*tau0;
  v_law = w;
  // the MSL slides with cgeo*fn*M(|w|); the peak refers to M(0)
  // the Stribeck magnitude of the C library with alpha = 2: the table's sliding level plus the
  // break-away peak decaying over w_peak (stiction_friction_stribeck_g, doc/friction.md)
  g_law = Stiction.Functions.stribeckMagnitude(tau_slide, tau_slide + tau0_max - tau0, w_peak, 2, w);
  f_max = tau0_max;
  a_law = a;
  tau = f_law;
  lossPower = tau*w;
end Brake;
