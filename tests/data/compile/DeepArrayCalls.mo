// Calls of an array function nested twelve deep on 8-vectors: as a tree of element calls,
// each holding its argument's 8 element calls, 8^12 calls; an argument that is all of a
// call's array output is that call (value 0), so the equations grow with the depth.
model DeepArrayCalls
  function mix "reverses, scales and shifts; element i also reads u[i] through a sine"
    input Real u[8];
    output Real y[8];
  algorithm
    for i in 1:8 loop
      y[i] := 0.5 * u[9 - i] + 0.1 * i + 0.01 * sin(u[i]);
    end for;
  end mix;
  Real x[8](start = {1, 2, 3, 4, 5, 6, 7, 8}, each fixed = true);
  Real z[8];
equation
  z = mix(mix(mix(mix(mix(mix(mix(mix(mix(mix(mix(mix(x))))))))))));
  der(x) = -z;
end DeepArrayCalls;
