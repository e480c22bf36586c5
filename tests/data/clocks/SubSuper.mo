model SubSuper "sub-, super- and shift-sampling of a 0.1 s clock with exact rational ticks"
  Clock c = Clock(1, 10);
  Real u "time sampled at c";
  Real us "u every third tick";
  Real uf "u on the twice faster clock";
  Real ush "u on c shifted by half an interval";
  Integer n(start = 0) "ticks of the sub-sampled clock";
  Integer m(start = 0) "ticks of the super-sampled clock";
equation
  u = sample(time, c);
  us = subSample(u, 3);
  n = previous(n) + 1 + 0*us;
  uf = superSample(u, 2);
  m = previous(m) + 1 + integer(0*uf);
  ush = shiftSample(u, 1, 2);
  annotation(experiment(StopTime = 1, Interval = 0.025));
end SubSuper;
