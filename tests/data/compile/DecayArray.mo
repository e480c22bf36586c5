// N independent decays written as one array and one for-loop: the Jacobian is the diagonal,
// x[i](t) = exp(-i*t/N). At N = 20000 a pattern built through dense bit sets took
// states^2 of time and memory (issue 18).
model DecayArray
  parameter Integer N = 10;
  Real x[N](each start = 1, each fixed = true);
equation
  for i in 1:N loop
    der(x[i]) = -i / N * x[i];
  end for;
  annotation(experiment(StopTime = 1));
end DecayArray;
