within Modelica.Mechanics.Rotational.Components;
model OneWayClutch
  "Freewheel in parallel with a clutch: locks when w_rel would become negative, slides forward"
  extends Rotational.Interfaces.PartialCompliantWithRelativeStates;
  parameter Real mu_pos[:, 2] = [0, 0.5]
    "[w, mu]: friction coefficient mu over relative speed w >= 0 (rad/s)";
  parameter Real peak(final min=1) = 1 "Break-away coefficient = peak*mu_pos[1, 2]";
  parameter Real cgeo(final min=0) = 1
    "Geometry constant of the plates: friction torque = cgeo*mu*fn";
  parameter SI.Force fn_max(final min=0, start=1) "Largest normal force";
  parameter SI.AngularVelocity w_small = 1e10
    "Speed above which a locked element breaks loose at once (disabled by default)";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  Modelica.Blocks.Interfaces.RealInput f_normalized
    "Normalized normal force of the clutch, nominally 0..1";
  Boolean startForward(start=false) "true: a locked element starts to slide forward";
  Boolean locked(start=false) "true: locked (freewheel blocks, a_rel = 0)";
  Boolean stuck(start=false) "true: locked or about to lock (w_rel <= 0)";
  SI.Torque tau0 "Clutch friction torque at w_rel = 0 while sliding";
  SI.Torque tau0_max "Break-away torque";
  Boolean free "true: clutch open (f_normalized <= 0)";
  Real sa(final unit="1")
    "Path parameter: the constraint torque when locked, an acceleration offset otherwise";
  SI.Force fn "Normal force";
protected
  constant Real eps0 = 1.0e-4 "Relative break-away torque of the open clutch";
  final parameter Real mu0 = Modelica.Math.tempInterpol1(0, mu_pos, 2)
    "Friction coefficient at w_rel = 0";
  final parameter Real peak2 = max(peak, 1 + eps0) "Peak, kept above 1";
  final parameter SI.Torque tau0_max_low = eps0*mu0*cgeo*fn_max
    "Tiny break-away torque of the open clutch (the freewheel)";
  constant SI.AngularAcceleration unitAngularAcceleration = 1 "Makes sa dimensionless";
  constant SI.Torque unitTorque = 1 "Makes sa dimensionless";
equation
  free = f_normalized <= 0;
  fn = if free then 0 else fn_max*f_normalized;
  tau0 = mu0*cgeo*fn;
  tau0_max = if free then tau0_max_low else peak2*tau0;

  // A locked element starts forward when the constraint torque exceeds the break-away torque
  // (with the pre(startForward) hysteresis, as PartialFriction); it can never start
  // backward: then the freewheel blocks.
  startForward = pre(stuck) and (sa > tau0_max/unitTorque or pre(startForward) and sa > tau0/unitTorque
    or w_rel > w_small) or initial() and w_rel > 0;
  locked = pre(stuck) and not startForward;

  // Sliding forward: the acceleration offset uses tau0 (not tau0_max).
  a_rel/unitAngularAcceleration = if locked then 0 else sa - tau0/unitTorque;
  tau = if locked then sa*unitTorque
    else if free then 0
    else cgeo*fn*Modelica.Math.tempInterpol1(w_rel, mu_pos, 2);

  stuck = locked or w_rel <= 0;
  lossPower = if stuck then 0 else tau*w_rel;
end OneWayClutch;
