model InitialDomainEdge
  "A steady state whose start value lies on the edge of the domain of a nonlinear block
   (no solution for x > 0, so the Jacobian at the start is one-sided); the fixed = false
   parameters are given one through the other"
  parameter Real dp_small(start = 1, fixed = false);
  parameter Real dp_nominal(start = 1, fixed = false);
  Real x(start = 0);
  Real y(start = 1);
equation
  y + y^3 = 10 - x + 0*sqrt(-x);
  der(x) = y - dp_nominal/1000 + 2;
initial equation
  dp_nominal = 1e3*dp_small;
  dp_small = 5;
  der(x) = 0;
end InitialDomainEdge;
