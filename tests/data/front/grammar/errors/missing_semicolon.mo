// expect: 4:3: unexpected 'Real', expecting ';'
model MissingSemicolon
  Real x = 1
  Real y = 2;
equation
  x = y;
end MissingSemicolon;
