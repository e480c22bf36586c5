within Stiction.Tests;
model BAMStickSlip "A joint driven by a ramped motor torque against a BAM stuck/slip element: stuck, then slipping"
  Modelica.Mechanics.Rotational.Components.Inertia J(J=0.01, phi(start=0, fixed=true), w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.Torque motor;
  Modelica.Mechanics.Rotational.Sources.Torque load "External torque source";
  Modelica.Blocks.Sources.Ramp tau_m(height=1, duration=1) "Motor torque (N.m), 0 to 1 in 1 s";
  Modelica.Blocks.Sources.Constant tau_e(k=-0.1) "External torque (N.m)";
  Stiction.Rotational.Components.BAMStuckSlip bam(bamModel=2, Kc=0.05, Kv=0.1, Kcs=0.05,
    w_s=0.2, alpha=1.35, Km=0.4, Ke=0.3, Kms=0.1, Kes=0.2, Kmq=0.2, Keq=0.5)
    "M2: static limit Kc + Kcs = 0.1, break-away at t = 0.2 s (M5: 0.15 + 0.5*tau_m, t = 0.5 s)";
equation
  connect(tau_m.y, motor.tau);
  connect(tau_e.y, load.tau);
  connect(tau_m.y, bam.tau_m);
  connect(tau_e.y, bam.tau_e);
  connect(motor.flange, J.flange_a);
  connect(load.flange, J.flange_a);
  connect(J.flange_b, bam.flange_a);
  annotation (experiment(StopTime=1, Interval=0.001, Tolerance=1e-8));
end BAMStickSlip;
