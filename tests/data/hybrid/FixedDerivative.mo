// A fixed start on a variable that is a derivative (Inertia's a = der(w) with a(fixed = true,
// start = 0), Blocks.Examples.PID_Controller) is the initial equation der(w) = 0: w starts
// at the steady state 2 and stays there, phi = 2 t. Its start value 5 is only a guess.
model FixedDerivative
  Real phi(start = 0, fixed = true);
  Real w(start = 5);
  Real a(start = 0, fixed = true);
equation
  der(phi) = w;
  der(w) = a;
  a = 2 - w;
end FixedDerivative;
