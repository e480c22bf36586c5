// A bearing friction (0.5 N.m) and a lossy gear (efficiency 0.5, ratio 1) on one shaft, as in
// the MSL LossyGearDemo2. Driven by tau1 = 7 (ramped down from t = 1.5) against the load -4
// on J2, both slide forward from w = 0.5 and stop together; locked together their constraint
// torques are not determined (singular mixed system). Closed form with J1 = J2 = 1:
// sliding, (J1 + 2 J2) a = tau1 - 0.5 + 2 load, a = -0.5, the shaft stops at t = 1. Locked,
// bearing + gear loss = tau1 - 4; the least-squares split of the compared quantities makes the
// bearing break away (startForward, held at its 0.5 by the locked gear), the gear holds
// tauLoss = tau1 - 4.5, within its limits [-(tau1 - 0.5), (tau1 - 0.5)/2] until tau1 = 2.5,
// at t = 2.5, where it starts backward.
model LockedBearingGear
  Modelica.Mechanics.Rotational.Components.Inertia J1(J = 1);
  Modelica.Mechanics.Rotational.Components.BearingFriction bearing(tau_pos = [0, 0.5]);
  Modelica.Mechanics.Rotational.Components.LossyGear gear(ratio = 1,
    lossTable = [0, 0.5, 0.5, 0, 0]);
  Modelica.Mechanics.Rotational.Components.Inertia J2(J = 1, phi(start = 0, fixed = true),
    w(start = 0.5, fixed = true));
  Modelica.Mechanics.Rotational.Sources.Torque torque1;
  Modelica.Blocks.Sources.Ramp drive(offset = 7, height = -9, duration = 2, startTime = 1.5);
  Modelica.Mechanics.Rotational.Sources.ConstantTorque load(tau_constant = -4);
equation
  connect(drive.y, torque1.tau);
  connect(torque1.flange, bearing.flange_a);
  connect(bearing.flange_b, J1.flange_a);
  connect(J1.flange_b, gear.flange_a);
  connect(gear.flange_b, J2.flange_a);
  connect(J2.flange_b, load.flange);
  annotation(experiment(StopTime = 3, Interval = 0.001));
end LockedBearingGear;
