// expect: 5:3: the left-hand side of ':=' must be a component reference or a tuple
function Target
  output Real y;
algorithm
  y + 1 := 2;
end Target;
