within Modelica.Mechanics.Translational.Components;
model SpringDamper "Linear spring and damper in parallel"
  extends Translational.Interfaces.PartialCompliantWithRelativeStates;
  parameter SI.TranslationalSpringConstant c(final min=0, start=1) "Spring constant";
  parameter SI.TranslationalDampingConstant d(final min=0, start=1) "Damping constant";
  parameter SI.Position s_rel0 = 0 "Unstretched spring length";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
protected
  SI.Force f_c "Spring force";
  SI.Force f_d "Damper force";
equation
  f_c = c*(s_rel - s_rel0);
  f_d = d*v_rel;
  f = f_c + f_d;
  lossPower = f_d*v_rel;
end SpringDamper;
