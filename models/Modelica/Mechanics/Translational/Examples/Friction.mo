within Modelica.Mechanics.Translational.Examples;
model Friction "MassWithStopAndFriction against Mass + SupportFriction, and a mass bouncing on its stops"
  extends Modelica.Icons.Example;
  Translational.Components.MassWithStopAndFriction stop1(L=1, s(fixed=true), v(fixed=true),
    smax=25, smin=-25, m=1, F_prop=1, F_Coulomb=5, F_Stribeck=10, fexp=2);
  Translational.Sources.Force force;
  Modelica.Blocks.Sources.Sine sineForce(amplitude=25, f=0.25);
  Translational.Components.MassWithStopAndFriction stop2(L=1, smax=0.9, smin=-0.9,
    F_Coulomb=3, F_Stribeck=5, s(start=0, fixed=true), m=1, F_prop=1, fexp=2,
    v(start=-5, fixed=true));
  Translational.Components.Spring spring(s_rel0=1, c=500);
  Translational.Components.Fixed fixed2(s0=-1.75);
  Translational.Sources.Force force2;
  Translational.Components.Mass mass(m=1, L=1, s(fixed=true), v(fixed=true));
  Translational.Components.SupportFriction supportFriction(f_pos=
    Examples.Utilities.GenerateStribeckFrictionTable(F_prop=1, F_Coulomb=5, F_Stribeck=10,
      fexp=2, v_max=12, nTable=50));
equation
  connect(sineForce.y, force.f);
  connect(force.flange, stop1.flange_a);
  connect(fixed2.flange, spring.flange_a);
  connect(spring.flange_b, stop2.flange_a);
  connect(sineForce.y, force2.f);
  connect(force2.flange, mass.flange_a);
  connect(mass.flange_b, supportFriction.flange_a);
  annotation (experiment(StopTime=5.0, Interval=0.001), Documentation(info="<html>
<p>stop1 (MassWithStopAndFriction) and mass + supportFriction (the same Stribeck curve as a
50-row table) are driven by the same sine force and should move alike; stop2 starts at -5 m/s
on a spring, hits its left stop (reinit) and oscillates until it sticks. Reference:
the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end Friction;
