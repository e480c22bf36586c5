/* BAM conformance (doc/bam.md §6): reference rollout CSVs and per-log MAEs of BAM's own simulator,
 * budget formulas M1..M6 against the closed forms of §3, the sticking property of the step
 * (§1.4), readers and the `stiction bam` command. */
#include <check.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/bam.h>
#include <stiction/stiction.h>

#include "bam/bam_eval.h"
#include "testutil.h"

#define REF "bam/"
#define LOGDIR REF "xl330_2026-01-15/processed"

static char *ref_path(const char *rel) { return strdup(st_test_ref(rel)); }

/* ---- rollout traces ---------------------------------------------------------------- */

typedef struct trace_case {
  const char *log, *params, *csv;
} trace_case;

static const trace_case traces[] = {
  {"10h29m14", "params_main/xl330/m1.json", "10h29m14__params_main_xl330_m1"},
  {"10h29m14", "params_main/xl330/m2.json", "10h29m14__params_main_xl330_m2"},
  {"10h29m14", "params_main/xl330/m3.json", "10h29m14__params_main_xl330_m3"},
  {"10h29m14", "params_main/xl330/m4.json", "10h29m14__params_main_xl330_m4"},
  {"10h29m14", "params_main/xl330/m5.json", "10h29m14__params_main_xl330_m5"},
  {"10h29m14", "params_main/xl330/m6.json", "10h29m14__params_main_xl330_m6"},
  {"10h29m14", "params_xl330_branch_2f67dc6/m6.json", "10h29m14__params_xl330_branch_2f67dc6_m6"},
  {"10h29m21", "params_main/xl330/m1.json", "10h29m21__params_main_xl330_m1"},
  {"10h29m21", "params_main/xl330/m6.json", "10h29m21__params_main_xl330_m6"},
};

/* doc/bam.md §6.1: |x_ours - x_csv| <= 1e-12 + 5e-10 |x_csv| for every numeric column. */
static void check_value(double ours, double ref, size_t row, int col) {
  double tol = 1e-12 + 5e-10 * fabs(ref);
  if (!(fabs(ours - ref) <= tol))
    ck_abort_msg("row %zu column %d: ours %.17g, BAM %.17g", row, col, ours, ref);
}

static void check_row(const char *line, const stiction_bam_log *log,
                      const stiction_bam_step_info *s, size_t k) {
  double v[13];
  char *end;
  const char *p = line;
  for (int c = 0; c < 13; c++) {
    v[c] = strtod(p, &end);
    ck_assert_msg(end != p, "unparsable CSV row %zu", k);
    p = *end == ',' ? end + 1 : end;
  }
  double ours[13] = {(double)k * log->dt, log->goal[k], log->position[k], s->q, s->omega,
                     s->volts, log->enable[k], s->tau_m, s->tau_e, s->frictionloss,
                     s->damping, s->budget, s->tau_stop};
  for (int c = 0; c < 13; c++) check_value(ours[c], v[c], k, c);
  /* the simulated angle itself: <= 1e-12 rad (doc/bam.md §6.1) */
  ck_assert_msg(fabs(s->q - v[3]) <= 1e-12, "sim_q row %zu off by %g", k, fabs(s->q - v[3]));
}

START_TEST(rollout_matches_reference_csv) {
  const trace_case *tc = &traces[_i];
  char rel[512], err[512];
  stiction_bam_params p;
  stiction_bam_log *log;
  snprintf(rel, sizeof rel, REF "%s", tc->params);
  ck_assert_msg(!stiction_bam_params_read(st_test_ref(rel), &p, err, sizeof err), "%s", err);
  snprintf(rel, sizeof rel, LOGDIR "/2026-01-15_%s.json", tc->log);
  ck_assert_msg(!stiction_bam_log_read(st_test_ref(rel), &log, err, sizeof err), "%s", err);
  stiction_bam_step_info *info = calloc(log->n, sizeof *info);
  ck_assert_int_eq(stiction_bam_rollout(&p, log, NULL, info), STICTION_OK);
  snprintf(rel, sizeof rel, REF "bam_reference_outputs/rollout_xl330_2026-01-15_%s.csv", tc->csv);
  FILE *f = fopen(st_test_ref(rel), "r");
  ck_assert_ptr_nonnull(f);
  char line[4096];
  size_t k = 0;
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f)); /* header */
  while (fgets(line, sizeof line, f)) {
    ck_assert_uint_lt(k, log->n);
    check_row(line, log, &info[k], k);
    k++;
  }
  fclose(f);
  ck_assert_uint_eq(k, log->n);
  free(info);
  stiction_bam_log_free(log);
}
END_TEST

/* ---- per-log MAE -------------------------------------------------------------------- */

static json_object *load_ref(const char *name) {
  char rel[512];
  snprintf(rel, sizeof rel, REF "bam_reference_outputs/%s", name);
  json_object *o = json_object_from_file(st_test_ref(rel));
  ck_assert_ptr_nonnull(o);
  return o;
}

static double lookup_mae(const st_bam_eval *ev, const char *set, const char *log) {
  for (size_t i = 0; i < ev->nsets; i++)
    if (!strcmp(ev->set_keys[i], set))
      for (size_t k = 0; k < ev->nlogs; k++)
        if (!strcmp(ev->log_names[k], log)) return ev->mae[i * ev->nlogs + k];
  ck_abort_msg("no result for %s on %s", set, log);
  return NAN;
}

static double lookup_agg(const st_bam_eval *ev, const char *set, int want_std) {
  for (size_t i = 0; i < ev->nsets; i++)
    if (!strcmp(ev->set_keys[i], set)) return want_std ? ev->std[i] : ev->mean[i];
  ck_abort_msg("no result for %s", set);
  return NAN;
}

/* doc/bam.md §6.3: aggregates without the up_and_down logs, recomputed here from BAM's per-log
 * values and its log_meta trajectories. */
static void check_without_up_and_down(const st_bam_eval *ev, json_object *ref) {
  json_object *order, *results, *meta;
  ck_assert(json_object_object_get_ex(ref, "log_order", &order));
  ck_assert(json_object_object_get_ex(ref, "results", &results));
  ck_assert(json_object_object_get_ex(ref, "log_meta", &meta));
  ck_assert_uint_eq(ev->nlogs_x, 12);
  json_object_object_foreach(results, set, val) {
    json_object *per, *m, *traj;
    double v[16], sum = 0, ss = 0;
    int n = 0;
    ck_assert(json_object_object_get_ex(val, "per_log", &per));
    for (size_t k = 0; k < 16; k++) {
      const char *log = json_object_get_string(json_object_array_get_idx(order, k));
      ck_assert(json_object_object_get_ex(meta, log, &m));
      ck_assert(json_object_object_get_ex(m, "trajectory", &traj));
      if (strcmp(json_object_get_string(traj), "up_and_down"))
        sum += v[n++] = json_object_get_double(json_object_array_get_idx(per, k));
    }
    for (int k = 0; k < n; k++) ss += (v[k] - sum / n) * (v[k] - sum / n);
    for (size_t i = 0; i < ev->nsets; i++)
      if (!strcmp(ev->set_keys[i], set)) {
        ck_assert_double_eq_tol(ev->mean_x[i], sum / n, 1e-12);
        ck_assert_double_eq_tol(ev->std_x[i], sqrt(ss / n), 1e-12);
      }
  }
}

/* Every per-log MAE to <= 1e-12 rad and 1e-9 relative; mean and population std as well. */
static void compare_with_reference(const st_bam_eval *ev, json_object *ref) {
  json_object *order, *results;
  ck_assert(json_object_object_get_ex(ref, "log_order", &order));
  ck_assert(json_object_object_get_ex(ref, "results", &results));
  int nchecked = 0;
  json_object_object_foreach(results, set, val) {
    json_object *per, *mean, *std;
    ck_assert(json_object_object_get_ex(val, "per_log", &per));
    for (size_t k = 0; k < json_object_array_length(order); k++) {
      const char *log = json_object_get_string(json_object_array_get_idx(order, k));
      double r = json_object_get_double(json_object_array_get_idx(per, k));
      double o = lookup_mae(ev, set, log);
      ck_assert_msg(fabs(o - r) <= 1e-12 && fabs(o - r) <= 1e-9 * fabs(r),
                    "%s on %s: %.17g vs BAM %.17g", set, log, o, r);
      nchecked++;
    }
    ck_assert(json_object_object_get_ex(val, "mean", &mean));
    ck_assert(json_object_object_get_ex(val, "std", &std));
    ck_assert_double_eq_tol(lookup_agg(ev, set, 0), json_object_get_double(mean), 1e-12);
    ck_assert_double_eq_tol(lookup_agg(ev, set, 1), json_object_get_double(std), 1e-12);
  }
  ck_assert_int_eq(nchecked, 16 * (int)ev->nsets);
  check_without_up_and_down(ev, ref);
}

static void evaluate(const char *const *param_dirs, size_t nd, st_bam_eval *ev) {
  char **pp, **lp, err[512];
  size_t np, nl;
  char *dirs[4], *logdir = ref_path(LOGDIR);
  for (size_t i = 0; i < nd; i++) dirs[i] = ref_path(param_dirs[i]);
  ck_assert_msg(!st_bam_expand_json((const char *const *)dirs, nd, &pp, &np, err, sizeof err), "%s", err);
  ck_assert_msg(!st_bam_expand_json((const char *const *)&logdir, 1, &lp, &nl, err, sizeof err), "%s", err);
  ck_assert_uint_eq(nl, 16);
  ck_assert_msg(!st_bam_evaluate(pp, np, lp, nl, ev, err, sizeof err), "%s", err);
  st_bam_paths_free(pp, np);
  st_bam_paths_free(lp, nl);
  for (size_t i = 0; i < nd; i++) free(dirs[i]);
  free(logdir);
}

START_TEST(mae_main_params_match_bam) {
  const char *dirs[] = {REF "params_main/xl330"};
  st_bam_eval ev;
  evaluate(dirs, 1, &ev);
  ck_assert_uint_eq(ev.nsets, 6);
  json_object *ref = load_ref("mae_16logs__params_main_xl330.json");
  compare_with_reference(&ev, ref);
  /* the table of doc/bam.md §6.2 to its printed digits: M3 69.06 +- 46.87 mrad */
  ck_assert_double_eq_tol(1e3 * lookup_agg(&ev, "m3", 0), 69.06, 0.005);
  ck_assert_double_eq_tol(1e3 * lookup_agg(&ev, "m3", 1), 46.87, 0.005);
  json_object_put(ref);
  st_bam_eval_free(&ev);
}
END_TEST

START_TEST(mae_branch_params_match_bam) {
  const char *dirs[] = {REF "params_xl330_branch_af22604", REF "params_xl330_branch_2f67dc6"};
  st_bam_eval ev;
  evaluate(dirs, 2, &ev);
  ck_assert_uint_eq(ev.nsets, 5); /* models repeat: keys are DIR/FILE as in BAM's output */
  json_object *ref = load_ref("mae_16logs__params_xl330_branch.json");
  compare_with_reference(&ev, ref);
  json_object_put(ref);
  st_bam_eval_free(&ev);
}
END_TEST

/* ---- budgets against the closed forms of doc/bam.md §3 ---------------------------------- */

static stiction_bam_params test_params(stiction_bam_model m) {
  stiction_bam_params p;
  stiction_bam_params_default(&p, m, STICTION_BAM_XL330);
  p.Kc = 0.01; p.Kv = 0.2; p.Kcs = 0.03; p.ws = 0.5; p.alpha = 1.7;
  p.Kl = 0.11; p.Kls = 0.07; p.Km = 0.13; p.Ke = 0.05; p.Kms = 0.02; p.Kes = 0.09;
  p.Kmq = 0.004; p.Keq = 0.006;
  return p;
}

START_TEST(budgets_follow_spec_formulas) {
  const double tm = 0.3, te = -0.12, w = 0.4;
  const double s = exp(-pow(w / 0.5, 1.7)), load = fabs(te - tm);
  const double expect[6] = {
    0.01, 0.01 + s * 0.03, 0.01 + 0.11 * load, 0.01 + 0.11 * load + s * (0.03 + 0.07 * load),
    0.01 + fabs(0.05 * te - 0.13 * tm) + s * (0.03 + fabs(0.09 * te - 0.02 * tm)),
    /* M6: opposite signs, |te| < |tm|: the K_eq te^2 branch */
    0.01 + fabs(0.05 * te - 0.13 * tm) + s * (0.03 + fabs(0.09 * te - 0.02 * tm)) +
        s * 0.006 * te * te};
  for (int m = 1; m <= 6; m++) {
    stiction_bam_params p = test_params((stiction_bam_model)m);
    double fl, d;
    stiction_bam_friction(&p, tm, te, w, &fl, &d);
    ck_assert_double_eq_tol(fl, expect[m - 1], 1e-15);
    ck_assert_double_eq(d, 0.2);
  }
}
END_TEST

/* Analytic partials of the budget against central differences, away from the kinks. */
START_TEST(budget_partials_match_fd) {
  const double pts[][3] = {{0.3, -0.12, 0.4}, {-0.2, 0.5, -0.7}, {0.05, 0.3, 1.3},
                           {-0.4, -0.1, 0.02}, {0.6, -0.2, -2.5}};
  const double h = 1e-7;
  for (int m = 1; m <= 6; m++)
    for (int i = 0; i < 5; i++) {
      stiction_bam_params p = test_params((stiction_bam_model)m);
      double tm = pts[i][0], te = pts[i][1], w = pts[i][2], d[3], fp, fm;
      stiction_bam_friction_partials(&p, tm, te, w, &d[0], &d[1], &d[2]);
      for (int k = 0; k < 3; k++) {
        double x[3] = {tm, te, w};
        x[k] += h;
        stiction_bam_friction(&p, x[0], x[1], x[2], &fp, NULL);
        x[k] -= 2 * h;
        stiction_bam_friction(&p, x[0], x[1], x[2], &fm, NULL);
        ck_assert_msg(fabs(d[k] - (fp - fm) / (2 * h)) <= 1e-7,
                      "M%d point %d partial %d: %g vs FD %g", m, i, k, d[k], (fp - fm) / (2 * h));
      }
    }
  /* continuous tier helpers: static limit = budget at rest; slip torque opposes omega */
  stiction_bam_params p = test_params(STICTION_BAM_M4);
  double f0, f;
  stiction_bam_friction(&p, 0.3, -0.1, 0.0, &f0, NULL);
  ck_assert_double_eq(stiction_bam_static_limit(&p, 0.3, -0.1), f0);
  stiction_bam_friction(&p, 0.3, -0.1, -0.8, &f, NULL);
  ck_assert_double_eq_tol(stiction_bam_slip_torque(&p, 0.3, -0.1, -0.8), f + 0.2 * 0.8, 1e-15);
}
END_TEST

/* M6's Q (doc/bam.md §3) at rest (s = 1): gate on opposite signs, cross-wired coefficients. */
static double m6_q(double tm, double te) {
  stiction_bam_params p6 = test_params(STICTION_BAM_M6), p5 = test_params(STICTION_BAM_M5);
  double f6, f5;
  stiction_bam_friction(&p6, tm, te, 0.0, &f6, NULL);
  stiction_bam_friction(&p5, tm, te, 0.0, &f5, NULL);
  return f6 - f5;
}

START_TEST(m6_sign_gate) {
  ck_assert_double_eq(m6_q(0.5, 0.2), 0.0);   /* same sign: no quadratic term */
  ck_assert_double_eq(m6_q(-0.5, -0.2), 0.0);
  ck_assert_double_eq_tol(m6_q(0.5, -0.2), 0.006 * 0.04, 1e-16);  /* motor dominates */
  ck_assert_double_eq_tol(m6_q(-0.2, 0.5), 0.004 * 0.04, 1e-16);  /* load dominates */
  ck_assert_double_eq_tol(m6_q(0.3, -0.3), 0.0, 1e-16);  /* equal magnitudes */
  ck_assert_double_eq_tol(m6_q(0.0, 0.4), 0.0, 1e-16);   /* sign(0) = 0: "opposite", K_mq*0 */
  ck_assert_double_eq_tol(m6_q(0.4, 0.0), 0.0, 1e-16);
}
END_TEST

/* Servo models of doc/bam.md §2 against their formulas written out here. */
START_TEST(servo_models_follow_spec) {
  stiction_bam_params p;
  stiction_bam_log log = {.kp = 32, .vin = 15.0, .dt = 0.005, .damping = -1};
  double u;
  /* MX-64: duty kp*0.158*(goal - q), saturated at 0.9625 */
  stiction_bam_params_default(&p, STICTION_BAM_M1, STICTION_BAM_MX64);
  p.kt = 1.6; p.R = 2.0;
  double d = 32 * 0.158 * 0.01, tau = stiction_bam_motor_torque(&p, &log, 0.01, 1, 0.0, 0.5, &u);
  ck_assert_double_eq_tol(u, 15.0 * d, 1e-14);
  ck_assert_double_eq_tol(tau, 1.6 / 2.0 * (15.0 * d - 1.6 * 0.5), 1e-14);
  stiction_bam_motor_torque(&p, &log, 3.0, 1, 0.0, 0.0, &u);
  ck_assert_double_eq_tol(u, 15.0 * 0.9625, 1e-14);
  ck_assert_double_eq(stiction_bam_motor_torque(&p, &log, 3.0, 0, 0.0, 2.0, &u), 0.0);
  /* a firmware current limit bounds the duty to (kt w +- R I)/vin before saturation */
  p.current_limit = 0.5;
  stiction_bam_motor_torque(&p, &log, 3.0, 1, 0.0, 0.2, &u);
  ck_assert_double_eq_tol(u, 1.6 * 0.2 + 2.0 * 0.5, 1e-14);
  /* eRob80:50: I = clip(kp e - D sqrt(kp) w, 12 A), D = 1, then the 48 V band */
  stiction_bam_params_default(&p, STICTION_BAM_M1, STICTION_BAM_EROB80_50);
  p.kt = 2.0; p.R = 1.0;
  log.kp = 4.0;
  tau = stiction_bam_motor_torque(&p, &log, 0.5, 1, 0.0, 0.3, &u);
  ck_assert_double_eq_tol(tau, 2.0 * (4.0 * 0.5 - 1.0 * 2.0 * 0.3), 1e-14);
  ck_assert_double_eq(u, 0.0);
  ck_assert_double_eq_tol(stiction_bam_motor_torque(&p, &log, 10.0, 1, 0.0, 0.0, NULL), 24.0, 1e-14);
  /* fast motion: the back-EMF band (kt/R) 48 - (kt^2/R) w = 96 - 4*19 caps the 24 N m */
  log.kp = 400.0;
  ck_assert_double_eq_tol(stiction_bam_motor_torque(&p, &log, 10.0, 1, 0.0, 19.0, NULL),
                          96.0 - 76.0, 1e-12);
  log.kp = 4.0;
  log.damping = 3.0; /* a log's damping key replaces D */
  tau = stiction_bam_motor_torque(&p, &log, 0.5, 1, 0.0, 0.3, NULL);
  ck_assert_double_eq_tol(tau, 2.0 * (2.0 - 3.0 * 2.0 * 0.3), 1e-14);
}
END_TEST

/* §1.4: within the budget the joint stops exactly in one step, with a half-step back-off. */
START_TEST(step_sticks_within_budget) {
  stiction_bam_params p = test_params(STICTION_BAM_M1);
  p.Kc = 10.0;
  stiction_bam_log log = {.mass = 0.49, .length = 0.1, .kp = 400, .vin = 7.4, .dt = 0.005,
                          .damping = -1};
  double q = 0.3, w = 0.05;
  stiction_bam_step_info info;
  stiction_bam_step(&p, &log, 0.1, 1, &q, &w, &info);
  ck_assert_double_eq_tol(w, 0.0, 1e-15); /* zero up to round-off of the torque sum */
  ck_assert_double_eq_tol(q, 0.3 - 0.5 * 0.05 * 0.005, 1e-15);
  ck_assert_double_eq_tol(info.tau_f, -info.tau_stop, 1e-15);
  /* torque off: no motor torque, so no back-EMF braking (§2.1) */
  p.Kc = 0.0;
  p.Kv = 0.0;
  q = 0.3; w = 2.0;
  stiction_bam_step(&p, &log, 0.1, 0, &q, &w, &info);
  ck_assert_double_eq(info.tau_m, 0.0);
  double J = 0.49 * 0.01 + p.armature, a = -0.49 * 9.80665 * 0.1 * sin(0.3) / J;
  ck_assert_double_eq_tol(w, 2.0 + a * 0.005, 1e-12);
  ck_assert_double_eq_tol(q, 0.3 + w * 0.005 + 0.5 * a * 0.005 * 0.005, 1e-14);
}
END_TEST

/* ---- readers and the command -------------------------------------------------------- */

static char *write_tmp(const char *name, const char *text) {
  static char path[256];
  snprintf(path, sizeof path, "/tmp/st_test_bam_%d_%s", (int)getpid(), name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

START_TEST(readers_reject_bad_input) {
  char err[512];
  stiction_bam_params p;
  stiction_bam_log *log = (stiction_bam_log *)1;
  ck_assert_int_eq(stiction_bam_params_read("/nonexistent.json", &p, err, sizeof err), STICTION_ERR_IO);
  ck_assert_ptr_nonnull(strstr(err, "/nonexistent.json: "));
  ck_assert_int_eq(stiction_bam_params_read(write_tmp("a.json", "{\"model\": \"m1\", "), &p, err, sizeof err), STICTION_ERR_SYNTAX);
  ck_assert_ptr_nonnull(strstr(err, "invalid JSON"));
  ck_assert_int_lt(stiction_bam_params_read(write_tmp("b.json", "{\"model\": \"m7\", \"actuator\": \"xl330\"}"), &p, err, sizeof err), 0);
  ck_assert_int_lt(stiction_bam_params_read(write_tmp("c.json", "{\"model\": \"m1\", \"actuator\": \"xl330\", \"kt\": \"x\"}"), &p, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "\"kt\" is not a number"));
  /* a raw log has no dt */
  ck_assert_int_lt(stiction_bam_log_read(write_tmp("d.json", "{\"mass\": 1, \"length\": 1, \"kp\": 1, \"vin\": 7, \"entries\": []}"), &log, err, sizeof err), 0);
  ck_assert_ptr_null(log);
  ck_assert_ptr_nonnull(strstr(err, "\"dt\" is missing"));
  ck_assert_int_lt(stiction_bam_log_read(write_tmp("e.json", "{\"mass\": 1, \"length\": 1, \"kp\": 1, \"vin\": 7, \"dt\": 0.005, \"entries\": [{\"position\": 1}]}"), &log, err, sizeof err), 0);
  ck_assert_ptr_nonnull(strstr(err, "entry 0"));
  /* missing keys take BAM's defaults: R = 2, q_offset = 0 (doc/bam.md §3.1) */
  ck_assert_int_eq(stiction_bam_params_read(st_test_ref(REF "params_main/erob80_100/m1.json"), &p, err, sizeof err), 0);
  ck_assert_double_eq(p.R, 2.0);
  ck_assert_double_eq(p.q_offset, 0.0);
  ck_assert_int_eq(p.actuator, STICTION_BAM_EROB80_100);
}
END_TEST

START_TEST(cli_rollout_and_mae) {
  char args[4000], *out;
  char csv[256], js[256];
  snprintf(csv, sizeof csv, "/tmp/st_test_bam_%d.csv", (int)getpid());
  snprintf(js, sizeof js, "/tmp/st_test_bam_%d.json", (int)getpid());
  char *pm6 = ref_path(REF "params_main/xl330/m6.json");
  char *logf = ref_path(LOGDIR "/2026-01-15_10h29m14.json"), *logdir = ref_path(LOGDIR);
  snprintf(args, sizeof args, "bam rollout --params '%.900s' --log '%.900s' -o '%s'", pm6,
           logf, csv);
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "MAE = 0.0765261729756")); /* doc/bam.md §6.1 table */
  free(out);
  FILE *f = fopen(csv, "r");
  ck_assert_ptr_nonnull(f);
  int lines = 0, c;
  while ((c = fgetc(f)) != EOF) lines += c == '\n';
  fclose(f);
  ck_assert_int_eq(lines, 1201);
  char *pdir = ref_path(REF "params_main/xl330");
  snprintf(args, sizeof args, "bam mae --params '%.900s' --logdir '%.900s' --json '%s'", pdir,
           logdir, js);
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "81.8583")); /* M1 mean, doc/bam.md §6.2: 81.86 */
  free(out);
  json_object *o = json_object_from_file(js), *res, *m6, *per, *v;
  ck_assert_ptr_nonnull(o);
  ck_assert(json_object_object_get_ex(o, "results", &res));
  ck_assert(json_object_object_get_ex(res, "m6", &m6));
  ck_assert(json_object_object_get_ex(m6, "per_log", &per));
  ck_assert(json_object_object_get_ex(per, "2026-01-15_10h29m21.json", &v));
  ck_assert_double_eq_tol(json_object_get_double(v), 0.10284195602430195, 1e-12);
  json_object_put(o);
  remove(csv);
  remove(js);
  free(pm6);
  free(pdir);
  free(logf);
  free(logdir);
}
END_TEST

START_TEST(cli_errors) {
  char *out;
  ck_assert_int_eq(st_test_run(&out, "bam --help"), 0);
  ck_assert_ptr_nonnull(strstr(out, "Usage: stiction bam rollout"));
  free(out);
  ck_assert_int_eq(st_test_run(&out, "bam rollout --bogus"), 2);
  ck_assert_ptr_nonnull(strstr(out, "Try 'stiction bam --help'"));
  free(out);
  ck_assert_int_eq(st_test_run(&out, "bam frobnicate"), 2);
  free(out);
  ck_assert_int_eq(st_test_run(&out, "bam mae --params /nonexistent --logdir /tmp"), 1);
  ck_assert_ptr_nonnull(strstr(out, "/nonexistent: "));
  free(out);
  ck_assert_int_eq(st_test_run(&out, "bam rollout --params /nonexistent.json --log x.json"), 1);
  ck_assert_ptr_nonnull(strstr(out, "stiction bam: /nonexistent.json:"));
  free(out);
  char args[4000];
  char *sts = ref_path(REF "params_main/feetech_sts3215_7_4V/m1.json"), *m1 = ref_path(REF "params_main/xl330/m1.json");
  char *logf = ref_path(LOGDIR "/2026-01-15_10h29m14.json");
  snprintf(args, sizeof args, "bam rollout --params '%.900s' --log '%.900s'", sts, logf);
  ck_assert_int_eq(st_test_run(&out, args), 1);
  ck_assert_ptr_nonnull(strstr(out, "actuator 'sts3215' is not simulated"));
  free(out);
  snprintf(args, sizeof args, "bam rollout --params '%.900s' --log '%.900s' -o /nonexistent/x.csv", m1, logf);
  ck_assert_int_eq(st_test_run(&out, args), 1);
  ck_assert_ptr_nonnull(strstr(out, "/nonexistent/x.csv: No such file or directory"));
  free(out);
  free(sts);
  free(m1);
  free(logf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("bam");
  TCase *tc = tcase_create("conformance");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, rollout_matches_reference_csv, 0, sizeof traces / sizeof traces[0]);
  tcase_add_test(tc, mae_main_params_match_bam);
  tcase_add_test(tc, mae_branch_params_match_bam);
  suite_add_tcase(s, tc);
  TCase *tm = tcase_create("model");
  tcase_add_test(tm, budgets_follow_spec_formulas);
  tcase_add_test(tm, m6_sign_gate);
  tcase_add_test(tm, budget_partials_match_fd);
  tcase_add_test(tm, step_sticks_within_budget);
  tcase_add_test(tm, servo_models_follow_spec);
  tcase_add_test(tm, readers_reject_bad_input);
  suite_add_tcase(s, tm);
  TCase *tcl = tcase_create("cli");
  tcase_set_timeout(tcl, 120);
  tcase_add_test(tcl, cli_rollout_and_mae);
  tcase_add_test(tcl, cli_errors);
  suite_add_tcase(s, tcl);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
