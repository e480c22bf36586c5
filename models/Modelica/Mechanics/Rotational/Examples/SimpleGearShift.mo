within Modelica.Mechanics.Rotational.Examples;
model SimpleGearShift "Planetary gear shifted by releasing a brake and closing a clutch"
  extends Modelica.Icons.Example;
  output SI.AngularVelocity wEngine = engine.w "Speed of the engine";
  output SI.AngularVelocity wLoad = load.w "Speed of the load";
  output Real gearRatio = wLoad/max(wEngine, 1E-6) "Gear ratio load/engine";
  Rotational.Sources.TorqueStep torqueStep(offsetTorque=0, startTime=0.5, stepTorque=20);
  Rotational.Components.Inertia engine(J=1);
  Rotational.Components.IdealPlanetary idealPlanetary(ratio=75/50);
  Rotational.Components.Clutch clutch(cgeo=2, fn_max=100, phi_rel(fixed=true), w_rel(fixed=true));
  Rotational.Components.Brake brake(cgeo=2, fn_max=100);
  Rotational.Components.Inertia load(J=10, phi(fixed=true, start=0), w(fixed=true, start=0));
  Rotational.Sources.QuadraticSpeedDependentTorque quadraticSpeedDependentTorque(
    w_nominal(displayUnit="rpm") = 10.471975511966, tau_nominal=-20);
  Modelica.Blocks.Sources.Ramp ramp(height=1, offset=0, startTime=2, duration=0.1);
  Modelica.Blocks.Sources.Constant const1(k=1);
  Modelica.Blocks.Math.Feedback feedback;
equation
  connect(torqueStep.flange, engine.flange_a);
  connect(engine.flange_b, idealPlanetary.sun);
  connect(idealPlanetary.sun, clutch.flange_a);
  connect(clutch.flange_b, idealPlanetary.ring);
  connect(idealPlanetary.ring, brake.flange_a);
  connect(idealPlanetary.carrier, load.flange_a);
  connect(load.flange_b, quadraticSpeedDependentTorque.flange);
  connect(ramp.y, clutch.f_normalized);
  connect(const1.y, feedback.u1);
  connect(ramp.y, feedback.u2);
  connect(feedback.y, brake.f_normalized);
  annotation (experiment(StopTime=5, Interval=0.01), Documentation(info="<html>
<p>First gear: the brake holds the ring and the sun drives the carrier (ratio 2.5). At 2 s
the brake is released and the clutch closed within 0.1 s: direct drive. Reference:
the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end SimpleGearShift;
