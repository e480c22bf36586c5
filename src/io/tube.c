/* The csv-compare tube around one reference signal (doc/results.md, the tube rule).
 *
 * With R the piecewise-linear interpolant of the reference points (vertical at repeated
 * times), the tube at time t is
 *     [ min R(u) - Y, max R(u) + Y ]   over u in [t - X, t + X] clipped to [t_0, t_{N-1}],
 * X = tol * max(t_max - t_min, |t_min|, 1e-12), Y = tol * max(r_max - r_min, |r_min|, eps).
 * csv-compare builds it from the corners of the rectangles [t_i +- X] x [r_i +- Y]; the
 * sliding max/min is the same set. A linear piece attains its extremes at its ends, so the
 * max/min over the window is over the reference points inside it plus R at the two window
 * ends; a sparse table answers the max/min over an index range in O(1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/compare.h"

struct st_tube {
  size_t n;
  double *t, *r;
  int levels;
  double **mx, **mn;  /* mx[k][i] = max of r[i .. i + 2^k - 1] */
  double x, y;
};

static int build_sparse(st_tube *tb) {
  tb->levels = 1;
  while (((size_t)1 << tb->levels) <= tb->n) tb->levels++;
  tb->mx = calloc((size_t)tb->levels, sizeof *tb->mx);
  tb->mn = calloc((size_t)tb->levels, sizeof *tb->mn);
  if (!tb->mx || !tb->mn) return -1;
  tb->mx[0] = tb->r;
  tb->mn[0] = tb->r;
  for (int k = 1; k < tb->levels; k++) {
    size_t half = (size_t)1 << (k - 1), len = tb->n - 2 * half + 1;
    tb->mx[k] = malloc(len * sizeof(double));
    tb->mn[k] = malloc(len * sizeof(double));
    if (!tb->mx[k] || !tb->mn[k]) return -1;
    for (size_t i = 0; i < len; i++) {
      tb->mx[k][i] = fmax(tb->mx[k - 1][i], tb->mx[k - 1][i + half]);
      tb->mn[k][i] = fmin(tb->mn[k - 1][i], tb->mn[k - 1][i + half]);
    }
  }
  return 0;
}

static void range_extremes(const st_tube *tb, size_t lo, size_t hi, double *mn, double *mx) {
  int k = 0;
  while (((size_t)2 << k) <= hi - lo + 1) k++;
  size_t j = hi + 1 - ((size_t)1 << k);
  *mx = fmax(tb->mx[k][lo], tb->mx[k][j]);
  *mn = fmin(tb->mn[k][lo], tb->mn[k][j]);
}

st_tube *st_tube_new(const double *t, const double *r, size_t n, double tolerance, double epsilon) {
  if (n < 1) return NULL;
  st_tube *tb = calloc(1, sizeof *tb);
  if (!tb) return NULL;
  tb->n = n;
  tb->t = malloc(n * sizeof(double));
  tb->r = malloc(n * sizeof(double));
  if (!tb->t || !tb->r) { st_tube_free(tb); return NULL; }
  memcpy(tb->t, t, n * sizeof(double));
  memcpy(tb->r, r, n * sizeof(double));
  if (build_sparse(tb)) { st_tube_free(tb); return NULL; }
  double tmin = t[0], tmax = t[0], rmin = r[0], rmax = r[0];
  for (size_t i = 1; i < n; i++) {
    tmin = fmin(tmin, t[i]);
    tmax = fmax(tmax, t[i]);
    rmin = fmin(rmin, r[i]);
    rmax = fmax(rmax, r[i]);
  }
  tb->x = tolerance * fmax(fmax(tmax - tmin, fabs(tmin)), 1e-12);
  tb->y = tolerance * fmax(fmax(rmax - rmin, fabs(rmin)), epsilon);
  return tb;
}

void st_tube_free(st_tube *tb) {
  if (!tb) return;
  for (int k = 1; k < tb->levels; k++) {
    if (tb->mx) free(tb->mx[k]);
    if (tb->mn) free(tb->mn[k]);
  }
  free(tb->mx);
  free(tb->mn);
  free(tb->t);
  free(tb->r);
  free(tb);
}

double st_tube_x(const st_tube *tb) { return tb->x; }
double st_tube_y(const st_tube *tb) { return tb->y; }

/* First index with t[i] >= a (n if none). */
static size_t lower_index(const st_tube *tb, double a) {
  size_t lo = 0, hi = tb->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (tb->t[mid] < a) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* R on the segment (k, k+1), t[k] < u < t[k+1]. */
static double interpolate(const st_tube *tb, size_t k, double u) {
  double w = (u - tb->t[k]) / (tb->t[k + 1] - tb->t[k]);
  return tb->r[k] + w * (tb->r[k + 1] - tb->r[k]);
}

static void widen(double v, double *mn, double *mx) {
  *mn = fmin(*mn, v);
  *mx = fmax(*mx, v);
}

int st_tube_bounds(const st_tube *tb, double t, double *lower, double *upper) {
  double t0 = tb->t[0], tn = tb->t[tb->n - 1];
  if (!(t >= t0 - tb->x && t <= tn + tb->x)) return -1;
  double a = fmax(t - tb->x, t0), b = fmin(t + tb->x, tn);
  size_t lo = lower_index(tb, a), past = lower_index(tb, nextafter(b, INFINITY));
  double mn = INFINITY, mx = -INFINITY;
  if (lo < past) range_extremes(tb, lo, past - 1, &mn, &mx);
  /* Window ends strictly inside a segment: R there (interpolated). */
  if (lo > 0 && lo < tb->n && tb->t[lo] > a) widen(interpolate(tb, lo - 1, a), &mn, &mx);
  if (past > 0 && past < tb->n && tb->t[past - 1] < b) widen(interpolate(tb, past - 1, b), &mn, &mx);
  *lower = mn - tb->y;
  *upper = mx + tb->y;
  return 0;
}
