// A function called as a statement of an initial algorithm whose assert fails: the run stops
// with the call's location.
model InitialAlgorithmAssert
  function checkPositive
    input Real x;
  algorithm
    assert(x > 0, "x must be positive");
  end checkPositive;
  parameter Real p = -1;
  Real x = time;
initial algorithm
  checkPositive(p);
end InitialAlgorithmAssert;
