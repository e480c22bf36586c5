model PulseThreshold "a time relation whose threshold is a discrete variable: a time event"
  parameter Real period = 1, width = 0.3;
  discrete Real tStart(start = 0, fixed = true);
  Real y, x(start = 0, fixed = true);
equation
  when sample(period, period) then
    tStart = time;
  end when;
  y = if time < tStart + width then 1 else 0;
  der(x) = y;
  annotation(experiment(StopTime = 2.5, Interval = 0.1));
end PulseThreshold;
