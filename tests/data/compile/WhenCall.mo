model WhenCall "a function called for its effects in a when-equation; a model of parameters only"
  function check
    input Real x;
  algorithm
    assert(x < 0.45, "x too large at a sample");
  end check;
  parameter Real k = 1;
  Real x = k * time;
equation
  when sample(0, 0.1) then
    check(x);
  end when;
end WhenCall;
