// A Schmitt trigger with an RC (an op-amp with positive feedback, saturated by noEvent):
// between the thresholds -vt and vt the loop for vout has two saturated solutions. vout must
// keep its branch until vc crosses the threshold: vc starts at 1 and falls towards -vs, so
// the first flip is at vc = -vt, t = tau*log((vs + 1)/(vs - vt)), then vc rises to +vt.
// An integrator's trial point past the threshold (rejected) must not choose the branch.
model SchmittBranch
  parameter Real V0 = 15000 "open-loop gain";
  parameter Real vs = 15 "saturation";
  parameter Real k = 0.5 "feedback divider";
  parameter Real tau = 0.1;
  final parameter Real vt = k*vs "threshold";
  Real vc(start = 1, fixed = true);
  Real vin;
  Real vout;
equation
  vin = k*vout - vc;
  vout = noEvent(if V0*vin > vs then vs else if V0*vin < -vs then -vs else V0*vin);
  tau*der(vc) = vout - vc;
end SchmittBranch;
