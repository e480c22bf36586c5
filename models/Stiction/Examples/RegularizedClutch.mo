within Stiction.Examples;
model RegularizedClutch
  "Two inertias coupled by a regularized clutch, the first driven by a sine torque (CoupledClutches-like)"
  import Stiction.Types.FrictionLaw;
  parameter FrictionLaw law = FrictionLaw.Tanh "Regularization of the clutch" annotation (Evaluate=true);
  parameter SI.AngularVelocity eps = 1e-3 "Regularization width of the clutch";
  Modelica.Mechanics.Rotational.Components.Inertia J1(J=1, phi(start=0, fixed=true),
    w(start=10, fixed=true)) "Driven inertia";
  Modelica.Mechanics.Rotational.Components.Inertia J2(J=1) "Inertia dragged by the clutch";
  // the clutch's relative states are preferred: their start values put J2 at rest at phi = 0
  Stiction.Rotational.Components.Clutch clutch(law=law, eps=eps, peak=1.1, fn_max=20,
    phi_rel(start=0, fixed=true), w_rel(start=-10, fixed=true))
    "tau0 = 0.5*20 = 10 N.m when engaged";
  Modelica.Mechanics.Rotational.Sources.Torque torque(useSupport=true) "Drive";
  Modelica.Mechanics.Rotational.Components.Fixed fixed "Housing";
  Modelica.Blocks.Sources.Sine sin1(amplitude=10, f=5) "Drive torque (N.m)";
  Modelica.Blocks.Sources.Constant engage(k=1) "Clutch fully engaged";
equation
  connect(sin1.y, torque.tau);
  connect(torque.support, fixed.flange);
  connect(torque.flange, J1.flange_a);
  connect(J1.flange_b, clutch.flange_a);
  connect(clutch.flange_b, J2.flange_a);
  connect(engage.y, clutch.f_normalized);
  annotation (experiment(StopTime=1.5, Interval=0.001, Tolerance=1e-6), Documentation(info="<html>
<p>The clutch slips until about t = 0.5 s (relative deceleration 2*tau0/J = 20 rad/s2 from
w_rel = -10 rad/s) and then sticks in the regularized sense: the sine drive needs at most
5 N.m of the 10 N.m the clutch can carry, so |w_rel| stays below eps*atanh(0.5) for Tanh.
The total momentum J1.w + J2.w changes only by the drive torque's integral.</p>
</html>"));
end RegularizedClutch;
