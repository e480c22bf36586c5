// terminate() as a statement of a model's algorithm section (Modelica 3.6 section 8.3.7):
// the when-statement fires at x = 0.5 (x = time), counts and ends the run there.
model AlgorithmTerminate
  Real x(start = 0, fixed = true);
  Integer n(start = 0, fixed = true);
equation
  der(x) = 1;
algorithm
  when x > 0.5 then
    n := pre(n) + 1;
    terminate("x passed 0.5");
  end when;
  annotation(experiment(StopTime = 2));
end AlgorithmTerminate;
