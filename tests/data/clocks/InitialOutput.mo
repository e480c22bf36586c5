model InitialOutput "an initial equation of a discretized partition's variables (a PI with initType = InitialOutput) is dropped: x starts from x.start at the first tick"
  Real x(start = 1);
  Real y "2 x";
  Real yc "held y";
  Real p(start = 0) "a continuous state whose initial equation stays";
initial equation
  y = 5;
  p = 3;
equation
  when Clock(Clock(1, 10), solverMethod = "ExplicitEuler") then
    der(x) = -x;
    y = 2*x;
  end when;
  yc = hold(y);
  der(p) = 0;
  annotation(experiment(StopTime = 1, Interval = 0.05));
end InitialOutput;
