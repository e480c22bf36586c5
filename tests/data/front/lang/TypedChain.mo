// N parts whose variables have types derived through chains of short classes: the chain's
// modifiers are merged once per type (resolve_type), under each declaration's own.
model TypedChain
  type Length = Real(final quantity = "Length", final unit = "m", min = -1e6, nominal = 2,
    displayUnit = "mm");
  type Position = Length;
  type Distance = Position(min = 0);
  model Part
    Position s(start = 1, fixed = true);
    Distance d(displayUnit = "km") = 3;
    Length l(nominal = 5);
    Position v;
  equation
    der(s) = v;
    v = -s;
    l = s + d;
  end Part;
  parameter Integer N = 4;
  Part p[N];
end TypedChain;

model TypedFinal "a final attribute of the type modified again"
  type Length = Real(final unit = "m");
  type Position = Length;
  Position x(unit = "mm") = 1;
end TypedFinal;
