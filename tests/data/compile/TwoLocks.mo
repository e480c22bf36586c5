model TwoLocks
  "Two stick elements hold a unit mass against the force F. With both locked the split of the
   holding forces s1 + s2 = F is not determined (the real part of the mixed system is
   singular); the minimum-norm solution shares it equally, s1 = s2 = F/2, below fmax, so both
   stay locked and the mass at rest"
  parameter Real F = 1;
  parameter Real fmax = 0.8 "break-away limit of each element";
  Real v(start = 0, fixed = true);
  Real a, s1, s2;
  Boolean locked1, locked2;
equation
  der(v) = a;
  a = F - s1 - s2;
  0 = if locked1 then a else s1 - 0.5*fmax;
  0 = if locked2 then a else s2 - 0.5*fmax;
  locked1 = s1 < fmax;
  locked2 = s2 < fmax;
end TwoLocks;
