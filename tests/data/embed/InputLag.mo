// A first-order lag driven by a top-level input, with an event on its output: the model the
// stepping tests of include/stiction/modelica.h set the input of at every step.
model InputLag
  input Real u(start = 0) "held between steps";
  parameter Real T = 0.05 "time constant";
  Real x(start = 0, fixed = true);
  output Real y "x, switched on above 0.3";
  Boolean high(start = false);
equation
  T * der(x) = u - x;
  high = x > 0.3;
  y = if high then x else 0;
end InputLag;
