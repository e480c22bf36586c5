within Modelica.Mechanics.Rotational.Components;
model Clutch
  "Clutch with normal force input: Coulomb friction between two flanges, stuck/slip events"
  extends Rotational.Interfaces.PartialCompliantWithRelativeStates;
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[w, mu]: friction coefficient mu over relative speed w >= 0 (rad/s)";
  parameter Real peak(final min=1) = 1 "Break-away coefficient = peak*mu_pos[1, 2]";
  parameter Real cgeo(final min=0) = 1
    "Geometry constant of the plates: friction torque = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  extends Rotational.Interfaces.PartialFriction;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  Real mu0 "Friction coefficient at w = 0 (forward sliding)";
  SI.Force fn "Normal force (fn = fn_max*f_normalized)";
  Modelica.Blocks.Interfaces.RealInput f_normalized
    "Normalized normal force, nominally 0..1 (not limited)";
equation
  mu0 = Modelica.Math.tempInterpol1(0, mu_pos, 2);
  w_relfric = w_rel;
  a_relfric = a_rel;

  // the clutch is open (free) when the normal force is not positive
  fn = fn_max*f_normalized;
  free = fn <= 0;
  tau0 = mu0*cgeo*fn;
  tau0_max = peak*tau0;

  // Note: the startBackward branch evaluates the table at +w_rel, not -w_rel (a quirk of the
  // MSL kept on purpose; identical for one-row tables).
  tau = if locked then sa*unitTorque
    else if free then 0
    else cgeo*fn*(if startForward then Modelica.Math.tempInterpol1(w_rel, mu_pos, 2)
      else if startBackward then -Modelica.Math.tempInterpol1(w_rel, mu_pos, 2)
      else if pre(mode) == Forward then Modelica.Math.tempInterpol1(w_rel, mu_pos, 2)
      else -Modelica.Math.tempInterpol1(-w_rel, mu_pos, 2));
  lossPower = tau*w_relfric;
end Clutch;
