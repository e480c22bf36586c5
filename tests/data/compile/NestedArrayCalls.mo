// Array-valued calls nested five deep (z) and three deep inside an algebraic loop (w, with
// a sine: Newton reads the tangents). Each element of an argument that is a call of an array
// function comes from one evaluation of that call's arguments: the programs grow with the
// nesting, not as 6^depth.
model NestedArrayCalls
  function mix "reverses, scales and shifts; element i also reads u[i] through a sine"
    input Real u[6];
    output Real y[6];
  algorithm
    for i in 1:6 loop
      y[i] := 0.5 * u[7 - i] + 0.1 * i + 0.01 * sin(u[i]);
    end for;
  end mix;
  Real x[6](start = {1, 2, 3, 4, 5, 6}, each fixed = true);
  Real z[6];
  Real w[6];
equation
  z = mix(mix(mix(mix(mix(x)))));
  w + mix(mix(mix(w))) = x;
  der(x) = -z;
end NestedArrayCalls;
