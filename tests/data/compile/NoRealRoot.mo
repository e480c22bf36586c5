// y^2 + y = 1 - 2t has a real root only while 5 - 8t >= 0, i.e. t <= 0.625; Newton follows
// y = (sqrt(5 - 8t) - 1)/2 from the start value (tests/test_runerrors.c)
model NoRealRoot
  Real x(start = 0, fixed = true);
  Real y(start = 1);
equation
  der(x) = y;
  y*y + y = 1 - 2*time;
  annotation(experiment(StopTime = 1, Interval = 0.125));
end NoRealRoot;
