within Stiction.Rotational.Components;
model Clutch
  "Clutch with normal force input: torque cgeo*mu*fn times law(w_rel) between the flanges (no events)"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialCompliantWithRelativeStates;
  extends Stiction.Interfaces.PartialRegularizedSign;
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[w, mu] as in the MSL; only mu_pos[1, 2], the Coulomb coefficient, is used";
  parameter Real peak(final min=1) = 1 "Break-away level = peak times the Coulomb level";
  parameter SI.AngularVelocity w_peak(min=1e-15) = 10*eps
    "Speed over which the break-away peak decays to the Coulomb level (Gaussian)";
  parameter Real cgeo(final min=0) = 1 "Geometry constant of the plates: torque = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  SI.Force fn "Normal force (fn_max*f_normalized)";
  SI.Torque tau0 "Coulomb torque at the present normal force";
  SI.Torque tau0_max "Break-away torque at the present normal force";
  SI.Power lossPower "Power dissipated by the clutch (>= 0)";
  Modelica.Blocks.Interfaces.RealInput f_normalized "Normalized normal force, nominally 0..1";
equation
  fn = fn_max*f_normalized;
  tau0 = mu_pos[1, 2]*cgeo*noEvent(max(fn, 0));
  tau0_max = peak*tau0;
  v_law = w_rel;
  // tau = flange_b.tau acts like a damper torque: it opposes the relative speed w_rel
  tau = s_law*(tau0 + (tau0_max - tau0)*exp(-(w_rel/w_peak)^2));
  lossPower = tau*w_rel;
end Clutch;
