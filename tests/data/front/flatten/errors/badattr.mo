model BadAttr
  type Len = Real(unit = "m");
  Len x(start = 1, strt = 2);
equation
  der(x) = -x;
end BadAttr;
