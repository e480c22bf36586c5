// terminal() (tests/test_lang.c): x = exp(-t); a when-clause on terminal() records the final
// value of x and counts how often it fired. With b = true the run is stopped by terminate()
// when x falls below 0.5 (t = ln 2), and the terminal pass happens there.
model Terminal
  parameter Boolean b = false;
  Real x(start = 1, fixed = true);
  discrete Real xEnd(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
equation
  der(x) = -x;
  when terminal() then
    xEnd = x;
    n = pre(n) + 1;
  end when;
  when b and x < 0.5 then
    terminate("x fell below 0.5");
  end when;
  annotation(experiment(StopTime = 2, Interval = 0.25));
end Terminal;
