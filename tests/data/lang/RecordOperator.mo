// An operator on values of a record that is not an operator record: a located error, not
// element-wise arithmetic.
model RecordOperator
  record C
    Real re;
    Real im;
  end C;
  C a(re = 1, im = 2), b(re = 3, im = 4);
  C c;
equation
  c = a * b;
end RecordOperator;
