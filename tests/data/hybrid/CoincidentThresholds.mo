model CoincidentThresholds "two time thresholds one unit of rounding apart are one instant: 1 - a = 0.09999999999999998 and 0.1"
  parameter Real a = 0.9;
  Real r "a ramp to 0.1, then 0.1";
  Real x(start = 0, fixed = true) "time until 1 - a";
equation
  r = if time < 0.1 then time else 0.1;
  der(x) = if time < 1 - a then 1 else 0;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end CoincidentThresholds;
