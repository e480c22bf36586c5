// A sample instant is one event: `late` switches by a state event about 1e-14 s after the
// sample at t = 0.2 (its indicator's hysteresis, 1e-10 over a slope of 1e4: more than the
// runtime's coincidence window, less than the rounding window of sample()), which must not
// count that instant again. Samples at 0.1, 0.2, 0.3, 0.4: n = 4.
model SampleOnce
  Real x(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
  Boolean late;
equation
  der(x) = 1;
  late = 1e4 * (x - 0.2) > 0;
  when sample(0.1, 0.1) then
    n = pre(n) + 1;
  end when;
end SampleOnce;
