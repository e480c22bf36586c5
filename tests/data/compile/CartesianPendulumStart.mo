// A pendulum in Cartesian coordinates released from the horizontal (y = 0) at rest, its
// position written as x = r s, y = -r c over the direction cosines (s, c) and the rod length
// r, which has no start value. Keeping x as the state (the later-declared y's derivative the
// dummy, as made-up coefficients choose) is singular there: y = -r c with c = +-sqrt(1 - s^2)
// at s = 1. The numeric check of index reduction sees that only at the start point, with r
// computed from r = L.
model CartesianPendulumStart
  parameter Real L = 1.5 "length";
  parameter Real g = 9.81;
  Real x(start = 1.5) "horizontal position";
  Real y(start = 0) "vertical position";
  Real vx, vy;
  Real s(start = 1) "sine of the angle from the vertical";
  Real c(start = 0) "its cosine";
  Real r "rod length";
  Real lambda "rod force per mass and length";
initial equation
  y = 0;
  vy = 0;
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda * x;
  der(vy) = -lambda * y - g;
  r = L;
  x = r * s;
  y = -r * c;
  s * s + c * c = 1;
  annotation(experiment(StopTime = 0.3));
end CartesianPendulumStart;
