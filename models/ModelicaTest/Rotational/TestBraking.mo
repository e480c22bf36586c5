within ModelicaTest.Rotational;
model TestBraking "Inertias braked by speed-dependent, constant, regularised-sign and eddy current torques"
  extends Modelica.Icons.Example;
  Modelica.Mechanics.Rotational.Components.Inertia inertia1(J=1, phi(start=0, fixed=true), w(start=100, fixed=true));
  Modelica.Mechanics.Rotational.Sources.LinearSpeedDependentTorque linearSpeedDependentTorque(
    tau_nominal=-100, TorqueDirection=false, w_nominal=100);
  Modelica.Mechanics.Rotational.Components.Inertia inertia2(J=1, phi(start=0, fixed=true), w(start=100, fixed=true));
  Modelica.Mechanics.Rotational.Sources.QuadraticSpeedDependentTorque quadraticSpeedDependentTorque(
    tau_nominal=-100, TorqueDirection=false, w_nominal=100);
  Modelica.Mechanics.Rotational.Components.Inertia inertia3(J=1, phi(start=0, fixed=true), w(start=100, fixed=true));
  Modelica.Mechanics.Rotational.Sources.ConstantTorque constantTorque(tau_constant=-100);
  Modelica.Mechanics.Rotational.Components.Inertia inertia4(J=1, phi(start=0, fixed=true), w(start=100, fixed=true));
  Modelica.Mechanics.Rotational.Sources.SignTorque signTorque(tau_nominal=-100, w0=1);
  Modelica.Mechanics.Rotational.Components.Inertia inertia5(J=1, phi(start=0, fixed=true), w(start=20, fixed=true));
  Modelica.Mechanics.Rotational.Sources.EddyCurrentTorque eddyCurrentTorque(tau_nominal=-100,
    w_nominal=10, useHeatPort=true,
    alpha20=Modelica.Electrical.Machines.Thermal.Constants.alpha20Copper);
  Modelica.Thermal.HeatTransfer.Components.HeatCapacitor heatCapacitor(C=1, T(start=293.15, fixed=true));
equation
  connect(inertia1.flange_b, linearSpeedDependentTorque.flange);
  connect(inertia2.flange_b, quadraticSpeedDependentTorque.flange);
  connect(inertia3.flange_b, constantTorque.flange);
  connect(inertia4.flange_b, signTorque.flange);
  connect(inertia5.flange_b, eddyCurrentTorque.flange);
  connect(eddyCurrentTorque.heatPort, heatCapacitor.port);
  annotation (experiment(StopTime=2), Documentation(info="<html>
<p>Reference: the MSL 4.0.0 reference result (tests/reference/msl). The eddy current brake heats a 1 J/K capacity; its
nominal speed grows with the copper temperature coefficient.</p>
</html>"));
end TestBraking;
