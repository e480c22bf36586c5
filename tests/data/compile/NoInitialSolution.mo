model NoInitialSolution
  Real x(start = 1);
initial equation
  x*x = -1;
equation
  der(x) = -x;
end NoInitialSolution;
