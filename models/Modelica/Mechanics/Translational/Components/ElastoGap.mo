within Modelica.Mechanics.Translational.Components;
model ElastoGap "Spring-damper that only acts in contact (s_rel < s_rel0) and only pushes"
  extends Translational.Interfaces.PartialCompliantWithRelativeStates;
  parameter SI.TranslationalSpringConstant c(final min=0, start=1) "Spring constant";
  parameter SI.TranslationalDampingConstant d(final min=0, start=1) "Damping constant";
  parameter SI.Position s_rel0 = 0 "Unstretched spring length (contact below it)";
  parameter Real n(final min=1) = 1 "Exponent of the spring force: f_c = -c*|s_rel - s_rel0|^n";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  Boolean contact "true: the flanges are in contact";
protected
  SI.Force f_c "Spring force (<= 0 in contact)";
  SI.Force f_d2 "Unlimited damping force";
  SI.Force f_d "Damping force, limited to |f_d| <= |f_c|";
equation
  // the contact relation generates the events; the force expressions themselves do not
  contact = s_rel < s_rel0;
  f_c = smooth(1, noEvent(if contact then -c*abs(s_rel - s_rel0)^n else 0));
  f_d2 = if contact then d*v_rel else 0;
  // the damper may neither pull the flanges together nor more than double the contact force
  f_d = smooth(0, noEvent(if contact then (if f_d2 < f_c then f_c else if f_d2 > -f_c then -f_c else f_d2) else 0));
  f = f_c + f_d;
  lossPower = f_d*v_rel;
end ElastoGap;
