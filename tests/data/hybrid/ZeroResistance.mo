// A series resistance that is a final parameter of value 0 (Spice3's default RD = 0 in
// ird*m_drainResist = D.v - Dinternal): the equation fixes vi = vs and no longer i, so the
// capacitor voltage is constrained (index reduction): vc = sin t, i = C cos t. R follows
// Rset, which a sweep may not change any more.
model ZeroResistance
  parameter Real Rset = 0;
  final parameter Real R = Rset;
  parameter Real C = 2;
  Real vs, vi, vc(start = 0), i;
equation
  vs = sin(time);
  i*R = vs - vi;
  vi = vc;
  C*der(vc) = i;
end ZeroResistance;
