// when {c1, c2}: the clause fires whenever one of the conditions becomes true, in equations
// and in algorithms (with initial(), which fires once: at initialization, not again in the
// initial event). Closed forms: n counts 0.3 and 0.6, m is 10 from the start and 20 after 0.7.
model VectorWhen
  Integer n(start = 0, fixed = true);
  Integer m(start = 0, fixed = true);
equation
  when {time > 0.3, time > 0.6} then
    n = pre(n) + 1;
  end when;
algorithm
  when {initial(), time > 0.7} then
    m := pre(m) + 10;
  end when;
end VectorWhen;
