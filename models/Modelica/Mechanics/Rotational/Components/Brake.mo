within Modelica.Mechanics.Rotational.Components;
model Brake
  "Brake with normal force input: Coulomb friction against the support, stuck/slip events"
  extends Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[w, mu]: friction coefficient mu over speed w >= 0 (rad/s)";
  parameter Real peak(final min=1) = 1 "Break-away coefficient = peak*mu_pos[1, 2]";
  parameter Real cgeo(final min=0) = 1
    "Geometry constant of the pads: friction torque = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  extends Rotational.Interfaces.PartialFriction;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  SI.Angle phi "Angle of the flanges relative to the support";
  SI.Torque tau "Brake torque (positive when it brakes a forward motion)";
  SI.AngularVelocity w "Angular velocity of the flanges relative to the support";
  SI.AngularAcceleration a "Angular acceleration of the flanges relative to the support";
  Real mu0 "Friction coefficient at w = 0 (forward sliding)";
  SI.Force fn "Normal force (fn = fn_max*f_normalized)";
  Modelica.Blocks.Interfaces.RealInput f_normalized
    "Normalized normal force, nominally 0..1 (not limited)";
equation
  mu0 = Modelica.Math.tempInterpol1(0, mu_pos, 2);
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  w_relfric = w;
  a_relfric = a;
  flange_a.tau + flange_b.tau - tau = 0;

  fn = fn_max*f_normalized;
  free = fn <= 0;
  tau0 = mu0*cgeo*fn;
  tau0_max = peak*tau0;

  tau = if locked then sa*unitTorque
    else if free then 0
    else cgeo*fn*(if startForward then Modelica.Math.tempInterpol1(w, mu_pos, 2)
      else if startBackward then -Modelica.Math.tempInterpol1(-w, mu_pos, 2)
      else if pre(mode) == Forward then Modelica.Math.tempInterpol1(w, mu_pos, 2)
      else -Modelica.Math.tempInterpol1(-w, mu_pos, 2));
  lossPower = tau*w_relfric;
end Brake;
