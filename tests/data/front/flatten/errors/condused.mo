model CondUsed
  parameter Boolean b = false;
  Real y if b;
  Real z = y;
end CondUsed;
