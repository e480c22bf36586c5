model InfiniteFactor "a clock factor that is not a finite Integer"
  Real y;
equation
  y = sample(time, Clock(1, 2/0));
end InfiniteFactor;
