within Modelica.Mechanics.Rotational.Components;
model Damper "Linear torsion damper: tau = d*w_rel"
  extends Rotational.Interfaces.PartialCompliantWithRelativeStates;
  parameter SI.RotationalDampingConstant d(final min=0, start=0) "Damping constant";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
equation
  tau = d*w_rel;
  lossPower = tau*w_rel;
end Damper;
