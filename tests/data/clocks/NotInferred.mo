model NotInferred "a clocked partition whose clock nothing gives"
  Real y;
equation
  y = sample(time);
end NotInferred;
