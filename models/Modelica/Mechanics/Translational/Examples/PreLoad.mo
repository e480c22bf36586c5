within Modelica.Mechanics.Translational.Examples;
model PreLoad "Spool valve with a preloaded spring pack between elastic contacts (ElastoGap)"
  extends Modelica.Icons.Example;
  Translational.Components.ElastoGap innerContactA(c=1000e3, d=250, s_rel0=0.001);
  Translational.Components.ElastoGap innerContactB(c=1000e3, d=250, s_rel0=0.001);
  Translational.Components.Mass spool(L=0.19, m=0.150, s(start=0.01475, fixed=true), v(fixed=true));
  Translational.Components.Fixed housing(s0=-0.0955);
  Translational.Components.Mass springPlateA(m=10e-3, L=0.002, s(start=-0.093, fixed=true), v(fixed=true));
  Translational.Components.Mass springPlateB(m=10e-3, L=0.002, s(start=-0.06925, fixed=true), v(fixed=true));
  Translational.Components.Spring spring(c=20e3, s_rel0=0.025);
  Translational.Components.ElastoGap outerContactA(c=1000e3, d=250, s_rel0=0.0015);
  Translational.Components.ElastoGap outerContactB(c=1000e3, d=250, s_rel0=0.0015);
  Translational.Components.Rod rod1(L=0.01475) "Spool to its left shoulder";
  Translational.Components.Rod rod2(L=0.0305) "Housing left shoulder to right shoulder";
  Translational.Components.Rod rod3(L=0.0295) "Spool left shoulder to right shoulder";
  Translational.Components.Damper friction(d=2500) "Viscous friction between housing and spool";
  Translational.Sources.Force force;
  Modelica.Blocks.Sources.Sine sineForce(amplitude=150, f=0.01);
equation
  // housing shoulders: left at housing.flange, right 0.0305 further
  connect(housing.flange, rod2.flange_a);
  // spool shoulders: left 0.01475 to the left of spool.flange_a, right 0.0295 further
  connect(rod1.flange_b, spool.flange_a);
  connect(rod1.flange_a, rod3.flange_a);
  // spring pack: plate A between the left shoulders, plate B between the right ones
  connect(housing.flange, outerContactA.flange_a);
  connect(outerContactA.flange_b, springPlateA.flange_a);
  connect(rod1.flange_a, innerContactA.flange_a);
  connect(innerContactA.flange_b, springPlateA.flange_a);
  connect(springPlateA.flange_b, spring.flange_a);
  connect(spring.flange_b, springPlateB.flange_a);
  connect(springPlateB.flange_b, outerContactB.flange_a);
  connect(outerContactB.flange_b, rod2.flange_b);
  connect(springPlateB.flange_b, innerContactB.flange_a);
  connect(innerContactB.flange_b, rod3.flange_b);
  // drive and viscous friction of the spool
  connect(housing.flange, friction.flange_a);
  connect(friction.flange_b, spool.flange_b);
  connect(sineForce.y, force.f);
  connect(force.flange, spool.flange_b);
  annotation (experiment(StopTime=100, Interval=0.1), Documentation(info="<html>
<p>A spool moves in a housing against a preloaded spring pack: two spring plates that rest on
shoulders of the spool (inner contacts) and of the housing (outer contacts). The plates start
closer together than the shoulders, so they separate first. The shoulder geometry is chosen so
that the initial gaps are those of the MSL reference (innerContactA 1 mm, innerContactB
2.75 mm, outerContactA 1.5 mm, outerContactB 3.25 mm); only gaps enter the dynamics.
Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end PreLoad;
