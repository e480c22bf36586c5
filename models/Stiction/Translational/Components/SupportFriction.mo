within Stiction.Translational.Components;
model SupportFriction
  "Friction against the support: Coulomb force with a break-away peak, times law(v) (no events)"
  extends Modelica.Mechanics.Translational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  extends Stiction.Interfaces.PartialFrictionLaw;
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  parameter SI.Velocity v_small = 1e-3
    "Not used (no stuck mode): the MSL machine's parameter, so that an MSL element's modifiers
     apply when stiction study substitutes this element for it";
  parameter Real f_pos[:, 2] = [0, 1]
    "[v, f] as in the MSL: sliding force (N) vs |v|, interpolated linearly";
  parameter Real peak(final min=1) = 1 "Break-away level = peak times the Coulomb level";
  parameter SI.Velocity v_peak(min=1e-15) = 10*eps
    "Speed over which the break-away peak decays to the Coulomb level (Gaussian)";
  SI.Position s "Position of the flanges relative to the support";
  SI.Velocity v "Velocity of the flanges relative to the support";
  SI.Acceleration a "Acceleration of the flanges relative to the support";
  SI.Force f "Friction force (positive when it brakes a forward motion)";
  SI.Force f0 "Coulomb friction force at rest (table at v = 0)";
  SI.Force f_slide "Sliding force of the table at |v|";
  SI.Force f0_max "Break-away friction force";
equation
  s = flange_a.s - s_support;
  flange_b.s = flange_a.s;
  v = der(s);
  a = der(v);
  flange_a.f + flange_b.f - f = 0;
  f0 = Modelica.Math.tempInterpol1(0, f_pos, 2);
  f_slide = Modelica.Math.tempInterpol1(noEvent(abs(v)), f_pos, 2);
  f0_max = peak*f0;
  v_law = v;
  // the Stribeck magnitude of the C library with alpha = 2: the table's sliding level plus the
  // break-away peak decaying over v_peak (stiction_friction_stribeck_g, doc/friction.md)
  g_law = Stiction.Functions.stribeckMagnitude(f_slide, f_slide + f0_max - f0, v_peak, 2, v);
  f_max = f0_max;
  a_law = a;
  f = f_law;
  lossPower = f*v;
end SupportFriction;
