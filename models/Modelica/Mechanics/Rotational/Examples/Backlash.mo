within Modelica.Mechanics.Rotational.Examples;
model Backlash "Three inertias released from a deflected spring-damper, ElastoBacklash and ElastoBacklash2"
  extends Modelica.Icons.Example;
  Rotational.Components.Fixed fixed;
  Rotational.Components.SpringDamper springDamper(c=20e3, d=50, phi_nominal=1);
  Rotational.Components.ElastoBacklash elastoBacklash(c=20e3, d=50,
    b(displayUnit="deg") = 0.785398163397448, phi_nominal=1);
  Components.ElastoBacklash2 elastoBacklash2(c=20e3, d=50,
    b(displayUnit="deg") = 0.785398163397448, phi_nominal=1);
  Rotational.Components.Inertia inertia1(J=5,
    phi(fixed=true, start=1.570796326794897, displayUnit="deg"), w(fixed=true, start=0));
  Rotational.Components.Inertia inertia2(J=5,
    phi(fixed=true, start=1.570796326794897, displayUnit="deg"), w(fixed=true, start=0));
  Rotational.Components.Inertia inertia3(J=5,
    phi(fixed=true, start=1.570796326794897, displayUnit="deg"), w(fixed=true, start=0));
equation
  connect(fixed.flange, springDamper.flange_a);
  connect(springDamper.flange_b, inertia1.flange_a);
  connect(fixed.flange, elastoBacklash.flange_a);
  connect(elastoBacklash.flange_b, inertia2.flange_a);
  connect(fixed.flange, elastoBacklash2.flange_a);
  connect(elastoBacklash2.flange_b, inertia3.flange_a);
  annotation (experiment(StopTime=1.0, Interval=0.001), Documentation(info="<html>
<p>Each inertia starts deflected by 90 degrees and swings back; the two backlash elements lose
contact within +-22.5 degrees. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end Backlash;
