within Stiction.Rotational.Components;
model Clutch
  "Clutch with normal force input: torque cgeo*mu*fn times law(w_rel) between the flanges (no events)"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialCompliantWithRelativeStates;
  extends Stiction.Interfaces.PartialFrictionLaw;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  parameter SI.AngularVelocity w_small = 1e10
    "Not used (no stuck mode): the MSL machine's parameter, so that an MSL element's modifiers
     apply when stiction study substitutes this element for it";
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[w, mu] as in the MSL: friction coefficient vs |w_rel|, interpolated linearly";
  parameter Real peak(final min=1) = 1 "Break-away level = peak times the Coulomb level";
  parameter SI.AngularVelocity w_peak(min=1e-15) = 10*eps
    "Speed over which the break-away peak decays to the Coulomb level (Gaussian)";
  parameter Real cgeo(final min=0) = 1 "Geometry constant of the plates: torque = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  SI.Force fn "Normal force (fn_max*f_normalized)";
  SI.Torque tau0 "Coulomb torque at rest at the present normal force (table at w_rel = 0)";
  SI.Torque tau_slide "Sliding torque at the present normal force and |w_rel| (table at |w_rel|)";
  SI.Torque tau0_max "Break-away torque at the present normal force";
  Modelica.Blocks.Interfaces.RealInput f_normalized "Normalized normal force, nominally 0..1";
equation
  fn = fn_max*f_normalized;
  tau0 = Modelica.Math.tempInterpol1(0, mu_pos, 2)*cgeo*noEvent(max(fn, 0));
  tau_slide = Modelica.Math.tempInterpol1(noEvent(abs(w_rel)), mu_pos, 2)*cgeo*noEvent(max(fn, 0));
  tau0_max = peak*tau0;
  v_law = w_rel;
  // tau = flange_b.tau acts like a damper torque: it opposes the relative speed w_rel; the
  // MSL slides with cgeo*fn*M(|w_rel|) (without its startBackward quirk)
  g_law = Stiction.Functions.stribeckMagnitude(tau_slide, tau_slide + tau0_max - tau0, w_peak, 2, w_rel);
  f_max = tau0_max;
  a_law = a_rel;
  tau = f_law;
  lossPower = tau*w_rel;
end Clutch;
