// Parameters with fixed = false that only the initial system determines (Modelica 3.6
// section 8.6): p from two implicit equations (p = {1, 2}), k from a steady state
// (der(v) = 0 at the fixed rest position s0: k = m g / s0 = 19.62), and a parameter bound
// to k (spring), computed at initialization with it. p starts the states x; all are held
// afterwards: x = p exp(-t), s stays s0.
model InitialParameterSystem
  parameter Real a = 2, b = 1;
  parameter Real p[2](each fixed = false);
  parameter Real m = 1, g = 9.81, s0 = 0.5;
  parameter Real k(fixed = false, start = 1);
  parameter Real spring = k;
  Real x[2];
  Real s(start = s0, fixed = true), v(start = 0, fixed = true);
initial equation
  0 = a*p[1] - b*p[2];
  0 = b*p[1] + a*p[2] - 5;
  x = p;
  der(v) = 0;
equation
  der(x) = -x;
  der(s) = v;
  m*der(v) = m*g - spring*s;
end InitialParameterSystem;
