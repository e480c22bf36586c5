/* The quick finiteness test that the runtime and the compiled model run on every vector a
 * callback returns (doc/compiler.md, "Run-time errors").
 *
 * Why a sum: if some entry is NaN or +-Inf, every sum that contains it is NaN or +-Inf
 * (Inf + finite = Inf, Inf - Inf = NaN, NaN stays NaN), so a finite sum proves all entries
 * finite with one addition each. The converse does not hold: finite entries can overflow
 * the sum (1e308 + 1e308). So a non-finite sum only says "look": the caller then scans the
 * entries one by one and reports only an entry that is itself not finite.
 *
 * Four partial sums instead of one: the additions do not wait for each other, and the loop
 * test is paid once per four entries. */
#ifndef ST_UTIL_FINITE_H
#define ST_UTIL_FINITE_H

#include <math.h>

/* 1 when the entries of v[0..n) are certainly all finite; 0 when they must be scanned. */
static inline int st_sum_is_finite(const double *v, int n) {
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += v[i];
    s1 += v[i + 1];
    s2 += v[i + 2];
    s3 += v[i + 3];
  }
  for (; i < n; i++) s0 += v[i];
  return isfinite((s0 + s1) + (s2 + s3));
}

/* The first entry of v[0..n) that is NaN or +-Inf, or -1. */
static inline int st_first_nonfinite(const double *v, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(v[i])) return i;
  return -1;
}

#endif
