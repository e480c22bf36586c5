// A String used as a state: no equation has a continuous unknown (a mutant of
// tests/data/compile/NoInitialSolution.mo).
model StringState
  String x(start = 1);
initial equation
  x*x = -1;
equation
  der(x) = -x;
end StringState;
