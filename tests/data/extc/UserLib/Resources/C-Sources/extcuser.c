/* The extcuser library, shipped as a source only (tests/data/extc/UserLib). */
#include "extcuser.h"

double extcuser_poly(const double *coef, double x) { return (coef[0] * x + coef[1]) * x + coef[2]; }

void extcuser_minmax(const int *k, int n, int *lo, int *hi) {
  *lo = *hi = n > 0 ? k[0] : 0;
  for (int i = 1; i < n; i++) {
    if (k[i] < *lo) *lo = k[i];
    if (k[i] > *hi) *hi = k[i];
  }
}
