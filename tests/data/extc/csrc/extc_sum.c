/* C functions called by tests/data/extc/*.mo (test_extc.c). */
#include <stddef.h>
#include <string.h>

#include "ModelicaUtilities.h"

double extc_weighted(const double *u, int n, double w) {
  double s = 0;
  for (int i = 0; i < n; i++) s += w * u[i] * (i + 1);
  return s;
}

void extc_scale(const double *u, size_t n, double k, double *y, size_t m) {
  for (size_t i = 0; i < n && i < m; i++) y[i] = k * u[i];
}

int extc_count(const char *s) { return (int)strlen(s); }

double extc_checked(double x) {
  if (x > 1.5) ModelicaFormatError("extc_checked: x = %g is above the limit 1.5", x);
  return 2 * x;
}
