// `time >= pre(next)` with a discrete threshold, as the MSL tables write their next breakpoint
// (tests/test_hybrid.c discrete_threshold_is_a_time_event): the threshold is constant between
// events, so the event is scheduled and hit exactly at next = 0.3, 0.6, 0.3 + 0.3 + 0.3, not
// found as a root after it.
model DiscreteTimeEvent
  discrete Real next(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when {time >= pre(next), initial()} then
    next = pre(next) + 0.3;
    n = pre(n) + 1;
  end when;
end DiscreteTimeEvent;
