within Modelica.Mechanics.Translational.Components;
model SupportFriction
  "Coulomb friction against the support, with break-away peak and stuck/slip events"
  extends Translational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real f_pos[:, 2] = [0, 1] "[v, f]: friction force f (N) over speed v >= 0 (m/s)";
  parameter Real peak(final min=1) = 1 "Break-away force = peak*f_pos[1, 2]";
  extends Translational.Interfaces.PartialFriction;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  SI.Position s "Position of the flanges relative to the support";
  SI.Force f "Friction force (positive when it brakes a forward motion)";
  SI.Velocity v "Velocity relative to the support";
  SI.Acceleration a "Acceleration relative to the support";
equation
  s = s_a;
  s = s_b;
  v = der(s);
  a = der(v);
  v_relfric = v;
  a_relfric = a;
  f = flange_a.f + flange_b.f;
  f0 = Modelica.Math.tempInterpol1(0, f_pos, 2);
  f0_max = peak*f0;
  free = false;
  f = if locked then sa*unitForce
    else if startForward then Modelica.Math.tempInterpol1(v, f_pos, 2)
    else if startBackward then -Modelica.Math.tempInterpol1(-v, f_pos, 2)
    else if pre(mode) == Forward then Modelica.Math.tempInterpol1(v, f_pos, 2)
    else -Modelica.Math.tempInterpol1(-v, f_pos, 2);
  lossPower = f*v_relfric;
end SupportFriction;
