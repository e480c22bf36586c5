// Array operations in function bodies for the function compiler (tests/test_func_compile.c):
// products of vectors and matrices (the scalar product, matrix * vector, vector * matrix,
// matrix * matrix), sum/product/min/max of an array, zeros/ones/fill, and the element-wise
// .* and ./ , cross, matrix/vector/scalar/transpose/identity, cat along the first dimension, empty
// filled arrays. Closed forms by hand in test_func_compile.c (array_operations_closed_forms).
model FunctionsArrays
  function norm "the length of v, as sqrt(v*v)"
    input Real v[:];
    output Real y;
  algorithm
    y := sqrt(v*v);
  end norm;

  function mv "A*x, x*A and A*B of fixed shapes: A[2, 3] x[3] gives 2 values, x*B 2"
    input Real A[2, 3];
    input Real x[3];
    input Real B[3, 2];
    output Real y[2];
    output Real z[2];
    output Real C[2, 2];
  algorithm
    y := A*x;
    z := x*B;
    C := A*B;
  end mv;

  function reductions "sum, product, min and max of v, and of a filled array"
    input Real v[:];
    input Integer n;
    output Real s;
    output Real p;
    output Real lo;
    output Real hi;
    output Real f;
  protected
    Real w[3] = fill(2.5, 3);
    Real o[2, 2] = ones(2, 2);
    Real z[3] = zeros(3);
  algorithm
    s := sum(v);
    p := product(v);
    lo := min(v);
    hi := max(v);
    f := sum(w) + sum(o) + sum(z + v .* v ./ (ones(3) + v .* v));
  end reductions;

  function quat "sign flip of a quaternion against a guess, as in quaternion libraries"
    input Real Q[4];
    input Real Q_guess[4];
    output Real R[4];
  algorithm
    R := Q;
    if Q*Q_guess < 0 then
      R := -Q;
    end if;
  end quat;

  function normal "the unit normal of the plane of x and y, as cross(x, y)/|cross(x, y)|"
    input Real x[3];
    input Real y[3];
    output Real n[3];
  protected
    Real c[3] = cross(x, y);
  algorithm
    n := c/norm(c);
  end normal;

  function rotation "planar rotation about the unit axis e: e e' + (I - e e') cos(a) - [e x] sin(a)"
    input Real e[3];
    input Real angle;
    output Real T[3, 3];
  protected
    Real E[3, 1] = matrix(e);
    Real sk[3, 3] = {{0, -e[3], e[2]}, {e[3], 0, -e[1]}, {-e[2], e[1], 0}};
  algorithm
    T := E*transpose(E) + (identity(3) - E*transpose(E))*cos(angle) - sk*sin(angle);
    T := transpose(transpose(T)) + zeros(3, 3)*scalar({vector({{angle}})});
  end rotation;

  function stacked "cat(1, ...) of vectors and of matrices"
    input Real v[2];
    input Real A[2, 2];
    output Real w[5];
    output Real B[3, 2];
  algorithm
    w := cat(1, v, {v[1] + v[2]}, v);
    B := cat(1, A, {{v[1], v[2]}});
  end stacked;

  function countOf "1 + the length of v"
    input Real v[:];
    output Real n;
  algorithm
    n := size(v, 1) + 1 + sum(v);
  end countOf;

  function emptyArg "empty filled arrays, also passed on (a length 0 inside the callee)"
    input Real x;
    output Real y;
  algorithm
    y := x + countOf(fill(x, 0)) + sum(zeros(0)) + countOf(ones(2));
  end emptyArg;

  Real a = norm({3, 4 + time});
  Real T[3, 3] = rotation({0, 0, 1}, time);
  Real nrm[3] = normal({1, 0, time}, {0, 1, 0});
  Real y[2], z[2], C[2, 2];
  Real s, p, lo, hi, f;
  Real w[5], B[3, 2];
  Real e = emptyArg(time);
  Real q[4] = quat({1, 2, 3, time}, {-1, 0, 0, 0});
equation
  (y, z, C) = mv({{1, 2, 3}, {4, 5, 6}}, {1, time, 2}, {{1, 0}, {0, 1}, {1, 1}});
  (s, p, lo, hi, f) = reductions({2, -1, 3 + time}, 2);
  (w, B) = stacked({1, time}, {{1, 2}, {3, time}});
end FunctionsArrays;
