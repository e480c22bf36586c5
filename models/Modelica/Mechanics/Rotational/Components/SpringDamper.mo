within Modelica.Mechanics.Rotational.Components;
model SpringDamper "Torsion spring and damper in parallel"
  extends Rotational.Interfaces.PartialCompliantWithRelativeStates;
  parameter SI.RotationalSpringConstant c(final min=0, start=1.0e5) "Spring constant";
  parameter SI.RotationalDampingConstant d(final min=0, start=0) "Damping constant";
  parameter SI.Angle phi_rel0 = 0 "Unstretched relative angle";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
protected
  SI.Torque tau_c "Spring torque";
  SI.Torque tau_d "Damper torque";
equation
  tau_c = c*(phi_rel - phi_rel0);
  tau_d = d*w_rel;
  tau = tau_c + tau_d;
  lossPower = tau_d*w_rel;
end SpringDamper;
