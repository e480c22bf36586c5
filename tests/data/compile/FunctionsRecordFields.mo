// A record-valued call inside a function body: each field read is a call of its own with
// the same arguments, in a loop; the body of `pair` should run once per argument.
package FunctionsRecordFields
  record Pair
    Real a;
    Real b;
  end Pair;
  function pair
    input Real x;
    output Pair p;
  algorithm
    p.a := x * x;
    p.b := 3 * x;
  end pair;
  function total
    input Real x;
    output Real y;
  protected
    Pair q;
  algorithm
    y := 0;
    for i in 1:4 loop
      q := pair(x);
      y := y + q.a + q.b;
    end for;
  end total;
  model Use
    Real y = total(time);
  end Use;
end FunctionsRecordFields;
