// An initial equation that calls an impure C function (the MSL's GlobalSeed:
// id_impure = initializeImpureRandom(seed)) runs once: it reads no continuous unknown, so it is
// not evaluated again at the solved initial point (which restarted the MSL's generator).
package ImpureInitial
  impure function count "the number of its calls so far"
    output Integer n;
  external "C" n = extc_count() annotation(Include = "
static int extc_calls;
int extc_count(void) { return ++extc_calls; }");
  end count;
  model M
    parameter Integer id(fixed = false);
    Real x(start = 1, fixed = true);
    Real y = 2 * id * x; // 2 x when count() ran once
  initial equation
    id = count();
  equation
    der(x) = -x;
  end M;
end ImpureInitial;
