within Stiction.Tests;
model Sliding "A bearing and a Stribeck element on a shaft turned at 0.1 rad/s (speed source)"
  Modelica.Mechanics.Rotational.Sources.Speed drive(exact=false, f_crit=100);
  Modelica.Blocks.Sources.Constant w(k=0.1) "Shaft speed (rad/s)";
  Stiction.Rotational.Components.BearingFriction bearing(tau_pos=[0, 2], eps=0.05)
    "Coulomb torque 2 N.m";
  Stiction.Rotational.Components.Stribeck stribeck(tau_c=1, tau_s=1.5, w_s=0.08, alpha=2, d=0.3,
    eps=0.02);
equation
  connect(w.y, drive.w_ref);
  connect(drive.flange, bearing.flange_a);
  connect(drive.flange, stribeck.flange_a);
  annotation (experiment(StopTime=1, Interval=0.01, Tolerance=1e-8));
end Sliding;
