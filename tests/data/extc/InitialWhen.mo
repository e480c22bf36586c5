// At initialization an initial() when-branch is assigned before the equations that read its
// variable (tests/test_extc.c), as the MSL's tables need: the C function refuses the next event
// time 0 that the start value would give it before the branch runs.
model InitialWhen
  function f
    input Real t;
    input Real next;
    output Real y;
  external "C" y = extc_needs_next(t, next) annotation(Include = "
#include \"ModelicaUtilities.h\"
double extc_needs_next(double t, double next) {
  if (!(next > 0)) ModelicaFormatError(\"extc_needs_next: no next event yet (%g) at t = %g\", next, t);
  return next;
}");
  end f;
  discrete Real next(start = 0, fixed = true);
  Real y = f(time, next);
equation
  when time >= pre(next) then
    next = pre(next) + 0.5;
  elsewhen initial() then
    next = time + 0.5;
  end when;
end InitialWhen;
