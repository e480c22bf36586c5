model Attrs
  type Len = Real(quantity = "Length", unit = "m", displayUnit = "mm", min = -10);
  Len x(start = 1, fixed = true, nominal = 2, max = 3, stateSelect = StateSelect.prefer);
  Real y(unit = "s", min = 0, start = 4, unit = "h");
equation
  der(x) = -x;
  y = time;
end Attrs;
