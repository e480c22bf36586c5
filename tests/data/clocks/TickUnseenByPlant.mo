model TickUnseenByPlant "a clocked counter the plant does not read; the held output it drives steps once"
  Integer n(start = 0);
  Real v(start = 0);
  Real x(start = 0, fixed = true);
equation
  when Clock(1, 100) then
    n = previous(n) + 1;
    v = if n >= 50 then 1 else 0;
  end when;
  der(x) = hold(v) - x;
  annotation(experiment(StopTime = 1, Interval = 0.05, Tolerance = 1e-8));
end TickUnseenByPlant;
