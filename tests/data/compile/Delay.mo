// delay() against closed forms (tests/test_lang.c):
//   der(x) = -delay(x, 1), x(0) = 1: x = 1 - t on [0, 1], (t - 1)(t - 3)/2 on [1, 2];
//   y = sin(t - 0.5) from t = 0.5, sin(0) = 0 before;
//   z = delay(sin(time), d, 1) = sin(t - d) from t = d, 0 before;
//   w = delay(time, 0.1 + 0.1*time, 1) = 0.9 t - 0.1 from t = 1/9, 0 before;
//   sd = delay(s, 0.2): the step of s at the time event t = 0.3 arrives at t = 0.5 as a step,
//   at a time event there (two rows), and a when-clause on it fires at t = 0.5 exactly.
model Delay
  parameter Real d = 0.25;
  Real x(start = 1, fixed = true);
  Real y, z, w, sd;
  Real s = if time >= 0.3 then 1 else 0;
  discrete Real tArrive(start = -1, fixed = true);
equation
  when sd > 0.5 then
    tArrive = time;
  end when;
  der(x) = -delay(x, 1);
  y = delay(sin(time), 0.5);
  z = delay(sin(time), d, 1);
  w = delay(time, 0.1 + 0.1*time, 1);
  sd = delay(s, 0.2);
  annotation(experiment(StopTime = 2, Interval = 0.004, Tolerance = 1e-8));
end Delay;
