// Built-in array functions and operators in equations (Modelica 3.6 chapter 10), on arrays
// the front end expands: der() of an array, element-wise built-ins, constructors, reductions
// over matrices, matrix products, slices and a subscript that is an Integer variable.
// Closed forms in test_lang_func.c.
model ArrayFunctions
  parameter Integer n = 3;
  parameter Real A[2, 3] = [1, 2, 3; 4, 5, 6];
  Real x[n](each start = 1, each fixed = true);
  Real v[3] = {time, 2, 3};
  Real Av[2] = A * v;
  Real AAt[2, 2] = A * transpose(A);
  Real vA[3] = {1, 1} * A;
  Real c[3] = cross(v, {0, 0, 1});
  Real S[3, 3] = skew(v);
  Real I2[2, 2] = identity(2) + diagonal({time, 1});
  Real F[2, 2] = fill(time, 2, 2) + zeros(2, 2) + ones(2, 2);
  Real total = sum(A) + product({1, 2, 3}) + max(A) + min([time, 2; 3, 4]);
  Real lin[4] = linspace(0, time, 4);
  Real vec[6] = vector([1; 2; 3; 4; 5; 6]);
  Real mat[3, 1] = matrix({7, 8, 9});
  Real sc = scalar({{time}});
  Real cc[5] = cat(1, {1, 2}, v);
  Real cm[2, 4] = cat(2, A, {{7}, {8}});
  Real dims = ndims(A) + size(A, 2) + sum(size(A));
  Real sl[2] = v[2:3];
  Real op[2, 2] = outerProduct({1, 2}, {time, 1});
  Integer k = if time < 0.5 then 1 else 3;
  Real pick = v[k];
  Real pickRow[3] = A[if time < 0.5 then 1 else 2, :];
  Real ab[3] = abs({-1, time, -3});
equation
  der(x) = -x;
end ArrayFunctions;
