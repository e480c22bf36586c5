model TickPulse "a clocked if-equation assigning two discrete variables in either order; the clock given to the clocked y by sample(y, c)"
  parameter Integer periodTicks = 3;
  Integer counter(start = 0);
  Boolean started(start = false);
  Boolean y "true at every third tick, from the first";
  Boolean z "y with its clock assigned";
equation
  if previous(started) then
    counter = if previous(counter) == periodTicks - 1 then 0 else previous(counter) + 1;
    started = previous(started);
  else
    started = previous(counter) >= 0;
    counter = if started then 0 else previous(counter) + 1;
  end if;
  y = started and counter < 1;
  z = sample(y, Clock(1, 10));
  annotation(experiment(StopTime = 1, Interval = 0.025));
end TickPulse;
