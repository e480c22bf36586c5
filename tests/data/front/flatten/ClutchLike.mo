// A clutch-like component with Boolean logic and pre(): it locks when the relative speed
// crosses zero while engaged and frees when the transmitted torque exceeds the limit.
model ClutchLike
  parameter Real J1 = 1, J2 = 2, tauMax = 5;
  parameter Real w_small = 1e-4;
  input Real tauDrive;
  Real w1(start = 10, fixed = true), w2(start = 0, fixed = true);
  Real tau "Torque through the clutch";
  Real w_rel = w1 - w2;
  Boolean engaged = time >= 0.5;
  Boolean locked(start = false, fixed = true);
  Boolean startSlip;
  discrete Integer mode(start = 0, fixed = true);
equation
  J1*der(w1) = tauDrive - tau;
  J2*der(w2) = tau;
  startSlip = pre(locked) and abs(tau) > tauMax;
  locked = engaged and not startSlip and (pre(locked) or abs(w_rel) < w_small);
  if locked then
    der(w1) = der(w2);
  else
    tau = if engaged then tauMax*noEvent(sign(w_rel)) else 0;
  end if;
  when change(locked) then
    mode = if locked then 1 else pre(mode) + 10;
  end when;
end ClutchLike;
