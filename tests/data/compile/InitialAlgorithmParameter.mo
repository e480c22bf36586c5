// A parameter with fixed = false that an initial algorithm assigns (FluidHeatFlow's
// SimpleFriction: k := ...) is that algorithm's, not an unknown of the initial system, which
// then solves k x = 12 for x alone: k = 2 a = 6, x(0) = 2, x = 2 exp(-6 t), y = k.
model InitialAlgorithmParameter
  parameter Real a = 3;
  parameter Real k(fixed = false);
  Real x(start = 1);
  Real y = k;
initial algorithm
  k := 2 * a;
initial equation
  k * x = 12;
equation
  der(x) = -k * x;
end InitialAlgorithmParameter;
