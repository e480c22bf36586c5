within Stiction.Examples;
model LuGreStickSlip "Stick-slip of a unit mass pulled through a spring (Canudas de Wit et al. 1995, LuGre)"
  parameter SI.Mass m = 1 "Mass";
  parameter SI.TranslationalSpringConstant k = 2 "Pulling spring";
  parameter SI.Velocity v_pull = 0.1 "Speed of the free end of the spring";
  parameter Real sigma0(unit="N/m") = 1e5 "Bristle stiffness";
  parameter Real sigma1(unit="N.s/m") = sqrt(1e5) "Bristle damping";
  parameter Real sigma2(unit="N.s/m") = 0.4 "Viscous friction";
  parameter SI.Force Fc = 1 "Coulomb friction";
  parameter SI.Force Fs = 1.5 "Static friction";
  parameter SI.Velocity vs = 0.001 "Stribeck velocity";
  SI.Position x(start=0, fixed=true) "Position of the mass";
  SI.Velocity v(start=0, fixed=true) "Velocity of the mass";
  Real z(unit="m", start=0, fixed=true) "Mean bristle deflection";
  SI.Force F "Friction force (opposes v)";
  SI.Force g "Stribeck curve: steady sliding friction at speed v";
  Real zdot(unit="m/s") "der(z)";
equation
  der(x) = v;
  m*der(v) = k*(v_pull*time - x) - F;
  // LuGre (doc/benchmarks.md section 3) by the C library: g = Fc + (Fs - Fc)*exp(-(v/vs)^2),
  // dz/dt = v - sigma0*|v|*z/g, F = sigma0*z + sigma1*dz/dt + sigma2*v (stiction_friction_lugre)
  g = Stiction.Functions.stribeckMagnitude(Fc, Fs, vs, 2, v);
  zdot = Stiction.Functions.lugreZdotG(sigma0, sigma1, sigma2, g, z, v);
  der(z) = zdot;
  F = Stiction.Functions.lugreForceG(sigma0, sigma1, sigma2, g, z, v);
  annotation (experiment(StopTime=30, Interval=0.001, Tolerance=1e-8), Documentation(info="<html>
<p>Benchmark 3 of doc/benchmarks.md (Table I parameters): first slip at 7.4376 s, period
6.3627 s, peak velocity 0.36982 m/s. The bristle dynamics are stiff (eigenvalues near
-1e4 1/s while sliding): use an implicit (BDF) solver.</p>
</html>"));
end LuGreStickSlip;
