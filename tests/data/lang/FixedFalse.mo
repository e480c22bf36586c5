// Parameters with fixed = false computed by initial equations from other parameters
// (Modelica 3.6 section 8.6), also through a tuple equation with array outputs, and a
// function returning an array called with constant arguments. Closed forms in
// test_lang_func.c: c = {1, 2, 3} * k, s = 6 k, m = 3 k, x = exp(-s t); x0 = 2 x(0) is
// computed at initialization from the state's start value and held; t0 = 0.25 starts a
// sample() that counts ticks at 0.25, 0.5, 0.75, 1.
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
  parameter Real t0(fixed = false) "from the start time: a sample() start";
  Integer ticks(start = 0, fixed = true);
  Real d[n] = coeffs(n, 2 * k);
  Real x(start = 1, fixed = true);
initial equation
  c = coeffs(n, k);
  (s, m) = stats(c);
  x0 = 2 * x;
  t0 = time + 0.25;
equation
  when sample(t0, 0.25) then
    ticks = pre(ticks) + 1;
  end when;
  der(x) = -s * x;
end FixedFalse;
