within Stiction.Tests;
model BrakeTable
  "Brakes and a clutch with 2-row mu tables on shafts driven at a constant speed w0 (rad/s, m/s)"
  parameter Real w0 = 0.1 "Drive speed";
  Modelica.Blocks.Sources.Constant speed(k=w0);
  Modelica.Blocks.Sources.Constant force(k=1) "f_normalized of all three";
  Modelica.Mechanics.Rotational.Sources.Speed drive(exact=false, f_crit=100);
  Stiction.Rotational.Components.Brake brake(mu_pos=[0, 0.5; 1, 0.7], cgeo=2, fn_max=10, eps=0.05)
    "Sliding torque 20*(0.5 + 0.2*|w|)";
  Stiction.Rotational.Components.Clutch clutch(mu_pos=[0, 0.4; 2, 0.2], cgeo=1.5, fn_max=4, eps=0.05)
    "Sliding torque 6*(0.4 - 0.1*|w_rel|); flange_b held, so w_rel = -w0";
  Modelica.Mechanics.Rotational.Components.Fixed fixed;
  Modelica.Mechanics.Translational.Sources.Speed tdrive(exact=false, f_crit=100);
  Stiction.Translational.Components.Brake tbrake(mu_pos=[0, 0.3; 0.5, 0.5], fn_max=20, eps=0.05)
    "Sliding force 20*(0.3 + 0.4*|v|)";
equation
  connect(speed.y, drive.w_ref);
  connect(drive.flange, brake.flange_a);
  connect(drive.flange, clutch.flange_a);
  connect(clutch.flange_b, fixed.flange);
  connect(force.y, brake.f_normalized);
  connect(force.y, clutch.f_normalized);
  connect(speed.y, tdrive.v_ref);
  connect(tdrive.flange, tbrake.flange_a);
  connect(force.y, tbrake.f_normalized);
  annotation (experiment(StopTime=1, Interval=0.01, Tolerance=1e-8));
end BrakeTable;
