// Nominal values: an oscillator of amplitude a (test_lang nominal_scales_absolute_tolerance,
// test_compile nominal_values_of_states).
model NominalTolerance
  "An oscillator of amplitude a = 1e-6 whose nominal values scale the absolute tolerance"
  parameter Real a = 1e-6 "amplitude";
  parameter Real w = 10 "angular frequency";
  parameter Real scale = a "nominal of x; 1 leaves the absolute tolerance at 1e-2 rtol";
  Real x(start = a, fixed = true, nominal = scale) "nominal from a parameter expression";
  Real v(start = 0, fixed = true);
  Real speed(nominal = scale * w) "an alias of v: its nominal is v's";
equation
  der(x) = v;
  der(v) = -w^2 * x;
  speed = v;
  annotation(experiment(StopTime = 10, Interval = 0.01));
end NominalTolerance;
