// The equations of a when-branch hold simultaneously (tests/test_lang.c when_branch_order):
// next reads step, which the same branch sets, so it sees the new value, as in the MSL's
// tables (nextTimeEvent from nextTimeEventScaled). Written in the order that needs sorting.
model WhenOrder
  discrete Real next(start = 0, fixed = true);
  discrete Real step(start = 0, fixed = true);
equation
  when time >= pre(next) then
    next = step * 0.25;
    step = floor(time / 0.25 + 0.5) + 1;
  elsewhen initial() then
    next = step * 0.25;
    step = 1;
  end when;
end WhenOrder;
