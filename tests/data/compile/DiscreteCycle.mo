model DiscreteCycle
  Real x(start = 0, fixed = true);
  Boolean b1, b2;
equation
  der(x) = 1;
  b1 = not b2;
  b2 = b1 and x > -1;
end DiscreteCycle;
