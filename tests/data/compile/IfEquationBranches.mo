model IfEquationBranches
  "If-equations whose unknown occurs in every branch: solved branch by branch into assignments, not 1-unknown linear systems"
  Real x(start = 0, fixed = true);
  Real y "2*x after x = 0.5, -x before";
  Real z "1 - y after x = 0.5, 2*y before";
  Real w "x/2 after initialization";
equation
  der(x) = 1;
  if x > 0.5 then
    y = 2*x;
    z + y = 1;
  else
    -y = x;
    z - 2*y = 0;
  end if;
  if initial() then
    w = 1 + x;
  else
    2*w = x;
  end if;
end IfEquationBranches;
