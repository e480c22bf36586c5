// A random-number-like generator as the MSL noise blocks and Math.Random write it (tests/
// test_hybrid.c sample_at_the_start_fires): the state before the start set by an initial
// equation on pre() and read by another initial equation, `when sample(0, T)` and, in an
// algorithm, `when initial() ... elsewhen sample(0, T)`: both fire at t = 0 right after
// initialization. `first` is an Inline function whose body reads the size of its own output
// (it cannot be inlined and is called).
model SampleAtStart
  function next "the next state and its number"
    input Integer s[2];
    output Real r;
    output Integer sOut[2];
  algorithm
    sOut := {2 * s[1] + s[2], s[2]};
    r := 10 * sOut[1];
  end next;

  function seeds
    input Integer seed;
    input Integer n;
    output Integer s[n];
  algorithm
    for i in 1:n loop
      s[i] := seed + i;
    end for;
  end seeds;

  function first "the initial states, as an Inline function that reads its output's size"
    input Integer seed;
    output Integer s[2];
  algorithm
    s := seeds(seed, size(s, 1));
    annotation(Inline = true);
  end first;

  parameter Real T = 0.1;
  Integer state[2](each start = 0);
  discrete Real r;
  discrete Real ra(start = -1, fixed = true);
  Integer sa[2](start = {0, 1}, each fixed = true);
initial equation
  pre(state) = first(2);
  r = next(pre(state));
equation
  when sample(0, T) then
    (r, state) = next(pre(state));
  end when;
algorithm
  when initial() then
    ra := 0;
  elsewhen sample(0, T) then
    (ra, sa) := next(pre(sa));
  end when;
end SampleAtStart;
