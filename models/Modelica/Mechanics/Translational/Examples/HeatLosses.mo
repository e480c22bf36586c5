within Modelica.Mechanics.Translational.Examples;
model HeatLosses "Friction elements, dampers and a contact with heat ports, all losses convected to the ambient"
  extends Modelica.Icons.Example;
  // NOTE: the spec (msl-friction.md 6.14) gives the element parameters of the MSL example but
  // not its diagram. The connections, the masses and the spring/damper constants below are
  // stiction's own choice (the initial offsets are those of the reference: damper.s_rel = 0.05,
  // massWithStopAndFriction.s = 0.3), so this model does not reproduce the MSL reference
  // (doc/library.md lists it as a known failure). The heat ports do not act on the mechanics.
  Translational.Components.Fixed fixed;
  Translational.Components.Damper damper(d=25, s_rel(start=0.05, fixed=true), v_rel(fixed=true),
    useHeatPort=true);
  Translational.Components.Mass mass1(m=1, L=0.1, s(start=0.1, fixed=false), v(start=0, fixed=false));
  Translational.Components.SpringDamper springDamper(c=100, d=10, s_rel(fixed=true), v_rel(fixed=true),
    useHeatPort=true);
  Translational.Components.Brake brake(fn_max=10, useHeatPort=true);
  Modelica.Blocks.Sources.Sine sine2(amplitude=10, f=2);
  Translational.Sources.Force force;
  Modelica.Blocks.Sources.Sine sine1(amplitude=10, f=1);
  Translational.Components.Mass mass2(m=1, L=0.1, s(fixed=false));
  Translational.Components.ElastoGap elastoGap(c=1000, d=100, s_rel0=-0.02, useHeatPort=true);
  Translational.Components.MassWithStopAndFriction massWithStopAndFriction(L=0.1, m=1, F_prop=0.5,
    F_Coulomb=1, F_Stribeck=2, fexp=2, smin=0, smax=0.4, s(start=0.3, fixed=true), v(fixed=true), useHeatPort=true);
  Translational.Components.SpringDamper springDamper1(c=10000, d=10, s_rel(fixed=true), v_rel(fixed=true),
    useHeatPort=true);
  Translational.Components.Mass mass3(m=1, L=0.1, s(fixed=false));
  Translational.Components.SupportFriction supportFriction(useHeatPort=true);
  Modelica.Thermal.HeatTransfer.Components.Convection convection;
  Modelica.Blocks.Sources.Constant const(k=20);
  Modelica.Thermal.HeatTransfer.Sources.FixedTemperature TAmbient(T=293.15) "Ambient (20 degC)";
equation
  // mass1 hangs between a damper and a spring-damper to the housing and carries the brake
  connect(fixed.flange, damper.flange_a);
  connect(damper.flange_b, mass1.flange_a);
  connect(mass1.flange_b, springDamper.flange_a);
  connect(springDamper.flange_b, mass2.flange_a);
  connect(mass1.flange_b, brake.flange_a);
  connect(sine2.y, brake.f_normalized);
  // mass2 is pushed by a sine force against the elastic contact with the sliding stop mass
  connect(force.flange, mass2.flange_b);
  connect(sine1.y, force.f);
  connect(mass2.flange_b, elastoGap.flange_a);
  connect(elastoGap.flange_b, massWithStopAndFriction.flange_a);
  // the stop mass drags mass3 through a stiff spring-damper over a rough support
  connect(massWithStopAndFriction.flange_b, springDamper1.flange_a);
  connect(springDamper1.flange_b, mass3.flange_a);
  connect(mass3.flange_b, supportFriction.flange_a);
  // all losses are convected to the ambient
  connect(damper.heatPort, convection.solid);
  connect(springDamper.heatPort, convection.solid);
  connect(brake.heatPort, convection.solid);
  connect(elastoGap.heatPort, convection.solid);
  connect(massWithStopAndFriction.heatPort, convection.solid);
  connect(springDamper1.heatPort, convection.solid);
  connect(supportFriction.heatPort, convection.solid);
  connect(convection.fluid, TAmbient.port);
  connect(const.y, convection.Gc);
  annotation (experiment(StopTime=2.0, Interval=0.001), Documentation(info="<html>
<p>Heat ports of the translational friction elements (useHeatPort = true): the loss power of
every element flows through a convection to a fixed ambient temperature. The topology is
stiction's own (see the note in the text); it does not reproduce the MSL reference of
spec/msl-friction.md 6.14.</p>
</html>"));
end HeatLosses;
