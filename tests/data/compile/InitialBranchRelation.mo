model InitialBranchRelation
  "Relations in the branches of `if initial()`: those of the else-branch hold their value at t0, those of the initial branch cause no events"
  Real x(start = 2, fixed = true) "slides down to 1 at unit speed, then stops";
  Real y(start = 0, fixed = true) "grows at unit speed from t = 0";
  Real f;
  Real g;
equation
  der(x) = f;
  der(y) = g;
  if initial() then
    // x > 1.5 is dead after initialization: no event when x passes 1.5 at t = 0.5
    f = if x > 1.5 then 0 else 1;
    g = 0;
  else
    f = if x > 1 then -1 else 0;
    g = if time >= 0 then 1 else 0;
  end if;
end InitialBranchRelation;
