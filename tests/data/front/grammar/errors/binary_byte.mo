// expect: 3:8: stray byte 0x01 in program
model Bin
  Real  = 1;
end Bin;
