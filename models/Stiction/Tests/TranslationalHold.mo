within Stiction.Tests;
model TranslationalHold "3 N pushes two masses, one held by a regularized brake (5 N), one by support friction (4 N)"
  Modelica.Mechanics.Translational.Components.Mass m1(m=1, s(start=0, fixed=true), v(start=0, fixed=true));
  Modelica.Mechanics.Translational.Components.Mass m2(m=1, s(start=0, fixed=true), v(start=0, fixed=true));
  Modelica.Mechanics.Translational.Sources.ConstantForce push1(f_constant=3);
  Modelica.Mechanics.Translational.Sources.ConstantForce push2(f_constant=3);
  Stiction.Translational.Components.Brake brake(eps=1e-3, fn_max=10, law=Stiction.Types.FrictionLaw.Arctan)
    "f0 = 0.5*10 = 5 N";
  Stiction.Translational.Components.SupportFriction friction(f_pos=[0, 4], peak=1.5, eps=1e-3,
    law=Stiction.Types.FrictionLaw.Linear) "4 N Coulomb, 6 N break-away";
  Modelica.Blocks.Sources.Constant fn(k=1);
equation
  connect(push1.flange, m1.flange_a);
  connect(m1.flange_b, brake.flange_a);
  connect(fn.y, brake.f_normalized);
  connect(push2.flange, m2.flange_a);
  connect(m2.flange_b, friction.flange_a);
  annotation (experiment(StopTime=1, Interval=0.01, Tolerance=1e-8));
end TranslationalHold;
