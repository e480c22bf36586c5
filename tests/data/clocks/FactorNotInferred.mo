model FactorNotInferred "superSample(u) without a factor, and nothing gives its partition a clock"
  Real u = sample(time, Clock(1, 10));
  Real y = superSample(u);
end FactorNotInferred;
