model HeldInputPlant "a plant driven by a held input that takes a new value at every tick of Clock(1, 100)"
  Real u(start = 0) "clocked: k + 1 from the tick at t = k/100 on";
  Real x(start = 0, fixed = true), z(start = 0, fixed = true);
equation
  when Clock(1, 100) then
    u = previous(u) + 1;
  end when;
  der(x) = hold(u) - x;
  der(z) = x;
  annotation(experiment(StopTime = 1, Interval = 0.05, Tolerance = 1e-9));
end HeldInputPlant;
