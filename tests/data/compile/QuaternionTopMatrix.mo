// QuaternionTop with the orientation matrix integrated as it is, der(T) = -skew(w) T: an ODE
// without constraint or index reduction, the reference the quaternion form is checked against.
model QuaternionTopMatrix
  parameter Real I[3] = {1, 2, 3};
  parameter Real m = 1, g = 9.81;
  parameter Real c[3] = {0.3, 0.1, 0.5};
  parameter Real p[6, 3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  Real T[3, 3](start = [1, 0, 0; 0, 1, 0; 0, 0, 1], each fixed = true);
  Real w[3](start = {2, 0.5, 5}, each fixed = true);
  Real r[6, 3];
  Real p1[3] = r[1, :], p5[3] = r[5, :] "two points, read by the test";
  Real gb[3];
equation
  der(T) = -[0, -w[3], w[2]; w[3], 0, -w[1]; -w[2], w[1], 0] * T;
  for k in 1:6 loop
    r[k, :] = transpose(T) * p[k, :];
  end for;
  gb = T * {0, 0, -g};
  {I[1] * der(w[1]), I[2] * der(w[2]), I[3] * der(w[3])} + cross(w, {I[1] * w[1], I[2] * w[2], I[3] * w[3]})
    = cross(c, m * gb);
  annotation(experiment(StopTime = 3));
end QuaternionTopMatrix;
