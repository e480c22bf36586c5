model ClutchPI "a 1 kHz sampled PI speed controller on a clutch-coupled three-inertia drive"
  parameter Real J1 = 1, J2 = 0.5, J3 = 1 "inertias";
  parameter Real c = 1e4, d = 10 "shaft stiffness and damping between J2 and J3";
  parameter Real muS = 5, vs = 0.01, dv = 0.1 "clutch: regularized Coulomb torque and viscous part";
  parameter Real kp = 20, Ti = 0.2, wref = 10, Ts = 0.001;
  Real w1(start = 0, fixed = true), w2(start = 0, fixed = true), w3(start = 0, fixed = true);
  Real phi23(start = 0, fixed = true) "shaft twist";
  Real tauClutch, tauShaft, tauLoad;
  Real e, I(start = 0), u;
equation
  J1*der(w1) = hold(u) - tauClutch;
  J2*der(w2) = tauClutch - tauShaft;
  J3*der(w3) = tauShaft - tauLoad;
  der(phi23) = w2 - w3;
  tauClutch = muS*tanh((w1 - w2)/vs) + dv*(w1 - w2);
  tauShaft = c*phi23 + d*(w2 - w3);
  tauLoad = 0.5*w3 + (if time > 50 then 10 else 0);
  e = wref - sample(w3, Clock(1, 1000));
  I = previous(I) + Ts*e/Ti;
  u = kp*(e + I);
  annotation(experiment(StopTime = 100, Interval = 0.01));
end ClutchPI;
