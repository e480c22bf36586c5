within Stiction.Tests;
model BrakeHold "A constant 20 N.m load on an inertia held by a regularized brake able to take 50 N.m"
  import Stiction.Types.FrictionLaw;
  parameter FrictionLaw law = FrictionLaw.Tanh annotation (Evaluate=true);
  Modelica.Mechanics.Rotational.Components.Inertia J(J=1, phi(start=0, fixed=true),
    w(start=0, fixed=true));
  Modelica.Mechanics.Rotational.Sources.ConstantTorque load(tau_constant=20);
  Stiction.Rotational.Components.Brake brake(law=law, eps=1e-3, fn_max=100, peak=1.2)
    "tau0 = 0.5*100 = 50 N.m, break-away 60 N.m";
  Modelica.Blocks.Sources.Constant f(k=1);
equation
  connect(load.flange, J.flange_a);
  connect(J.flange_b, brake.flange_a);
  connect(f.y, brake.f_normalized);
  annotation (experiment(StopTime=1, Interval=0.01, Tolerance=1e-8));
end BrakeHold;
