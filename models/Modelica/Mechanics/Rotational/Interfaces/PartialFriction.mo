within Modelica.Mechanics.Rotational.Interfaces;
partial model PartialFriction
  "Stuck/forward/backward state machine of Coulomb-type friction (Otter, Elmqvist, Mattsson 1999)"
  // A subclass defines w_relfric, a_relfric (kinematics), tau0, tau0_max, free and the
  // friction torque from locked/startForward/startBackward/pre(mode).
  parameter SI.AngularVelocity w_small = 1.0e10
    "Speed where a reinit may jump from backward to forward sliding within one event; the huge
     default disables it on purpose (MSL #701, #1493)";
  SI.AngularVelocity w_relfric "Relative angular velocity between the frictional surfaces";
  SI.AngularAcceleration a_relfric "Relative angular acceleration between the surfaces";
  SI.Torque tau0 "Friction torque at w = 0 while sliding (tau0 > 0)";
  SI.Torque tau0_max "Break-away torque at w = 0 (tau0_max >= tau0)";
  Boolean free "true: the element transmits no torque (e.g. normal force <= 0)";
  Real sa(final unit="1")
    "Path parameter: the constraint torque when locked, an acceleration offset otherwise";
  Boolean startForward(start=false, fixed=true) "true: starts to slide forward (w_relfric > 0)";
  Boolean startBackward(start=false, fixed=true) "true: starts to slide backward (w_relfric < 0)";
  Boolean locked(start=false) "true: stuck, the relative acceleration is held at zero";
  constant Integer Unknown = 3 "Value of mode before initialization";
  constant Integer Free = 2 "Element is not active";
  constant Integer Forward = 1 "w_relfric > 0 (forward sliding)";
  constant Integer Stuck = 0 "w_relfric = 0 (locked, or waiting for the velocity to change sign)";
  constant Integer Backward = -1 "w_relfric < 0 (backward sliding)";
  Integer mode(final min=Backward, final max=Unknown, start=Unknown, fixed=true)
    "Operating mode: Free, Forward, Stuck or Backward";
protected
  constant SI.AngularAcceleration unitAngularAcceleration = 1 "Makes sa dimensionless";
  constant SI.Torque unitTorque = 1 "Makes sa dimensionless";
equation
  // Break-away while stuck: sa beyond the break-away torque, or - hysteresis that keeps the
  // start alive during the following event iterations - beyond the sliding torque. The
  // initial() term starts a sliding element in its direction; the w_small term is the
  // reinit short cut from the opposite direction.
  startForward = pre(mode) == Stuck and (sa > tau0_max/unitTorque or pre(startForward) and sa > tau0/unitTorque)
    or pre(mode) == Backward and w_relfric > w_small
    or initial() and w_relfric > 0;
  startBackward = pre(mode) == Stuck and (sa < -tau0_max/unitTorque or pre(startBackward) and sa < -tau0/unitTorque)
    or pre(mode) == Forward and w_relfric < -w_small
    or initial() and w_relfric < 0;
  locked = not free and not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);

  // Locked: the constraint is a = 0 (not w = 0) and sa is the constraint torque. Otherwise
  // sa is the acceleration offset by the break-away torque in the sliding direction
  // (v4.0 form: the last branch covers pre(mode) = Backward).
  a_relfric/unitAngularAcceleration = if locked then 0
    else if free then sa
    else if startForward then sa - tau0_max/unitTorque
    else if startBackward then sa + tau0_max/unitTorque
    else if pre(mode) == Forward then sa - tau0_max/unitTorque
    else sa + tau0_max/unitTorque;

  // The mode follows the sign of the velocity only once it has actually changed: after a
  // start the element stays Stuck until w_relfric > 0 (< 0) is seen.
  mode = if free then Free
    else (if (pre(mode) == Forward or pre(mode) == Free or startForward) and w_relfric > 0 then Forward
    else if (pre(mode) == Backward or pre(mode) == Free or startBackward) and w_relfric < 0 then Backward
    else Stuck);
end PartialFriction;
