within Modelica.Mechanics.Rotational.Components;
model ElastoBacklash2
  "Backlash with spring and damper; contact state as a Boolean (free) with events at the contact points"
  extends Rotational.Interfaces.PartialCompliantWithRelativeStates;
  parameter SI.RotationalSpringConstant c(final min=Modelica.Constants.small, start=1.0e5)
    "Spring constant (c > 0)";
  parameter SI.RotationalDampingConstant d(final min=0, start=0) "Damping constant";
  parameter SI.Angle b(final min=0) = 0 "Total backlash";
  parameter SI.Angle phi_rel0 = 0 "Unstretched relative angle (middle of the backlash)";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  Boolean free "true: inside the backlash, no torque";
protected
  final parameter SI.Angle bMax = b/2 "Upper end of the dead zone (relative to phi_rel0)";
  final parameter SI.Angle bMin = -bMax "Lower end of the dead zone";
  SI.Angle phi_diff = phi_rel - phi_rel0 "Deflection from the middle of the backlash";
  SI.Torque tau_c "Spring torque";
  SI.Torque tau_d "Damper torque";
equation
  free = phi_diff <= bMax and phi_diff >= bMin;
  tau_c = if free then 0 else (if phi_diff > bMax then c*(phi_diff - bMax) else c*(phi_diff - bMin));
  tau_d = if free then 0 else d*w_rel;
  // as in ElastoBacklash the damper cannot reverse the contact torque
  tau = if free then 0
    else if phi_diff > bMax then smooth(0, noEvent(max(tau_c + tau_d, 0)))
    else smooth(0, noEvent(min(tau_c + tau_d, 0)));
  lossPower = (tau - tau_c)*w_rel;
end ElastoBacklash2;
