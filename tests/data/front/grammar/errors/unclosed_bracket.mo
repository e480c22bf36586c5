// expect: 3:12: unexpected '=', expecting ',' or ']'
model Unclosed "the error ends the bracket, so 'end' still closes the class"
  Real x[3 = 1;
  Real y;
equation
  y = x[end];
end Unclosed;
