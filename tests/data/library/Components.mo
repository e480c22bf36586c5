// Every component of issue 5's list instantiated with its MSL parameter names, in small
// independent subsystems with closed forms where there is one (tests/test_library_parts.c).
// Each modifier names a parameter: a name the library lacks is a flattening error.
package Components
  model RotationalParts
    import Modelica.Mechanics.Rotational.Components;
    import Modelica.Mechanics.Rotational.Sources;
    // spring - inertia: phi = 0.1 cos(10 t)
    Components.Fixed fixed(phi0 = 0);
    Components.Spring spring(c = 100, phi_rel0 = 0);
    Components.Inertia Js(J = 1, phi(start = 0.1, fixed = true), w(start = 0, fixed = true));
    // damper - inertia: w = exp(-2 t)
    Components.Damper damper(d = 2);
    Components.Inertia Jd(J = 1, phi(start = 0, fixed = true), w(start = 1, fixed = true));
    // spring-damper - inertia: phi = exp(-t) (0.1 cos(wd t) + 0.1/wd sin(wd t)), wd = sqrt(99)
    Components.SpringDamper springDamper(c = 100, d = 2, phi_rel0 = 0);
    Components.Inertia Jsd(J = 1, phi(start = 0.1, fixed = true), w(start = 0, fixed = true));
    // backlash elements: inertias released against a fixed flange
    Components.ElastoBacklash backlash(c = 1e4, d = 10, b = 0.02, phi_rel0 = 0);
    Components.Inertia Jb(J = 1, phi(start = 0, fixed = true), w(start = 1, fixed = true));
    Components.ElastoBacklash2 backlash2(c = 1e4, d = 10, b = 0.02, phi_rel0 = 0);
    Components.Inertia Jb2(J = 1, phi(start = 0, fixed = true), w(start = 1, fixed = true));
    // ideal gear, ratio 2, constant torque 2 on J1 = 1, J2 = 3: a2 = 4/7
    Sources.ConstantTorque torque(tau_constant = 2);
    Components.Inertia Jg1(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
    Components.IdealGear gear(ratio = 2);
    Components.Inertia Jg2(J = 3);
    // planetary with the ring fixed: (1 + ratio) w_carrier = w_sun
    Components.IdealPlanetary planetary(ratio = 2);
    Components.Fixed ringFixed;
    Sources.ConstantTorque sunTorque(tau_constant = 1);
    Components.Inertia Jsun(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
    Components.Inertia Jcarrier(J = 1);
    // bearing friction (against its support, fixed: useSupport = false) 1 N.m on J = 1 from
    // w = 2: w = 2 - t
    Components.BearingFriction bearing(tau_pos = [0, 1], peak = 1);
    Components.Inertia Jf(J = 1, phi(start = 0, fixed = true), w(start = 2, fixed = true));
    // brake cgeo*mu*fn = 1*0.5*2 = 1 N.m on J = 1 from w = 2: w = 2 - t
    Components.Brake brake(mu_pos = [0, 0.5], peak = 1, cgeo = 1, fn_max = 2);
    Components.Inertia Jbr(J = 1, phi(start = 0, fixed = true), w(start = 2, fixed = true));
    Modelica.Blocks.Sources.Constant one(k = 1);
    // clutch 5 N.m between J = 1 at w = 10 and J = 1 at rest: locked at t = 1 at w = 5
    Components.Clutch clutch(mu_pos = [0, 0.5], peak = 1, cgeo = 1, fn_max = 10);
    Components.Inertia Jc1(J = 1, phi(start = 0, fixed = true), w(start = 10, fixed = true));
    Components.Inertia Jc2(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
    // one-way clutch between a fixed flange and an inertia
    Components.OneWayClutch oneWay(mu_pos = [0, 0.5], peak = 1, cgeo = 1, fn_max = 10);
    Components.Inertia Jo(J = 1, phi(start = 0, fixed = true), w(start = 1, fixed = true));
    // lossless LossyGear, ratio 1, torque 2 on J = 1 + 3: a = 0.5
    Sources.ConstantTorque torqueL(tau_constant = 2);
    Components.Inertia Jl1(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
    Components.LossyGear lossyGear(ratio = 1, lossTable = [0, 1, 1, 0, 0]);
    Components.Inertia Jl2(J = 3);
    // sources on inertias J = 1 from rest unless said
    Sources.Torque tauIn;                                       // tau = 1: w = t
    Components.Inertia Jt(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
    Sources.TorqueStep step(stepTorque = 2, offsetTorque = 0, startTime = 0.5); // w(1) = 1
    Components.Inertia Jst(J = 1, phi(start = 0, fixed = true), w(start = 0, fixed = true));
    Sources.QuadraticSpeedDependentTorque quad(tau_nominal = -1, TorqueDirection = false,
      w_nominal = 1);                                           // w' = -w^2: w = 1/(1 + t)
    Components.Inertia Jq(J = 1, phi(start = 0, fixed = true), w(start = 1, fixed = true));
    Sources.SignTorque sign(tau_nominal = -1, w0 = 1e-3);       // w = 2 - t
    Components.Inertia Jsg(J = 1, phi(start = 0, fixed = true), w(start = 2, fixed = true));
    Sources.Speed speed(exact = false, f_crit = 50);            // w -> 1 (first order, 1/(100 pi))
    Components.Inertia Jsp(J = 1);
    Sources.Position position(exact = false, f_crit = 50);      // phi -> 1
    Components.Inertia Jp(J = 1);
  equation
    connect(fixed.flange, spring.flange_a);
    connect(spring.flange_b, Js.flange_a);
    connect(fixed.flange, damper.flange_a);
    connect(damper.flange_b, Jd.flange_a);
    connect(fixed.flange, springDamper.flange_a);
    connect(springDamper.flange_b, Jsd.flange_a);
    connect(fixed.flange, backlash.flange_a);
    connect(backlash.flange_b, Jb.flange_a);
    connect(fixed.flange, backlash2.flange_a);
    connect(backlash2.flange_b, Jb2.flange_a);
    connect(torque.flange, Jg1.flange_a);
    connect(Jg1.flange_b, gear.flange_a);
    connect(gear.flange_b, Jg2.flange_a);
    connect(ringFixed.flange, planetary.ring);
    connect(sunTorque.flange, Jsun.flange_a);
    connect(Jsun.flange_b, planetary.sun);
    connect(planetary.carrier, Jcarrier.flange_a);
    connect(Jf.flange_b, bearing.flange_a);
    connect(Jbr.flange_b, brake.flange_a);
    connect(one.y, brake.f_normalized);
    connect(Jc1.flange_b, clutch.flange_a);
    connect(clutch.flange_b, Jc2.flange_a);
    connect(one.y, clutch.f_normalized);
    connect(fixed.flange, oneWay.flange_a);
    connect(oneWay.flange_b, Jo.flange_a);
    connect(one.y, oneWay.f_normalized);
    connect(torqueL.flange, Jl1.flange_a);
    connect(Jl1.flange_b, lossyGear.flange_a);
    connect(lossyGear.flange_b, Jl2.flange_a);
    connect(one.y, tauIn.tau);
    connect(tauIn.flange, Jt.flange_a);
    connect(step.flange, Jst.flange_a);
    connect(quad.flange, Jq.flange_a);
    connect(sign.flange, Jsg.flange_a);
    connect(one.y, speed.w_ref);
    connect(speed.flange, Jsp.flange_a);
    connect(one.y, position.phi_ref);
    connect(position.flange, Jp.flange_a);
    annotation(experiment(StopTime = 1, Interval = 0.01));
  end RotationalParts;
  model TranslationalParts
    import Modelica.Mechanics.Translational.Components;
    import Modelica.Mechanics.Translational.Sources;
    // spring - mass: s = 0.1 cos(10 t)
    Components.Fixed fixed(s0 = 0);
    Components.Spring spring(c = 100, s_rel0 = 0);
    Components.Mass ms(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
    // damper - mass: v = exp(-2 t)
    Components.Damper damper(d = 2);
    Components.Mass md(m = 1, s(start = 0, fixed = true), v(start = 1, fixed = true));
    // spring-damper - mass: as the rotational one
    Components.SpringDamper springDamper(c = 100, d = 2, s_rel0 = 0);
    Components.Mass msd(m = 1, s(start = 0.1, fixed = true), v(start = 0, fixed = true));
    // rod of length 0.5 on a fixed point at 1: its far flange at 1.5
    Components.Fixed fixed1(s0 = 1);
    Components.Rod rod(L = 0.5);
    // elastic gap: a mass at v = 1 from s = 0.05 reaches the contact (s_rel0 = 0) at t = 0.05
    Components.ElastoGap gap(c = 1e4, d = 10, s_rel0 = 0, n = 1);
    Components.Mass mg(m = 1, s(start = -0.05, fixed = true), v(start = 1, fixed = true));
    // support friction 1 N and a brake cgeo*mu*fn = 1 N on m = 1 from v = 2: v = 2 - t
    Components.SupportFriction supportFriction(f_pos = [0, 1], peak = 1);
    Components.Mass mf(m = 1, s(start = 0, fixed = true), v(start = 2, fixed = true));
    Components.Brake brake(mu_pos = [0, 0.5], peak = 1, cgeo = 1, fn_max = 2);
    Components.Mass mb(m = 1, s(start = 0, fixed = true), v(start = 2, fixed = true));
    Modelica.Blocks.Sources.Constant one(k = 1);
    // mass with stops and Coulomb friction 1 N only, from v = 2: v = 2 - t
    Components.MassWithStopAndFriction stopMass(L = 0, m = 1, F_prop = 0, F_Coulomb = 1,
      F_Stribeck = 0, fexp = 2, smax = 25, smin = -25, v(start = 2, fixed = true));
    // sources on masses m = 1 from rest unless said
    Sources.Force force;                                    // f = 1: v = t
    Components.Mass mforce(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
    Sources.ConstantForce constantForce(f_constant = 1);    // v = t
    Components.Mass mconst(m = 1, s(start = 0, fixed = true), v(start = 0, fixed = true));
    Sources.SignForce signForce(f_nominal = -1, v0 = 1e-3); // v = 2 - t
    Components.Mass msign(m = 1, s(start = 0, fixed = true), v(start = 2, fixed = true));
    Sources.Speed speed(exact = false, f_crit = 50);        // v -> 1
    Components.Mass mspeed(m = 1);
    Sources.Position position(exact = false, f_crit = 50);  // s -> 1
    Components.Mass mpos(m = 1);
  equation
    connect(fixed.flange, spring.flange_a);
    connect(spring.flange_b, ms.flange_a);
    connect(fixed.flange, damper.flange_a);
    connect(damper.flange_b, md.flange_a);
    connect(fixed.flange, springDamper.flange_a);
    connect(springDamper.flange_b, msd.flange_a);
    connect(fixed1.flange, rod.flange_a);
    connect(mg.flange_b, gap.flange_a);
    connect(gap.flange_b, fixed.flange);
    connect(mf.flange_b, supportFriction.flange_a);
    connect(mb.flange_b, brake.flange_a);
    connect(one.y, brake.f_normalized);
    connect(one.y, force.f);
    connect(force.flange, mforce.flange_a);
    connect(constantForce.flange, mconst.flange_a);
    connect(signForce.flange, msign.flange_a);
    connect(one.y, speed.v_ref);
    connect(speed.flange, mspeed.flange_a);
    connect(one.y, position.s_ref);
    connect(position.flange, mpos.flange_a);
    annotation(experiment(StopTime = 1, Interval = 0.01));
  end TranslationalParts;

  model BlocksAndHeat
    import Modelica.Blocks.Sources;
    import Modelica.Blocks.Math;
    Sources.Constant constant1(k = 2);
    Sources.Step step(height = 3, offset = 1, startTime = 0.5);
    Sources.Ramp ramp(height = 2, duration = 0.5, offset = 1, startTime = 0.25);
    Sources.Sine sine(amplitude = 2, f = 0.5, phase = 0, offset = 1, startTime = 0);
    Sources.Cosine cosine(amplitude = 2, f = 0.5, phase = 0, offset = 0, startTime = 0);
    Sources.ExpSine expSine(amplitude = 1, f = 1, phase = 0, damping = 1, offset = 0,
      startTime = 0);
    Sources.Pulse pulse(amplitude = 1, width = 50, period = 0.4, nperiod = -1, offset = 0,
      startTime = 0);
    Sources.Trapezoid trapezoid(amplitude = 1, rising = 0.1, width = 0.2, falling = 0.1,
      period = 0.5, nperiod = -1, offset = 0, startTime = 0);
    Sources.TimeTable timeTable(table = [0, 0; 1, 2], timeScale = 1, offset = 0,
      startTime = 0);
    Math.Gain gain(k = 3);
    Math.Add add(k1 = 1, k2 = -2);
    Math.Feedback feedback;
    Math.Product product;
    Math.Abs abs1;
    // heat: T' = -Gc (T - 290)/C, T(0) = 300: T = 290 + 10 exp(-2 t)
    Modelica.Thermal.HeatTransfer.Components.HeatCapacitor capacitor(C = 1,
      T(start = 300, fixed = true));
    Modelica.Thermal.HeatTransfer.Components.Convection convection;
    Modelica.Thermal.HeatTransfer.Sources.FixedTemperature ambient(T = 290);
  equation
    connect(constant1.y, gain.u);          // 6
    connect(sine.y, add.u1);               // sine - 2 cosine
    connect(cosine.y, add.u2);
    connect(sine.y, feedback.u1);          // sine - constant
    connect(constant1.y, feedback.u2);
    connect(ramp.y, product.u1);           // ramp * step
    connect(step.y, product.u2);
    connect(cosine.y, abs1.u);             // |cosine|
    connect(capacitor.port, convection.solid);
    connect(convection.fluid, ambient.port);
    connect(constant1.y, convection.Gc);
    annotation(experiment(StopTime = 1, Interval = 0.05));
  end BlocksAndHeat;
end Components;
