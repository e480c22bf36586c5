// expect: 4:7: unexpected 'end'
model EndExpr
equation
  x = end;
end EndExpr;
