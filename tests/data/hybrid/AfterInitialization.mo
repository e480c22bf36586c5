// PartialFriction's pattern: startBackward = initial() and v < 0 holds only while the model
// initializes; the event iteration that follows initialization (initial() false, pre() = the
// initialized values) clears it and keeps mode = -1. Closed form: v = -1 + t/2, mode = -1
// until v reaches 0 at t = 2, then 0; startBackward = false in every row, also at t = 0.
// A when-clause on initial() fires once: k = 1 from t = 0 on.
model AfterInitialization
  Real v(start = -1, fixed = true);
  Boolean startBackward(start = false, fixed = true);
  Integer mode(start = 3, fixed = true);
  Integer k(start = 0, fixed = true);
equation
  der(v) = 0.5;
  startBackward = pre(mode) == 0 and v < -1 or initial() and v < 0;
  mode = if (pre(mode) == -1 or startBackward) and v < 0 then -1 else 0;
  when initial() then
    k = pre(k) + 1;
  end when;
end AfterInitialization;
