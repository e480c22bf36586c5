within Stiction.Rotational.Components;
model BearingFriction
  "Bearing friction against the support: Coulomb torque with a break-away peak, times law(w) (no events)"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  extends Stiction.Interfaces.PartialFrictionLaw;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  parameter SI.AngularVelocity w_small = 1e10
    "Not used (no stuck mode): the MSL machine's parameter, so that an MSL element's modifiers
     apply when stiction study substitutes this element for it";
  parameter Real tau_pos[:, 2] = [0, 1]
    "[w, tau] as in the MSL: sliding torque (N.m) vs |w|, interpolated linearly";
  parameter Real peak(final min=1) = 1 "Break-away level = peak times the Coulomb level";
  parameter SI.AngularVelocity w_peak(min=1e-15) = 10*eps
    "Speed over which the break-away peak decays to the Coulomb level (Gaussian)";
  SI.Angle phi "Angle of the flanges relative to the support";
  SI.AngularVelocity w "Angular velocity of the flanges relative to the support";
  SI.AngularAcceleration a "Angular acceleration of the flanges relative to the support";
  SI.Torque tau "Friction torque (positive when it brakes a forward motion)";
  SI.Torque tau0 "Coulomb friction torque at rest (table at w = 0)";
  SI.Torque tau_slide "Sliding torque of the table at |w|";
  SI.Torque tau0_max "Break-away friction torque";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  tau0 = Modelica.Math.tempInterpol1(0, tau_pos, 2);
  tau_slide = Modelica.Math.tempInterpol1(noEvent(abs(w)), tau_pos, 2);
  tau0_max = peak*tau0;
  v_law = w;
  // regularized set-valued law: magnitude tau0 .. tau0_max near w = 0, sign smoothed by law
  // the Stribeck magnitude of the C library with alpha = 2: the table's sliding level plus the
  // break-away peak decaying over w_peak (stiction_friction_stribeck_g, doc/friction.md)
  g_law = Stiction.Functions.stribeckMagnitude(tau_slide, tau_slide + tau0_max - tau0, w_peak, 2, w);
  f_max = tau0_max;
  a_law = a;
  tau = f_law;
  lossPower = tau*w;
end BearingFriction;
