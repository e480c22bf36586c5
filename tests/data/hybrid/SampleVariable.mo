// A discrete variable given by sample() is false between the instants, so a when-clause on
// it rises at every instant (Blocks.Discrete: sampleTrigger = sample(...), when
// sampleTrigger then ...), also with no other event between two instants: held = x at the
// last instant k * 0.1, x = t.
model SampleVariable
  Real x(start = 0, fixed = true);
  Boolean trig;
  discrete Real held(start = 0, fixed = true);
equation
  der(x) = 1;
  trig = sample(0.1, 0.1);
  when trig then
    held = x;
  end when;
end SampleVariable;
