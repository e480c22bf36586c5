within Stiction.Translational.Components;
model LeineFriction
  "Dry friction with the slip force Fs/(1 + delta*|v_rel|) and a selectable law (signal interface)"
  import Stiction.Types.FrictionLaw;
  parameter FrictionLaw law = FrictionLaw.EventDriven "Friction law" annotation (Evaluate=true);
  parameter SI.Velocity eps(min=0) = 1e-3
    "Regularisation width: atan(v_rel/eps), tanh(v_rel/eps), or the Karnopp band |v_rel| < eps";
  parameter SI.Force Fs = 1 "Static friction force (slip friction at zero relative speed)";
  parameter Real delta(unit="s/m") = 3 "Decay of the slip friction: Fs/(1 + delta*|v_rel|)";
  parameter Real sigma0(unit="N/m") = 100 "LuGre bristle stiffness";
  parameter Real sigma1(unit="N.s/m") = 20 "LuGre bristle damping";
  input SI.Velocity v_rel "Velocity of the body relative to the sliding surface";
  input SI.Acceleration a_rel "Acceleration of the body relative to the sliding surface";
  input SI.Force f_drive
    "Sum of the other forces on the body (what friction must cancel to hold it; Karnopp only)";
  output SI.Force F "Friction force acting on the body";
  Real z(unit="m", start=-Fs/sigma0, fixed=law == FrictionLaw.LuGre)
    "LuGre bristle deflection (0 for the other laws)";
  // the stuck/slip machine of Modelica.Mechanics.Translational.Interfaces.PartialFriction,
  // used when law == EventDriven (constant otherwise)
  Real sa(final unit="1") "Path parameter: constraint force when stuck, acceleration offset otherwise";
  Boolean startForward(start=false, fixed=true) "Starts to slide forward relative to the surface";
  Boolean startBackward(start=false, fixed=true) "Starts to slide backward relative to the surface";
  Boolean locked(start=false) "Stuck to the surface (relative acceleration zero)";
  Integer mode(start=3, fixed=true) "1 forward, 0 stuck, -1 backward slip relative to the surface";
  discrete SI.Velocity v_free(start=0, fixed=true)
    "v_rel at the last break-away (EventDriven): the slip ends when v_rel crosses back over it";
protected
  constant Integer Forward = 1;
  constant Integer Stuck = 0;
  constant Integer Backward = -1;
  SI.Force g = Stiction.Functions.leineSlip(Fs, delta, v_rel)
    "Slip friction magnitude Fs/(1 + delta*|v_rel|) at the current relative speed";
equation
  if law == FrictionLaw.EventDriven then
    // Stuck: a_rel = 0 and F is the constraint force (-sa); it breaks away when |sa| > Fs.
    // Sliding: F = -sign(v_rel)*Fs/(1 + delta*|v_rel|) (doc/library.md).
    // One event per transition, as doc/benchmarks.md section 1.2 counts them (2 per period):
    // the break-away sets the slip mode at once (v_rel is still exactly 0 there), and a
    // slip mode ends when v_rel crosses to the other side. The MSL PartialFriction waits in
    // startForward/startBackward for v_rel to leave 0, a second event 1e-6 s later that
    // also restarts the integrator; the dynamics in between are the same (a_rel = sa -+ Fs).
    startForward = pre(mode) == Stuck and sa > Fs or initial() and v_rel > 0;
    startBackward = pre(mode) == Stuck and sa < -Fs or initial() and v_rel < 0;
    locked = not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
    a_rel = if locked then 0
      else if startForward then sa - Fs
      else if startBackward then sa + Fs
      else if pre(mode) == Forward then sa - Fs
      else sa + Fs;
    // g uses |v_rel|: right after the break-away v_rel is 0 and the slip force is Fs
    F = if locked then -sa
      else if startForward then -g
      else if startBackward then g
      else if pre(mode) == Forward then -g
      else g;
    // A slip mode ends when v_rel crosses back over v_free, its value at the break-away. Not
    // over 0: the re-stick leaves v_rel on the far side of 0 by the indicator hysteresis
    // (1e-10, doc/events.md) and stuck keeps it there exactly, so `v_rel > 0` would end a
    // backward slip at the instant it begins. v_free is that residual (0 from the start).
    when startForward or startBackward then
      v_free = v_rel;
    end when;
    mode = if startForward then Forward
      else if startBackward then Backward
      else if pre(mode) == Forward and not v_rel < v_free then Forward
      else if pre(mode) == Backward and not v_rel > v_free then Backward
      else Stuck;
    z = 0;
  else
    sa = 0;
    v_free = 0;
    startForward = false;
    startBackward = false;
    locked = false;
    mode = Stuck;
    // the laws of include/stiction/friction.h (stiction_sign_law 6 = arctan, 5 = tanh)
    if law == FrictionLaw.Arctan then
      F = -g*Stiction.Functions.regularizedSign(6, v_rel, eps);
      z = 0;
    elseif law == FrictionLaw.Tanh then
      F = -g*Stiction.Functions.regularizedSign(5, v_rel, eps);
      z = 0;
    elseif law == FrictionLaw.Karnopp then
      // inside the band the friction cancels the other forces up to Fs; outside it slips. The
      // band test stays a relation here so that entering and leaving the band are events (a
      // function call makes none); inside, the C law sees v = 0, which is inside any band.
      F = Stiction.Functions.karnopp(if abs(v_rel) < eps then 0 else v_rel, f_drive, eps, Fs, g);
      z = 0;
    else
      // LuGre with g as the steady-state friction: dz/dt = v_rel - sigma0*|v_rel|*z/g,
      // F = -(sigma0*z + sigma1*dz/dt)
      der(z) = Stiction.Functions.lugreZdotG(sigma0, sigma1, 0, g, z, v_rel);
      F = -Stiction.Functions.lugreForceG(sigma0, sigma1, 0, g, z, v_rel);
    end if;
  end if;
  annotation (Documentation(info="<html>
<p>The friction law of Leine's block on a belt (doc/benchmarks.md section 1) as an element
that <code>stiction study --element</code> can switch: <code>law</code> selects the exact
stuck/slip machine (EventDriven) or a regularised law of width <code>eps</code>. The body's
relative velocity and acceleration and the other forces on it come in as inputs; the
friction force F goes out. With EventDriven the element also fixes a_rel = 0 while stuck (F is
then the constraint force), so a_rel must be bound to the body's acceleration, not computed
from F by the caller alone.</p>
</html>"));
end LeineFriction;
