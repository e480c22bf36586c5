within Stiction.Tests;
model SlidingTable "Bearing friction with a 2-row table on a shaft turned at 0.1 rad/s"
  Modelica.Mechanics.Rotational.Sources.Speed drive(exact=false, f_crit=100);
  Modelica.Blocks.Sources.Constant w(k=0.1) "Shaft speed (rad/s)";
  Stiction.Rotational.Components.BearingFriction bearing(tau_pos=[0, 2; 1, 3], eps=0.05)
    "Sliding torque 2 + |w| N.m: 2.1 N.m at 0.1 rad/s";
equation
  connect(w.y, drive.w_ref);
  connect(drive.flange, bearing.flange_a);
  annotation (experiment(StopTime=1, Interval=0.01, Tolerance=1e-8));
end SlidingTable;
