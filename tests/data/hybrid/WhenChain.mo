// When-equations are solved with the other equations of an event pass: s, set by the first
// when at t = 0.5, raises en in the same pass, and `when en` must set tA = 0.5 in that pass
// too, before go = en and time >= tA + 0.25 is taken (StateGraph's transitions with a wait
// time). With the stale tA = -1, go was true at 0.5 and latched active (a step). Closed
// form: active = false until t = 0.75, true after.
model WhenChain
  Boolean s(start = false, fixed = true);
  Boolean en;
  discrete Real tA(start = -1, fixed = true);
  Boolean go;
  Boolean active(start = false, fixed = true);
equation
  when time >= 0.5 then
    s = true;
  end when;
  en = s;
  when en then
    tA = time;
  end when;
  go = en and time >= tA + 0.25;
  active = pre(active) or go;
end WhenChain;
