// The break-away logic of a one-way clutch in miniature. Locked, the path parameter s
// (its lock torque) exceeds the start threshold 0.5 at t = 0.5; sliding, s is 0.3 lower,
// under the threshold, so within one event pass the mode alternates: locked -> starting ->
// locked. Kept starting, pre(startForward) lowers the threshold to 0 in the next pass and
// that pass settles; then x leaves 0 and the element slides: x = t - 0.5 after t = 0.5.
model CycleKeepsProgress
  Real x(start = 0, fixed = true);
  Real s;
  Boolean startForward(start = false), locked(start = true), stuck(start = true);
equation
  der(x) = if locked then 0 else 1;
  s = if locked then time else time - 0.3;
  startForward = pre(stuck) and (s > 0.5 or pre(startForward) and s > 0);
  locked = pre(stuck) and not startForward;
  stuck = locked or x <= 0;
end CycleKeepsProgress;
