within ModelicaTest.Translational;
model TestBraking "Masses braked by speed-dependent, constant, regularised-sign and eddy current forces"
  extends Modelica.Icons.Example;
  Modelica.Mechanics.Translational.Components.Mass mass1(m=1, s(start=0, fixed=true), v(start=100, fixed=true));
  Modelica.Mechanics.Translational.Sources.LinearSpeedDependentForce linearSpeedDependentForce(
    f_nominal=-100, ForceDirection=false, v_nominal=100);
  Modelica.Mechanics.Translational.Components.Mass mass2(m=1, s(start=0, fixed=true), v(start=100, fixed=true));
  Modelica.Mechanics.Translational.Sources.QuadraticSpeedDependentForce quadraticSpeedDependentForce(
    f_nominal=-100, ForceDirection=false, v_nominal=100);
  Modelica.Mechanics.Translational.Components.Mass mass3(m=1, s(start=0, fixed=true), v(start=100, fixed=true));
  Modelica.Mechanics.Translational.Sources.ConstantForce constantForce(f_constant=-100);
  Modelica.Mechanics.Translational.Components.Mass mass4(m=1, s(start=0, fixed=true), v(start=100, fixed=true));
  Modelica.Mechanics.Translational.Sources.SignForce signForce(f_nominal=-100, v0=1);
  Modelica.Mechanics.Translational.Components.Mass mass5(m=1, s(start=0, fixed=true), v(start=20, fixed=true));
  Modelica.Mechanics.Translational.Sources.EddyCurrentForce eddyCurrentForce(f_nominal=-100,
    v_nominal=10, useHeatPort=true,
    alpha20=Modelica.Electrical.Machines.Thermal.Constants.alpha20Copper);
  Modelica.Thermal.HeatTransfer.Components.HeatCapacitor heatCapacitor(C=1, T(start=293.15, fixed=true));
equation
  connect(mass1.flange_b, linearSpeedDependentForce.flange);
  connect(mass2.flange_b, quadraticSpeedDependentForce.flange);
  connect(mass3.flange_b, constantForce.flange);
  connect(mass4.flange_b, signForce.flange);
  connect(mass5.flange_b, eddyCurrentForce.flange);
  connect(eddyCurrentForce.heatPort, heatCapacitor.port);
  annotation (experiment(StopTime=2), Documentation(info="<html>
<p>Reference: the MSL 4.0.0 reference result (tests/reference/msl). The eddy current brake heats a 1 J/K capacity; its
nominal speed grows with the copper temperature coefficient.</p>
</html>"));
end TestBraking;
