within Modelica.Mechanics.Rotational.Components;
model BearingFriction
  "Coulomb friction in a bearing (w.r.t. the support), with break-away peak and stuck/slip events"
  extends Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real tau_pos[:, 2] = [0, 1]
    "[w, tau]: friction torque tau (N.m) over speed w >= 0 (rad/s)";
  parameter Real peak(final min=1) = 1 "Break-away torque = peak*tau_pos[1, 2]";
  extends Rotational.Interfaces.PartialFriction;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  SI.Angle phi "Angle of the flanges relative to the support";
  SI.Torque tau "Friction torque (positive when it brakes a forward motion)";
  SI.AngularVelocity w "Angular velocity of the flanges relative to the support";
  SI.AngularAcceleration a "Angular acceleration of the flanges relative to the support";
equation
  // kinematics: both flanges rigidly together, measured against the support
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  w_relfric = w;
  a_relfric = a;

  // the friction torque is the sum of the flange cut torques
  flange_a.tau + flange_b.tau - tau = 0;

  // data of the friction state machine
  tau0 = Modelica.Math.tempInterpol1(0, tau_pos, 2);
  tau0_max = peak*tau0;
  free = false;

  // locked: the constraint torque; sliding: the characteristic, odd-symmetric in w
  tau = if locked then sa*unitTorque
    else if startForward then Modelica.Math.tempInterpol1(w, tau_pos, 2)
    else if startBackward then -Modelica.Math.tempInterpol1(-w, tau_pos, 2)
    else if pre(mode) == Forward then Modelica.Math.tempInterpol1(w, tau_pos, 2)
    else -Modelica.Math.tempInterpol1(-w, tau_pos, 2);
  lossPower = tau*w_relfric;
end BearingFriction;
