// A model calling C code of its own (an Include annotation): its FMU carries the Modelica
// text, translated where the FMU runs (the C is built there). x = exp(-2 t).
model ExternalInclude
  function twice
    input Real x;
    output Real y;
  external "C" y = fmu_test_twice(x)
    annotation(Include = "double fmu_test_twice(double x) { return 2 * x; }");
  end twice;
  Real x(start = 1, fixed = true);
equation
  der(x) = -twice(x);
  annotation(experiment(StopTime = 1));
end ExternalInclude;
