model InfiniteInterval "a clock interval that is not finite"
  Real y;
equation
  y = sample(time, Clock(1.0/0));
end InfiniteInterval;
