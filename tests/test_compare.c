/* The csv-compare tube rule (src/io/compare.h) as doc/results.md states it:
 * tube bounds computed by hand, the stored MSL references against themselves, time shifts
 * inside/outside X, value offsets inside/outside Y, and narrow pulses. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "io/compare.h"
#include "io/table_impl.h"
#include "testutil.h"

/* t and r must describe points of a piecewise-linear reference; bounds at tq are checked
 * against values worked out by hand from the formulas of section 8.1. */
START_TEST(tube_bounds_by_hand) {
  const double t[6] = {0, 1, 2, 2, 3, 4}, r[6] = {0, 1, 1, 3, 3, 0};
  st_tube *tb = st_tube_new(t, r, 6, 0.1, 1e-3);
  ck_assert_ptr_nonnull(tb);
  ck_assert_double_eq_tol(st_tube_x(tb), 0.4, 1e-15); /* 0.1 * (4 - 0) */
  ck_assert_double_eq_tol(st_tube_y(tb), 0.3, 1e-15); /* 0.1 * (3 - 0) */
  static const double q[][3] = {
      {1.0, 0.3, 1.3},   /* window [0.6, 1.4]: R(0.6) = 0.6, point 1, R(1.4) = 1 */
      {1.8, 0.7, 3.3},   /* [1.4, 2.2]: both values of the event at t = 2 */
      {0.1, -0.3, 0.8},  /* [0, 0.5] after clipping at t_0 */
      {4.3, -0.3, 0.6},  /* [3.9, 4]: R(3.9) = 0.3, point 0 */
      {3.5, 0.0, 3.0},   /* [3.1, 3.9]: no point inside, ends R = 2.7 and 0.3 */
      {2.0, 0.7, 3.3},   /* [1.6, 2.4] */
      {-0.4, -0.3, 0.3}, /* [0, 0]: the first point only, at the edge of the span */
  };
  for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
    double lo, hi;
    ck_assert_int_eq(st_tube_bounds(tb, q[i][0], &lo, &hi), 0);
    ck_assert_msg(fabs(lo - q[i][1]) < 1e-12 && fabs(hi - q[i][2]) < 1e-12,
                  "t=%g: [%g, %g], want [%g, %g]", q[i][0], lo, hi, q[i][1], q[i][2]);
  }
  double lo, hi;
  ck_assert_int_eq(st_tube_bounds(tb, 4.41, &lo, &hi), -1); /* beyond t_N-1 + X: unchecked */
  ck_assert_int_eq(st_tube_bounds(tb, -0.41, &lo, &hi), -1);
  st_tube_free(tb);
}
END_TEST

/* Y uses |r_min| (not max |r|) and the epsilon floor; X uses |t_min|. */
START_TEST(tube_sizes_follow_the_formulas) {
  const double t[2] = {10, 11}, r[2] = {-5, -4}, z[2] = {0, 0};
  st_tube *tb = st_tube_new(t, r, 2, 0.002, 1e-3);
  ck_assert_double_eq_tol(st_tube_x(tb), 0.02, 1e-15); /* 0.002 * |t_min| = 0.002 * 10 */
  ck_assert_double_eq_tol(st_tube_y(tb), 0.01, 1e-15); /* 0.002 * |r_min| = 0.002 * 5 */
  st_tube_free(tb);
  const double r2[2] = {4, 5};
  tb = st_tube_new(t, r2, 2, 0.002, 1e-3);
  ck_assert_double_eq_tol(st_tube_y(tb), 0.008, 1e-15); /* |r_min| = 4, not |r_max| = 5 */
  st_tube_free(tb);
  tb = st_tube_new(t, z, 2, 0.002, 1e-3);
  ck_assert_double_eq_tol(st_tube_y(tb), 2e-6, 1e-20); /* flat zero: epsilon 1e-3 (2.1) */
  st_tube_free(tb);
  tb = st_tube_new(t, z, 2, 0.002, st_compare_epsilon(ST_COMPARE_2_0_3));
  ck_assert_double_eq_tol(st_tube_y(tb), 2e-15, 1e-25); /* epsilon 1e-12 (2.0.3) */
  st_tube_free(tb);
}
END_TEST

static stiction_table *read_table(const char *path) {
  char msg[512];
  stiction_table *t;
  ck_assert_msg(stiction_table_read(&t, path, msg, sizeof msg) == STICTION_OK, "%s", msg);
  return t;
}

static stiction_table *copy_table(const stiction_table *src) {
  stiction_table *t = st_table_new(src->cols);
  ck_assert_ptr_nonnull(t);
  for (int c = 0; c < src->cols; c++) st_table_set_name(t, c, src->names[c], strlen(src->names[c]));
  ck_assert_int_eq(st_table_reserve(t, src->rows), 0);
  memcpy(t->data, src->data, (size_t)src->rows * (size_t)src->cols * sizeof(double));
  t->rows = src->rows;
  return t;
}

static const char *ref_dir(const char *cls) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s", st_test_ref("msl/"));
  strncat(buf, cls, sizeof buf - strlen(buf) - 1);
  return buf;
}

static void compare_dir(const char *cls, st_compare_compat compat) {
  char csv[4096], list[4096], msg[512];
  const char *dir = ref_dir(cls), *base = strrchr(cls, '.') + 1;
  snprintf(csv, sizeof csv, "%s/%s.csv", dir, base);
  snprintf(list, sizeof list, "%s/msl-v4.1.0/comparisonSignals.txt", dir);
  st_compare_options opt;
  st_compare_options_init(&opt);
  opt.compat = compat;
  st_compare_report rep;
  ck_assert_msg(st_compare_files(csv, csv, list, &opt, &rep, msg, sizeof msg) == 0, "%s", msg);
  ck_assert_msg(rep.failed == 0 && rep.passed > 0, "%s: %d failed", cls, rep.failed);
  for (int i = 0; i < rep.nsignals; i++)
    if (rep.signals[i].status == ST_SIGNAL_PASS) ck_assert_int_gt(rep.signals[i].checked, 1000);
  st_compare_report_free(&rep);
}

START_TEST(every_msl_reference_passes_against_itself) {
  DIR *d = opendir(st_test_ref("msl"));
  ck_assert_ptr_nonnull(d);
  struct dirent *e;
  int n = 0;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || !strchr(e->d_name, '.')) continue; /* README.md has a dot too */
    if (strstr(e->d_name, ".md")) continue;
    compare_dir(e->d_name, ST_COMPARE_2_1);
    compare_dir(e->d_name, ST_COMPARE_2_0_3);
    n++;
  }
  closedir(d);
  ck_assert_int_eq(n, 16);
}
END_TEST

#define CC "Modelica.Mechanics.Rotational.Examples.CoupledClutches"

static st_compare_report compare_shifted(double dt, double dy, const char *only) {
  char csv[4096];
  snprintf(csv, sizeof csv, "%s/CoupledClutches.csv", ref_dir(CC));
  stiction_table *ref = read_table(csv), *res = copy_table(ref);
  for (int r = 0; r < res->rows; r++) {
    res->data[(size_t)r * (size_t)res->cols] += dt;
    for (int c = 1; c < res->cols; c++)
      if (!only || !strcmp(res->names[c], only)) res->data[(size_t)r * (size_t)res->cols + (size_t)c] += dy;
  }
  char **names;
  int n;
  char list[4096], msg[512];
  snprintf(list, sizeof list, "%s/msl-v4.1.0/comparisonSignals.txt", ref_dir(CC));
  ck_assert_int_eq(st_compare_read_signals(list, &names, &n, msg, sizeof msg), 0);
  ck_assert_int_eq(n, 11); /* time is not a signal */
  st_compare_options opt;
  st_compare_options_init(&opt);
  st_compare_report rep;
  ck_assert_int_eq(st_compare_tables(res, ref, (const char *const *)names, n, &opt, &rep, msg, sizeof msg), 0);
  st_compare_signals_free(names, n);
  stiction_table_free(ref);
  stiction_table_free(res);
  return rep;
}

/* Spec 8.2 [C]: CoupledClutches shifted by +2 ms (< X = 3 ms) passes, by +5 ms fails on all
 * signals. */
START_TEST(time_shift_inside_x_passes_outside_fails) {
  st_compare_report rep = compare_shifted(0.002, 0, NULL);
  ck_assert_double_eq_tol(rep.x, 0.003, 1e-15);
  ck_assert_int_eq(rep.passed, 11);
  ck_assert_int_eq(rep.failed, 0);
  st_compare_report_free(&rep);
  rep = compare_shifted(-0.0029, 0, NULL);
  ck_assert_int_eq(rep.failed, 0);
  st_compare_report_free(&rep);
  rep = compare_shifted(0.005, 0, NULL);
  ck_assert_int_eq(rep.failed, 11);
  for (int i = 0; i < rep.nsignals; i++) {
    ck_assert_int_eq(rep.signals[i].status, ST_SIGNAL_FAIL);
    ck_assert_double_gt(rep.signals[i].worst_excess, 0);
    ck_assert(rep.signals[i].worst_value > rep.signals[i].worst_upper ||
              rep.signals[i].worst_value < rep.signals[i].worst_lower);
  }
  st_compare_report_free(&rep);
}
END_TEST

/* A constant offset: 0.9 Y always stays inside (U >= R + Y); 1.5 Y leaves the tube where the
 * signal is flat (J1.w is constant once the clutches lock; Y = 0.0148, spec 8.3). */
START_TEST(value_offset_inside_y_passes_outside_fails) {
  st_compare_report rep = compare_shifted(0, 0.9 * 0.0148, "J1.w");
  ck_assert_int_eq(rep.failed, 0);
  st_compare_report_free(&rep);
  rep = compare_shifted(0, -0.9 * 0.0148, "J1.w");
  ck_assert_int_eq(rep.failed, 0);
  st_compare_report_free(&rep);
  rep = compare_shifted(0, 1.5 * 0.0148, "J1.w");
  ck_assert_int_eq(rep.failed, 1);
  ck_assert_str_eq(rep.signals[1].name, "J1.w");
  ck_assert_int_eq(rep.signals[1].status, ST_SIGNAL_FAIL);
  ck_assert_double_eq_tol(rep.signals[1].y, 0.0148, 1e-4);
  st_compare_report_free(&rep);
}
END_TEST

/* Builds a 2-column table (time, x) from arrays. */
static stiction_table *make_table(const double *t, const double *x, int n) {
  stiction_table *tb = st_table_new(2);
  st_table_set_name(tb, 0, "time", 4);
  st_table_set_name(tb, 1, "x", 1);
  st_table_reserve(tb, n);
  for (int i = 0; i < n; i++) {
    tb->data[2 * i] = t[i];
    tb->data[2 * i + 1] = x[i];
  }
  tb->rows = n;
  return tb;
}

static int failures(const stiction_table *res, const stiction_table *ref, st_compare_compat compat) {
  st_compare_options opt;
  st_compare_options_init(&opt);
  opt.compat = compat;
  st_compare_report rep;
  char msg[256];
  ck_assert_int_eq(st_compare_tables(res, ref, NULL, 0, &opt, &rep, msg, sizeof msg), 0);
  int f = rep.failed;
  st_compare_report_free(&rep);
  return f;
}

/* Spec 8.2: a result may miss a pulse of the reference (the lower tube follows the minimum
 * over the window), but a pulse in the result where the reference is identically zero within
 * +-X fails unless it is below Y = tol * epsilon. Grid 0..10 step 0.01, X = 0.02. */
START_TEST(pulses_and_the_epsilon_floor) {
  enum { N = 1001 };
  static double t[N + 2], zero[N + 2], pulse[N + 2], small[N + 2];
  int n = 0;
  for (int i = 0; i < N; i++, n++) {
    t[n] = i * 0.01;
    if (i == 500) { /* an event pair at t = 5: jump up and back (a pulse of width 0.01) */
      t[n + 1] = t[n];
      pulse[n] = 0;
      pulse[++n] = 1;
      t[n + 1] = t[n] + 0.01;
      pulse[++n] = 1;
      continue;
    }
    pulse[n] = 0;
  }
  ck_assert_int_eq(n, N + 2);
  for (int i = 0; i < n; i++) { zero[i] = 0; small[i] = pulse[i] * 1e-6; }
  for (int i = 1; i < n; i++) ck_assert(t[i] >= t[i - 1]);
  stiction_table *ref_pulse = make_table(t, pulse, n), *ref_zero = make_table(t, zero, n);
  stiction_table *res_zero = make_table(t, zero, n), *res_pulse = make_table(t, pulse, n);
  stiction_table *res_small = make_table(t, small, n);
  ck_assert_int_eq(failures(res_zero, ref_pulse, ST_COMPARE_2_1), 0);  /* missed pulse */
  ck_assert_int_eq(failures(res_pulse, ref_pulse, ST_COMPARE_2_1), 0);
  ck_assert_int_eq(failures(res_pulse, ref_zero, ST_COMPARE_2_1), 1);  /* extra pulse */
  ck_assert_int_eq(failures(res_small, ref_zero, ST_COMPARE_2_1), 0);  /* 1e-6 < Y = 2e-6 */
  ck_assert_int_eq(failures(res_small, ref_zero, ST_COMPARE_2_0_3), 1); /* > Y = 2e-15 */
  stiction_table_free(ref_pulse);
  stiction_table_free(ref_zero);
  stiction_table_free(res_zero);
  stiction_table_free(res_pulse);
  stiction_table_free(res_small);
}
END_TEST

/* The result must keep the reference's step inside the time window: a jump delayed by less
 * than X passes, by more than X fails; NaN fails; samples after t_N-1 + X are not checked. */
START_TEST(step_timing_nan_and_span) {
  const double tr[5] = {0, 1, 1, 2, 10}, rr[5] = {0, 0, 1, 1, 1}; /* X = 0.02, Y = 0.002 */
  stiction_table *ref = make_table(tr, rr, 5);
  const double t1[5] = {0, 1.015, 1.015, 2, 10}, t2[5] = {0, 1.03, 1.03, 2, 10};
  stiction_table *early = make_table(t1, rr, 5), *late = make_table(t2, rr, 5);
  ck_assert_int_eq(failures(early, ref, ST_COMPARE_2_1), 0);
  ck_assert_int_eq(failures(late, ref, ST_COMPARE_2_1), 1);
  const double tn[3] = {0, 5, 10.5}, yn[3] = {0, NAN, 1}, yb[3] = {0, 1, 7};
  stiction_table *nan = make_table(tn, yn, 3), *beyond = make_table(tn, yb, 3);
  ck_assert_int_eq(failures(nan, ref, ST_COMPARE_2_1), 1);
  ck_assert_int_eq(failures(beyond, ref, ST_COMPARE_2_1), 0); /* 10.5 > 10 + X: unchecked */
  stiction_table_free(ref);
  stiction_table_free(early);
  stiction_table_free(late);
  stiction_table_free(nan);
  stiction_table_free(beyond);
}
END_TEST

/* A result that stops early (a failed simulation) passes the tube on the samples it has;
 * it must still fail, while one that reaches the end to within X passes. */
START_TEST(result_must_span_the_reference) {
  const double t[4] = {0, 4, 8, 10}, x[4] = {0, 4, 8, 10};
  const double half[3] = {0, 4, 5}, xhalf[3] = {0, 4, 5};
  const double near[4] = {0, 4, 8, 9.99}, xnear[4] = {0, 4, 8, 9.99}; /* X = 0.02 */
  stiction_table *ref = make_table(t, x, 4), *stopped = make_table(half, xhalf, 3);
  stiction_table *close = make_table(near, xnear, 4);
  st_compare_options opt;
  st_compare_options_init(&opt);
  st_compare_report rep;
  char msg[256];
  ck_assert_int_eq(st_compare_tables(stopped, ref, NULL, 0, &opt, &rep, msg, sizeof msg), 0);
  ck_assert_int_eq(rep.signals[0].outside, 0); /* inside the tube where it has samples */
  ck_assert_int_eq(rep.signals[0].status, ST_SIGNAL_SHORT);
  ck_assert_int_eq(rep.failed, 1);
  ck_assert_double_eq(rep.result_t1, 5);
  ck_assert_double_eq(rep.reference_t1, 10);
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&text, &len);
  st_compare_print(&rep, &opt, out, 0);
  fclose(out);
  ck_assert_ptr_nonnull(strstr(text, "FAIL x: the result covers t = 0 .. 5, the reference 0 .. 10"));
  ck_assert_ptr_nonnull(strstr(text, "FAILED: 0 of 1 signals pass"));
  free(text);
  st_compare_report_free(&rep);
  ck_assert_int_eq(failures(close, ref, ST_COMPARE_2_1), 0);
  stiction_table_free(ref);
  stiction_table_free(stopped);
  stiction_table_free(close);
}
END_TEST

START_TEST(missing_signals_and_bad_input) {
  const double t[3] = {0, 1, 2}, x[3] = {0, 1, 2};
  stiction_table *ref = make_table(t, x, 3), *res = make_table(t, x, 3);
  st_table_set_name(res, 1, "y", 1);
  const char *list[2] = {"x", "ghost"};
  st_compare_options opt;
  st_compare_options_init(&opt);
  st_compare_report rep;
  char msg[256];
  ck_assert_int_eq(st_compare_tables(res, ref, list, 2, &opt, &rep, msg, sizeof msg), 0);
  ck_assert_int_eq(rep.signals[0].status, ST_SIGNAL_NO_RESULT);    /* a failure */
  ck_assert_int_eq(rep.signals[1].status, ST_SIGNAL_NO_REFERENCE); /* a warning */
  ck_assert_int_eq(rep.failed, 1);
  ck_assert_int_eq(rep.skipped, 1);
  st_compare_report_free(&rep);
  res->data[2] = 5; /* time goes backwards */
  ck_assert_int_eq(st_compare_tables(res, ref, NULL, 0, &opt, &rep, msg, sizeof msg), STICTION_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(msg, "non-decreasing"));
  stiction_table_free(ref);
  stiction_table_free(res);
  ck_assert_int_ne(st_compare_files("/nonexistent.csv", "/nonexistent.csv", NULL, &opt, &rep, msg, sizeof msg), 0);
  ck_assert_ptr_nonnull(strstr(msg, "/nonexistent.csv"));
}
END_TEST

ST_TEST_MAIN("compare", "tube", 0,
             tube_bounds_by_hand, tube_sizes_follow_the_formulas,
             every_msl_reference_passes_against_itself, time_shift_inside_x_passes_outside_fails,
             value_offset_inside_y_passes_outside_fails, pulses_and_the_epsilon_floor,
             step_timing_nan_and_span, missing_signals_and_bad_input,
             result_must_span_the_reference)
