// A tuple assignment with array targets in a when-statement (the MSL's FFT examples:
// (info, Ai, Phii) := realFFT(y_buf, nfi)), and an array input left to its default fill(0.0, 0).
model TupleInWhen
  function split
    input Real u[:];
    input Integer n;
    input Real w[:] = fill(0.0, 0) "empty: no weights";
    output Integer info;
    output Real a[n];
    output Real p[n];
  algorithm
    info := size(w, 1) + 7;
    for i in 1:n loop
      a[i] := 2 * u[i];
      p[i] := if size(w, 1) == 0 then -u[i] else -w[i] * u[i];
    end for;
  end split;
  Real u[3] = {1, 2, 3} * time;
  Real A[2](each start = 0, each fixed = true);
  Real P[2](each start = 0, each fixed = true);
  Integer info(start = 0, fixed = true);
algorithm
  when sample(0.25, 0.5) then
    (info, A, P) := split(u, 2);
  end when;
end TupleInWhen;
