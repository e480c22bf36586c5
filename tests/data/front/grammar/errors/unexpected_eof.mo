// expect: 5:1: unexpected end of file
model Eof
equation
  x = 1;
