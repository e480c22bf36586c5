// Function bodies for the function compiler (tests/test_func_compile.c, src/func/func_compile.c):
// while with break and early return, for with break, array locals, nested calls and a
// tuple, Integer arithmetic. Closed forms: horner(c, x) = c1 + c2 x + c3 x^2; the Collatz
// sequence from 27 takes 111 steps; stats(v) = (sum of squares, largest element).
model FunctionsLoops
  function sq
    input Real x;
    output Real y;
  algorithm
    y := x*x;
  end sq;

  function horner "sum c[i] x^(i-1), evaluated on the reversed coefficients (an array local)"
    input Real c[:];
    input Real x;
    output Real y;
  protected
    Real r[size(c, 1)];
  algorithm
    for i in 1:size(c, 1) loop
      r[i] := c[size(c, 1) + 1 - i];
    end for;
    y := 0;
    for i in 1:size(c, 1) loop
      y := y*x + r[i];
    end for;
  end horner;

  function collatz "Steps from n down to 1 (-1 when more than limit)"
    input Integer n;
    input Integer limit = 1000;
    output Integer steps;
  protected
    Integer k = n;
  algorithm
    steps := 0;
    while true loop
      if k <= 1 then
        return;
      end if;
      if steps >= limit then
        break;
      end if;
      k := if mod(k, 2) == 0 then div(k, 2) else 3*k + 1;
      steps := steps + 1;
    end while;
    steps := -1;
  end collatz;

  function firstAbove "Index of the first element above u, 0 when none"
    input Real v[:];
    input Real u;
    output Integer k;
  algorithm
    k := 0;
    for i in 1:size(v, 1) loop
      if v[i] > u then
        k := i;
        break;
      end if;
    end for;
  end firstAbove;

  function stats "Sum of squares and largest element"
    input Real v[:];
    output Real s;
    output Real m;
  algorithm
    s := 0;
    m := v[1];
    for x in v loop
      s := s + sq(x);
      m := max(m, x);
    end for;
  end stats;

  function scaled "Element-wise array arithmetic into an array local, then a weighted sum"
    input Real v[3];
    input Real w;
    output Real y;
  protected
    Real a[3];
    Real b[3];
  algorithm
    a := 2*v;
    b := a - v/w;
    b := b + a;
    y := 0;
    for i in 1:3 loop
      y := y + b[i]*sin(v[i]) + sqrt(abs(a[i])) - exp(-b[i]^2);
    end for;
    (y, ) := stats({y, -y, w});
  end scaled;

  function fact "n (n - 1) (n - 2) ... down to the first factor not above 1"
    input Real n;
    output Real y;
  algorithm
    if n <= 1 then
      y := 1;
    else
      y := n*fact(n - 1);
    end if;
  end fact;

  parameter Real n = 5;
  Real p "1 + 2 t + 3 t^2";
  Real s "stats: (1 + t)^2 + 4 + 9";
  Real m "stats: 3";
  Real k "firstAbove({1, 2, 3}, 1.5 + t): 2 below t = 0.5, 3 up to t = 1.5";
  Real f "fact(n + t)";
  Real c "collatz(27): 111";
  Real q "scaled(...)";
equation
  p = horner({1, 2, 3}, time);
  (s, m) = stats({1 + time, 2, 3});
  k = firstAbove({1, 2, 3}, 1.5 + time);
  f = fact(n + time);
  c = collatz(27);
  q = scaled({time, 1, 2}, 2);
  annotation(experiment(StopTime = 1, Interval = 0.25));
end FunctionsLoops;

// fact() past the depth bound (65 nested calls): a located run-time error.
model FunctionsTooDeep
  extends FunctionsLoops(n = 100);
end FunctionsTooDeep;

// checked() fails its assert once x reaches 0.5: the run stops with the located error of
// the equation, naming the assert and its message.
model FunctionsAssert
  function checked
    input Real x;
    output Real y;
  algorithm
    assert(x < 0.5, "x must stay below 0.5");
    y := x;
  end checked;
  Real y = checked(time);
  annotation(experiment(StopTime = 1));
end FunctionsAssert;
