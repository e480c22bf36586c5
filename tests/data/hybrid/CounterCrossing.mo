// A counter stepped when integer(time/period) passes it, as the MSL's SawTooth counts its
// periods: at each crossing the two Integer operands are equal until the when-clause steps
// the counter, which is no rounding of a Real threshold (stiction once counted only the first).
model CounterCrossing
  parameter Real period = 0.1;
  Integer count(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when integer(x / period) > pre(count) then
    count = pre(count) + 1;
  end when;
  annotation(experiment(StopTime = 0.95, Interval = 0.05));
end CounterCrossing;
