within Modelica.Mechanics.Translational.Examples;
model Brake "Two sliding masses stopped by brakes, one with and one without support connector"
  extends Modelica.Icons.Example;
  Translational.Components.Brake brake(fn_max=1, useSupport=false);
  Translational.Components.Mass mass1(m=1, s(fixed=true), v(start=1, fixed=true));
  Translational.Components.Brake brake1(fn_max=1, useSupport=true);
  Translational.Components.Mass mass2(m=1, s(fixed=true), v(start=1, fixed=true));
  Translational.Components.Fixed fixed;
  Modelica.Blocks.Sources.Step step(startTime=0.1, height=2);
equation
  connect(mass1.flange_b, brake.flange_a);
  connect(mass2.flange_b, brake1.flange_a);
  connect(brake1.support, fixed.flange);
  connect(step.y, brake.f_normalized);
  connect(step.y, brake1.f_normalized);
  annotation (experiment(StopTime=2.0, Interval=0.001), Documentation(info="<html>
<p>Both masses slide at 1 m/s; at 0.1 s the brakes close (f_normalized = 2, i.e. 1 N of
friction) and stop them at 1.1 s. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end Brake;
