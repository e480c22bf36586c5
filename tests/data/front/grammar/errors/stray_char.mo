// expect: 3:12: stray '$' in program
model Stray
  Real x = $1;
end Stray;
