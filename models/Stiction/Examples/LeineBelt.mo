within Stiction.Examples;
model LeineBelt
  "Block on a moving belt (Leine et al. 1998) with a selectable friction law; starts at break-away"
  import Stiction.Types.FrictionLaw;
  parameter FrictionLaw law = FrictionLaw.EventDriven "Friction law" annotation (Evaluate=true);
  parameter SI.Velocity eps(min=0) = 1e-3
    "Regularisation width: atan(v/eps), tanh(v/eps), or the Karnopp band |v| < eps
     (Leine's epsilon is 1/eps)";
  parameter SI.Mass m = 1 "Mass of the block";
  parameter SI.TranslationalSpringConstant k = 1 "Spring to the wall";
  parameter SI.Force Fs = 1 "Static friction force (slip friction at zero relative speed)";
  parameter SI.Velocity v_dr = 0.2 "Belt speed";
  parameter Real delta(unit="s/m") = 3 "Decay of the slip friction: Fs/(1 + delta*|v_rel|)";
  parameter Real sigma0(unit="N/m") = 100 "LuGre bristle stiffness";
  parameter Real sigma1(unit="N.s/m") = 20 "LuGre bristle damping";
  SI.Position x(start=Fs/k, fixed=true) "Position of the block (spring unstretched at 0)";
  SI.Velocity v(start=v_dr, fixed=true) "Velocity of the block";
  SI.Acceleration a "Acceleration of the block";
  SI.Force F "Friction force acting on the block";
  SI.Velocity v_rel = v - v_dr "Velocity of the block relative to the belt";
  Real z(unit="m", start=-Fs/sigma0, fixed=law == FrictionLaw.LuGre)
    "LuGre bristle deflection (0 for the other laws)";
  // the stuck/slip machine of Modelica.Mechanics.Translational.Interfaces.PartialFriction,
  // used when law == EventDriven (constant otherwise)
  Real sa(final unit="1") "Path parameter: constraint force when stuck, acceleration offset otherwise";
  Boolean startForward(start=false, fixed=true) "Starts to slide forward relative to the belt";
  Boolean startBackward(start=false, fixed=true) "Starts to slide backward relative to the belt";
  Boolean locked(start=false) "Stuck to the belt (relative acceleration zero)";
  Integer mode(start=3, fixed=true) "1 forward, 0 stuck, -1 backward slip relative to the belt";
protected
  constant Integer Forward = 1;
  constant Integer Stuck = 0;
  constant Integer Backward = -1;
  SI.Force g = Fs/(1 + delta*abs(v_rel)) "Slip friction magnitude at the current relative speed";
equation
  v = der(x);
  a = der(v);
  // spring to the wall and belt friction (benchmarks.md 1.1: m*x'' + k*x = F_T)
  m*a = -k*x + F;
  if law == FrictionLaw.EventDriven then
    // Stuck: a = 0 and F is the constraint force (-sa); it breaks away when |k*x| > Fs.
    // Sliding: F = -sign(v_rel)*Fs/(1 + delta*|v_rel|) (spec/msl-friction.md section 2).
    startForward = pre(mode) == Stuck and (sa > Fs or pre(startForward) and sa > Fs)
      or initial() and v_rel > 0;
    startBackward = pre(mode) == Stuck and (sa < -Fs or pre(startBackward) and sa < -Fs)
      or initial() and v_rel < 0;
    locked = not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
    a = if locked then 0
      else if startForward then sa - Fs
      else if startBackward then sa + Fs
      else if pre(mode) == Forward then sa - Fs
      else sa + Fs;
    // g uses |v_rel|: in the waiting phase v_rel may still have the old sign, and the slip
    // force must not exceed Fs there (else no mode is consistent at the break-away event)
    F = if locked then -sa
      else if startForward then -g
      else if startBackward then g
      else if pre(mode) == Forward then -g
      else g;
    mode = if (pre(mode) == Forward or startForward) and v_rel > 0 then Forward
      else if (pre(mode) == Backward or startBackward) and v_rel < 0 then Backward
      else Stuck;
    z = 0;
  else
    sa = 0;
    startForward = false;
    startBackward = false;
    locked = false;
    mode = Stuck;
    if law == FrictionLaw.Arctan then
      F = -g*(2/Modelica.Constants.pi)*atan(v_rel/eps);
      z = 0;
    elseif law == FrictionLaw.Tanh then
      F = -g*tanh(v_rel/eps);
      z = 0;
    elseif law == FrictionLaw.Karnopp then
      // inside the band the friction cancels the spring force up to Fs; outside it slips
      F = if abs(v_rel) < eps then max(-Fs, min(Fs, k*x)) else -sign(v_rel)*g;
      z = 0;
    else
      // LuGre with g as the steady-state friction: dz/dt = v_rel - sigma0*|v_rel|*z/g,
      // F = -(sigma0*z + sigma1*dz/dt)
      der(z) = v_rel - sigma0*abs(v_rel)*z/g;
      F = -(sigma0*z + sigma1*der(z));
    end if;
  end if;
  annotation (experiment(StopTime=60.005, Interval=0.005, Tolerance=1e-6), Documentation(info="<html>
<p>Benchmark 1 of spec/benchmarks.md: m = k = Fs = 1, belt speed 0.2, delta = 3. The block
starts stuck at break-away (x = Fs/k, v = belt speed); the exact (event-driven) limit cycle has
the period 12.00103 s. <code>law</code> selects the friction model; for the regularised laws
<code>eps</code> is the velocity width (Leine's epsilon = 1/eps: eps = 1e-3 gives 11.298 s with
arctan). The LuGre variant uses sigma0 = 100, sigma1 = 20 (period 11.013 s).</p>
</html>"));
end LeineBelt;
