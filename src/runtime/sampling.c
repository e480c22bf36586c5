/* Indicator samples inside long integrator steps (doc/events.md, "Frozen modes").
 *
 * The integrator's root finding compares the signs of the indicators at the two ends of each
 * step. When a frozen mode makes the error estimate vanish the step grows, and a pair of
 * crossings inside one step (the indicator rises above zero and falls back) is not seen. The
 * runtime used to bound the step for that; now the integrator steps freely and, after every
 * step longer than the bound (sim->sample_step), the indicators are evaluated on the
 * integrator's interpolant at points no further apart than the bound. Every span longer than
 * the bound thus still contains a point where the indicators are sampled, at the price of an
 * indicator evaluation instead of a step. A sign change between two samples is located as the
 * integrators locate their own roots: secant iterations with the Illinois modification on the
 * interpolant, down to their time resolution, and handled as a state event there. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "runtime/runtime.h"

/* A safety net only: every iteration shrinks the bracket by a tenth at least (inside()). */
#define ST_LOCATE_MAX_ITER 1000

/* Whether an indicator changed sign from lo to hi. Exactly zero at lo means no sign yet: the
 * integrators deactivate an indicator that is zero where they (re)start until it leaves zero,
 * and its departure is no crossing (doc/events.md, "Indicators at zero"). Reaching exactly
 * zero is a crossing, as for their own root finding. */
static int crossed(double lo, double hi) { return lo != 0 && (hi == 0 || (lo > 0) != (hi > 0)); }

/* Without an early exit, so that the loop vectorizes: a compiled model has an indicator per
 * relation (CoupledClutches: dozens), and most samples find no change. */
static int any_crossed(const stiction_sim *sim, const double *lo, const double *hi) {
  int any = 0;
  for (int i = 0; i < sim->ng; i++)
    any |= ((lo[i] > 0) & (hi[i] <= 0)) | ((lo[i] < 0) & (hi[i] >= 0)); /* crossed() */
  return any;
}

/* The root finders' time resolution: 100 units of rounding of |t| + |h| (CVODE's and IDA's
 * ttol), so that a located root is as precise as one the integrator found. */
static double resolution(double a, double b) {
  return 100 * DBL_EPSILON * (fabs(b) + fabs(b - a));
}

/* A bracket [tlo, thi] of a sign change with the indicator values at its ends, and the
 * Illinois weights of the end values (halved on the end that stayed twice in a row). */
typedef struct bracket {
  double tlo, thi, wlo, whi;
  double *glo, *ghi;
  int kept; /* -1: tlo moved last, +1: thi moved last, 0: none yet */
} bracket;

/* The earliest secant estimate among the indicators that changed sign: the first crossing is
 * the one to find. */
static double secant_point(const stiction_sim *sim, const bracket *k) {
  double best = k->thi;
  for (int i = 0; i < sim->ng; i++) {
    if (!crossed(k->glo[i], k->ghi[i])) continue;
    double lo = k->wlo * k->glo[i], hi = k->whi * k->ghi[i];
    double t = k->tlo + (k->thi - k->tlo) * (lo / (lo - hi));
    if (t < best) best = t;
  }
  return best;
}

/* A secant point closer than half a resolution to an end of the bracket is moved a tenth of
 * the bracket away from that end (half of it over 5 resolutions or less), as in CVODE's root
 * finder: an indicator that jumps (integer(), a held relation) makes the secant hug one end,
 * and every iteration must still shrink the bracket by a fixed fraction. */
static double inside(const bracket *k, double t, double tol) {
  double width = k->thi - k->tlo, frac = width > 5 * tol ? 0.1 : 0.5 * tol / width;
  if (!(t > k->tlo + 0.5 * tol)) t = k->tlo + frac * width;
  if (!(t < k->thi - 0.5 * tol)) t = k->thi - frac * width;
  return t;
}

/* Moves one end of the bracket to tmid (gmid is swapped into its place). Illinois: when the
 * same end moves twice in a row, the weight of the other end's values is halved, so that a
 * stale end cannot pin the secant point. */
static void shrink(bracket *k, double tmid, double **gmid, int left) {
  double *tmp;
  if (left) { /* the sign changed in [tlo, tmid] */
    k->thi = tmid;
    tmp = k->ghi, k->ghi = *gmid, *gmid = tmp;
    k->whi = 1;
    if (k->kept == 1) k->wlo *= 0.5;
    k->kept = 1;
  } else {
    k->tlo = tmid;
    tmp = k->glo, k->glo = *gmid, *gmid = tmp;
    k->wlo = 1;
    if (k->kept == -1) k->whi *= 0.5;
    k->kept = -1;
  }
}

/* Narrows [tlo, thi] to the first sign change and reports its upper end (where the sign has
 * changed, as the integrators report roots) with the indicators that fired. */
static int locate(stiction_sim *sim, bracket *k, double tol, double *tc) {
  double *gmid = sim->smp_mid;
  for (int it = 0; it < ST_LOCATE_MAX_ITER && k->thi - k->tlo > tol; it++) {
    double tmid = inside(k, secant_point(sim, k), tol);
    int rc = sim->ops->sample_at(sim, tmid, gmid);
    if (rc) return rc;
    sim->stats.nge++;
    shrink(k, tmid, &gmid, any_crossed(sim, k->glo, gmid));
  }
  for (int i = 0; i < sim->ng; i++)
    sim->smp_found[i] = crossed(k->glo[i], k->ghi[i]) ? (k->glo[i] < 0 ? 1 : -1) : 0;
  *tc = k->thi;
  return STICTION_OK;
}

/* The indicators at t: from the state y at t when given (a step's end, no interpolation),
 * else on the interpolant. */
static int values_at(stiction_sim *sim, double t, const double *y, double *g) {
  sim->stats.nge++;
  if (y) return st_call_indicators(sim, t, y, NULL, g);
  return sim->ops->sample_at(sim, t, g);
}

/* After a window without a crossing: its end values start the next window's scan. */
static void keep_end(stiction_sim *sim, double b, const double *g) {
  memcpy(sim->smp_prev, g, sizeof(double) * (size_t)sim->ng);
  sim->smp_prev_t = b;
}

void st_sample_forget(stiction_sim *sim) { sim->smp_prev_t = NAN; }

/* The values at the start of a scan: those kept from the previous step's end, else sampled. */
static int start_values(stiction_sim *sim, double a, double *g) {
  if (sim->smp_prev_t != a) return values_at(sim, a, NULL, g);
  memcpy(g, sim->smp_prev, sizeof(double) * (size_t)sim->ng);
  return STICTION_OK;
}

/* Scans [a, b] in order, m segments of equal length no longer than sample_step (one when it
 * is not longer). */
static int scan(stiction_sim *sim, double a, double b, const double *yb, double *tc) {
  int m = b - a > sim->sample_step ? (int)ceil((b - a) / sim->sample_step) : 1;
  double *lo = sim->smp_lo, *hi = sim->smp_hi, tlo = a;
  int rc = start_values(sim, a, lo);
  for (int j = 1; !rc && j <= m; j++) {
    double t = j == m ? b : a + (b - a) * ((double)j / m);
    rc = values_at(sim, t, j == m ? yb : NULL, hi);
    if (rc) return rc;
    if (any_crossed(sim, lo, hi)) {
      bracket k = {tlo, t, 1, 1, lo, hi, 0};
      rc = locate(sim, &k, resolution(a, b), tc);
      return rc ? rc : 1;
    }
    double *tmp = lo;
    lo = hi, hi = tmp, tlo = t;
  }
  if (!rc) keep_end(sim, b, lo);
  return rc;
}

int st_sample_step(stiction_sim *sim, double a, double b, const double *yb, double *tc) {
  if (sim->ng == 0 || !(b > a)) return 0;
  return scan(sim, a, b, yb, tc);
}
