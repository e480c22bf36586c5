within Modelica.Mechanics.Translational.Components;
model Brake "Brake with normal force input: Coulomb friction against the support, stuck/slip events"
  extends Translational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real mu_pos[:, 2] = [0, 0.5] "[v, mu]: friction coefficient over speed v >= 0 (m/s)";
  parameter Real peak(final min=1) = 1 "Break-away coefficient = peak*mu_pos[1, 2]";
  parameter Real cgeo(final min=0) = 1 "Geometry constant: friction force = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  extends Translational.Interfaces.PartialFriction;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  SI.Position s "Position of the flanges relative to the support";
  SI.Force f "Brake force (positive when it brakes a forward motion)";
  SI.Velocity v "Velocity relative to the support";
  SI.Acceleration a "Acceleration relative to the support";
  Real mu0 "Friction coefficient at v = 0 (forward sliding)";
  SI.Force fn "Normal force (fn = fn_max*f_normalized)";
  Modelica.Blocks.Interfaces.RealInput f_normalized
    "Normalized normal force, nominally 0..1 (not limited)";
equation
  mu0 = Modelica.Math.tempInterpol1(0, mu_pos, 2);
  s = s_a;
  s = s_b;
  v = der(s);
  a = der(v);
  v_relfric = v;
  a_relfric = a;
  f = flange_a.f + flange_b.f;
  fn = fn_max*f_normalized;
  free = fn <= 0;
  f0 = mu0*cgeo*fn;
  f0_max = peak*f0;
  f = if locked then sa*unitForce
    else if free then 0
    else cgeo*fn*(if startForward then Modelica.Math.tempInterpol1(v, mu_pos, 2)
      else if startBackward then -Modelica.Math.tempInterpol1(-v, mu_pos, 2)
      else if pre(mode) == Forward then Modelica.Math.tempInterpol1(v, mu_pos, 2)
      else -Modelica.Math.tempInterpol1(-v, mu_pos, 2));
  lossPower = f*v_relfric;
end Brake;
