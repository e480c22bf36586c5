// expect: 7:7: unexpected 'when', expecting 'if'
model NoEndIf
equation
  if true then
    x = 1;
  else x = 2;
  end when;
end NoEndIf;
