model EventClockAfterWhen "event clocks whose conditions read a counter a when-clause steps at the same instant"
  Integer count(start = 0, fixed = true);
  Boolean before, after;
  Integer nBefore(start = 0), nAfter(start = 0);
  Integer ticksBefore "ticks of Clock(before) so far (0 before the first)", ticksAfter;
equation
  when time >= 0.5 then
    count = pre(count) + 1;
  end when;
  // at t = 0.5 count becomes 1 in the same instant: 'before' never holds at the end of an
  // event iteration, 'after' rises once
  before = time >= 0.5 and count == 0;
  after = time >= 0.5 and count == 1;
  when Clock(before) then
    nBefore = previous(nBefore) + 1;
  end when;
  when Clock(after) then
    nAfter = previous(nAfter) + 1;
  end when;
  ticksBefore = hold(nBefore);
  ticksAfter = hold(nAfter);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end EventClockAfterWhen;
