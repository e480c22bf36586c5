/* A fast path for decimal numbers (scan.h): tables of 10^5 rows spent most of their reading
 * time in the C library's general strtod (doc/benchmarks.md, external C). */
#include "io/scan.h"

#include <float.h>
#include <stdint.h>
#include <stdlib.h>

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int digit(char c) { return c >= '0' && c <= '9'; }

/* Digits from *p into *w (leading zeros not counted against the 19 that fit); their count in
 * *seen, those after the first nonzero in *sig. */
static const char *digits(const char *p, uint64_t *w, int *sig, int *seen) {
  for (; digit(*p); p++, (*seen)++) {
    if (*w == 0 && *p == '0') continue;
    if (*sig < 19) *w = *w * 10 + (uint64_t)(*p - '0');
    (*sig)++;
  }
  return p;
}

int st_scan_decimal(const char *s, const char **end, double *out) {
#if FLT_EVAL_METHOD != 0 /* wider intermediates would round twice */
  (void)s, (void)end, (void)out;
  return 0;
#else
  const char *p = s;
  int negative = *p == '-';
  if (*p == '-' || *p == '+') p++;
  uint64_t w = 0;
  int sig = 0, seen = 0, frac = 0;
  p = digits(p, &w, &sig, &seen);
  if (*p == '.') {
    int before = seen;
    p = digits(p + 1, &w, &sig, &seen);
    frac = seen - before;
  }
  if (!seen || sig > 19 || *p == 'x' || *p == 'X') return 0; /* "0x1p3" is strtod's hex */
  int e = 0;
  if (*p == 'e' || *p == 'E') { /* taken only with digits after it, as strtod does */
    const char *q = p + 1;
    int eneg = *q == '-';
    if (*q == '-' || *q == '+') q++;
    if (digit(*q)) {
      int n = 0;
      for (; digit(*q); q++)
        if (++n > 4) return 0;
        else e = e * 10 + (*q - '0');
      e = eneg ? -e : e;
      p = q;
    }
  }
  e -= frac;
  if (w > (UINT64_C(1) << 53) || (w && (e < -22 || e > 22))) return 0;
  double x = (double)w;
  if (w) x = e < 0 ? x / pow10_exact[-e] : x * pow10_exact[e];
  *out = negative ? -x : x;
  *end = p;
  return 1;
#endif
}

double st_strtod(const char *s, char **end) {
  const char *e;
  double x;
  if (st_scan_decimal(s, &e, &x)) {
    if (end) *end = (char *)e;
    return x;
  }
  return strtod(s, end);
}
