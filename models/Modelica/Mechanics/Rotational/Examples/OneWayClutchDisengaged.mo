within Modelica.Mechanics.Rotational.Examples;
model OneWayClutchDisengaged "One-way clutch that is never engaged: freewheel only, against a constant load"
  extends Modelica.Icons.Example;
  Rotational.Components.Inertia inertiaIn(J=1, phi(start=0, fixed=true), w(fixed=true, start=-0.5));
  Rotational.Components.OneWayClutch oneWayClutch(peak=25, fn_max=3,
    startForward(fixed=true), stuck(fixed=true));
  Rotational.Components.Inertia inertiaOut(J=1, phi(start=0, fixed=true), w(fixed=true, start=0));
  Rotational.Sources.Torque torque(useSupport=false);
  Rotational.Sources.ConstantTorque torqueLoad(tau_constant=-0.3);
  Modelica.Blocks.Sources.Sine signalTorque(amplitude=10, offset=-torqueLoad.tau_constant, f=2);
  Modelica.Blocks.Sources.Constant signalEngagement(k=0);
equation
  connect(signalTorque.y, torque.tau);
  connect(torque.flange, inertiaIn.flange_a);
  connect(inertiaIn.flange_b, oneWayClutch.flange_a);
  connect(oneWayClutch.flange_b, inertiaOut.flange_a);
  connect(inertiaOut.flange_b, torqueLoad.flange);
  connect(signalEngagement.y, oneWayClutch.f_normalized);
  annotation (experiment(StopTime=2, Interval=0.001), Documentation(info="<html>
<p>As OneWayClutch with the clutch always open and a constant load on inertiaOut.
Reference: the MSL 4.0.0 reference result (tests/reference/msl).</p>
</html>"));
end OneWayClutchDisengaged;
