// The one evaluator of function bodies (the function machine, src/func) at flattening time and at run
// time (tests/test_compile_functions.c): an output sized by an input (table[n, 2]), a
// protected array sized by size(), a column slice t[:, j], nested calls. Closed forms:
// p = total(3, 2) = 2 (1 + 2 + 3) = 12; der(x) = total(3, time) = 6 t, so x = 3 t^2.
model FunctionsShared
  function ramp "n x 2 table: i, slope*i"
    input Integer n;
    input Real slope;
    output Real table[n, 2];
  algorithm
    for i in 1:n loop
      table[i, 1] := i;
      table[i, 2] := slope*i;
    end for;
  end ramp;
  function sumColumn
    input Real t[:, 2];
    input Integer j;
    output Real s;
  protected
    Real c[size(t, 1)];
  algorithm
    c := t[:, j];
    s := 0;
    for i in 1:size(t, 1) loop
      s := s + c[i];
    end for;
  end sumColumn;
  function total
    input Integer n;
    input Real slope;
    output Real s;
  algorithm
    s := sumColumn(ramp(n, slope), 2);
  end total;
  parameter Real p = total(3, 2.0);
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = total(3, time);
  y = p;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end FunctionsShared;
