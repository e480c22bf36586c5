/* Iteration limiter of TAMSI (doc/tamsi.md; Uchida, Sherman & Delp 2015): the
 * fraction alpha of a Newton step dv applied to one contact's tangential velocity v so that
 * the direction of v turns by at most theta_max and stiction <-> sliding transitions land
 * inside the stiction circle of radius v_s instead of jumping across it.
 *
 * Comparisons are written so that NaN makes them false (x < r, !(disc > 0), ...): non-finite
 * input then falls through to the quadratic, which fails. */
#include <float.h>
#include <math.h>

#include "tamsi/tamsi_internal.h"

static double dot2(const double a[2], const double b[2]) { return a[0] * b[0] + a[1] * b[1]; }

/* Smallest positive root of A a^2 + B a + C = 0; false if there is none. Vieta's second
 * root C/q avoids the cancellation of the textbook formula. */
static bool smallest_positive_root(double A, double B, double C, double *alpha) {
  double a;
  if (fabs(A) < DBL_EPSILON) {
    a = -C / B;
  } else {
    double disc = B * B - 4.0 * A * C;
    if (!(disc > 0)) return false;
    double q = -0.5 * (B + (B > 0 ? 1.0 : -1.0) * sqrt(disc));
    double a1 = q / A, a2 = C / q;
    /* Both positive: a large turn (near 180 degrees), the first crossing counts. */
    a = (a1 > 0 && a2 > 0) ? fmin(a1, a2) : fmax(a1, a2);
  }
  if (!(a > 0)) return false;
  *alpha = a;
  return true;
}

/* Case VI: alpha such that the angle between v and v + alpha dv equals theta_max, from
 * squaring cos(theta_max) = v.(v + alpha dv) / (|v| |v + alpha dv|); scaled by v_s. */
static bool angle_limit(const double v[2], const double dv[2], double cos_max, double v_s,
                        double *alpha) {
  double v1[2] = {v[0] + dv[0], v[1] + dv[1]};
  double nv = sqrt(dot2(v, v)), nv1 = sqrt(dot2(v1, v1));
  double cos1 = dot2(v, v1) / (nv * nv1);
  if (cos1 > cos_max) {
    *alpha = 1.0;
    return true;
  }
  double x = nv / v_s, X = x * x;
  double xdx = dot2(v, dv) / (v_s * v_s), dx = sqrt(dot2(dv, dv)) / v_s;
  double C2 = cos_max * cos_max;
  double A = X * dx * dx * C2 - xdx * xdx;
  double B = 2.0 * X * xdx * (C2 - 1.0);
  double C = X * X * (C2 - 1.0);
  return smallest_positive_root(A, B, C, alpha);
}

/* Case V: a step that passes close to the origin. Returns true if it decided alpha. */
static bool crossing(const double v[2], const double dv[2], double v_s, double eps,
                     double *alpha) {
  double vdv = dot2(v, dv);
  if (!(vdv < 0)) return false;
  double ndv2 = dot2(dv, dv);
  double a = -vdv / ndv2; /* point of the segment closest to the origin */
  if (!(a < 1)) return false;
  double va[2] = {v[0] + a * dv[0], v[1] + a * dv[1]};
  double nva = sqrt(dot2(va, va));
  if (nva < eps) {
    *alpha = a - v_s / (2.0 * sqrt(ndv2)); /* stop v_s/2 short of the origin */
    return true;
  }
  if (nva < v_s) {
    *alpha = a; /* the segment cuts the stiction circle: stop at its closest point */
    return true;
  }
  return false;
}

bool st_tamsi_limiter(const double vt[2], const double dvt[2], double cos_theta_max, double v_s,
                      double rel_tol, double *alpha) {
  double eps = rel_tol * v_s;
  double ndv2 = dot2(dvt, dvt);
  if (ndv2 < eps * eps) { /* I: negligible change */
    *alpha = 1.0;
    return true;
  }
  double v1[2] = {vt[0] + dvt[0], vt[1] + dvt[1]};
  double x = sqrt(dot2(vt, vt)) / v_s, x1 = sqrt(dot2(v1, v1)) / v_s;
  double ndv = sqrt(ndv2);
  if (x < rel_tol && x1 > 1) { /* II: ~0 to sliding, land at |v| ~ v_s/2 */
    *alpha = v_s / (2.0 * ndv);
    return true;
  }
  if (x > 1 && x1 < rel_tol) { /* III: sliding to ~0, land v_s/2 before the origin */
    *alpha = 1.0 - v_s / (2.0 * ndv);
    return true;
  }
  if (x < 1 || x1 < 1) { /* starting (or IV: landing) inside the stiction circle */
    *alpha = 1.0;
    return true;
  }
  if (crossing(vt, dvt, v_s, eps, alpha)) return true;
  return angle_limit(vt, dvt, cos_theta_max, v_s, alpha);
}
