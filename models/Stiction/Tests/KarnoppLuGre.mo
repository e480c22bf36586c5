within Stiction.Tests;
model KarnoppLuGre
  "Karnopp's band and LuGre in the elements that replace MSL ones (Stiction.Interfaces.PartialFrictionLaw)"
  import Stiction.Types.FrictionLaw;
  Modelica.Mechanics.Rotational.Components.Inertia held(J=1, phi(start=0, fixed=true),
    w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.ConstantTorque load20(tau_constant=20);
  Stiction.Rotational.Components.Brake brakeHeld(law=FrictionLaw.Karnopp, eps=1e-3, fn_max=100,
    peak=1.2) "tau0 = 50 N.m, break-away 60 N.m: holds 20 N.m";
  Modelica.Mechanics.Rotational.Components.Inertia slips(J=1, phi(start=0, fixed=true),
    w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.ConstantTorque load70(tau_constant=70);
  Stiction.Rotational.Components.Brake brakeSlips(law=FrictionLaw.Karnopp, eps=1e-3, fn_max=100,
    peak=1.2, w_peak=1e-6) "70 N.m exceed the break-away 60 N.m";
  Modelica.Blocks.Sources.Constant f(k=1);
  Modelica.Mechanics.Rotational.Sources.Speed drive(exact=false, f_crit=100);
  Modelica.Blocks.Sources.Constant w(k=0.1) "Shaft speed (rad/s)";
  Stiction.Rotational.Components.BearingFriction bearing(tau_pos=[0, 2], law=FrictionLaw.LuGre,
    sigma0=1e4, sigma1=200) "LuGre with the Coulomb level 2 N.m";
equation
  connect(load20.flange, held.flange_a);
  connect(held.flange_b, brakeHeld.flange_a);
  connect(f.y, brakeHeld.f_normalized);
  connect(load70.flange, slips.flange_a);
  connect(slips.flange_b, brakeSlips.flange_a);
  connect(f.y, brakeSlips.f_normalized);
  connect(w.y, drive.w_ref);
  connect(drive.flange, bearing.flange_a);
  annotation (experiment(StopTime=1, Interval=0.01, Tolerance=1e-8));
end KarnoppLuGre;
