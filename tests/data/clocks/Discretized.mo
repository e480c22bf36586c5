model Discretized "der(x) = -x discretized on 0.1 s clocks: explicit and implicit Euler"
  Real xe(start = 1), xi(start = 1);
  Real ye, yi;
equation
  when Clock(Clock(1, 10), solverMethod = "ExplicitEuler") then
    der(xe) = -xe;
  end when;
  when Clock(Clock(1, 10), solverMethod = "ImplicitEuler") then
    der(xi) = -xi;
  end when;
  ye = hold(xe);
  yi = hold(xi);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Discretized;
