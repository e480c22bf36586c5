// Slices and sizes the function compiler works out while compiling (tests/test_func_compile.c,
// slices_compiled): the size of a local given by a call of known arguments (halves(m)), a
// stepped range as a subscript (o[1:mb:m]), an index array with end (v[{1, end}]), slices
// assigned (M[j, 1:mb] := ..., A[:, 1] := v), and a loop over a range known to be empty,
// whose body could not be compiled for this m. Closed forms in the test:
// M[j, k] = j (k - 1) w, first = 0, s = v[1] + v[end], A = [v, 2 v].
model FunctionsSlices
  function halves "2^(times m halves to an odd number)"
    input Integer m;
    output Integer n;
  algorithm
    n := 1;
    if mod(m, 2) == 0 then
      n := 2*halves(integer(m/2));
    end if;
  end halves;

  function spread "M[j, k] = j (k - 1) w, row by row through slices; repeated in blocks"
    input Integer m;
    input Real w;
    output Real M[m, m];
    output Real first "the sum of the block starts of o";
  protected
    Integer nb = halves(m);
    Integer mb = integer(m/nb);
    Real o[m] = {(k - 1)*w for k in 1:m};
    Real ob[halves(m)] = o[1:mb:m];
  algorithm
    M := zeros(m, m);
    for j in 1:mb loop
      M[j, 1:mb] := j*o[1:mb];
    end for;
    for i in 2:nb loop
      for k in 1:mb loop
        M[(i - 1)*mb + k, (i - 1)*mb + 1:i*mb] := M[k, 1:mb];
      end for;
    end for;
    first := sum(ob);
  end spread;

  function ends "v[1] + v[end] through an index array, and the columns v and 2 v"
    input Real v[:];
    output Real s;
    output Real A[size(v, 1), 2];
  algorithm
    s := sum(v[{1, end}]);
    A[:, 1] := v;
    A[:, 2] := 2*v;
  end ends;

  Real M[3, 3] = spread(3, time);
  Real s;
  Real A[3, 2];
equation
  (s, A) = ends({time, 1, 2});
end FunctionsSlices;
