model TornReluctance
  "A saturating reluctance driven by a coil: the loop V_m = Phi R_m, R_m = 1/G_m, G_m = mu_0 mu_r A/l, mu_r = f(B), B = Phi/A with every unknown starting at 0"
  parameter Real N = 100 "turns";
  parameter Real A = 1e-4 "cross section";
  parameter Real l = 0.1 "length";
  parameter Real mu_0 = 4e-7*3.141592653589793;
  parameter Real mu_rMax = 1000;
  parameter Real B_sat = 1.2;
  Real i "coil current";
  Real V_m, Phi, R_m, G_m, mu_r, B;
  Real y(start = 0, fixed = true);
equation
  i = 1 + 0.5*sin(10*time);
  V_m = N*i;
  V_m = Phi*R_m;
  R_m = 1/G_m;
  G_m = mu_0*mu_r*A/l;
  mu_r = 1 + (mu_rMax - 1)/(1 + (B/B_sat)^2);
  B = Phi/A;
  der(y) = B - y;
  annotation(experiment(StopTime = 1));
end TornReluctance;
