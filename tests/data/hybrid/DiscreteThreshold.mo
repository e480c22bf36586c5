model DiscreteThreshold "a pulse of width 0.3 started at every tick of sample(0.5, 1): its fall time < tOn + 0.3 reads the discrete tOn"
  discrete Real tOn(start = -10, fixed = true) "start of the latest pulse";
  Real y "1 during a pulse";
  Real x(start = 0, fixed = true) "pulse time so far";
equation
  when sample(0.5, 1) then
    tOn = time;
  end when;
  y = if time < tOn + 0.3 then 1 else 0;
  der(x) = y;
  annotation(experiment(StopTime = 3, Interval = 0.1));
end DiscreteThreshold;
