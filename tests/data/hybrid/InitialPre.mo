// pre() during initialization is the start value (Modelica 3.6 section 8.6), in every pass
// that initializes: y = pre(a) is 1 there, as Digital's And gate outputs 'U' before its
// first event. The event iteration after initialization moves pre(a) to 3, so y changes
// then and `change(y) and not initial()` fires once: seen = 1 from t = 0 on. The when
// initial() statement of the algorithm is active in every pass of initialization and
// counts once: n = 1.
model InitialPre
  Integer a(start = 1, fixed = true);
  Integer y;
  Integer seen(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
equation
  a = 3;
  y = pre(a);
  when change(y) and not initial() then
    seen = pre(seen) + 1;
  end when;
algorithm
  when initial() then
    n := pre(n) + 1;
  end when;
end InitialPre;
