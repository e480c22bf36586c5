// A threshold crossed at t = 0.5 and again exactly at the stop time 1: the second crossing is
// not handled (the run ends with the values before it), and the terminal pass keeps the
// relation's value. 2 time >= 2 T is a zero crossing (time >= T itself, with T discrete, is
// a time event), exactly at 0.5 and 1.
model CrossingAtStop
  discrete Real T(start = 0.5, fixed = true);
  Integer n(start = 0, fixed = true);
  Boolean above = 2*time >= 2*T;
equation
  when 2*time >= 2*T then
    T = pre(T) + 0.5;
    n = pre(n) + 1;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end CrossingAtStop;
