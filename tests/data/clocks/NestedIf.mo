model NestedIf "an if-equation with non-parameter conditions nesting another one"
  Boolean early;
  Real s;
  Integer k;
equation
  early = time < 0.3;
  if time < 0.2 then
    s = 0;
    k = 0;
  elseif early then
    if time < 0.25 then
      k = 1;
      s = 1;
    else
      s = 2;
      k = 2;
    end if;
  else
    k = 3;
    s = 3;
  end if;
  annotation(experiment(StopTime = 0.5, Interval = 0.01));
end NestedIf;
