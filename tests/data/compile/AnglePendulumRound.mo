// CartesianPendulumRound with the angle from the bottom as the state: the reference its
// positions are checked against.
model AnglePendulumRound
  parameter Real L = 1 "length";
  parameter Real g = 9.81;
  Real phi(start = 0, fixed = true);
  Real w(start = 8, fixed = true);
  Real x, y;
equation
  der(phi) = w;
  der(w) = -g / L * sin(phi);
  x = L * sin(phi);
  y = -L * cos(phi);
  annotation(experiment(StopTime = 3));
end AnglePendulumRound;
