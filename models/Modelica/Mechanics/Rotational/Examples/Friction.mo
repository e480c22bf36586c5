within Modelica.Mechanics.Rotational.Examples;
model Friction "Drive train with a clutch, a spring and a brake that stick and slip"
  extends Modelica.Icons.Example;
  import Modelica.Constants.pi;
  parameter SI.Time startTime = 0.5 "Time when the brake closes and the motor torque stops";
  output SI.Torque tMotor = torque.tau "Driving torque";
  output SI.Torque tClutch = clutch.tau "Clutch torque";
  output SI.Torque tBrake = brake.tau "Brake torque";
  output SI.Torque tSpring = spring.tau "Spring torque";
  Rotational.Sources.Torque torque(useSupport=true);
  Rotational.Components.Inertia inertia3(J=1,
    phi(start=0, fixed=true, displayUnit="deg"), w(start=100, fixed=true, displayUnit="rad/s"));
  Rotational.Components.Clutch clutch(fn_max=160);
  Rotational.Components.Inertia inertia2(J=0.05,
    phi(start=0, fixed=true, displayUnit="deg"), w(start=90, fixed=true, displayUnit="rad/s"));
  Rotational.Components.SpringDamper spring(c=160, d=1);
  Rotational.Components.Brake brake(fn_max=1600, useSupport=true);
  Rotational.Components.Inertia inertia1(J=1,
    phi(start=0, fixed=true, displayUnit="deg"), w(start=90, fixed=true, displayUnit="rad/s"));
  Modelica.Blocks.Sources.Constant const(k=1);
  Modelica.Blocks.Sources.Step step(startTime=startTime);
  Modelica.Blocks.Sources.Step step2(height=-1, offset=1, startTime=startTime);
  Modelica.Blocks.Sources.Sine sine(amplitude=200, f=50/pi);
  Modelica.Blocks.Math.Product product;
  Rotational.Components.Fixed fixed;
equation
  connect(sine.y, product.u2);
  connect(step2.y, product.u1);
  connect(product.y, torque.tau);
  connect(torque.support, fixed.flange);
  connect(brake.support, fixed.flange);
  connect(torque.flange, inertia3.flange_a);
  connect(inertia3.flange_b, clutch.flange_a);
  connect(clutch.flange_b, inertia2.flange_a);
  connect(inertia2.flange_b, spring.flange_a);
  connect(spring.flange_b, brake.flange_a);
  connect(brake.flange_b, inertia1.flange_a);
  connect(const.y, clutch.f_normalized);
  connect(step.y, brake.f_normalized);
  annotation (experiment(StopTime=3.0, Interval=0.001), Documentation(info="<html>
<p>A motor drives inertia3 with a sinusoidal torque until startTime; the clutch couples it to
inertia2, a spring-damper to inertia1, and a brake closes at startTime. Reference:
the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end Friction;
