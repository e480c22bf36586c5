model InitFromEquation "an initial equation of a state sets it before the blocks are evaluated"
  parameter Real T0 = 293.15;
  Real T(start = 0) "a temperature whose start value the loop below cannot take";
  Real x(start = 1) "left to its start value (one initial equation, two states)";
  Real y;
initial equation
  T = T0;
equation
  der(T) = -0.1 * (T - 300);
  der(x) = -x;
  y ^ 3 + y = sqrt(T - 100);
end InitFromEquation;
