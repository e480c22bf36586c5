// expect: 4:3: unterminated comment
model C
  Real x;
  /* this comment never ends
end C;
