model TupleArray "a tuple equation with an array output in a clocked partition, as a seeded random-number block"
  function step
    input Integer s[3];
    output Real r;
    output Integer so[3];
  algorithm
    so := {s[1] + 1, s[2] + 2, s[3] + 3};
    r := 0.5*s[1];
  end step;
  Real r;
  Integer seed[3](start = {10, 20, 30});
  Real y;
equation
  (r, seed) = step(previous(seed));
  y = sample(time, Clock(1, 10)) + 0*r;
  annotation(experiment(StopTime = 1, Interval = 0.025));
end TupleArray;
