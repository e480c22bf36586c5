model Sub
  parameter Real k = 1;
end Sub;

model BadMod
  Sub s(kk = 2);
end BadMod;
