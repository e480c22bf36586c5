within Modelica.Mechanics.Rotational.Examples;
model CoupledClutches "Drive train with three clutches that open and close (8 configurations, 27 mode combinations)"
  extends Modelica.Icons.Example;
  parameter SI.Frequency f = 0.2 "Frequency of the normal force of clutch1";
  parameter SI.Time T2 = 0.4 "Time when clutch2 closes";
  parameter SI.Time T3 = 0.9 "Time when clutch3 closes";
  Rotational.Components.Inertia J1(J=1, phi(fixed=true, start=0), w(start=10, fixed=true));
  Rotational.Sources.Torque torque(useSupport=true);
  Rotational.Components.Clutch clutch1(peak=1.1, fn_max=20);
  Modelica.Blocks.Sources.Sine sin1(amplitude=10, f=5);
  Modelica.Blocks.Sources.Sine sin2(amplitude=1, f=f, phase=1.570796326794897);
  Rotational.Components.Inertia J2(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  Rotational.Components.Clutch clutch2(peak=1.1, fn_max=20);
  Rotational.Components.Inertia J3(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  Rotational.Components.Clutch clutch3(peak=1.1, fn_max=20);
  Rotational.Components.Inertia J4(J=1, phi(fixed=true, start=0), w(fixed=true, start=0));
  Modelica.Blocks.Sources.Step step1(startTime=T2);
  Modelica.Blocks.Sources.Step step2(startTime=T3);
  Rotational.Components.Fixed fixed;
equation
  connect(sin1.y, torque.tau);
  connect(torque.flange, J1.flange_a);
  connect(torque.support, fixed.flange);
  connect(J1.flange_b, clutch1.flange_a);
  connect(clutch1.flange_b, J2.flange_a);
  connect(J2.flange_b, clutch2.flange_a);
  connect(clutch2.flange_b, J3.flange_a);
  connect(J3.flange_b, clutch3.flange_a);
  connect(clutch3.flange_b, J4.flange_a);
  connect(sin2.y, clutch1.f_normalized);
  connect(step1.y, clutch2.f_normalized);
  connect(step2.y, clutch3.f_normalized);
  annotation (experiment(StopTime=1.5, Interval=0.001), Documentation(info="<html>
<p>J1 is driven by a sinusoidal torque and starts at 10 rad/s. clutch1 is closed by a cosine
normal force that becomes negative (clutch open) after 1.25 s; clutch2 closes at T2 and
clutch3 at T3. The clutches stick and slip in turn. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end CoupledClutches;
