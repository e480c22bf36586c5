within Modelica.Mechanics.Rotational.Examples;
model LossyGearDemo2 "LossyGearDemo1 with bearing friction on the driving side (two coupled friction elements)"
  extends Modelica.Icons.Example;
  output SI.Power PowerLoss = gear.flange_a.tau*der(gear.flange_a.phi) + gear.flange_b.tau*der(gear.flange_b.phi)
    "Power lost in the gear";
  Rotational.Components.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0], useSupport=true);
  Rotational.Components.Inertia Inertia1(J=1);
  Rotational.Components.Inertia Inertia2(J=1.5,
    phi(fixed=true, start=0, nominal=1e-4), w(fixed=true, start=0, nominal=1e-3));
  Rotational.Sources.Torque torque1(useSupport=true);
  Rotational.Sources.Torque torque2(useSupport=true);
  Modelica.Blocks.Sources.Sine DriveSine(amplitude=10, f=1);
  Modelica.Blocks.Sources.Ramp load(height=5, duration=2, offset=-10);
  Rotational.Components.BearingFriction bearingFriction(tau_pos=[0, 0.5; 1, 1], useSupport=true);
  Rotational.Components.Fixed fixed;
equation
  connect(torque1.flange, bearingFriction.flange_a);
  connect(bearingFriction.flange_b, Inertia1.flange_a);
  connect(Inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, Inertia2.flange_a);
  connect(Inertia2.flange_b, torque2.flange);
  connect(DriveSine.y, torque1.tau);
  connect(load.y, torque2.tau);
  connect(torque1.support, fixed.flange);
  connect(bearingFriction.support, fixed.flange);
  connect(gear.support, fixed.flange);
  connect(torque2.support, fixed.flange);
  annotation (experiment(StopTime=0.5, Interval=0.001), Documentation(info="<html>
<p>As LossyGearDemo1, with a bearing friction (0.5 N.m at rest, 1 N.m at 1 rad/s) between
the drive and Inertia1. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end LossyGearDemo2;
