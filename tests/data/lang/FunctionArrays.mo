// Array functions, matrix products, slice assignments and a comprehension over an input's
// range inside function bodies (run by the evaluator); a String parameter compared.
// Each output is a closed form checked in test_lang_func.c.
model FunctionArrays
  function f
    input Real t;
    input Integer m = 3;
    output Real r[14];
  protected
    Real A[2, 2] = [1, 2; 3, 4];
    Real v[2] = {t, 1};
    Real w[2];
    Real B[2, 2];
    Real c[3];
    Real sl[2, 4] = zeros(2, 4);
  algorithm
    w := A * v;
    B := transpose(A) * identity(2) + diagonal({t, t}) - fill(1, 2, 2) + zeros(2, 2) + ones(2, 2);
    c := cross({1, 0, 0}, {0, 1, 0});
    r[1] := w[1];
    r[2] := w[2];
    r[3] := B[1, 2];
    r[4] := B[2, 2];
    r[5] := sum(A) + product(v) + max(A) + min(v);
    r[6] := ndims(A) + sum(size(A));
    r[7] := scalar(v * v);
    r[8] := sum(linspace(0, t, 5));
    r[9] := sum(vector(A) .* {1, 0, 0, 1});
    r[10] := c[3] + size(cat(1, v, {2, 3, 4}), 1);
    r[11] := sum(abs({-t, 2}));
    r[12] := sum(matrix(v) * transpose(matrix(v)));
    sl[2, 2:3] := {t, 2 * t};
    sl[1, :] := fill(1, 4);
    r[13] := sum(sl);
    r[14] := sum({k * t for k in 1:m});
  end f;
  parameter String conn = "D";
  Real r[14] = f(time);
  Real s = if conn == "D" then 1 else 2 "a String parameter compared: decided now";
end FunctionArrays;
