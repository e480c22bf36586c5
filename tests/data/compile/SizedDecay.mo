// n decaying states whose count is a parameter: `-p n=4` must resize the model
// (a structural parameter), `-p k=0.5` changes a rate. x[i](t) = exp(-k*i*t).
model SizedDecay
  parameter Integer n = 2;
  parameter Real k = 1;
  Real x[n](each start = 1, each fixed = true);
equation
  for i in 1:n loop
    der(x[i]) = -k*i*x[i];
  end for;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end SizedDecay;
