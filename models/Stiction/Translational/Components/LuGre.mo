within Stiction.Translational.Components;
model LuGre
  "LuGre bristle friction against the support (Canudas de Wit et al. 1995): state z, no events"
  extends Modelica.Mechanics.Translational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real sigma0(unit="N/m", min=0) = 1e5 "Bristle stiffness";
  parameter Real sigma1(unit="N.s/m", min=0) = sqrt(1e5) "Bristle damping";
  parameter Real sigma2(unit="N.s/m", min=0) = 0.4 "Viscous coefficient";
  parameter SI.Force F_c(min=1e-15) = 1 "Coulomb force";
  parameter SI.Force F_s(min=1e-15) = 1.5 "Static force";
  parameter SI.Velocity v_s(min=1e-15) = 0.001 "Stribeck velocity";
  parameter Real alpha(min=1e-3) = 2 "Shape exponent of the Stribeck curve";
  SI.Position s "Position of the flanges relative to the support";
  SI.Velocity v "Velocity of the flanges relative to the support";
  SI.Acceleration a "Acceleration of the flanges relative to the support";
  SI.Force f "Friction force (positive when it brakes a forward motion)";
  Real z(unit="m", start=0, fixed=true) "Mean bristle deflection";
  Real zdot(unit="m/s") "der(z)";
  SI.Force g "Stribeck curve g(v): steady sliding force without the viscous part";
equation
  s = flange_a.s - s_support;
  flange_b.s = flange_a.s;
  v = der(s);
  a = der(v);
  flange_a.f + flange_b.f - f = 0;
  // doc/benchmarks.md section 3; steady sliding: z = g/sigma0*sign(v), f = g(v)*sign(v) + sigma2*v
  // (stiction_friction_stribeck_g, stiction_friction_lugre of include/stiction/friction.h)
  g = Stiction.Functions.stribeckMagnitude(F_c, F_s, v_s, alpha, v);
  zdot = Stiction.Functions.lugreZdotG(sigma0, sigma1, sigma2, g, z, v);
  der(z) = zdot;
  f = Stiction.Functions.lugreForceG(sigma0, sigma1, sigma2, g, z, v);
end LuGre;
