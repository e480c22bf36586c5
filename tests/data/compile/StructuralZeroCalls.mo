// A capacitance that is 0 only inside a function body: with the final Cj = 0 the output c1
// of caps() is 0 on every path whatever v1 and v2 are (both branches of the junction, the
// loop), so i1 = cc.c1*der(v1) + ... is no equation for der(v1) and v1 is no state
// (v1 = sin(time)). c2 is C0 or C0*(1 + v2^2), never 0 but unknown: v2 stays a state.
// Kept, der(v1) was 0/0 (Spice3's BJT with no base-collector capacitance).
model StructuralZeroCalls
  record Caps
    Real c1;
    Real c2;
  end Caps;
  function junction
    input Real cj;
    input Real v;
    input Real phi = 0.8;
    output Real cap;
    output Real q;
  protected
    Real s;
  algorithm
    if v < phi/2 then
      s := exp(-0.5*log(1 - v/phi));
      cap := cj*s;
    else
      cap := cj/0.7*(1 + v/phi);
    end if;
    q := cap*v;
  end junction;
  function caps
    input Real cj;
    input Real c0;
    input Real v[2];
    output Caps out;
  protected
    Real a;
    Real q;
  algorithm
    a := 0;
    for k in 1:2 loop
      a := a + cj*v[k];
    end for;
    (out.c1, q) := junction(cj, v[1]);
    out.c1 := out.c1 + a;
    out.c2 := if v[2] < 0 then c0 else c0*(1 + v[2]^2);
  end caps;
  final parameter Real Cj = 0 annotation(Evaluate = true);
  parameter Real C0 = 1e-3;
  parameter Real R = 2;
  Real v1(start = 1);
  Real v2(start = 0.5, fixed = true);
  Caps cc;
  Real i1;
  Real i2;
equation
  cc = caps(Cj, C0, {v1, v2});
  i1 = cc.c1*der(v1) + (v1 - sin(time))/R;
  i1 = 0;
  i2 = cc.c2*der(v2) + v2/R;
  i2 = 0;
end StructuralZeroCalls;
