connector C
  Real v;
  flow Real i;
end C;

model NotConnector
  Real x;
  C c;
equation
  connect(x, c);
end NotConnector;
