model Unclocked "a clocked variable used in a continuous-time equation without hold()"
  Real x(start = 0, fixed = true);
  Real y;
equation
  y = sample(time, Clock(0.1));
  der(x) = y;
end Unclocked;
