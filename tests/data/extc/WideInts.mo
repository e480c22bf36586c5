// Integers by value where C declares size_t (the MSL's tables declare their size() arguments
// so): past the sixth integer argument they go on the stack, and a stack slot holding garbage
// from an earlier call must not show in the upper half (tests/test_extc.c
// integers_fill_their_slot). dirty leaves ones on the stack the next call's arguments reuse.
package WideInts
  function dirty "fills 16 kB of stack with ones; returns a byte of it (255)"
    input Integer i;
    output Integer y;
  external "C" y = extc_dirty(i) annotation(Include = "
#include <string.h>
int extc_dirty(int i) {
  volatile unsigned char b[16384];
  memset((void *)b, 0xff, sizeof b);
  return b[i % 16384];
}");
  end dirty;

  function wide "1000 n1 + n2 + 10 e + f: the sizes and the Integers after the sixth as given"
    input Real u[:];
    input Integer e;
    output Real y;
  external "C" y = extc_wide(u, size(u, 1), e, e, e, e, size(u, 1), e, -e)
    annotation(Include = "
#include <stddef.h>
double extc_wide(const double *u, size_t n1, int a, int b, int c, int d, size_t n2, int e, long f) {
  (void)u; (void)a; (void)b; (void)c; (void)d;
  return 1000.0 * (double)n1 + (double)n2 + 10.0 * e + (double)f;
}");
  end wide;

  function both "wide after dirty, at the same depth of the stack"
    input Real u[:];
    input Integer e;
    output Real y;
  protected
    Integer d;
  algorithm
    d := dirty(e);
    y := wide(u, e) + d;
  end both;

  model M
    parameter Integer e = 7;
    Real y = both({1, 2, 3}, e);
    Real z = wide({1, 2, 3, 4}, 2) + 0 * time;
  end M;
end WideInts;
