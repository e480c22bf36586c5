// Index reduction would have to differentiate a function with a loop: a located error
// (tests/test_lang.c).
model IndexFunctionBad
  function twice
    input Real u;
    output Real y;
  algorithm
    y := 0;
    for i in 1:2 loop
      y := y + u;
    end for;
  end twice;
  Real x1(start = 1, fixed = true);
  Real x2;
  Real u;
equation
  der(x1) = -x1 + u;
  der(x2) = u;
  x2 = twice(x1);
end IndexFunctionBad;
