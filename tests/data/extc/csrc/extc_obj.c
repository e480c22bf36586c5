/* An external object for tests/data/extc/Objects.mo: a gain that reports its construction and
 * destruction through ModelicaFormatMessage, so the test can count them. */
#include <stdlib.h>

#include "ModelicaUtilities.h"

typedef struct extc_gain {
  double k;
  long calls;
} extc_gain;

void *extc_gain_new(double k) {
  extc_gain *g = malloc(sizeof *g);
  if (!g) ModelicaError("extc_gain_new: out of memory");
  g->k = k;
  g->calls = 0;
  ModelicaFormatMessage("extc_gain_new k=%g\n", k);
  return g;
}

void extc_gain_free(void *p) {
  extc_gain *g = p;
  ModelicaFormatMessage("extc_gain_free k=%g\n", g->k);
  free(g);
}

double extc_gain_apply(void *p, double u) {
  extc_gain *g = p;
  g->calls++;
  if (u > 100) ModelicaFormatError("extc_gain_apply: input %g out of range", u);
  return g->k * u;
}
