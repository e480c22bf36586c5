// der() of a variable in a declaration equation (Machines: wMechanical = der(phiMechanical)):
// the variable takes part in index reduction like one differentiated in an equation.
// Closed form: a = exp(-t), p = 2 a, dp = -2 a.
model DerBinding
  Real a(start = 1, fixed = true);
  Real p = 2 * a;
  Real dp = der(p);
equation
  der(a) = -a;
end DerBinding;
