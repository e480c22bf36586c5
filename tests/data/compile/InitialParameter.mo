// A parameter with fixed = false is an unknown of the initialization, constant afterwards:
// t0 takes the start time, so y = x + t0 = time from any start. y is protected and still
// recorded (as in Dymola's results).
model InitialParameter
  parameter Real t0(fixed = false, start = 7);
  Real x(start = 0, fixed = true);
protected
  Real y;
initial equation
  t0 = time;
equation
  der(x) = 1;
  y = x + t0;
end InitialParameter;
