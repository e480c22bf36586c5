// Index reduction must differentiate x = ... but cannot (a time-varying exponent); it has
// already added derivative slots when it fails (a mutant of MSL PreLoad freed garbage here).
model IndexReductionFails
  Real x(start = 0, fixed = true);
  Real v;
equation
  der(x) = v;
  x = smooth(1, noEvent(if time > 0.5 then abs(time - 0.5)^(2 + time) else 0));
end IndexReductionFails;
