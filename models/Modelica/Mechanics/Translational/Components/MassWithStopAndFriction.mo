within Modelica.Mechanics.Translational.Components;
model MassWithStopAndFriction
  "Sliding mass with Stribeck friction and hard stops at smin/smax (reinit, no impact force)"
  parameter SI.Velocity v_small = 1e-3
    "Speed where a reinit may jump from backward to forward sliding within one event";
  extends Translational.Interfaces.PartialRigid(s(start=0, stateSelect=StateSelect.always));
  SI.Velocity v(start=0, stateSelect=StateSelect.always) "Absolute velocity (= der(s))";
  SI.Acceleration a "Absolute acceleration (= der(v))";
  parameter SI.Mass m(start=1) "Mass";
  parameter Real F_prop(final unit="N.s/m", final min=0, start=1) "Viscous friction coefficient";
  parameter SI.Force F_Coulomb(start=5) "Coulomb friction force";
  parameter SI.Force F_Stribeck(start=10) "Stribeck excess at v = 0 (break-away = F_Coulomb + F_Stribeck)";
  parameter Real fexp(final unit="s/m", final min=0, start=2) "Decay of the Stribeck excess";
  parameter SI.Position smax(start=25) "Right stop for the right flange (flange_b.s)";
  parameter SI.Position smin(start=-25) "Left stop for the left flange (flange_a.s)";
  extends Modelica.Thermal.HeatTransfer.Interfaces.PartialElementaryConditionalHeatPortWithoutT;
  // the friction state machine of Interfaces.PartialFriction with the stops added
  SI.Velocity v_relfric "Relative velocity between the frictional surfaces";
  SI.Acceleration a_relfric "Relative acceleration between the frictional surfaces";
  SI.Force f "Friction force";
  SI.Force f0 "Friction force at v = 0 while sliding";
  SI.Force f0_max "Break-away force";
  Boolean free "true: no friction and no stop active";
  Real sa(final unit="1")
    "Path parameter: the constraint force when locked, an acceleration offset otherwise";
  Boolean startForward(start=false, fixed=true) "true: starts to slide forward";
  Boolean startBackward(start=false, fixed=true) "true: starts to slide backward";
  Boolean locked(start=false) "true: stuck (a = 0)";
  constant Integer Unknown = 3 "Value of mode before initialization";
  constant Integer Free = 2 "Element is not active";
  constant Integer Forward = 1 "v > 0 (forward sliding)";
  constant Integer Stuck = 0 "v = 0";
  constant Integer Backward = -1 "v < 0 (backward sliding)";
  Integer mode(final min=Backward, final max=Unknown, start=Unknown, fixed=true) "Operating mode";
  Integer stopped = if s <= smin + L/2 then -1 else if s >= smax - L/2 then +1 else 0
    "-1: at the left stop, +1: at the right stop, 0: between them";
protected
  constant SI.Acceleration unitAcceleration = 1 "Makes sa dimensionless";
  constant SI.Force unitForce = 1 "Makes sa dimensionless";
equation
  // Newton's law with the friction force
  v = der(s);
  a = der(v);
  v_relfric = v;
  a_relfric = a;
  m*a = flange_a.f + flange_b.f - f;

  // Stribeck characteristic; the break-away force is 0.1 % above the sliding force at v = 0
  f0 = F_Coulomb + F_Stribeck;
  f0_max = f0*1.001;
  free = f0 <= 0 and F_prop <= 0 and s > smin + L/2 and s < smax - L/2;
  f = if locked then sa*unitForce
    else if free then 0
    else (if startForward then F_prop*v + F_Coulomb + F_Stribeck
      else if startBackward then F_prop*v - F_Coulomb - F_Stribeck
      else if pre(mode) == Forward then F_prop*v + F_Coulomb + F_Stribeck*exp(-fexp*abs(v))
      else F_prop*v - F_Coulomb - F_Stribeck*exp(-fexp*abs(v)));
  lossPower = f*v_relfric;

  // PartialFriction (v4.0 form) where a start or a direction also needs room before the stop
  startForward = pre(mode) == Stuck and (sa > f0_max/unitForce and s < smax - L/2
      or pre(startForward) and sa > f0/unitForce and s < smax - L/2)
    or pre(mode) == Backward and v_relfric > v_small
    or initial() and v_relfric > 0;
  startBackward = pre(mode) == Stuck and (sa < -f0_max/unitForce and s > smin + L/2
      or pre(startBackward) and sa < -f0/unitForce and s > smin + L/2)
    or pre(mode) == Forward and v_relfric < -v_small
    or initial() and v_relfric < 0;
  locked = not free and not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
  a_relfric/unitAcceleration = if locked then 0
    else if free then sa
    else if startForward then sa - f0_max/unitForce
    else if startBackward then sa + f0_max/unitForce
    else if pre(mode) == Forward then sa - f0_max/unitForce
    else sa + f0_max/unitForce;
  mode = if free then Free
    else (if (pre(mode) == Forward or pre(mode) == Free or startForward) and v_relfric > 0 and s < smax - L/2 then Forward
    else if (pre(mode) == Backward or pre(mode) == Free or startBackward) and v_relfric < 0 and s > smin + L/2 then Backward
    else Stuck);

  // hard stops: put the mass back onto the stop and stop it (no impact force, MSL #20)
  when stopped <> 0 then
    reinit(s, if stopped < 0 then smin + L/2 else smax - L/2);
    reinit(v, 0);
  end when;
  when initial() then
    assert(s > smin + L/2 or s >= smin + L/2 and v >= 0,
      "MassWithStopAndFriction starts left of its left stop (s < smin + L/2)");
    assert(s < smax - L/2 or s <= smax - L/2 and v <= 0,
      "MassWithStopAndFriction starts right of its right stop (s > smax - L/2)");
  end when;
end MassWithStopAndFriction;
