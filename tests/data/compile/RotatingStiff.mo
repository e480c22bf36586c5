// A fast mode (rate k) between a stator-frame pair z and a rotor-frame pair x seen through
// the angle phi: the fast direction z - R(phi) x turns with phi, so a Newton matrix a few
// steps old no longer damps it (a machine's rotor-frame currents against a transformer's
// through a large resistance). Written for stiction's tests.
model RotatingStiff
  parameter Real k = 1e8 "rate of the fast mode";
  parameter Real w = 40 "angular speed";
  Real phi(start = 0, fixed = true);
  Real x[2](each start = 0, each fixed = true) "rotor frame";
  Real z[2](each start = 0, each fixed = true) "stator frame";
  Real xs[2] "x in the stator frame";
  Real u[2] = {100*sin(314*time), 100*cos(314*time)};
equation
  der(phi) = w;
  xs = {cos(phi)*x[1] - sin(phi)*x[2], sin(phi)*x[1] + cos(phi)*x[2]};
  der(z) = -k*(z - xs) + u;
  der(x) = {cos(phi)*(k*(z[1] - xs[1]) - 30*xs[1]) + sin(phi)*(k*(z[2] - xs[2]) - 30*xs[2]),
            -sin(phi)*(k*(z[1] - xs[1]) - 30*xs[1]) + cos(phi)*(k*(z[2] - xs[2]) - 30*xs[2])};
end RotatingStiff;
