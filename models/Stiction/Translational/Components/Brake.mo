within Stiction.Translational.Components;
model Brake
  "Brake with normal force input: force cgeo*mu*fn times law(v) against the support (no events)"
  extends Modelica.Mechanics.Translational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  extends Stiction.Interfaces.PartialFrictionLaw;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  parameter SI.Velocity v_small = 1e-3
    "Not used (no stuck mode): the MSL machine's parameter, so that an MSL element's modifiers
     apply when stiction study substitutes this element for it";
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[v, mu] as in the MSL: friction coefficient vs |v|, interpolated linearly";
  parameter Real peak(final min=1) = 1 "Break-away level = peak times the Coulomb level";
  parameter SI.Velocity v_peak(min=1e-15) = 10*eps
    "Speed over which the break-away peak decays to the Coulomb level (Gaussian)";
  parameter Real cgeo(final min=0) = 1 "Geometry constant: friction force = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  SI.Position s "Position of the flanges relative to the support";
  SI.Velocity v "Velocity of the flanges relative to the support";
  SI.Acceleration a "Acceleration of the flanges relative to the support";
  SI.Force f "Brake force (positive when it brakes a forward motion)";
  SI.Force fn "Normal force (fn_max*f_normalized)";
  SI.Force f0 "Coulomb force at rest at the present normal force (table at v = 0)";
  SI.Force f_slide "Sliding force at the present normal force and |v| (table at |v|)";
  SI.Force f0_max "Break-away force at the present normal force";
  Modelica.Blocks.Interfaces.RealInput f_normalized "Normalized normal force, nominally 0..1";
equation
  s = flange_a.s - s_support;
  flange_b.s = flange_a.s;
  v = der(s);
  a = der(v);
  flange_a.f + flange_b.f - f = 0;
  fn = fn_max*f_normalized;
  f0 = Modelica.Math.tempInterpol1(0, mu_pos, 2)*cgeo*noEvent(max(fn, 0));
  f_slide = Modelica.Math.tempInterpol1(noEvent(abs(v)), mu_pos, 2)*cgeo*noEvent(max(fn, 0));
  f0_max = peak*f0;
  v_law = v;
  // the MSL slides with cgeo*fn*M(|v|); the peak refers to M(0)
  // the Stribeck magnitude of the C library with alpha = 2: the table's sliding level plus the
  // break-away peak decaying over v_peak (stiction_friction_stribeck_g, doc/friction.md)
  g_law = Stiction.Functions.stribeckMagnitude(f_slide, f_slide + f0_max - f0, v_peak, 2, v);
  f_max = f0_max;
  a_law = a;
  f = f_law;
  lossPower = f*v;
end Brake;
