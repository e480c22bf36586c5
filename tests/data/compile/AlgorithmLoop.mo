// An algorithm section in an algebraic loop with an equation: a located error
// (tests/test_lang.c).
model AlgorithmLoop
  Real a, b;
equation
  a = 2*b + 1;
algorithm
  b := a/4;
end AlgorithmLoop;
