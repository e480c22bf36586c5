// Functions whose array sizes and branches follow from values known when they are compiled
// (tests/test_func_compile.c, sizes_known_when_compiled): a protected Integer bound to
// size(x, 1) and never reassigned sizes other locals, a condition on a pinned argument
// leaves only its branch (the even branch's slice assignment is never compiled for an odd
// m), element-wise built-ins on arrays (cos(phi)), array comprehensions over known ranges,
// and calls of a record-valued function field by field. Closed forms in the test.
model FunctionsSizes
  record Pair "a pair of numbers, as a complex number"
    Real re;
    Real im;
  end Pair;

  function orient "the angles (k - 1)*2*pi/m of m phases (odd m), halves for even m"
    input Integer m;
    output Real o[m];
  algorithm
    if mod(m, 2) == 0 then
      o[1:integer(m/2)] := orient(integer(m/2));
      o[integer(m/2) + 1:m] := orient(integer(m/2)) - fill(3.14159/m, integer(m/2));
    else
      o := {(k - 1)*2*3.14159/m for k in 1:m};
    end if;
  end orient;

  function phasor "2/m sum of x[k] (cos, sin) of the phase angles"
    input Real x[:];
    output Real y[2];
  protected
    Integer m = size(x, 1);
    Real phi[m] = orient(m);
    Real T[2, m] = 2/m*{cos(phi), sin(phi)};
  algorithm
    y := T*x;
  end phasor;

  function mul "the product of two pairs as complex numbers"
    input Pair a;
    input Pair b;
    output Pair c;
  algorithm
    c := Pair(a.re*b.re - a.im*b.im, a.re*b.im + a.im*b.re);
  end mul;

  function real "the first field of a pair"
    input Pair z;
    output Real r;
  algorithm
    r := z.re;
  end real;

  function power "the real part of the sum of u[k]*v[k]"
    input Pair u[:];
    input Pair v[size(u, 1)];
    output Real p;
  algorithm
    p := sum({real(mul(u[k], v[k])) for k in 1:size(u, 1)});
  end power;

  Real y[2] = phasor({time, 1, 2});
  Real p = power({Pair(time, 1), Pair(2, -1)}, {Pair(3, time), Pair(1, 1)});
end FunctionsSizes;
