model Conflict "two different clocks on one partition"
  Real y;
equation
  y = sample(time, Clock(1, 10)) + sample(time, Clock(1, 20));
end Conflict;
