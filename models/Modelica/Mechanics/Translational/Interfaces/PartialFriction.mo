within Modelica.Mechanics.Translational.Interfaces;
partial model PartialFriction
  "Stuck/forward/backward state machine of Coulomb-type friction (translational; as the rotational one)"
  // A subclass defines v_relfric, a_relfric, f0, f0_max, free and the friction force from
  // locked/startForward/startBackward/pre(mode) (doc/library.md).
  parameter SI.Velocity v_small = 1e-3
    "Speed where a reinit may jump from backward to forward sliding within one event";
  SI.Velocity v_relfric "Relative velocity between the frictional surfaces";
  SI.Acceleration a_relfric "Relative acceleration between the frictional surfaces";
  SI.Force f0 "Friction force at v = 0 while sliding (f0 > 0)";
  SI.Force f0_max "Break-away force at v = 0 (f0_max >= f0)";
  Boolean free "true: the element transmits no force";
  Real sa(final unit="1")
    "Path parameter: the constraint force when locked, an acceleration offset otherwise";
  Boolean startForward(start=false, fixed=true) "true: starts to slide forward (v_relfric > 0)";
  Boolean startBackward(start=false, fixed=true) "true: starts to slide backward (v_relfric < 0)";
  Boolean locked(start=false) "true: stuck, the relative acceleration is held at zero";
  constant Integer Unknown = 3 "Value of mode before initialization";
  constant Integer Free = 2 "Element is not active";
  constant Integer Forward = 1 "v_relfric > 0 (forward sliding)";
  constant Integer Stuck = 0 "v_relfric = 0 (locked, or waiting for the velocity to change sign)";
  constant Integer Backward = -1 "v_relfric < 0 (backward sliding)";
  Integer mode(final min=Backward, final max=Unknown, start=Unknown, fixed=true)
    "Operating mode: Free, Forward, Stuck or Backward";
protected
  constant SI.Acceleration unitAcceleration = 1 "Makes sa dimensionless";
  constant SI.Force unitForce = 1 "Makes sa dimensionless";
equation
  // break-away with the pre(startForward) hysteresis; reinit short cut with v_small; start
  // in the direction of an initial velocity
  startForward = pre(mode) == Stuck and (sa > f0_max/unitForce or pre(startForward) and sa > f0/unitForce)
    or pre(mode) == Backward and v_relfric > v_small
    or initial() and v_relfric > 0;
  startBackward = pre(mode) == Stuck and (sa < -f0_max/unitForce or pre(startBackward) and sa < -f0/unitForce)
    or pre(mode) == Forward and v_relfric < -v_small
    or initial() and v_relfric < 0;
  locked = not free and not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);

  // locked: a = 0 and sa is the constraint force; sliding: sa is the acceleration offset
  a_relfric/unitAcceleration = if locked then 0
    else if free then sa
    else if startForward then sa - f0_max/unitForce
    else if startBackward then sa + f0_max/unitForce
    else if pre(mode) == Forward then sa - f0_max/unitForce
    else sa + f0_max/unitForce;

  // the mode changes only when the velocity has actually changed sign
  mode = if free then Free
    else (if (pre(mode) == Forward or pre(mode) == Free or startForward) and v_relfric > 0 then Forward
    else if (pre(mode) == Backward or pre(mode) == Free or startBackward) and v_relfric < 0 then Backward
    else Stuck);
end PartialFriction;
