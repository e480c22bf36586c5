// An initial equation without continuous unknowns adds nothing to the system of the states:
// `c = true` only restates c = pre(b) with b's fixed start, so it is checked, not counted.
// RedundantInitBad contradicts it and is an error at its line.
model RedundantInit
  discrete Boolean b(start = true, fixed = true);
  Boolean c;
  Real x(start = 0, fixed = true);
initial equation
  c = true;
equation
  c = pre(b);
  der(x) = if c then 1 else -1;
  when x > 0.5 then
    b = false;
  end when;
end RedundantInit;

model RedundantInitBad
  extends RedundantInit;
initial equation
  c = false;
end RedundantInitBad;
