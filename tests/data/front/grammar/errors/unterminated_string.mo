// expect: 3:14: unterminated string
model S
  String s = "no end;
  Real x;
end S;
