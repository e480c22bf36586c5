// An impure function of no arguments whose array result is evaluated per element at run time
// (one call per element): the element calls copy no arguments (the fuzzer found a copy from
// a null argument list).
model ZeroArgumentArray
  impure function f
    output Real y[2];
  algorithm
    y := {1, 2};
  end f;
  Real x[2];
equation
  x = f();
  annotation(experiment(StopTime = 0.1, Interval = 0.05));
end ZeroArgumentArray;
