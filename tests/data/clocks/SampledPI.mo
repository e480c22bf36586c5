model SampledPI "a PI controller on a 0.1 s clock closing the loop on a first-order plant"
  parameter Real T = 0.5 "plant time constant";
  parameter Real k = 2, ki = 4, r = 1;
  parameter Real Ts = 0.1;
  Real x(start = 0, fixed = true) "plant";
  Real e, I(start = 0), yc;
equation
  der(x) = (hold(yc) - x)/T;
  e = r - sample(x, Clock(Ts));
  I = previous(I) + Ts*e;
  yc = k*e + ki*I;
  annotation(experiment(StopTime = 2, Interval = 0.05));
end SampledPI;
