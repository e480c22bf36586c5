/* printf's "%.*g" for doubles without printf: the same text, several times cheaper.
 *
 * Why: glibc formats every double exactly with multi-precision arithmetic, which made CSV
 * writing the larger part of a simulation's process time (doc/results.md). Here the P leading
 * decimal digits of |x| come from s = |x| * 10^(P-1-E) in double-double arithmetic (an
 * unevaluated sum hi + lo; products made exact with Dekker's splitting, Dekker 1971), whose
 * relative error is about 2^-100 -- far below a unit in the 17th digit. Rounding s to the
 * nearest integer therefore gives the correctly rounded digits glibc prints unless the
 * fraction of s is within 1e-9 of one half; those rare cases (and exponents beyond the
 * scaling range, non-finite values) are handed to snprintf. Only double operations are
 * used, so the text is the same on every IEEE platform and under valgrind.
 * The %g layout (C11 7.21.6.1): exponent X of the rounded value; fixed notation when
 * -4 <= X < P, else d.ddde+XX; trailing zeros and a trailing point removed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/writer_impl.h"

typedef struct dd { double hi, lo; } dd;

/* 10^0 .. 10^22 are exact doubles. */
#define ST_P10_MAX 22
static double pow10_exact(int k) {
  static const double p[ST_P10_MAX + 1] = {
      1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  return p[k];
}

/* a * b = p + e exactly (Dekker's product; |a|, |b| well below 1e300). */
static void two_prod(double a, double b, double *p, double *e) {
  const double split = 134217729.0; /* 2^27 + 1 */
  double ca = split * a, cb = split * b;
  double ah = ca - (ca - a), al = a - ah;
  double bh = cb - (cb - b), bl = b - bh;
  *p = a * b;
  *e = ((ah * bh - *p) + ah * bl + al * bh) + al * bl;
}

static dd dd_mul(dd a, dd b) {
  double p, e;
  two_prod(a.hi, b.hi, &p, &e);
  e += a.hi * b.lo + a.lo * b.hi;
  dd r;
  r.hi = p + e;
  r.lo = e - (r.hi - p);
  return r;
}

/* 10^-k for 0 <= k <= 22 as hi + lo: hi the double nearest to 10^-k, lo the double nearest
 * to the remainder 10^-k - hi (computed in exact rational arithmetic when this table was
 * written); a table, because computing them took a division per formatted value. */
static dd inv_pow10(int k) {
  static const dd t[ST_P10_MAX + 1] = {
      {1.0, 0.0},
      {0.1, -5.551115123125783e-18},
      {0.01, -2.0816681711721684e-19},
      {0.001, -2.0816681711721686e-20},
      {0.0001, -4.79217360238593e-21},
      {1e-05, -8.180305391403131e-22},
      {1e-06, 4.525188817411374e-23},
      {1e-07, 4.525188817411374e-24},
      {1e-08, -2.092256083012847e-25},
      {1e-09, -6.228159145777985e-26},
      {1e-10, -3.643219731549774e-27},
      {1e-11, 6.050303071806019e-28},
      {1e-12, 2.0113352370744385e-29},
      {1e-13, -3.037374556340037e-30},
      {1e-14, 1.1806906454401013e-32},
      {1e-15, -7.770539987666108e-32},
      {1e-16, 2.0902213275965398e-33},
      {1e-17, -7.154242405462192e-34},
      {1e-18, -7.154242405462193e-35},
      {1e-19, 2.475407316473987e-36},
      {1e-20, 5.484672854579043e-37},
      {1e-21, 9.246254777210363e-38},
      {1e-22, -4.859677432657087e-39},
  };
  return t[k];
}

/* a * 10^k; hi = 0 when |k| is beyond the range allowed here. */
static dd scale10(double a, int k) {
  dd s = {a, 0.0};
  if (k > 4 * ST_P10_MAX || k < -4 * ST_P10_MAX) return (dd){0.0, 0.0};
  for (; k > 0; k -= ST_P10_MAX < k ? ST_P10_MAX : k)
    s = dd_mul(s, (dd){pow10_exact(ST_P10_MAX < k ? ST_P10_MAX : k), 0.0});
  for (; k < 0; k += ST_P10_MAX < -k ? ST_P10_MAX : -k)
    s = dd_mul(s, inv_pow10(ST_P10_MAX < -k ? ST_P10_MAX : -k));
  return s;
}

/* floor(x) for |x| < 2^63 without a libm call (x86-64 has no rounding instruction before
 * SSE4.1, so floor() is a function call): truncation, one down for negative fractions. */
static double floor_small(double x) {
  double t = (double)(long long)x;
  return t > x ? t - 1 : t;
}

/* The binary exponent of a normal double, ilogb() without the libm call. */
static int exponent2(double a) {
  uint64_t u;
  memcpy(&u, &a, sizeof u);
  return (int)((u >> 52) & 0x7ff) - 1023;
}

/* s < b for a double b (s.hi alone can round up to b). */
static int dd_below(dd s, double b) { return s.hi < b || (s.hi == b && s.lo < 0); }

/* The prec leading digits of a > 0 as an integer in [10^(prec-1), 10^prec) and the decimal
 * exponent of the first; -1 when the result could differ from correct rounding. */
static int leading_digits(double a, int prec, unsigned long long *digits, int *exp10) {
  double lo = pow10_exact(prec - 1), hi = pow10_exact(prec);
  if (a > 1e200 || a < 1e-200) return -1; /* keep Dekker's split clear of overflow */
  int e = (int)floor_small(exponent2(a) * 0.30102999566398120); /* log10(2): E or E - 1 */
  dd s = scale10(a, prec - 1 - e);
  if (dd_below(s, hi) == 0) s = scale10(a, prec - 1 - ++e);
  else if (dd_below(s, lo)) s = scale10(a, prec - 1 - --e);
  if (s.hi < lo * 0.5 || !dd_below(s, hi)) return -1; /* scaling range exceeded (s == 0) */
  /* integer part in 64-bit integers: above 2^53 doubles cannot hold w + floor(f) */
  double w = floor_small(s.hi); /* s.hi < 10^17 < 2^63 */
  double f = (s.hi - w) + s.lo; /* s.hi - w is exact; |s.lo| <= half an ulp of s.hi */
  double fw = floor_small(f);
  f -= fw;
  if (fabs(f - 0.5) < 1e-9) return -1; /* too close to a tie to be sure */
  unsigned long long n = (unsigned long long)w + (unsigned long long)(long long)fw + (f > 0.5);
  if (n >= (unsigned long long)hi) { n /= 10; e++; } /* 99..9.7 rounded up to 10^prec */
  if (n < (unsigned long long)lo) return -1;
  *digits = n;
  *exp10 = e;
  return 0;
}

/* The count decimal digits of n, leading zeros included, two at a time: a division of a
 * 64-bit integer by a constant is a multiplication, but 17 of them per value were half the
 * cost of a CSV field. */
static void put_digits(char *d, unsigned long long n, int count) {
  static const char pairs[] =
      "0001020304050607080910111213141516171819"
      "2021222324252627282930313233343536373839"
      "4041424344454647484950515253545556575859"
      "6061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  int i = count;
  for (; i >= 2; i -= 2) {
    unsigned long long q = n / 100;
    memcpy(d + i - 2, pairs + 2 * (n - 100 * q), 2);
    n = q;
  }
  if (i) d[0] = (char)('0' + n);
}

/* Writes the exponent part "e+XX" (at least two digits). */
static char *put_exponent(char *p, int x) {
  *p++ = 'e';
  *p++ = x < 0 ? '-' : '+';
  if (x < 0) x = -x;
  if (x >= 100) *p++ = (char)('0' + x / 100);
  *p++ = (char)('0' + x / 10 % 10);
  *p++ = (char)('0' + x % 10);
  return p;
}

/* Lays out nd significant digits d[] (no trailing zeros) with decimal exponent x. */
static char *layout(char *p, const char *d, int nd, int x, int prec) {
  if (x < -4 || x >= prec) {
    *p++ = d[0];
    if (nd > 1) { *p++ = '.'; memcpy(p, d + 1, (size_t)(nd - 1)); p += nd - 1; }
    return put_exponent(p, x);
  }
  if (x < 0) {
    *p++ = '0';
    *p++ = '.';
    for (int i = 0; i < -x - 1; i++) *p++ = '0';
    memcpy(p, d, (size_t)nd);
    return p + nd;
  }
  for (int i = 0; i <= x; i++) *p++ = i < nd ? d[i] : '0';
  if (nd > x + 1) { *p++ = '.'; memcpy(p, d + x + 1, (size_t)(nd - x - 1)); p += nd - x - 1; }
  return p;
}

int st_format_g(char *buf, size_t size, double x, int prec) {
  unsigned long long n;
  int e;
  if (size < 32 || prec < 1 || prec > 17 || !isfinite(x))
    return snprintf(buf, size, "%.*g", prec, x);
  if (x == 0) { /* common (resting bodies, locked clutches) */
    int neg = signbit(x) != 0;
    memcpy(buf, "-0", 3);
    if (!neg) memcpy(buf, "0", 2);
    return 1 + neg;
  }
  if (leading_digits(fabs(x), prec, &n, &e)) return snprintf(buf, size, "%.*g", prec, x);
  char d[20];
  put_digits(d, n, prec);
  int nd = prec;
  while (nd > 1 && d[nd - 1] == '0') nd--;
  char *p = buf;
  if (x < 0) *p++ = '-';
  p = layout(p, d, nd, e, prec);
  *p = 0;
  return (int)(p - buf);
}
