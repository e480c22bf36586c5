/* TAMSI iteration limiter: the 16 cases of Drake's limiter test, with Drake's
 * assertions (kTol) and the spec's independent reference alphas. */
#include <check.h>
#include <float.h>
#include <math.h>

#include "tamsi/tamsi_internal.h"
#include "testutil.h"

#define KTOL (10 * DBL_EPSILON)
#define VS 1e-4
#define REL 0.01

static const double theta_max = M_PI / 6;

static double limit(const double vt[2], const double dvt[2], bool *ok) {
  double alpha = -1;
  *ok = st_tamsi_limiter(vt, dvt, cos(theta_max), VS, REL, &alpha);
  return alpha;
}

/* Asserts alpha and that the limiter succeeded. */
static double limit_ok(const double vt[2], const double dvt[2]) {
  bool ok;
  double alpha = limit(vt, dvt, &ok);
  ck_assert_msg(ok, "limiter failed");
  ck_assert_msg(alpha > 0 && alpha <= 1, "alpha %g outside (0, 1]", alpha);
  return alpha;
}

/* Drake's "relative" comparison: |a - b| <= tol max(1, |a|, |b|). */
static void assert_rel(double a, double b, double tol) {
  double scale = fmax(1.0, fmax(fabs(a), fabs(b)));
  ck_assert_msg(fabs(a - b) <= tol * scale, "%.17g vs %.17g (tol %g)", a, b, tol);
}

static void assert_valpha(const double vt[2], const double dvt[2], double alpha,
                          const double expect[2]) {
  for (int k = 0; k < 2; k++) assert_rel(vt[k] + alpha * dvt[k], expect[k], KTOL);
}

static void rot(double th, const double v[2], double out[2]) {
  out[0] = cos(th) * v[0] - sin(th) * v[1];
  out[1] = sin(th) * v[0] + cos(th) * v[1];
}

/* Angle between v and v + alpha dv, by atan2 (accurate at any angle). */
static double angle_after(const double v[2], const double dv[2], double alpha) {
  double w[2] = {v[0] + alpha * dv[0], v[1] + alpha * dv[1]};
  return fabs(atan2(v[0] * w[1] - v[1] * w[0], v[0] * w[0] + v[1] * w[1]));
}

START_TEST(zero_v_and_zero_dv) {
  double vt[2] = {0, 0}, dvt[2] = {0, 0};
  ck_assert_double_eq_tol(limit_ok(vt, dvt), 1.0, KTOL);
}
END_TEST

START_TEST(zero_v_to_within_stiction_region) {
  double vt[2] = {0, 0}, dvt[2] = {-0.5 * VS, 0.7 * VS};
  ck_assert_double_eq_tol(limit_ok(vt, dvt), 1.0, KTOL);
}
END_TEST

START_TEST(zero_v_to_sliding_region) {
  double vt[2] = {0, 0}, dvt[2] = {0.3, -0.1};
  double a = limit_ok(vt, dvt), n = hypot(dvt[0], dvt[1]);
  double expect[2] = {dvt[0] / n * VS / 2, dvt[1] / n * VS / 2};
  assert_valpha(vt, dvt, a, expect);
  ck_assert_double_eq_tol(a, 1.5811388300841897e-4, 1e-15);
}
END_TEST

START_TEST(sliding_region_to_zero) {
  double vt[2] = {0.3, -0.1}, dvt[2] = {-0.3, 0.1};
  double a = limit_ok(vt, dvt), n = hypot(vt[0], vt[1]);
  double expect[2] = {vt[0] / n * VS / 2, vt[1] / n * VS / 2};
  assert_valpha(vt, dvt, a, expect);
  ck_assert_double_eq_tol(a, 0.9998418861169915, 1e-15);
}
END_TEST

START_TEST(sliding_region_to_stiction_region) {
  double vt[2] = {1.2, 0.4};
  double dvt[2] = {-0.3 * VS - vt[0], 0.45 * VS - vt[1]};
  ck_assert_double_eq_tol(limit_ok(vt, dvt), 1.0, KTOL);
}
END_TEST

START_TEST(within_stiction_region_to_sliding_region) {
  double vt[2] = {-0.5 * VS, 0.7 * VS}, dvt[2] = {0.9, -0.3};
  ck_assert_double_eq_tol(limit_ok(vt, dvt), 1.0, KTOL);
}
END_TEST

START_TEST(stiction_to_sliding) {
  double vt[2] = {-0.5 * VS * REL, 0.3 * VS * REL}, dvt[2] = {0.3, 0.15};
  double a = limit_ok(vt, dvt);
  ck_assert_double_eq_tol(a, VS / (2 * hypot(dvt[0], dvt[1])), KTOL);
  ck_assert_double_eq_tol(a, 1.4907119849998598e-4, 1e-15);
}
END_TEST

START_TEST(very_small_delta_v) {
  double vt[2] = {0.1, 0.05}, dvt[2] = {-0.5 * VS * REL, 0.3 * VS * REL};
  ck_assert_double_eq_tol(limit_ok(vt, dvt), 1.0, KTOL);
}
END_TEST

START_TEST(straight_cross_through_zero) {
  double vt[2] = {0.1, 0.05}, dvt[2] = {-0.3, -0.15};
  double a = limit_ok(vt, dvt), n = hypot(vt[0], vt[1]);
  double expect[2] = {vt[0] / n * VS / 2, vt[1] / n * VS / 2};
  assert_valpha(vt, dvt, a, expect);
  ck_assert_double_eq_tol(a, 0.3331842621348334, 1e-15);
}
END_TEST

START_TEST(cross_stiction_region_from_the_outside) {
  double e[2] = {0.3 * VS, 0.2 * VS};
  double ne = hypot(e[0], e[1]);
  double nh[2] = {e[1] / ne, -e[0] / ne};
  double vt[2] = {e[0] + 0.5 * nh[0], e[1] + 0.5 * nh[1]};
  double dvt[2] = {e[0] - 0.8 * nh[0] - vt[0], e[1] - 0.8 * nh[1] - vt[1]};
  double a = limit_ok(vt, dvt);
  assert_valpha(vt, dvt, a, e);
  ck_assert_double_eq_tol(a, 5.0 / 13.0, 1e-14);
}
END_TEST

START_TEST(changes_within_the_sliding_region) {
  double vt[2] = {-0.5, 0.7}, r[2];
  rot(M_PI / 8, vt, r);
  double dvt[2] = {r[0] - vt[0], r[1] - vt[1]};
  ck_assert_double_eq_tol(limit_ok(vt, dvt), 1.0, KTOL);
}
END_TEST

/* Rotations by more than theta_max: the limited update turns by exactly theta_max. */
static void check_large_turn(double theta, double ref_alpha) {
  double vt[2] = {-0.5, 0.7}, r[2];
  rot(theta, vt, r);
  double dvt[2] = {r[0] - vt[0], r[1] - vt[1]};
  double a = limit_ok(vt, dvt);
  ck_assert_double_eq_tol(angle_after(vt, dvt, a), theta_max, KTOL);
  ck_assert_double_eq_tol(a, ref_alpha, 1e-11);
}

START_TEST(changes_within_the_sliding_region_large_theta) {
  check_large_turn(M_PI / 3, 0.5);
}
END_TEST

START_TEST(changes_within_the_sliding_region_very_large_theta) {
  check_large_turn(5 * M_PI / 6, (sqrt(3.0) - 1) / 2);
}
END_TEST

/* dvt = -3 Rot(theta_max) vt: the only positive root of the quadratic. */
static void single_solution_dv(const double vt[2], double dvt[2]) {
  double r[2];
  rot(theta_max, vt, r);
  dvt[0] = -3 * r[0];
  dvt[1] = -3 * r[1];
}

START_TEST(changes_within_the_sliding_region_single_solution) {
  double vt[2] = {-0.5, 0.7}, dvt[2];
  single_solution_dv(vt, dvt);
  double a = limit_ok(vt, dvt);
  ck_assert_double_eq_tol(angle_after(vt, dvt, a), theta_max, KTOL);
  ck_assert_double_eq_tol(a, 1 / (3 * sqrt(3.0)), 1e-11);
}
END_TEST

START_TEST(quadratic_non_positive_inf) {
  double vt[2] = {-0.5, 0.7}, dvt[2];
  single_solution_dv(vt, dvt);
  dvt[1] = INFINITY;
  bool ok;
  limit(vt, dvt, &ok);
  ck_assert(!ok);
}
END_TEST

START_TEST(quadratic_non_positive_nan) {
  double vt[2] = {-0.5, 0.7}, dvt[2];
  single_solution_dv(vt, dvt);
  vt[1] = NAN;
  bool ok;
  limit(vt, dvt, &ok);
  ck_assert(!ok);
}
END_TEST

ST_TEST_MAIN("tamsi_limiter", "drake_cases", 0,
             zero_v_and_zero_dv, zero_v_to_within_stiction_region, zero_v_to_sliding_region,
             sliding_region_to_zero, sliding_region_to_stiction_region,
             within_stiction_region_to_sliding_region, stiction_to_sliding, very_small_delta_v,
             straight_cross_through_zero, cross_stiction_region_from_the_outside,
             changes_within_the_sliding_region, changes_within_the_sliding_region_large_theta,
             changes_within_the_sliding_region_very_large_theta,
             changes_within_the_sliding_region_single_solution, quadratic_non_positive_inf,
             quadratic_non_positive_nan)
