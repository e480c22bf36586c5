model InitialBranchRelation
  "Relations that appear only in the else-branch of `if initial()`: after initialization they must hold their value at t0"
  Real x(start = 2, fixed = true) "slides down to 1 at unit speed, then stops";
  Real y(start = 0, fixed = true) "grows at unit speed from t = 0";
  Real f;
  Real g;
equation
  der(x) = f;
  der(y) = g;
  if initial() then
    f = 0;
    g = 0;
  else
    f = if x > 1 then -1 else 0;
    g = if time >= 0 then 1 else 0;
  end if;
end InitialBranchRelation;
