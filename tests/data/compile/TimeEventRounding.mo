// A ramp whose start 0.2 + 0.2 + 0.2 rounds to one unit above the output grid point 0.6:
// y rises from 0 at s to 1 at s + a, so z = integral of y reaches 0.1 + (1 - 0.8) = 0.3 at t = 1.
model TimeEventRounding
  parameter Real a = 0.2;
  parameter Real s = a + a + a;
  Real y;
  Real z(start = 0, fixed = true);
equation
  y = if time < s then 0 else if time < s + a then (time - s)/a else 1;
  der(z) = y;
end TimeEventRounding;
