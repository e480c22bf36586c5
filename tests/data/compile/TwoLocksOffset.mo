model TwoLocksOffset
  "TwoLocks with the second holding force also carried by a helper h2 = 2*s2 + P (as a gear's
   quadrant losses or a cut torque carry its loss torque). Both locked, s1 + s2 = F leaves the
   split open; it is the one where the compared quantities s1 and s2 have the least sum of
   squares, s1 = s2 = F/2, whatever helpers the loop has. The minimum norm over all unknowns
   (s1, s2, h2; a = 0) would give s2 = (F - 2 P)/6 instead, for F = 1.2, P = 3 s2 = -0.8 and
   s1 = 2 beyond fmax, and no consistent mode"
  parameter Real F = 1;
  parameter Real P = 3 "offset of the helper";
  parameter Real fmax = 0.8 "break-away limit of each element";
  Real v(start = 0, fixed = true);
  Real a, s1, s2, h2;
  Boolean locked1, locked2;
equation
  der(v) = a;
  a = F - s1 - (h2 - P)/2;
  h2 = 2*s2 + P;
  0 = if locked1 then a else s1 - 0.5*fmax;
  0 = if locked2 then a else s2 - 0.5*fmax;
  locked1 = s1 < fmax;
  locked2 = s2 < fmax;
end TwoLocksOffset;
