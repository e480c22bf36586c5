// N parts that use a record class's fields: a record binding, a constructor call, and fields
// of a record constant with an array field sized by a constant of the record class. The
// record's leaves are collected once per class (records.c st_rec_leaves), not per use.
model RecordChain
  record Data
    constant Integer n = 3;
    Real re = 1;
    Real im = 2;
    Real w[n] = {1, 2, 3};
  end Data;
  constant Data c = Data(re = 4, im = 5);
  model Part
    Data d = Data(re = 2*time, im = -time, w = {time, 2, 3});
    Real y = d.re + c.im + d.w[1];
    Real z(start = c.re) = c.w[3]*d.im;
  end Part;
  parameter Integer N = 4;
  Part p[N];
end RecordChain;
