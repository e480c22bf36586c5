// expect: 5:12: unexpected ';'
// expect: 8:9: unexpected '='
// expect: 11:10: unexpected 'then'
model Several "recovery at ';' reports each error once"
  Real a = ;
  Real b = 1;
equation
  a = b = 2;
  b = 1;
algorithm
  if a > then
    b := 2;
  end if;
end Several;
