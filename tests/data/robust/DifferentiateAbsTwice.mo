// abs(x) = ... must be differentiated twice (index 3): abs -> sign, and sign() cannot be
// differentiated. The derived sign() had no source location (a LuGreStickSlip mutant).
model DifferentiateAbsTwice
  Real x(start = 1), v, f;
equation
  der(x) = v;
  der(v) = f;
  abs(x) = 1 + 0.5*sin(time);
end DifferentiateAbsTwice;
