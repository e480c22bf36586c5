within Modelica.Mechanics.Rotational.Examples;
model LossyGearDemo1 "Lossy gear between a sinusoidal drive and a ramped load; the gear locks and slips"
  extends Modelica.Icons.Example;
  output SI.Power PowerLoss = gear.flange_a.tau*der(gear.flange_a.phi) + gear.flange_b.tau*der(gear.flange_b.phi)
    "Power lost in the gear";
  Rotational.Components.LossyGear gear(ratio=2, lossTable=[0, 0.5, 0.5, 0, 0], useSupport=true);
  Rotational.Components.Inertia Inertia1(J=1);
  Rotational.Components.Inertia Inertia2(J=1.5,
    phi(fixed=true, start=0, nominal=0.001), w(fixed=true, start=0, nominal=0.01));
  Rotational.Sources.Torque torque1(useSupport=true);
  Rotational.Sources.Torque torque2(useSupport=true);
  Modelica.Blocks.Sources.Sine DriveSine(amplitude=10, f=1);
  Modelica.Blocks.Sources.Ramp load(height=5, duration=2, offset=-10);
  Rotational.Components.Fixed fixed;
equation
  connect(torque1.flange, Inertia1.flange_a);
  connect(Inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, Inertia2.flange_a);
  connect(Inertia2.flange_b, torque2.flange);
  connect(DriveSine.y, torque1.tau);
  connect(load.y, torque2.tau);
  connect(torque1.support, fixed.flange);
  connect(gear.support, fixed.flange);
  connect(torque2.support, fixed.flange);
  annotation (experiment(StopTime=0.5, Interval=0.001), Documentation(info="<html>
<p>Gear with 50 % mesh efficiency in both directions, driven by a sinusoidal torque against
a load torque ramping from -10 N.m. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end LossyGearDemo1;
