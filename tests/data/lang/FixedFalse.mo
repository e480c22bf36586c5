// Parameters with fixed = false computed by initial equations from other parameters
// (Modelica 3.6 section 8.6), also through a tuple equation with array outputs, and a
// function returning an array called with constant arguments. Closed forms in
// test_lang_func.c: c = {1, 2, 3} * k, s = 6 k, m = 3 k, x = exp(-s t); x0 = 2 x(0) is
// computed at initialization from the state's start value and held.
model FixedFalse
  function coeffs
    input Integer n;
    input Real k;
    output Real c[n];
  algorithm
    for i in 1:n loop
      c[i] := i * k;
    end for;
  end coeffs;
  function stats
    input Real c[:];
    output Real s;
    output Real m[2];
  algorithm
    s := sum(c);
    m := {max(c), min(c)};
  end stats;
  parameter Integer n = 3;
  parameter Real k = 0.5;
  parameter Real c[n](each fixed = false);
  parameter Real s(fixed = false);
  parameter Real m[2](each fixed = false);
  parameter Real x0(fixed = false) "from the state's start: held after initialization";
  Real d[n] = coeffs(n, 2 * k);
  Real x(start = 1, fixed = true);
initial equation
  c = coeffs(n, k);
  (s, m) = stats(c);
  x0 = 2 * x;
equation
  der(x) = -s * x;
end FixedFalse;
