// A non-inverting Schmitt trigger: the input vs drives the limiting amplifier's (gain 15000,
// limits +-15) positive input vp through R1, the output feeds back to it through R2 = 15 R1,
// the negative input is grounded. vout = +15 holds until vs < -1, vout = -15 until vs > 1:
// past those thresholds the other saturation is the only solution. Torn on vp with the
// limiter as the residual, 16 vp - 15 vs - lim(15000 vp), Newton cycles across the
// limiter's corners instead of reaching it.
model SchmittTriggerNonInverting
  parameter Real V0 = 15000, R1 = 1000, R2 = 15*R1;
  Real vs = 3 - 100*time;
  Real vout(start = 0), vp, vin, v1, v2, i1, i2;
equation
  v1 = vs - vp;
  R1*i1 = v1;
  v2 = vout - vp;
  R2*i2 = v2;
  vin = vp - 0;
  vout = smooth(0, noEvent(if V0*vin > 15 then 15 else if V0*vin < -15 then -15 else V0*vin));
  0 = i1 + i2;
end SchmittTriggerNonInverting;
