// A protected array of records in a function declared with the size on the type,
// `Pair[2] t = {Pair(..), Pair(..)}` (ReferenceMoistAir's `Complex[2] t`), and on the name:
// f(x) = (1 x + 2) + (3 x + 4) = 4 x + 6, g(x) = 2 (5 x + 6) = 10 x + 12.
package RecordArrayLocal
  record Pair
    Real a;
    Real b;
  end Pair;
  function f
    input Real x;
    output Real y;
  protected
    final Pair[2] t = {Pair(1, 2), Pair(3, 4)};
  algorithm
    y := 0;
    for i in 1:2 loop
      y := y + t[i].a * x + t[i].b;
    end for;
  end f;
  function g
    input Real x;
    output Real y;
  protected
    Pair t[2] = {Pair(5, 6), Pair(5, 6)};
  algorithm
    y := sum(t.a) * x + sum(t.b);
  end g;
  model Test
    Real y = f(time);
    Real z = g(time);
  end Test;
end RecordArrayLocal;
