// CartesianPendulumRound with its constraint written through u = x^2: the differentiated
// constraint's group has der(u), whose coefficient is 1 in both of its equations. The
// constant coefficients pick it with one of them; the other row, which still reads it, is
// what the choice between x and y is about, so the dynamic set keeps both rows and der(u) as
// a fixed dummy, eliminated first when the choice is measured.
model CartesianPendulumSplit
  parameter Real L = 1 "length";
  parameter Real g = 9.81;
  Real x(start = 0, fixed = true) "horizontal position";
  Real y(start = -1) "vertical position";
  Real vx(start = 8, fixed = true), vy;
  Real lambda "rod force per mass and length";
  Real u "x^2";
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda * x;
  der(vy) = -lambda * y - g;
  u = x * x;
  u + y * y = L * L;
  annotation(experiment(StopTime = 3));
end CartesianPendulumSplit;
