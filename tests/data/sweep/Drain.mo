// A tank drained at rate a: x = 1 - a*t, y = sqrt(x) fails (NaN) once x < 0, at t = 1/a.
// mean(x) over [0, T] is 1 - a*T/2 and final(x) is 1 - a*T while the run lasts.
model Drain
  parameter Real a = 1;
  parameter Real b = 0;
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -a - b;
  y = sqrt(x);
  annotation(experiment(StopTime = 0.5, Interval = 0.01));
end Drain;
