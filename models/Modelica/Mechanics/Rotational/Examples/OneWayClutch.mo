within Modelica.Mechanics.Rotational.Examples;
model OneWayClutch "One-way clutch between a sinusoidally driven and a free inertia, engaged by a pulse"
  extends Modelica.Icons.Example;
  Rotational.Components.Inertia inertiaIn(J=1, phi(start=0, fixed=true), w(fixed=true, start=-0.5));
  Rotational.Components.OneWayClutch oneWayClutch(peak=25, fn_max=3,
    startForward(fixed=true), stuck(fixed=true));
  Rotational.Components.Inertia inertiaOut(J=1, phi(start=0, fixed=true), w(fixed=true, start=0));
  Rotational.Sources.Torque torque(useSupport=false);
  Modelica.Blocks.Sources.Sine signalTorque(amplitude=10, f=3);
  Modelica.Blocks.Sources.Pulse signalEngagement(amplitude=1, width=50, period=1.3, startTime=0.3);
equation
  connect(signalTorque.y, torque.tau);
  connect(torque.flange, inertiaIn.flange_a);
  connect(inertiaIn.flange_b, oneWayClutch.flange_a);
  connect(oneWayClutch.flange_b, inertiaOut.flange_a);
  connect(signalEngagement.y, oneWayClutch.f_normalized);
  annotation (experiment(StopTime=2, Interval=0.001), Documentation(info="<html>
<p>The freewheel carries inertiaOut along whenever inertiaIn overtakes it; while the clutch
is engaged (pulse) it also transmits friction torque. Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end OneWayClutch;
