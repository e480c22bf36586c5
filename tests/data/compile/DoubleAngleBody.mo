// A point mass on a rod released from the horizontal, its orientation given by a unit pair
// (q1, q2) of the half angle as a body's quaternion gives it: c = q1^2 - q2^2, s = 2 q1 q2,
// q1^2 + q2^2 = 1, and its position xb = L c, yb = L s. Index reduction keeps q2 (the
// positions and c, s follow from it through constant coefficients), not yb: yb as the state
// holds at the start but is singular at the bottom, where the mass turned back.
model DoubleAngleBody
  parameter Real L = 1.5;
  parameter Real g = 9.81;
  Real xb(start = 1.5), yb(start = 0);
  Real vxb, vyb;
  Real c, s;
  Real q1(start = 1), q2(start = 0);
  Real lambda "rod force per mass and length";
initial equation
  yb = 0;
  vyb = 0;
equation
  der(xb) = vxb;
  der(yb) = vyb;
  der(vxb) = -lambda * xb;
  der(vyb) = -lambda * yb - g;
  c = q1 * q1 - q2 * q2;
  s = 2 * q1 * q2;
  q1 * q1 + q2 * q2 = 1;
  xb = L * c;
  yb = L * s;
  annotation(experiment(StopTime = 1.2));
end DoubleAngleBody;
