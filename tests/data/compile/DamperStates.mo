model DamperStates
  "A point mass hanging from an anchor by a spring and a damper along the line between them (2-D). The mass's position and velocity have stateSelect = avoid, the damper's length s is differentiated as written (f = d der(s)); the states must be the relative position r, which gives everything else explicitly: s as a state makes r[1] = sqrt(s^2 - r[2]^2), singular where the mass swings through r[1] = 0"
  parameter Real a[2] = {0.3, 0} "anchor";
  parameter Real m = 1, c = 30, d = 2, s0 = 0.1;
  parameter Real g[2] = {0, -9.81};
  Real p[2](start = {0.3, -0.2}, each fixed = true, each stateSelect = StateSelect.avoid) "mass position";
  Real v[2](start = {0.5, 0}, each fixed = true, each stateSelect = StateSelect.avoid) "mass velocity";
  Real r[2] "mass relative to the anchor";
  Real L "distance";
  Real s "guarded distance";
  Real e[2] "unit vector from the anchor to the mass";
  Real f "pulling force of spring and damper";
equation
  r = p - a;
  L = sqrt(r*r);
  s = noEvent(max(L, 1e-10));
  e = r/s;
  f = c*(s - s0) + d*der(s);
  v = der(p);
  m*der(v) = m*g - f*e;
  annotation(experiment(StopTime = 1));
end DamperStates;
