// Four devices, each with two equations v = f(...) of one call whose outputs the zero
// analysis follows (zero_calls.c): the same function on the same inputs as the analysis sees
// them (the final Cj = 0 known, the voltages unknown) in all eight, so the body is followed
// once and the other seven find it in the memo. c1 is 0 on every path (no state v1), c2 is
// not (v2 stays a state).
model StructuralZeroCallsShared
  record Caps
    Real c1;
    Real c2;
  end Caps;
  function caps
    input Real cj;
    input Real c0;
    input Real v[2];
    output Caps out;
  algorithm
    if v[1] < 0.4 then
      out.c1 := cj*exp(v[1]);
    else
      out.c1 := cj*(1 + v[1]);
    end if;
    out.c2 := if v[2] < 0 then c0 else c0*(1 + v[2]^2);
  end caps;
  model Device
    final parameter Real Cj = 0 annotation(Evaluate = true);
    parameter Real C0 = 1e-3;
    parameter Real R = 2;
    Real v1(start = 1);
    Real v2(start = 0.5, fixed = true);
    Caps cc;
  equation
    cc = caps(Cj, C0, {v1, v2});
    0 = cc.c1*der(v1) + (v1 - sin(time))/R;
    0 = cc.c2*der(v2) + v2/R;
  end Device;
  Device d[4];
end StructuralZeroCallsShared;
