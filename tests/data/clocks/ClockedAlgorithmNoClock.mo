model ClockedAlgorithmNoClock "an algorithm with previous() and nothing that gives its partition a clock"
  Real x(start = 0);
algorithm
  x := previous(x) + 1;
end ClockedAlgorithmNoClock;
