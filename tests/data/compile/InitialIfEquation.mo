// If-equations among the initial equations: the branches assign the same variables, so
// each becomes `v = if x > 1 then ... else ...` (mode, a when-assigned Integer, set before
// the initial system; z, a state without fixed start, one of its equations). x0 = 2 takes
// the first branch: mode = 1 until x = exp(-t) x0 falls below 0.5 (t = ln 4), z = 6;
// x0 = 0.8 the second: mode = 2, z = -1.
model InitialIfEquation
  parameter Real x0 = 2;
  Real x(start = x0, fixed = true);
  Real z;
  Integer mode;
initial equation
  if x > 1 then
    mode = 1;
    z = 3*x;
  else
    z = -1;
    mode = 2;
  end if;
equation
  der(x) = -x;
  der(z) = 0;
  when x < 0.5 then
    mode = 3;
  end when;
end InitialIfEquation;
