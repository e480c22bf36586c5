within Stiction.Rotational.Components;
model BAMFriction
  "BAM servo friction budgets M1..M6 (spec/bam.md section 3) as a continuous element: frictionloss*law(w) + Kv*w"
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
  SI.Torque Q "M6 quadratic term (0 for the other models)";
  SI.Torque frictionloss "Budget without the viscous part; its value at w = 0 is the static limit";
protected
  SI.Torque dl = abs(tau_e - tau_m) "Load measure of M3 and M4";
equation
  phi = flange_a.phi - phi_support;
  flange_b.phi = flange_a.phi;
  w = der(phi);
  a = der(w);
  flange_a.tau + flange_b.tau - tau = 0;
  s_str = exp(-abs(w/w_s)^alpha);
  // M6 (bam.md section 3, as implemented): only for torques of different sign (sign(0) = 0), and
  // cross-wired: K_eq*tau_e^2 when the motor dominates, K_mq*tau_m^2 when the external torque does.
  // noEvent: the budget is a smooth-enough input to the regularized law; no modes to track.
  Q = if bamModel == 6 then noEvent(if sign(tau_e)*sign(tau_m) < 0.5 then
        (if abs(tau_e) < abs(tau_m) then Keq*tau_e^2 else if abs(tau_e) > abs(tau_m) then Kmq*tau_m^2 else 0)
      else 0) else 0;
  frictionloss = if bamModel == 1 then Kc
    else if bamModel == 2 then Kc + s_str*Kcs
    else if bamModel == 3 then Kc + Kl*dl
    else if bamModel == 4 then Kc + Kl*dl + s_str*(Kcs + Kls*dl)
    else Kc + abs(Ke*tau_e - Km*tau_m) + s_str*(Kcs + abs(Kes*tau_e - Kms*tau_m) + Q);
  // the budget K_v|w| + frictionloss limits the friction; regularized it becomes
  // frictionloss*law(w) + K_v*w, which at rest can hold any load below the static limit
  v_law = w;
  tau = s_law*frictionloss + Kv*w;
end BAMFriction;
