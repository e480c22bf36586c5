model SignIndex "index reduction through sign() (KinematicPTP2 in the clocked drives): v = -2 t"
  Real d "negative over the run";
  Real x;
  Real v;
equation
  d = time - 10;
  der(x) = v;
  x = sign(d)*time^2;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end SignIndex;
