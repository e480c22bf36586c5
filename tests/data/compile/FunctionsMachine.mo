// What the function machine runs since it is the only evaluator of function bodies
// (tests/test_func_compile.c, machine_runs_everything): C code of an external clause inside
// a body and called as a statement, operations on Strings (concatenation, comparison,
// String()), a String output, an assert whose message is built from values, a record field
// sized by a field its extends modifies, an if-expression whose known condition picks a
// branch of another shape, a range as a value and a local sized by a comprehension, slices
// that move with a loop variable, a matrix built of vectors [v, 2 v; ...] and a scalar
// function called on a vector (element by element). Closed
// forms in the test: y = 3 time, s = 6 time, w = 12 time, p = 6, n = 2, q = 4, r = 4.5
// (consts = 4926 (1 + time)), m = 8 time, col = 4 time + 1, vz = 12 time,
// ls = 45150 time;
// FunctionsMachineAssert stops past time 2 with the message built from time.
model FunctionsMachine
  function triple "C: *y = 3 x"
    input Real x;
    output Real y;
  external "C" machine_triple(x, y)
    annotation(Include = "void machine_triple(double x, double *y) { *y = 3 * x; }");
  end triple;

  function viaC "triple inside a body, once called as a statement (its result dropped)"
    input Real x;
    output Real y;
  algorithm
    triple(x);
    y := triple(x);
  end viaC;

  function label "a String output"
    input Integer k;
    output String s;
  algorithm
    s := "k" + String(k);
  end label;

  function labels "2 when the texts compare as they should"
    input Integer k;
    output Integer n;
  protected
    String s = label(k);
  algorithm
    n := 0;
    if s == "k" + String(k) and s <> "k" then
      n := n + 1;
    end if;
    if "abc" < "abd" then
      n := n + 1;
    end if;
  end labels;

  function checked "fails for x > 2 with the value in the message"
    input Real x;
    output Real y;
  algorithm
    assert(x <= 2, "x = " + String(x) + " is above 2");
    y := x;
  end checked;

  record Coeffs
    parameter Integer nc = 2;
    parameter Real c[nc];
  end Coeffs;

  record Three
    extends Coeffs(nc = 3, c = {1, 2, 3});
  end Three;

  function weighted "x (1 + 2 + 3): a field sized by the modified nc"
    input Real x;
    output Real y;
  protected
    Three r;
  algorithm
    y := 0;
    for i in 1:r.nc loop
      y := y + x*r.c[i];
    end for;
  end weighted;

  function completed "X with its last element added when it lacks one"
    input Real X[:];
    input Integer n;
    output Real full[n];
  algorithm
    full := if size(X, 1) == n then X else cat(1, X, {1 - sum(X)});
  end completed;

  function ramps "sum(0.25:0.25:1) + size of {i for i in 1:b}: 2.5 + b"
    input Integer m;
    output Real y;
  protected
    Real d = 1/m;
    Integer b = integer(ceil(m/2));
    Real v1[:] = {i*d for i in 1:b};
    Real v2[:] = d:d:1;
  algorithm
    y := sum(v2) + size(v1, 1);
  end ramps;

  function moved "slices that move with the loop variable: v = {x, 2 x, 3 x, 6 x}, 8 x"
    input Real x;
    output Real y = 0;
  protected
    Real v[4];
  algorithm
    for i in 1:2:3 loop
      v[i:i + 1] := {x*i, 2*x*i};
    end for;
    for i in 2:3 loop
      y := y + sum(v[i - 1:i]);
    end for;
  end moved;

  function columns "[v, 2 v; 3 v, 4 v] of vectors: 4 v[1] + v[2]"
    input Real v[:];
    output Real y;
  protected
    Real M[2*size(v, 1), 2];
  algorithm
    M := [v, 2*v; 3*v, 4*v];
    y := M[size(v, 1) + 1, 2] + M[2, 1];
  end columns;

  function scaled "a scalar function"
    input Real x;
    input Real k;
    output Real y;
  algorithm
    y := k*x;
  end scaled;

  function vectorized "scaled applied element by element, and 1 .+ v: 9 x + 3 x"
    input Real x;
    output Real y;
  protected
    Real v[2] = {x, 2*x};
  algorithm
    y := sum(scaled(v, 3)) + sum(1 .+ v) - 2;
  end vectorized;

  function longSlice "x sum(v[1:300]) of v = 1 .. 400: 45150 x (a slice of more than 256)"
    input Real x;
    output Real y;
  protected
    Real v[400] = {i for i in 1:400};
  algorithm
    y := x*sum(v[1:300]);
  end longSlice;

  parameter Real p = triple(2);
  parameter Integer n = labels(7);
  parameter Real q = sum(completed({0.25, 0.5}, 3)) + 3;
  parameter Real r = ramps(4);
  Real y = viaC(time);
  Real s = weighted(time);
  Real w = 4*viaC(time);
  Real consts = (p + 10*n + 100*q + 1000*r)*(1 + time);
  Real m = moved(time);
  Real col = columns({time, 1, 2});
  Real vz = vectorized(time);
  Real ls = longSlice(time);
end FunctionsMachine;

model FunctionsMachineAssert
  Real c = FunctionsMachine.checked(time);
end FunctionsMachineAssert;
