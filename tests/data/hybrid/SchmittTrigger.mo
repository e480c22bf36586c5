// An inverting Schmitt trigger: a limiting amplifier (gain 15000, limits +-15) with positive
// feedback k = 1/15 through a divider, so vout = lim(V0*(k*vout - vn)). Only -15 solves it
// while vn > 1 and only +15 while vn < -1; damped Newton from the start 0 stalls on the
// limiter's corner.
model SchmittTrigger
  parameter Real V0 = 15000, k = 1/15, R1 = 1000, R2 = (1 - k)/k*R1;
  Real vout(start = 0), vp, vin, i1, i2;
  Real vn = 5*cos(2*3.14159265358979*10*time);
equation
  vin = vp - vn;
  vout = smooth(0, noEvent(if V0*vin > 15 then 15 else if V0*vin < -15 then -15 else V0*vin));
  i1 = (vout - vp)/R2;
  i2 = vp/R1;
  i1 = i2;
end SchmittTrigger;
