// A constant passed to a function is known to the body's zero analysis, as a final
// parameter is: with init = false the capacitance c1 is cj*v = 0 (Cj final, 0), and the
// other branch (a tiny capacitance used while initializing) is not taken. v1 is no state
// (v1 = sin(time)). Taken as unknown, the two branches disagreed, c1 stayed a
// variable that is 0 at run time and der(v1) was 0/0 (Spice3's MOS models pass their
// constant m_bInit so).
model StructuralZeroConstantArgs
  record Caps
    Real c1;
    Real c2;
  end Caps;
  function caps
    input Real cj;
    input Boolean init;
    input Real c0;
    input Real v[2];
    output Caps out;
  algorithm
    out.c1 := if init then 1e-15 else cj*v[1];
    out.c2 := if init then 1e-15 else c0*(1 + v[2]^2);
  end caps;
  constant Boolean bInit = false;
  final parameter Real Cj = 0;
  parameter Real C0 = 1e-3;
  parameter Real R = 2;
  Real v1(start = 1);
  Real v2(start = 0.5, fixed = true);
  Caps cc;
  Real i1;
  Real i2;
equation
  cc = caps(Cj, bInit, C0, {v1, v2});
  i1 = cc.c1*der(v1) + (v1 - sin(time))/R;
  i1 = 0;
  i2 = cc.c2*der(v2) + v2/R;
  i2 = 0;
end StructuralZeroConstantArgs;
