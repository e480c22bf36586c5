model A
  extends B;
end A;

model B
  extends A;
end B;
