within Stiction.Rotational.Components;
model BAMStuckSlip
  "BAM friction budgets M1..M6 (doc/bam.md section 7) as an event-driven stuck/slip element: static limit = budget at rest"
  extends Modelica.Mechanics.Rotational.Interfaces.PartialElementaryTwoFlangesAndSupport2;
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
  Real s_str(final unit="1") "Stribeck factor exp(-|w/w_s|^alpha): 1 at rest";
  SI.Torque frictionloss "Budget without the viscous part";
  SI.Torque tau_static "Static limit: the budget at rest (w = 0)";
  // the stuck/slip machine of Modelica.Mechanics.Rotational.Interfaces.PartialFriction with
  // the load-dependent static limit in place of tau0_max (as Stiction LeineFriction)
  Real sa(final unit="1") "Path parameter: holding torque when stuck, acceleration offset otherwise";
  Boolean startForward(start=false, fixed=true) "Starts to slide forward";
  Boolean startBackward(start=false, fixed=true) "Starts to slide backward";
  Boolean locked(start=false) "Stuck (relative acceleration zero)";
  Boolean overForward "Holding torque above the static limit";
  Boolean overBackward "Holding torque below minus the static limit";
  Integer mode(start=0, fixed=true) "1 forward, 0 stuck, -1 backward";
protected
  constant Integer Forward = 1;
  constant Integer Stuck = 0;
  constant Integer Backward = -1;
  SI.Torque g = frictionloss + Kv*abs(w) "Sliding torque magnitude";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  s_str = exp(-abs(w/w_s)^alpha);
  // the budget of include/stiction/bam.h (doc/bam.md section 3, M6 with its sign gate): sliding at
  // the present speed, and at rest for the static limit
  frictionloss = Stiction.Functions.bamFrictionloss(bamModel, Kc, Kcs, w_s, alpha, Kl, Kls, Km, Ke,
    Kms, Kes, Kmq, Keq, tau_m, tau_e, w);
  tau_static = Stiction.Functions.bamFrictionloss(bamModel, Kc, Kcs, w_s, alpha, Kl, Kls, Km, Ke,
    Kms, Kes, Kmq, Keq, tau_m, tau_e, 0);
  // doc/bam.md section 7: stuck <=> w = 0 and |drive| <= tau_static(tau_m, tau_e); sliding
  // tau = sign(w)*(frictionloss(w) + Kv*|w|). The relations sa > tau_static are the root
  // functions that locate the break-away on the moving, load-dependent limit.
  // the relations are their own equations (evaluated at every event, not behind the
  // short-circuit of pre(mode) == Stuck): right after a break-away sa - tau_static = a is
  // still ~0, and a relation left unevaluated there kept re-firing (chattering)
  overForward = sa > tau_static;
  overBackward = sa < -tau_static;
  startForward = pre(mode) == Stuck and (overForward or pre(startForward) and overForward)
    or initial() and w > 0;
  startBackward = pre(mode) == Stuck and (overBackward or pre(startBackward) and overBackward)
    or initial() and w < 0;
  locked = not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
  a = if locked then 0
    else if startForward then sa - tau_static
    else if startBackward then sa + tau_static
    else if pre(mode) == Forward then sa - tau_static
    else sa + tau_static;
  tau = if locked then sa
    else if startForward then g
    else if startBackward then -g
    else if pre(mode) == Forward then g
    else -g;
  mode = if (pre(mode) == Forward or startForward) and w > 0 then Forward
    else if (pre(mode) == Backward or startBackward) and w < 0 then Backward
    else Stuck;
  annotation (Documentation(info="<html>
<p>The continuous hybrid tier of doc/bam.md section 7: the joint is stuck (w = 0, tau
the holding torque) while the holding torque stays within the BAM budget at rest
tau_static(tau_m, tau_e) = frictionloss(tau_m, tau_e, 0), and slides with tau =
sign(w)*(frictionloss(w) + Kv*|w|) otherwise. frictionloss is the budget of M1..M6 without
its viscous part, computed by the C library (Stiction.Functions.bamFrictionloss, i.e.
include/stiction/bam.h stiction_bam_friction). Because tau_m and
tau_e move the limit, the break-away is where the holding torque meets a moving limit; the
relation sa &gt; tau_static is the root function that finds it.</p>
</html>"));
end BAMStuckSlip;
