// An initial algorithm sets when-assigned variables before the initial event (a pulse that
// starts in its third period), and a function called as a statement runs for its asserts.
// Closed forms in test_lang_func.c: count = 2 + number of periods begun since, T_start = the
// start of the current period, y = 1 in the first half of each period.
model InitialAlgorithm
  function checkPositive
    input Real x;
  algorithm
    assert(x > 0, "x must be positive");
  end checkPositive;
  parameter Real period = 0.25;
  parameter Real startTime = -0.5;
  Integer count;
  Real T_start;
  Real y;
initial algorithm
  count := integer((time - startTime) / period);
  T_start := startTime + count * period;
  checkPositive(period);
equation
  when integer((time - startTime) / period) > pre(count) then
    count = pre(count) + 1;
    T_start = time;
  end when;
  y = if time < T_start + period / 2 then 1 else 0;
end InitialAlgorithm;
