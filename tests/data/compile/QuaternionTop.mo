// A heavy asymmetric top on a fixed point, its orientation a unit quaternion Q (a rotation by
// phi about n is Q = {n sin(phi/2), cos(phi/2)}): T (world to body) and the body's angular
// velocity w follow from Q and der(Q), and Q*Q = 1 is a constraint between the four written
// states. Six points fixed on the body, r = transpose(T) p, with their velocities der(r), tie
// the entries of T and the points' positions into the constraint's group (40 candidates), yet
// the choice is only which Q component is no state, and every one of them crosses 0 as the top
// turns. Checked against QuaternionTopMatrix.mo (T itself integrated: no constraint).
model QuaternionTop
  parameter Real I[3] = {1, 2, 3} "principal moments of inertia";
  parameter Real m = 1, g = 9.81;
  parameter Real c[3] = {0.3, 0.1, 0.5} "centre of mass in the body frame";
  parameter Real p[6, 3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  Real Q[4](start = {0, 0, 0, 1});
  Real T[3, 3] "world to body";
  Real w[3](start = {2, 0.5, 5}, each fixed = true) "angular velocity in the body frame";
  Real r[6, 3] "points in the world frame";
  Real v[6, 3];
  Real p1[3] = r[1, :], p5[3] = r[5, :] "two points, read by the test";
  Real gb[3] "gravity in the body frame";
equation
  T = [2 * (Q[1] * Q[1] + Q[4] * Q[4]) - 1, 2 * (Q[1] * Q[2] + Q[3] * Q[4]), 2 * (Q[1] * Q[3] - Q[2] * Q[4]);
       2 * (Q[2] * Q[1] - Q[3] * Q[4]), 2 * (Q[2] * Q[2] + Q[4] * Q[4]) - 1, 2 * (Q[2] * Q[3] + Q[1] * Q[4]);
       2 * (Q[3] * Q[1] + Q[2] * Q[4]), 2 * (Q[3] * Q[2] - Q[1] * Q[4]), 2 * (Q[3] * Q[3] + Q[4] * Q[4]) - 1];
  w = 2 * {Q[4] * der(Q[1]) + Q[3] * der(Q[2]) - Q[2] * der(Q[3]) - Q[1] * der(Q[4]),
           -Q[3] * der(Q[1]) + Q[4] * der(Q[2]) + Q[1] * der(Q[3]) - Q[2] * der(Q[4]),
           Q[2] * der(Q[1]) - Q[1] * der(Q[2]) + Q[4] * der(Q[3]) - Q[3] * der(Q[4])};
  0 = Q * Q - 1;
  for k in 1:6 loop
    r[k, :] = transpose(T) * p[k, :];
    v[k, :] = der(r[k, :]);
  end for;
  gb = T * {0, 0, -g};
  {I[1] * der(w[1]), I[2] * der(w[2]), I[3] * der(w[3])} + cross(w, {I[1] * w[1], I[2] * w[2], I[3] * w[3]})
    = cross(c, m * gb);
initial equation
  Q[1:3] = {0, 0, 0};
  annotation(experiment(StopTime = 3));
end QuaternionTop;
