within Stiction.Tests;
model LuGreSteady "Rotational and translational LuGre elements dragged at a constant speed near the Stribeck speed"
  Modelica.Mechanics.Translational.Sources.Speed pull(exact=false, f_crit=100);
  Modelica.Mechanics.Rotational.Sources.Speed turn(exact=false, f_crit=100);
  Modelica.Blocks.Sources.Constant v(k=0.0015) "Dragging speed (m/s and rad/s)";
  Stiction.Translational.Components.LuGre lugre(sigma0=1e5, sigma1=sqrt(1e5), sigma2=0.4, F_c=1,
    F_s=1.5, v_s=0.001);
  Stiction.Rotational.Components.LuGre lugreRot(sigma0=1e4, sigma1=100, sigma2=2, tau_c=2,
    tau_s=3, w_s=0.002, alpha=1);
equation
  connect(v.y, pull.v_ref);
  connect(v.y, turn.w_ref);
  connect(pull.flange, lugre.flange_a);
  connect(turn.flange, lugreRot.flange_a);
  annotation (experiment(StopTime=3, Interval=0.01, Tolerance=1e-8));
end LuGreSteady;
