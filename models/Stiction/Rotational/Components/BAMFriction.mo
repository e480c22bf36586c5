within Stiction.Rotational.Components;
model BAMFriction
  "BAM servo friction budgets M1..M6 (doc/bam.md section 3) as a continuous element: frictionloss*law(w) + Kv*w"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
  extends Stiction.Interfaces.PartialRegularizedSign;
  parameter Integer bamModel(min=1, max=6) = 6 "BAM model number: 1 Coulomb-viscous .. 6 directional + quadratic";
  parameter SI.Torque Kc(min=0) = 0.05 "friction_base: Coulomb friction";
  parameter Real Kv(unit="N.m.s/rad", min=0) = 0.1 "friction_viscous";
  parameter SI.Torque Kcs(min=0) = 0.05 "friction_stribeck: extra static friction at rest (M2, M4..M6)";
  parameter SI.AngularVelocity w_s(min=1e-15) = 0.2 "dtheta_stribeck: Stribeck speed";
  parameter Real alpha(min=1e-3) = 1.35 "Stribeck shape exponent";
  parameter Real Kl(min=0) = 0.05 "load_friction_base (M3, M4)";
  parameter Real Kls(min=0) = 0.05 "load_friction_stribeck (M4)";
  parameter Real Km(min=0) = 0.05 "load_friction_motor (M5, M6)";
  parameter Real Ke(min=0) = 0.05 "load_friction_external (M5, M6)";
  parameter Real Kms(min=0) = 0.05 "load_friction_motor_stribeck (M5, M6)";
  parameter Real Kes(min=0) = 0.05 "load_friction_external_stribeck (M5, M6)";
  parameter Real Kmq(unit="1/(N.m)", min=0) = 0 "load_friction_motor_quad: multiplies tau_m^2 (M6)";
  parameter Real Keq(unit="1/(N.m)", min=0) = 0 "load_friction_external_quad: multiplies tau_e^2 (M6)";
  Modelica.Blocks.Interfaces.RealInput tau_m(unit="N.m") "Motor torque acting on the joint";
  Modelica.Blocks.Interfaces.RealInput tau_e(unit="N.m") "External (gravity) torque acting on the joint";
  SI.Angle phi "Joint angle relative to the support";
  SI.AngularVelocity w "Joint speed relative to the support";
  SI.AngularAcceleration a "Joint acceleration relative to the support";
  SI.Torque tau "Friction torque (positive when it brakes a forward motion)";
  Real s_str(final unit="1") "Stribeck factor exp(-|w/w_s|^alpha): 1 at rest, 0 when sliding fast";
  SI.Torque frictionloss "Budget without the viscous part; its value at w = 0 is the static limit";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  s_str = exp(-abs(w/w_s)^alpha);
  // the budget of include/stiction/bam.h (stiction_bam_friction, doc/bam.md section 3, M6 with its
  // opposite-sign gate as BAM implements it); a function call makes no events: the budget is
  // a smooth-enough input to the regularized law, with no modes to track
  frictionloss = Stiction.Functions.bamFrictionloss(bamModel, Kc, Kcs, w_s, alpha, Kl, Kls, Km, Ke,
    Kms, Kes, Kmq, Keq, tau_m, tau_e, w);
  // the budget K_v|w| + frictionloss limits the friction; regularized it becomes
  // frictionloss*law(w) + K_v*w, which at rest can hold any load below the static limit
  v_law = w;
  tau = s_law*frictionloss + Kv*w;
end BAMFriction;
