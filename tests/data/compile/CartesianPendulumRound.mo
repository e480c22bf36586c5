// A pendulum in Cartesian coordinates started at the bottom fast enough to go round full
// circles: x^2 + y^2 = L^2 leaves one of x, y (and of vx, vy) as the state, and each becomes
// singular twice a turn (x where the rod is horizontal, y where it is vertical), so no static
// choice runs through. Dynamic state selection switches the set at events.
model CartesianPendulumRound
  parameter Real L = 1 "length";
  parameter Real g = 9.81;
  Real x(start = 0, fixed = true) "horizontal position";
  Real y(start = -1) "vertical position";
  Real vx(start = 8, fixed = true), vy;
  Real lambda "rod force per mass and length";
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda * x;
  der(vy) = -lambda * y - g;
  x * x + y * y = L * L;
  annotation(experiment(StopTime = 3));
end CartesianPendulumRound;
