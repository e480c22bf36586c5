model IndexReduced "inverse models on 0.1 s clocks discretized by explicit and implicit Euler: each one's state c is tied to a filter state f (c = f), an index-2 partition reduced before it is discretized"
  parameter Real tau = 0.5;
  Real ue, fe(start = 0.2), ce(start = 0.2), ve, ye "explicit Euler";
  Real ui, fi(start = 0.2), ci(start = 0.2), vi, yi "implicit Euler";
equation
  ue = sample(1 + time, Clock(Clock(1, 10), solverMethod = "ExplicitEuler"));
  der(fe) = (ue - fe)/tau;
  ce = fe;
  der(ce) = -ce + ve;
  ye = hold(ve);
  ui = sample(1 + time, Clock(Clock(1, 10), solverMethod = "ImplicitEuler"));
  der(fi) = (ui - fi)/tau;
  ci = fi;
  der(ci) = -ci + vi;
  yi = hold(vi);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end IndexReduced;
