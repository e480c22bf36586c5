/* The runtime's failures, through the public API: an event iteration without a fixed point
 * names its variable, chattering is detected, terminate() ends a run cleanly, a non-finite
 * value or a failing callback keeps the rows computed and says where, a solver failure names
 * its flag. */
#include "runtime_util.h"

/* ------------------------------------------------------------------ failures */

/* A discrete variable that flips on every pass never reaches a fixed point. */
typedef struct flip {
  int n; /* first, as the decay callbacks read it */
  double flip;
} flip;

static const char *const flip_disc[2] = {"steady", "flip"};

static int flip_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  flip *f = ud;
  if (t < 0.5) return 0;
  f->flip = 1 - f->flip;
  info->discrete_changed = 1;
  return 0;
}

static int flip_disc_fn(void *ud, double *d) {
  d[0] = 3;
  d[1] = ((flip *)ud)->flip;
  return 0;
}

static int flip_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = t - 0.5;
  return 0;
}

START_TEST(event_iteration_names_variable) {
  flip f = {1, 0};
  stiction_model m = decay_model();
  m.n_indicators = 1;
  m.n_discrete = 2;
  m.discrete_names = flip_disc;
  m.indicators = flip_ind;
  m.event_update = flip_update;
  m.get_discrete = flip_disc_fn;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.max_event_iterations = 7;
  rows r = {0};
  char err[512];
  int rc = run(&m, &f, &opt, &r, NULL, err, sizeof err);
  ck_assert_msg(rc == STICTION_ERR_EVENT_ITER, "%d: %s", rc, err);
  ck_assert_msg(strstr(err, "still changing: flip") != NULL, "%s", err);
  ck_assert_msg(strstr(err, "steady") == NULL, "%s", err);
  ck_assert_msg(strstr(err, "7 passes") != NULL, "%s", err);
  ck_assert_int_eq(r.ended, 1);
  ck_assert_int_eq(r.end_status, STICTION_ERR_EVENT_ITER);
  ck_assert_int_ge(r.n, 250); /* rows before t = 0.5 were delivered */
  ck_assert(fabs(at(&r, r.n - 1, 0) - 0.5) < 1e-9);
  free(r.v);
}
END_TEST

/* x' = -sign(x) with the sign a discrete: at x = 0 every switch drives x straight back
 * across zero, so events pile up (sliding-mode chattering). */
typedef struct sgn {
  double s;
} sgn;

static const char *const sgn_ind[1] = {"x_sign"};

static int sgn_start(void *ud, double t0, double *y, double *yp) {
  y[0] = 0.3;
  ((sgn *)ud)->s = 1;
  return 0;
}

static int sgn_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = -((sgn *)ud)->s;
  return 0;
}

static int sgn_ind_fn(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = y[0];
  return 0;
}

static int sgn_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  sgn *s = ud;
  double want = y[0] >= 0 ? 1 : -1;
  if (want != s->s) {
    s->s = want;
    info->discrete_changed = 1;
    info->equations_changed = 1;
  }
  return 0;
}

START_TEST(chattering_detected) {
  sgn s;
  stiction_model m = decay_model();
  m.start_values = sgn_start;
  m.derivatives = sgn_rhs;
  m.n_indicators = 1;
  m.indicator_names = sgn_ind;
  m.indicators = sgn_ind_fn;
  m.event_update = sgn_update;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.chatter_max_events = 20;
  opt.chatter_window = 1e-6;
  opt.solver = solvers[_i];
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, &s, &opt, &r, NULL, err, sizeof err), STICTION_ERR_CHATTER);
  ck_assert_msg(strstr(err, "x_sign") != NULL, "%s", err);
  ck_assert_int_eq(r.end_status, STICTION_ERR_CHATTER);
  ck_assert(fabs(at(&r, r.n - 1, 0) - 0.3) < 1e-6);
  free(r.v);
}
END_TEST

static int term_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  info->terminate = 1;
  info->message = "done";
  return 0;
}

static int term_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = t - 0.42;
  return 0;
}

/* The decay model with an indicator crossing at t = 0.42 and the given event update, run on
 * solver i into r: the run and the sink end with STICTION_OK. */
static stiction_sim *run_terminating(int (*update)(void *, double, double *, double *,
                                                   stiction_event_info *),
                                     int i, rows *r) {
  stiction_model m = decay_model();
  m.n_indicators = 1;
  m.indicators = term_ind;
  m.event_update = update;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[i];
  stiction_sim *sim = sim_into_rows(&m, NULL, &opt, r);
  ck_assert_int_eq(stiction_sim_run(sim), STICTION_OK);
  ck_assert_int_eq(r->end_status, STICTION_OK);
  return sim;
}

START_TEST(terminate_ends_cleanly) {
  rows r = {0};
  stiction_sim *sim = run_terminating(term_update, _i, &r);
  ck_assert_str_eq(stiction_sim_error(sim), "");
  /* the initial iteration asked to terminate: one row at t0 and nothing else */
  ck_assert_int_eq(r.n, 1);
  stiction_sim_free(sim);
  free(r.v);
}
END_TEST

static int term_late_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  if (t > 0.1) info->terminate = 1;
  return 0;
}

START_TEST(terminate_at_event_writes_final_row) {
  rows r = {0};
  stiction_sim *sim = run_terminating(term_late_update, _i, &r);
  ck_assert(fabs(at(&r, r.n - 1, 0) - 0.42) < 1e-9);
  ck_assert(at(&r, r.n - 1, 0) == at(&r, r.n - 2, 0)); /* left and right rows */
  ck_assert(fabs(stiction_sim_time(sim) - 0.42) < 1e-9);
  ck_assert(fabs(at(&r, r.n - 1, 1) - exp(-0.42)) < 1e-6);
  stiction_sim_free(sim);
  free(r.v);
}
END_TEST

static int nan_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = t > 0.5 ? NAN : -y[0];
  return 0;
}

START_TEST(nonfinite_keeps_rows) {
  stiction_model m = decay_model();
  m.derivatives = nan_rhs;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[_i];
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_NONFINITE);
  ck_assert_msg(strstr(err, "derivatives()") && strstr(err, " y "), "%s", err);
  ck_assert_int_eq(r.ended, 1);
  ck_assert_int_eq(r.end_status, STICTION_ERR_NONFINITE);
  ck_assert_int_ge(r.n, 250);
  ck_assert(at(&r, r.n - 1, 0) <= 0.5);
  stiction_sim *sim = stiction_sim_new(&m, NULL, &opt);
  ck_assert_int_eq(stiction_sim_run(sim), STICTION_ERR_NONFINITE);
  ck_assert_msg(fabs(stiction_sim_time(sim) - 0.5) < 0.01, "stopped at %g", stiction_sim_time(sim));
  stiction_sim_free(sim);
  for (int k = 0; k < r.n; k++) ck_assert(isfinite(at(&r, k, 1)));
  free(r.v);
}
END_TEST

static int fail_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = -y[0];
  return t > 0.25 ? 3 : 0;
}

START_TEST(callback_failure_reported) {
  stiction_model m = decay_model();
  m.derivatives = fail_rhs;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[_i];
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_CALLBACK);
  ck_assert_msg(strstr(err, "derivatives() failed (returned 3)"), "%s", err);
  ck_assert_int_eq(r.end_status, STICTION_ERR_CALLBACK);
  ck_assert_int_ge(r.n, 120);
  free(r.v);
}
END_TEST

/* A model that cannot be evaluated far from its last evaluated point (a loop whose Newton
 * starts there) and says so with a positive return, keeping quiet (model.h
 * report_failure): CVODE retries with shorter steps and the run ends without a report;
 * where it cannot be evaluated at all, the run stops with one report. */
typedef struct local_fail {
  int n; /* first, as the decay callbacks read it */
  double last_ok, fail_after;
  int failures, reports;
} local_fail;

static int local_rhs(void *ud, double t, const double *y, double *ydot) {
  local_fail *f = ud;
  if (fabs(t - f->last_ok) > 0.01 || t > f->fail_after) {
    f->failures++;
    return 2;
  }
  f->last_ok = t;
  ydot[0] = -y[0];
  return 0;
}

static void local_report(void *ud) { ((local_fail *)ud)->reports++; }

/* The decay model failing locally as f says, on solver _i. */
static int run_local(local_fail *f, int solver, double stop, rows *r, char *err, size_t n) {
  stiction_model m = decay_model();
  m.derivatives = local_rhs;
  m.report_failure = local_report;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[solver];
  opt.stop_time = stop;
  return run(&m, f, &opt, r, NULL, err, n);
}

START_TEST(local_failure_retried) {
  local_fail f = {1, 0, INFINITY, 0, 0};
  rows r = {0};
  char err[512];
  /* to t = 10: steps longer than 0.01 */
  ck_assert_msg(run_local(&f, _i, 10, &r, err, sizeof err) == STICTION_OK, "%s", err);
  ck_assert_int_gt(f.failures, 0);
  ck_assert_int_eq(f.reports, 0);
  ck_assert(fabs(at(&r, r.n - 1, 0) - 10.0) < 1e-12);
  ck_assert_msg(fabs(at(&r, r.n - 1, 1) - exp(-10.0)) < 1e-6, "%.17g", at(&r, r.n - 1, 1));
  free(r.v);
}
END_TEST

START_TEST(local_failure_reported_once) {
  local_fail f = {1, 0, 0.25, 0, 0};
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run_local(&f, _i, 1, &r, err, sizeof err), STICTION_ERR_CALLBACK);
  ck_assert_msg(strstr(err, "derivatives() failed (returned 2)"), "%s", err);
  ck_assert_int_eq(f.reports, 1);
  ck_assert_int_eq(r.end_status, STICTION_ERR_CALLBACK);
  ck_assert_int_ge(r.n, 120);
  ck_assert(at(&r, r.n - 1, 0) <= 0.25);
  free(r.v);
}
END_TEST

/* y' = y^2 from y = 1 blows up at t = 1: the integrator gives up, named by its flag. */
static int blow_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = y[0] * y[0];
  return 0;
}

START_TEST(solver_failure_names_flag) {
  stiction_model m = decay_model();
  m.derivatives = blow_rhs;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  opt.solver = solvers[_i];
  rows r = {0};
  stiction_sim *sim = sim_into_rows(&m, NULL, &opt, &r);
  int rc = stiction_sim_run(sim);
  const char *err = stiction_sim_error(sim);
  ck_assert_msg(rc == STICTION_ERR_SOLVER || rc == STICTION_ERR_NONFINITE, "%d %s", rc, err);
  if (rc == STICTION_ERR_SOLVER)
    ck_assert_msg(strstr(err, _i == 2 ? "IDA_" : "CV_") != NULL, "%s", err);
  ck_assert(stiction_sim_time(sim) > 0.99 && stiction_sim_time(sim) < 1.01);
  ck_assert_int_eq(r.end_status, rc);
  ck_assert(at(&r, r.n - 1, 0) < 1.0);
  stiction_sim_free(sim);
  free(r.v);
}
END_TEST

/* The public structs carry their size: a model table, options or sink without it (or from
 * another layout) is refused with a message, not read past its end. */
START_TEST(struct_sizes_checked) {
  stiction_model m = decay_model();
  stiction_options opt;
  stiction_options_init(&opt);
  ck_assert_uint_eq(opt.size, sizeof opt);
  char err[512];
  rows r = {0};
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_OK);
  m.size = 0;
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "size is not set") != NULL, "%s", err);
  m.size = sizeof m + 8; /* a table from a newer header */
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "another version") != NULL, "%s", err);
  m.size = sizeof m;
  opt.size = 0;
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_msg(strstr(err, "stiction_options_init") != NULL, "%s", err);
  stiction_sim *sim = stiction_sim_new(&m, NULL, NULL);
  stiction_sink sink = {0};
  ck_assert_int_eq(stiction_sim_set_sink(sim, &sink), STICTION_ERR_ARG);
  sink.size = sizeof sink;
  ck_assert_int_eq(stiction_sim_set_sink(sim, &sink), STICTION_OK);
  stiction_sim_free(sim);
  free(r.v);
}
END_TEST

int main(void) {
  Suite *s = suite_create("runtime_failures");
  TCase *tc = st_test_case(s, "runtime_failures", 0,
                           ST_TESTS(event_iteration_names_variable, struct_sizes_checked));
  tcase_add_loop_test(tc, chattering_detected, 0, 3);
  tcase_add_loop_test(tc, terminate_ends_cleanly, 0, 3);
  tcase_add_loop_test(tc, terminate_at_event_writes_final_row, 0, 3);
  tcase_add_loop_test(tc, nonfinite_keeps_rows, 0, 3);
  tcase_add_loop_test(tc, callback_failure_reported, 0, 3);
  tcase_add_loop_test(tc, local_failure_retried, 0, 2); /* CVODE's; IDA stops at once */
  tcase_add_loop_test(tc, local_failure_reported_once, 0, 3);
  tcase_add_loop_test(tc, solver_failure_names_flag, 0, 3);
  return st_test_main(s);
}
