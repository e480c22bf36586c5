within Modelica.Mechanics.Rotational.Components;
model LossyGear
  "Gear with mesh efficiency and bearing friction; may lock at zero speed (own stuck/slip machine)"
  extends Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real ratio(start=1) "Transmission ratio (flange_a.phi/flange_b.phi)";
  parameter Real lossTable[:, 5] = [0, 1, 1, 0, 0]
    "Columns [|w_a|, eta_mf1, eta_mf2, |tau_bf1|, |tau_bf2|]: mesh efficiencies (flange_a
     driving / driven) and bearing friction torques over the speed of flange_a";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  SI.Angle phi_a "Angle of flange_a relative to the support";
  SI.Angle phi_b "Angle of flange_b relative to the support";
  Real sa(final unit="1")
    "Path parameter: the loss torque when locked, an acceleration offset otherwise";
  SI.AngularVelocity w_a "Angular velocity of flange_a relative to the support";
  SI.AngularAcceleration a_a "Angular acceleration of flange_a relative to the support";
  Real eta_mf1 "Mesh efficiency when flange_a drives";
  Real eta_mf2 "Mesh efficiency when flange_b drives";
  SI.Torque tau_bf1 "Bearing friction torque for positive power flow";
  SI.Torque tau_bf2 "Bearing friction torque for negative power flow";
  SI.Torque tau_bf_a "Bearing friction referred to flange_a";
  SI.Torque tau_eta "Torque that decides the direction of power flow";
  SI.Torque quadrant1, quadrant2, quadrant3, quadrant4
    "Loss torque in the four quadrants of (power flow, sliding direction)";
  SI.Torque quadrant1_p, quadrant2_p, quadrant3_m, quadrant4_m
    "Loss torques with the w = 0 data, for the break-away tests";
  SI.Torque tauLoss "Loss torque at flange_a";
  SI.Torque tauLossMax "Loss torque when sliding forward";
  SI.Torque tauLossMin "Loss torque when sliding backward";
  SI.Torque tauLossMax_p "Break-away limit for forward start";
  SI.Torque tauLossMin_m "Break-away limit for backward start";
  Boolean tau_aPos(start=true) "Same as tau_etaPos (kept for compatibility)";
  Boolean tau_etaPos(start=true) "true: tau_eta >= 0 (flange_a drives)";
  Boolean startForward(start=false) "true: starts to slide forward";
  Boolean startBackward(start=false) "true: starts to slide backward";
  Boolean locked(start=false) "true: the gear is locked (a_a = 0)";
  constant Integer Unknown = 3 "Value of mode before initialization";
  constant Integer Free = 2 "Ideal gear (no losses)";
  constant Integer Forward = 1 "w_a > 0";
  constant Integer Stuck = 0 "w_a = 0 (locked, or waiting for the velocity to change sign)";
  constant Integer Backward = -1 "w_a < 0";
  Integer mode(final min=Backward, final max=Unknown, start=Free, fixed=true)
    "Operating mode";
protected
  final parameter Boolean ideal = Modelica.Math.Matrices.isEqual(lossTable, [0, 1, 1, 0, 0],
    Modelica.Constants.eps) "true: no losses at all (the gear is never locked)";
  // the loss data at w = 0 (used by the break-away tests)
  final parameter Real eta_mf1_0 = if ideal then 1 else Modelica.Math.tempInterpol1(0, lossTable, 2);
  final parameter Real eta_mf2_0 = if ideal then 1 else Modelica.Math.tempInterpol1(0, lossTable, 3);
  final parameter SI.Torque tau_bf1_0 = if ideal then 0 else abs(Modelica.Math.tempInterpol1(0, lossTable, 4));
  final parameter SI.Torque tau_bf2_0 = if ideal then 0 else abs(Modelica.Math.tempInterpol1(0, lossTable, 5));
  final parameter SI.Torque tau_bf_a_0 = if Modelica.Math.isEqual(eta_mf1_0, 1.0, Modelica.Constants.eps)
    and Modelica.Math.isEqual(eta_mf2_0, 1.0, Modelica.Constants.eps) then tau_bf1_0/2
    else (tau_bf1_0 - tau_bf2_0)/(eta_mf1_0 - 1.0/eta_mf2_0);
  constant SI.AngularAcceleration unitAngularAcceleration = 1 "Makes sa dimensionless";
  constant SI.Torque unitTorque = 1 "Makes sa dimensionless";
equation
  // kinematics (the gear itself has no inertia)
  phi_a = flange_a.phi - phi_support;
  phi_b = flange_b.phi - phi_support;
  phi_a = ratio*phi_b;
  w_a = der(phi_a);
  a_a = der(w_a);

  // speed-dependent loss data; the table lookup must not generate events
  eta_mf1 = if ideal then 1.0 else Modelica.Math.tempInterpol1(noEvent(abs(w_a)), lossTable, 2);
  eta_mf2 = if ideal then 1.0 else Modelica.Math.tempInterpol1(noEvent(abs(w_a)), lossTable, 3);
  tau_bf1 = if ideal then 0.0 else noEvent(abs(Modelica.Math.tempInterpol1(noEvent(abs(w_a)), lossTable, 4)));
  tau_bf2 = if ideal then 0.0 else noEvent(abs(Modelica.Math.tempInterpol1(noEvent(abs(w_a)), lossTable, 5)));
  // bearing friction referred to flange_a, such that both power-flow directions give the
  // same loss on the boundary between them
  tau_bf_a = if Modelica.Math.isEqual(eta_mf1, 1.0, Modelica.Constants.eps)
    and Modelica.Math.isEqual(eta_mf2, 1.0, Modelica.Constants.eps) then tau_bf1/2
    else (tau_bf1 - tau_bf2)/(eta_mf1 - 1.0/eta_mf2);

  // torque balance of the massless gear
  0 = flange_b.tau + ratio*(flange_a.tau - tauLoss);

  // loss torque per quadrant
  quadrant1 = (1 - eta_mf1)*flange_a.tau + tau_bf1;
  quadrant2 = (1 - 1/eta_mf2)*flange_a.tau + tau_bf2;
  quadrant3 = (1 - eta_mf1)*flange_a.tau - tau_bf1;
  quadrant4 = (1 - 1/eta_mf2)*flange_a.tau - tau_bf2;
  quadrant1_p = (1 - eta_mf1_0)*flange_a.tau + tau_bf1_0;
  quadrant2_p = (1 - 1/eta_mf2_0)*flange_a.tau + tau_bf2_0;
  quadrant3_m = (1 - eta_mf1_0)*flange_a.tau - tau_bf1_0;
  quadrant4_m = (1 - 1/eta_mf2_0)*flange_a.tau - tau_bf2_0;
  tauLossMax_p = noEvent(if flange_a.tau - tau_bf_a_0 > 0 then quadrant1_p else quadrant2_p);
  tauLossMin_m = noEvent(if flange_a.tau + tau_bf_a_0 > 0 then quadrant4_m else quadrant3_m);

  // The driving side is decided on flange_a's torque minus (forward) or plus (backward) the
  // bearing friction; deciding on flange_a.tau alone does not converge (MSL #108).
  tau_eta = if ideal then flange_a.tau
    else (if locked then flange_a.tau
      else if startForward or pre(mode) == Forward then flange_a.tau - tau_bf_a
      else flange_a.tau + tau_bf_a);
  tau_etaPos = tau_eta >= 0;
  tau_aPos = tau_etaPos;
  tauLossMax = if tau_etaPos then quadrant1 else quadrant2;
  tauLossMin = if tau_etaPos then quadrant4 else quadrant3;

  // state machine: no pre(startForward) hysteresis and no w_small here
  startForward = pre(mode) == Stuck and sa > tauLossMax_p/unitTorque or initial() and w_a > 0;
  startBackward = pre(mode) == Stuck and sa < tauLossMin_m/unitTorque or initial() and w_a < 0;
  locked = if ideal then false
    else not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
  tauLoss = if ideal then 0
    else (if locked then sa*unitTorque
      else (if startForward or pre(mode) == Forward then tauLossMax else tauLossMin));
  a_a = unitAngularAcceleration*(if locked then 0 else sa - tauLoss/unitTorque);
  mode = if ideal then Free
    else (if (pre(mode) == Forward or startForward) and w_a > 0 then Forward
    else if (pre(mode) == Backward or startBackward) and w_a < 0 then Backward
    else Stuck);
  lossPower = tauLoss*w_a;
end LossyGear;
