// Index reduction would have to differentiate an impure function (its derivative would not
// be the one of the values it returns): a located error (tests/test_lang.c).
model IndexFunctionBad
  impure function twice
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
