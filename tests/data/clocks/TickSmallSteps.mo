model TickSmallSteps "a held input that moves by 1e-6 at each tick of Clock(1, 100)"
  Real u(start = 1) "clocked: 1 + (k + 1) 1e-6 from the tick at t = k/100 on";
  Real x(start = 0, fixed = true);
equation
  when Clock(1, 100) then
    u = previous(u) + 1e-6;
  end when;
  der(x) = hold(u) - x;
  annotation(experiment(StopTime = 1, Interval = 0.05, Tolerance = 1e-6));
end TickSmallSteps;
