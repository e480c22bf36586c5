model RungeKuttaEvent "a Runge-Kutta method on an event clock"
  Real x(start = 1);
equation
  when Clock(Clock(sample(0, 0.1)), solverMethod = "ExplicitRungeKutta4") then
    der(x) = -x;
  end when;
end RungeKuttaEvent;
