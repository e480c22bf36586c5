within Stiction.Rotational.Components;
model LuGre
  "LuGre bristle friction against the support (Canudas de Wit et al. 1995): state z, no events"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  parameter Real sigma0(unit="N.m/rad", min=0) = 1e5 "Bristle stiffness";
  parameter Real sigma1(unit="N.m.s/rad", min=0) = sqrt(1e5) "Bristle damping";
  parameter Real sigma2(unit="N.m.s/rad", min=0) = 0.4 "Viscous coefficient";
  parameter SI.Torque tau_c(min=1e-15) = 1 "Coulomb torque";
  parameter SI.Torque tau_s(min=1e-15) = 1.5 "Static torque";
  parameter SI.AngularVelocity w_s(min=1e-15) = 0.001 "Stribeck speed";
  parameter Real alpha(min=1e-3) = 2 "Shape exponent of the Stribeck curve";
  SI.Angle phi "Angle of the flanges relative to the support";
  SI.AngularVelocity w "Angular velocity of the flanges relative to the support";
  SI.AngularAcceleration a "Angular acceleration of the flanges relative to the support";
  SI.Torque tau "Friction torque (positive when it brakes a forward motion)";
  Real z(unit="rad", start=0, fixed=true) "Mean bristle deflection";
  Real zdot(unit="rad/s") "der(z)";
  SI.Torque g "Stribeck curve g(w): steady sliding torque without the viscous part";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  // doc/benchmarks.md section 3: dz/dt = w - sigma0*|w|*z/g(w); at steady sliding z = g/sigma0*sign(w),
  // so tau = g(w)*sign(w) + sigma2*w, the Stribeck curve
  // (stiction_friction_stribeck_g, stiction_friction_lugre of include/stiction/friction.h)
  g = Stiction.Functions.stribeckMagnitude(tau_c, tau_s, w_s, alpha, w);
  zdot = Stiction.Functions.lugreZdotG(sigma0, sigma1, sigma2, g, z, w);
  der(z) = zdot;
  tau = Stiction.Functions.lugreForceG(sigma0, sigma1, sigma2, g, z, w);
end LuGre;
