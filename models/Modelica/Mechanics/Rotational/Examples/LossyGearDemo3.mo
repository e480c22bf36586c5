within Modelica.Mechanics.Rotational.Examples;
model LossyGearDemo3 "Two inertias coasting through a lossy gear until the bearing friction locks it"
  extends Modelica.Icons.Example;
  Modelica.Mechanics.Rotational.Components.LossyGear gear(ratio=1,
    lossTable=[0, 0.25, 0.25, 0.625, 2.5], useSupport=false);
  Modelica.Mechanics.Rotational.Components.Inertia Inertia1(J=0.001, w(start=10));
  Modelica.Mechanics.Rotational.Components.Inertia Inertia2(J=0.001,
    phi(fixed=true, start=0), w(start=10, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque torque1(useSupport=false);
  Modelica.Mechanics.Rotational.Sources.Torque torque2(useSupport=false);
  Modelica.Blocks.Sources.Step step(height=0);
  Modelica.Blocks.Sources.Step step1(startTime=0.5, height=1, offset=0);
equation
  connect(torque1.flange, Inertia1.flange_a);
  connect(Inertia1.flange_b, gear.flange_a);
  connect(gear.flange_b, Inertia2.flange_a);
  connect(Inertia2.flange_b, torque2.flange);
  connect(step.y, torque1.tau);
  connect(step1.y, torque2.tau);
  annotation (experiment(StopTime=1.0, Interval=0.001), Documentation(info="<html>
<p>Both inertias start at 10 rad/s; the gear losses stop them at t = 0.02 s and the gear stays
locked, also after a 1 N.m load step at 0.5 s. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end LossyGearDemo3;
