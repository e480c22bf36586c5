within Modelica.Mechanics.Rotational.Components;
model ElastoBacklash
  "Backlash (dead zone of total width b) in series with a spring and damper; contact only pushes"
  extends Rotational.Interfaces.PartialCompliantWithRelativeStates;
  parameter SI.RotationalSpringConstant c(final min=Modelica.Constants.small, start=1.0e5)
    "Spring constant (c > 0)";
  parameter SI.RotationalDampingConstant d(final min=0, start=0) "Damping constant";
  parameter SI.Angle b(final min=0) = 0 "Total backlash";
  parameter SI.Angle phi_rel0 = 0 "Unstretched relative angle (middle of the backlash)";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
protected
  final parameter SI.Angle bMax = b/2 "Upper end of the dead zone (relative to phi_rel0)";
  final parameter SI.Angle bMin = -bMax "Lower end of the dead zone";
  SI.Torque tau_c "Spring torque";
  SI.Torque tau_d "Damper torque";
  SI.Angle phi_diff = phi_rel - phi_rel0 "Deflection from the middle of the backlash";
  // below this backlash the element is an ordinary spring-damper, otherwise a zero b would
  // give an endless sequence of contact events
  constant SI.Angle bEps = 1e-10 "Smallest backlash treated as a dead zone";
equation
  if initial() then
    // During initialization a strictly monotone characteristic (slope c/3 inside
    // +-1.5*b/2, meeting the contact lines there) so that a deflection is found uniquely
    // from a torque even inside the dead zone.
    tau_c = if phi_diff > 1.5*bMax then c*(phi_diff - bMax)
      else if phi_diff < 1.5*bMin then c*(phi_diff - bMin)
      else (c/3)*phi_diff;
    tau_d = d*w_rel;
    tau = tau_c + tau_d;
    lossPower = tau_d*w_rel;
  else
    tau_c = if bMax > bEps then (if phi_diff > bMax then c*(phi_diff - bMax)
      else if phi_diff < bMin then c*(phi_diff - bMin) else 0)
      else c*phi_diff;
    tau_d = d*w_rel;
    // In contact the damper may not pull the parts together (total torque keeps the sign of
    // the spring torque) and may at most double the spring torque.
    tau = if bMax > bEps then (if phi_diff > bMax then smooth(0, noEvent(if tau_c + tau_d <= 0 then 0 else tau_c + min(tau_c, tau_d)))
      else if phi_diff < bMin then smooth(0, noEvent(if tau_c + tau_d >= 0 then 0 else tau_c + max(tau_c, tau_d)))
      else 0)
      else tau_c + tau_d;
    lossPower = (tau - tau_c)*w_rel;
  end if;
end ElastoBacklash;
