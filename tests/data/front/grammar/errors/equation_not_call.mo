// expect: 5:3: expected '=' or a function call in this equation
model NotCall
  Real x;
equation
  x + 1;
end NotCall;
