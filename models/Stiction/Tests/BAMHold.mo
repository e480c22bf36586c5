within Stiction.Tests;
model BAMHold "A joint with a motor torque and an external torque against the BAM M6 friction element"
  Modelica.Mechanics.Rotational.Components.Inertia J(J=0.01, phi(start=0, fixed=true), w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque motor;
  Modelica.Mechanics.Rotational.Sources.Torque load "External torque source";
  Modelica.Blocks.Sources.Constant tau_m(k=0.3) "Motor torque (N.m)";
  Modelica.Blocks.Sources.Constant tau_e(k=-0.1) "External torque (N.m)";
  Stiction.Rotational.Components.BAMFriction bam(bamModel=6, eps=1e-3, Kc=0.05, Kv=0.1, Kcs=0.05,
    w_s=0.2, alpha=1.35, Km=0.4, Ke=0.3, Kms=0.1, Kes=0.2, Kmq=0.2, Keq=0.5)
    "Static limit 0.305 N.m at these torques";
equation
  connect(tau_m.y, motor.tau);
  connect(tau_e.y, load.tau);
  connect(tau_m.y, bam.tau_m);
  connect(tau_e.y, bam.tau_e);
  connect(motor.flange, J.flange_a);
  connect(load.flange, J.flange_a);
  connect(J.flange_b, bam.flange_a);
  annotation (experiment(StopTime=0.5, Interval=0.01, Tolerance=1e-8));
end BAMHold;
