within Modelica.Mechanics.Translational.Examples;
model HeatLosses "Translational chain with friction, brake, stops and elastic elements; every loss is convected to the ambient"
  extends Modelica.Icons.Example;
  // Topology and parameters of the MSL example (the public MSL
  // diagram and the reference result): mass1 (driven by a sine force, held by a damper and an elastic gap to
  // the housing) - springDamper - mass2 - supportFriction - spring - mass3 - brake -
  // springDamper1 - massWithStopAndFriction. The reference's initial values follow from it:
  // mass1 at s = 0 gives damper.s_rel = 0.05, the fixed relative positions of the
  // spring(-damper)s stack the masses up to massWithStopAndFriction.s = 0.3.
  // The heat ports do not act on the mechanics.
  Translational.Sources.Force force "Sine force on the left end of mass1";
  Modelica.Blocks.Sources.Sine sine1(amplitude=20, f=1);
  Translational.Components.Fixed fixed1;
  Translational.Components.Fixed fixed2;
  Translational.Components.Damper damper(d=10, useHeatPort=true) "mass1 to the housing";
  Translational.Components.ElastoGap elastoGap(c=100, d=20, s_rel0=-0.02, useHeatPort=true)
    "Elastic contact of mass1 with the housing (compressed at the start)";
  Translational.Components.Mass mass1(m=1, L=0.1, s(fixed=true), v(fixed=true));
  Translational.Components.SpringDamper springDamper(c=100, d=10, useHeatPort=true,
    s_rel(fixed=true), v_rel(fixed=true));
  Translational.Components.Mass mass2(m=1, L=0.1, s(fixed=false), v(fixed=false));
  Translational.Components.SupportFriction supportFriction(useHeatPort=true)
    "Coulomb friction of mass2 against the housing (default table: 1 N)";
  Translational.Components.Spring spring(c=100, s_rel(fixed=true));
  Translational.Components.Mass mass3(m=1, L=0.1, s(fixed=false), v(fixed=true));
  Translational.Components.Brake brake(fn_max=10, useHeatPort=true)
    "Released during the negative half-waves of sine2";
  Modelica.Blocks.Sources.Sine sine2(amplitude=10, f=2);
  Translational.Components.SpringDamper springDamper1(c=10000, d=1000, useHeatPort=true,
    s_rel(fixed=true));
  Translational.Components.MassWithStopAndFriction massWithStopAndFriction(L=0.1, m=1,
    F_prop=0.5, F_Coulomb=1, F_Stribeck=2, fexp=2, smin=0, smax=0.4, v(fixed=true),
    useHeatPort=true);
  Modelica.Thermal.HeatTransfer.Components.Convection convection "All losses to the ambient";
  Modelica.Blocks.Sources.Constant const(k=20) "Convective conductance [W/K]";
  Modelica.Thermal.HeatTransfer.Celsius.FixedTemperature TAmbient(T=25) "Ambient temperature";
equation
  // mass1 and its supports
  connect(sine1.y, force.f);
  connect(force.flange, mass1.flange_a);
  connect(damper.flange_a, mass1.flange_a);
  connect(damper.flange_b, fixed1.flange);
  connect(fixed2.flange, elastoGap.flange_a);
  connect(elastoGap.flange_b, mass1.flange_a);
  // the chain to the right
  connect(mass1.flange_b, springDamper.flange_a);
  connect(springDamper.flange_b, mass2.flange_a);
  connect(mass2.flange_b, supportFriction.flange_a);
  connect(supportFriction.flange_b, spring.flange_a);
  connect(spring.flange_b, mass3.flange_a);
  connect(mass3.flange_b, brake.flange_a);
  connect(sine2.y, brake.f_normalized);
  connect(brake.flange_b, springDamper1.flange_a);
  connect(springDamper1.flange_b, massWithStopAndFriction.flange_a);
  // heat: every lossy element to one convection, conductance const.y, fixed ambient
  connect(damper.heatPort, convection.solid);
  connect(elastoGap.heatPort, convection.solid);
  connect(springDamper.heatPort, convection.solid);
  connect(supportFriction.heatPort, convection.solid);
  connect(brake.heatPort, convection.solid);
  connect(springDamper1.heatPort, convection.solid);
  connect(massWithStopAndFriction.heatPort, convection.solid);
  connect(const.y, convection.Gc);
  connect(convection.fluid, TAmbient.port);
  annotation (experiment(StopTime=2.0, Interval=0.001), Documentation(info="<html>
<p>A chain of four masses with a damper, an elastic gap, ground friction, a brake and a mass
with hard stops and Stribeck friction. All elements that dissipate power have their heat port
enabled; the heat flows through one convection element to an ambient at 25 degC, so
convection.solid.Q_flow is the total loss power. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end HeatLosses;
