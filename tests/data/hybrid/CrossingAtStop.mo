// A threshold crossed at t = 0.5 and again exactly at the stop time 1: the second crossing is
// not handled (the run ends with the values before it), and the terminal pass keeps the
// relation's value.
model CrossingAtStop
  discrete Real T(start = 0.5, fixed = true);
  Integer n(start = 0, fixed = true);
  Boolean above = time >= T;
equation
  when time >= T then
    T = pre(T) + 0.5;
    n = pre(n) + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end CrossingAtStop;
