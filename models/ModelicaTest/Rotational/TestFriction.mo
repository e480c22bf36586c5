within ModelicaTest.Rotational;
model TestFriction "BearingFriction, Brake, Clutch and OneWayClutch, each on its own, driven by a sine torque"
  extends Modelica.Icons.Example;
  // bearing friction (default characteristic: 1 N.m) on a driven inertia
  Modelica.Mechanics.Rotational.Components.Inertia inertia(J=1, phi(start=0, fixed=true), w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport=false);
  Modelica.Blocks.Sources.Sine sine(amplitude=10, f=1);
  Modelica.Mechanics.Rotational.Components.BearingFriction bearingFriction;
  // brake that closes at 0.5 s
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(J=1, phi(start=0, fixed=true), w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque torque1(useSupport=false);
  Modelica.Blocks.Sources.Sine sine1(amplitude=10, f=1);
  Modelica.Mechanics.Rotational.Components.Brake brake(fn_max=1);
  Modelica.Blocks.Sources.Step step(height=100, startTime=0.5);
  // clutch between two inertias that closes at 0.5 s
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(J=1, phi(start=0, fixed=true), w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque torque2(useSupport=false);
  Modelica.Blocks.Sources.Sine sine2(amplitude=10, f=1);
  Modelica.Mechanics.Rotational.Components.Clutch clutch(fn_max=1, phi_rel(fixed=true), w_rel(fixed=true));
  Modelica.Mechanics.Rotational.Components.Inertia inertia3(J=1);
  Modelica.Blocks.Sources.Step step1(height=100, startTime=0.5);
  // one-way clutch carrying inertia5 along with the driven inertia4, engaged at 0.5 s
  Modelica.Mechanics.Rotational.Components.Inertia inertia4(J=1, phi(start=0, fixed=true), w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque torque3(useSupport=false);
  Modelica.Blocks.Sources.Sine sine3(amplitude=10, f=1);
  Modelica.Mechanics.Rotational.Components.OneWayClutch oneWayClutch(fn_max=1,
    phi_rel(fixed=true), w_rel(fixed=true), startForward(fixed=true), stuck(fixed=true));
  Modelica.Mechanics.Rotational.Components.Inertia inertia5(J=1);
  Modelica.Blocks.Sources.Step step2(height=100, startTime=0.5);
equation
  connect(sine.y, torque.tau);
  connect(torque.flange, inertia.flange_a);
  connect(inertia.flange_b, bearingFriction.flange_a);
  connect(sine1.y, torque1.tau);
  connect(torque1.flange, inertia1.flange_a);
  connect(inertia1.flange_b, brake.flange_a);
  connect(step.y, brake.f_normalized);
  connect(sine2.y, torque2.tau);
  connect(torque2.flange, inertia2.flange_a);
  connect(inertia2.flange_b, clutch.flange_a);
  connect(clutch.flange_b, inertia3.flange_a);
  connect(step1.y, clutch.f_normalized);
  connect(sine3.y, torque3.tau);
  connect(torque3.flange, inertia4.flange_a);
  connect(inertia4.flange_b, oneWayClutch.flange_b);
  connect(oneWayClutch.flange_a, inertia5.flange_a);
  connect(step2.y, oneWayClutch.f_normalized);
  annotation (experiment(StopTime=1.1), Documentation(info="<html>
<p>Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end TestFriction;
