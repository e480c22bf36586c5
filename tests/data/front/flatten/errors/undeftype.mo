model UndefType
  Realx y;
end UndefType;
