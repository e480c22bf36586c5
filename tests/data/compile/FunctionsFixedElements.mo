// Array elements at literal subscripts (IF97's style: o[2] := o[1]*o[1]) and one out of
// range, which fails when it runs.
package FunctionsFixedElements
  function chain
    input Real x;
    output Real y;
  protected
    Real o[3];
    Real m[2, 2];
  algorithm
    o[1] := x;
    o[2] := o[1] * o[1];
    m[2, 1] := o[2] + 1;
    o[3] := m[2, 1] * o[1];
    y := o[3] + m[2, 2];
  end chain;
  function beyond
    input Real x;
    output Real y;
  protected
    Real o[2];
  algorithm
    o[1] := x;
    y := o[3];
  end beyond;
  model Use
    Real y = chain(time);
    Real z = beyond(time) "fails when evaluated";
  end Use;
end FunctionsFixedElements;
