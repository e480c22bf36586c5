model NonlinearLoop
  Real x(start = 4, fixed = true);
  Real y1(start = 1), y2(start = 1);
equation
  y1^2 + y2^2 = x;
  y1 = y2;
  der(x) = -y1;
  annotation(experiment(StopTime = 1));
end NonlinearLoop;
