model Counter "an Integer and a Real counter on a 0.1 s clock; the held value is continuous"
  Clock c = Clock(1, 10);
  Integer n(start = 0);
  Real r(start = 0.5);
  Real h;
  Real x(start = 0, fixed = true);
equation
  when c then
    n = previous(n) + 1;
  end when;
  r = sample(time, c) + previous(r);
  h = hold(r);
  der(x) = h;
  annotation(experiment(StopTime = 1, Interval = 0.05));
end Counter;
