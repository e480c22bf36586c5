within Stiction.Examples;
model LuGreBlock
  "LuGreStickSlip built from components: a mass on a LuGre contact, pulled by a spring at constant speed"
  Modelica.Mechanics.Translational.Sources.Speed pull(exact=false, f_crit=1000)
    "Free end of the spring (filtered speed source, 1 kHz corner)";
  Modelica.Blocks.Sources.Constant v_pull(k=0.1) "Pulling speed (m/s)";
  Modelica.Mechanics.Translational.Components.Spring spring(c=2) "Pulling spring";
  Modelica.Mechanics.Translational.Components.Mass mass(m=1, s(start=0, fixed=true),
    v(start=0, fixed=true)) "Block";
  Stiction.Translational.Components.LuGre contact(sigma0=1e5, sigma1=sqrt(1e5), sigma2=0.4,
    F_c=1, F_s=1.5, v_s=0.001) "Table I of doc/benchmarks.md section 3";
equation
  connect(v_pull.y, pull.v_ref);
  connect(pull.flange, spring.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(mass.flange_b, contact.flange_a);
  annotation (experiment(StopTime=30, Interval=0.001, Tolerance=1e-8), Documentation(info="<html>
<p>Benchmark 3 of doc/benchmarks.md with the Stiction LuGre element: the same system as
LuGreStickSlip (first slip 7.4376 s, period 6.3627 s, peak speed 0.36982 m/s), except that the
spring's end follows the pulling speed through a 1 kHz filter. Use a BDF solver.</p>
</html>"));
end LuGreBlock;
