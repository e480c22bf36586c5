// Index reduction differentiates a constraint through a function whose body reads an array
// input element by element (u[1]) when the call passes a literal array: b = 2 a ties two
// integrators together, so u = 2 a, a = exp(t), b = 2 exp(t). A String parameter (kept as
// text) does not stop the model.
model InlineElement
  function pick
    input Real u[2];
    output Real y;
  algorithm
    y := 2 * u[1];
  end pick;
  parameter String label = "decay" "only text";
  Real a(start = 1, fixed = true);
  Real b;
  Real u;
equation
  der(a) = -a + u;
  der(b) = u;
  b = pick({a, time});
end InlineElement;
