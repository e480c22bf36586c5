model AttrSub
  Real x(start(z = 1) = 0);
equation
  der(x) = -x;
end AttrSub;
