model ActiveNoEvent
  "A relation in a branch chosen by noEvent() can be read without an event: always active"
  Real x(start = 0, fixed = true);
  Real g;
  Real y(start = 0, fixed = true);
equation
  der(x) = 1;
  g = if noEvent(x > 0.5) then (if sin(20*x) > 0 then 1 else 0) else 0;
  der(y) = g;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end ActiveNoEvent;
