model InferredFactors "superSample(u) and subSample(u) without factors: inferred from the clocks of their partitions"
  Real u = sample(time, Clock(1, 10));
  Real yf, ys;
  Integer nf(start = 0), ns(start = 0);
equation
  when Clock(1, 40) then
    yf = superSample(u);
    nf = previous(nf) + 1;
  end when;
  when Clock(3, 10) then
    ys = subSample(u);
    ns = previous(ns) + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end InferredFactors;
