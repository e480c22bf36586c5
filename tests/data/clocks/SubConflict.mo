model SubConflict "subSample(u, 2) of a 0.1 s clock joined to a 0.3 s clock"
  Real u, v;
equation
  u = sample(time, Clock(1, 10));
  v = subSample(u, 2) + sample(time, Clock(3, 10));
end SubConflict;
