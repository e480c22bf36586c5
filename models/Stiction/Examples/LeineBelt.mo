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
  Stiction.Translational.Components.LeineFriction friction(
    law=law, eps=eps, Fs=Fs, delta=delta, sigma0=sigma0, sigma1=sigma1,
    v_rel=v - v_dr, a_rel=a, f_drive=-k*x) "Belt friction (the element `stiction study --element friction` switches)";
equation
  v = der(x);
  a = der(v);
  // spring to the wall and belt friction (doc/benchmarks.md section 1.1: m*x'' + k*x = F_T)
  F = friction.F;
  m*a = -k*x + F;
  annotation (experiment(StopTime=60.005, Interval=0.005, Tolerance=1e-6), Documentation(info="<html>
<p>Benchmark 1 of doc/benchmarks.md: m = k = Fs = 1, belt speed 0.2, delta = 3. The block
starts stuck at break-away (x = Fs/k, v = belt speed); the exact (event-driven) limit cycle has
the period 12.00103 s. <code>law</code> selects the friction model; for the regularised laws
<code>eps</code> is the velocity width (Leine's epsilon = 1/eps: eps = 1e-3 gives 11.298 s with
arctan). The LuGre variant uses sigma0 = 100, sigma1 = 20 (period 11.013 s).</p>
</html>"));
end LeineBelt;
