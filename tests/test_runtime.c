/* The runtime (src/runtime): the simulation handle on CVODE and IDA, driven through the public
 * API with small models written here: grid rows, Jacobians and KLU, a DAE on IDA, validation,
 * options, the progress bar, the terminal pass. Events: test_runtime_events.c; failures:
 * test_runtime_failures.c. Expected values are analytic, never numbers taken from a previous
 * run. */
#define _XOPEN_SOURCE 700 /* posix_openpt for the progress-bar test */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "runtime_util.h"

/* Every grid row of y' = -y against exp(-t), on the three solvers. */
START_TEST(decay_matches_exp) {
  stiction_model m = decay_model();
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  opt.rtol = 1e-9;
  opt.solver = solvers[_i];
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_OK);
  ck_assert_int_eq(r.begun, 1);
  ck_assert_int_eq(r.ended, 1);
  ck_assert_int_eq(r.end_status, STICTION_OK);
  ck_assert_int_eq(r.ncols, 2);
  ck_assert_str_eq(r.names[0], "time");
  ck_assert_str_eq(r.names[1], "y");
  ck_assert_int_eq(r.n, 501); /* default interval (stop - start) / 500, both ends */
  for (int k = 0; k < r.n; k++) {
    double t = at(&r, k, 0);
    ck_assert_msg(fabs(t - k * 2.0 / 500) < 1e-12, "row %d at t = %.17g", k, t);
    ck_assert_msg(fabs(at(&r, k, 1) - exp(-t)) < 2e-7, "solver %d: y(%g) = %.12g", _i, t,
                  at(&r, k, 1));
  }
  ck_assert(at(&r, r.n - 1, 0) == 2.0); /* stop time hit exactly */
  free(r.v);
}
END_TEST

/* Without a sink row() nothing reads the recorded variables: outputs() is never called (at a
 * grid row it costs a model evaluation, doc/compiler.md "Performance") and the rows are still
 * counted; with one, once per row. On both integrator families. */
static int counted_out(void *ud, double t, const double *y, const double *yp, double *out) {
  ++*(long *)ud;
  out[0] = y[0];
  return 0;
}

static int counted_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = -y[0];
  return 0;
}

static int counted_start(void *ud, double t0, double *y, double *yp) {
  y[0] = 1;
  yp[0] = -1;
  return 0;
}

START_TEST(outputs_only_for_a_sink) {
  stiction_model m = decay_model();
  m.outputs = counted_out;
  m.derivatives = counted_rhs;
  m.start_values = counted_start;
  for (int variant = 0; variant < 4; variant++) {
    stiction_options opt;
    stiction_options_init(&opt);
    opt.stop_time = 1;
    opt.interval = 0.1;
    opt.solver = variant & 1 ? STICTION_SOLVER_IDA : STICTION_SOLVER_CVODE_BDF;
    long calls = 0;
    stiction_sim *sim = stiction_sim_new(&m, &calls, &opt);
    rows r = {0};
    stiction_sink sink = {sizeof(stiction_sink), rows_begin, variant & 2 ? rows_row : NULL, rows_end, &r};
    stiction_sim_set_sink(sim, &sink);
    ck_assert_int_eq(stiction_sim_run(sim), STICTION_OK);
    ck_assert_int_eq(stiction_sim_stats(sim)->rows, 11);
    if (variant & 2) ck_assert_int_ge(calls, 11); /* + the t0 row kept aside, event_iteration.c */
    else ck_assert_int_eq(calls, 0);
    ck_assert_int_eq(r.n, variant & 2 ? 11 : 0);
    ck_assert_int_eq(r.ended, 1);
    ck_assert(stiction_sim_stats(sim)->wall_output >= 0);
    stiction_sim_free(sim);
    free(r.v);
  }
}
END_TEST

/* A user Jacobian is used (njac counts it) and KLU gives the same answer as dense. */
START_TEST(decay_jacobian_and_klu) {
  int n = 3;
  stiction_model m = decay_model();
  m.n_states = 3;
  m.state_names = NULL;
  m.ode_jacobian = decay_jac;
  for (int variant = 0; variant < 4; variant++) {
    stiction_options opt;
    stiction_options_init(&opt);
    opt.rtol = 1e-9;
    opt.interval = 0.1;
    opt.solver = variant & 1 ? STICTION_SOLVER_IDA : STICTION_SOLVER_CVODE_BDF;
    opt.linear_solver = variant & 2 ? STICTION_LINSOL_KLU : STICTION_LINSOL_DENSE;
    rows r = {0};
    stiction_sim *sim = sim_into_rows(&m, &n, &opt, &r);
    ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
    const stiction_stats *st = stiction_sim_stats(sim);
    ck_assert_int_gt(st->njac, 0);
    ck_assert_msg(st->nfe_fd == 0, "variant %d: nfe_fd %ld", variant, st->nfe_fd);
    ck_assert_int_eq(st->rows, 11);
    ck_assert_msg(fabs(at(&r, r.n - 1, 1) - exp(-1.0)) < 1e-7, "variant %d", variant);
    stiction_sim_free(sim);
    free(r.v);
  }
}
END_TEST

/* Above the threshold AUTO picks KLU; without an analytic Jacobian the runtime difference-
 * quotients it itself (SUNDIALS cannot for sparse matrices). */
START_TEST(klu_auto_large_without_jacobian) {
  int n = STICTION_KLU_THRESHOLD + 5;
  stiction_model m = decay_model();
  m.n_states = n;
  m.state_names = NULL;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.rtol = 1e-8;
  opt.interval = 0.25;
  for (int s = 0; s < 3; s += 2) {
    opt.solver = solvers[s];
    rows r = {0};
    stiction_sim *sim = sim_into_rows(&m, &n, &opt, &r);
    ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
    ck_assert_int_gt(stiction_sim_stats(sim)->nfe_fd, 0);
    ck_assert_msg(fabs(at(&r, r.n - 1, 1) - exp(-1.0)) < 1e-6, "solver %d", s);
    stiction_sim_free(sim);
    free(r.v);
  }
}
END_TEST

/* ------------------------------------------------------------------ a small DAE on IDA */

/* y1' = -y1 + y2, 0 = y2 - 0.5 y1  =>  y1 = exp(-t/2), y2 = y1 / 2. The start value of y2 is
 * wrong on purpose: IDACalcIC must correct it before the first row. */
static const char *const dae_names[2] = {"y1", "y2"};

static int dae_start(void *ud, double t0, double *y, double *yp) {
  y[0] = 1;
  y[1] = 7;
  return 0;
}

static int dae_res(void *ud, double t, const double *y, const double *yp, double *r) {
  r[0] = yp[0] + y[0] - y[1];
  r[1] = y[1] - 0.5 * y[0];
  return 0;
}

static int dae_jac(void *ud, double t, double cj, const double *y, const double *yp, double *J) {
  J[0] = 1 + cj; /* dr0/dy1 + cj dr0/dy1' */
  J[1] = -0.5;   /* dr1/dy1 */
  J[2] = -1;     /* dr0/dy2 */
  J[3] = 1;      /* dr1/dy2 */
  return 0;
}

static int dae_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = y[1];
  return 0;
}

/* Loop 0: difference quotients, 1: the analytic Jacobian, 2: the structure of
 * dF/dy + cj dF/dy' given (every entry but dr1/dy1'; grouped difference quotients), 3: a
 * table of the size before dae_jac_cols/dae_jac_rows existed, accepted, with those fields
 * (pointers that would crash if read) not read. */
START_TEST(dae_index1_on_ida) {
  static const int cols[] = {0, 2, 4}, rows_of[] = {0, 1, 0, 1};
  stiction_model m = {.size = sizeof(stiction_model), .name = "dae", .n_states = 1, .n_algebraic = 1, .n_outputs = 2,
                      .output_names = dae_names, .start_values = dae_start, .residual = dae_res,
                      .outputs = dae_out};
  if (_i == 1) m.dae_jacobian = dae_jac;
  if (_i == 2) m.dae_jac_cols = cols, m.dae_jac_rows = rows_of;
  if (_i == 3) {
    m.size = offsetof(stiction_model, dae_jac_cols);
    m.dae_jac_cols = m.dae_jac_rows = (const int *)(uintptr_t)8; /* beyond such a table */
  }
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 3;
  opt.rtol = 1e-8;
  opt.solver = STICTION_SOLVER_IDA;
  rows r = {0};
  char err[512];
  ck_assert_msg(run(&m, NULL, &opt, &r, NULL, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(r.n, 501);
  for (int k = 0; k < r.n; k++) {
    double t = at(&r, k, 0);
    ck_assert_msg(fabs(at(&r, k, 1) - exp(-t / 2)) < 1e-6, "y1(%g)", t);
    ck_assert_msg(fabs(at(&r, k, 2) - 0.5 * exp(-t / 2)) < 1e-6, "y2(%g) = %g", t, at(&r, k, 2));
  }
  /* a DAE needs IDA: CVODE refuses with a message */
  opt.solver = STICTION_SOLVER_CVODE_BDF;
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(err, "IDA"));
  free(r.v);
}
END_TEST

/* The same DAE with the coupling c switched from 0.5 to 0 by a time event at t = 1: the
 * right-limit row must show the algebraic y2 already consistent (0), and afterwards
 * y1 = exp(-1/2) exp(-(t - 1)). */
typedef struct dae2 {
  double c;
} dae2;

static int dae2_start(void *ud, double t0, double *y, double *yp) {
  ((dae2 *)ud)->c = 0.5;
  y[0] = 1;
  y[1] = 0.5;
  return 0;
}

static int dae2_res(void *ud, double t, const double *y, const double *yp, double *r) {
  r[0] = yp[0] + y[0] - y[1];
  r[1] = y[1] - ((dae2 *)ud)->c * y[0];
  return 0;
}

static int dae2_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  dae2 *d = ud;
  if (info->initial) {
    info->next_time_defined = 1;
    info->next_time = 1;
  } else if (t == 1 && d->c != 0) {
    d->c = 0;
    info->discrete_changed = info->equations_changed = 1;
  }
  return 0;
}

START_TEST(dae_mode_switch_recomputes_algebraic) {
  dae2 d;
  stiction_model m = {.size = sizeof(stiction_model), .n_states = 1, .n_algebraic = 1, .n_discrete = 1, .n_outputs = 2,
                      .output_names = dae_names, .start_values = dae2_start, .residual = dae2_res,
                      .event_update = dae2_update, .outputs = dae_out};
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  opt.interval = 0.25;
  opt.rtol = 1e-8;
  opt.solver = STICTION_SOLVER_IDA;
  rows r = {0};
  char err[512];
  ck_assert_msg(run(&m, &d, &opt, &r, NULL, err, sizeof err) == 0, "%s", err);
  int at1 = 0;
  for (int k = 0; k < r.n; k++) {
    double t = at(&r, k, 0), y1 = at(&r, k, 1), y2 = at(&r, k, 2);
    if (t == 1) {
      ck_assert(fabs(y1 - exp(-0.5)) < 1e-6);
      ck_assert(fabs(y2 - (at1 == 0 ? 0.5 * y1 : 0.0)) < 1e-9); /* left, then right limit */
      at1++;
      continue;
    }
    double e1 = t < 1 ? exp(-t / 2) : exp(-0.5) * exp(-(t - 1));
    ck_assert_msg(fabs(y1 - e1) < 1e-6, "y1(%g) = %.10g, want %.10g", t, y1, e1);
    ck_assert(fabs(y2 - (t < 1 ? 0.5 * y1 : 0.0)) < 1e-6);
  }
  ck_assert_int_eq(at1, 2);
  free(r.v);
}
END_TEST

/* ------------------------------------------------------------------ validation */

START_TEST(model_validation_messages) {
  char msg[256];
  ck_assert_int_eq(stiction_model_validate(NULL, msg, sizeof msg), STICTION_ERR_ARG);
  stiction_model m = decay_model();
  ck_assert_int_eq(stiction_model_validate(&m, msg, sizeof msg), STICTION_OK);
  ck_assert_str_eq(msg, "");
  m.start_values = NULL;
  ck_assert_int_eq(stiction_model_validate(&m, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(msg, "decay"));
  ck_assert_ptr_nonnull(strstr(msg, "start_values"));
  m = decay_model();
  m.n_indicators = 1;
  ck_assert_int_eq(stiction_model_validate(&m, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(msg, "indicators()"));
  m = decay_model();
  m.output_names = NULL;
  ck_assert_int_eq(stiction_model_validate(&m, msg, sizeof msg), STICTION_ERR_ARG);
  m = decay_model();
  m.n_states = -1;
  ck_assert_int_eq(stiction_model_validate(&m, msg, sizeof msg), STICTION_ERR_ARG);
  m = decay_model();
  m.size = offsetof(stiction_model, dae_jac_cols) - 8; /* no layout there ever was */
  ck_assert_int_eq(stiction_model_validate(&m, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(msg, "size"));
  /* a bad model or option fails the run with a message, and the sink still ends */
  m = decay_model();
  m.derivatives = NULL;
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, NULL, NULL, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(err, "derivatives()"));
  ck_assert_int_eq(r.ended, 1);
  m = decay_model();
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = -1;
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(err, "stop time"));
  opt.stop_time = 1;
  opt.rtol = 0;
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_ERR_ARG);
  free(r.v);
}
END_TEST

START_TEST(options_defaults_and_handle) {
  stiction_options opt;
  stiction_options_init(&opt);
  ck_assert(opt.start_time == 0 && opt.stop_time == 1 && opt.rtol == 1e-6);
  ck_assert_int_eq(opt.solver, STICTION_SOLVER_CVODE_BDF);
  ck_assert_int_eq(opt.max_event_iterations, 100);
  ck_assert_int_eq(opt.chatter_max_events, 100);
  ck_assert(opt.chatter_window == 1e-9);
  ck_assert_int_eq(opt.record_events, 1);
  ck_assert_str_eq(stiction_version(), "0.1.0");
  /* a handle runs once */
  stiction_model m = decay_model();
  stiction_sim *sim = stiction_sim_new(&m, NULL, NULL);
  ck_assert_int_eq(stiction_sim_run(sim), 0); /* no sink: rows are dropped */
  ck_assert_int_eq(stiction_sim_stats(sim)->rows, 501);
  ck_assert_int_eq(stiction_sim_run(sim), STICTION_ERR_STATE);
  stiction_sim_free(sim);
  stiction_sim_free(NULL);
  ck_assert_int_eq(stiction_sim_run(NULL), STICTION_ERR_ARG);
}
END_TEST

/* ------------------------------------------------------------------ progress bar */

static int slow_rhs(void *ud, double t, const double *y, double *ydot) {
  struct timespec ts = {0, 12000000}; /* 12 ms per call, >= 100 steps: over a second */
  nanosleep(&ts, NULL);
  ydot[0] = -y[0];
  return 0;
}

/* Runs the slow model with progress on and stderr redirected to fd; returns what the
 * terminal side received (static buffer). */
static const char *progress_output(int fd, int reader) {
  static char buf[8192];
  stiction_model m = decay_model();
  m.derivatives = slow_rhs;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.progress = 1;
  opt.interval = 0.1;
  opt.max_step = 0.01;
  int saved = dup(2);
  ck_assert_int_ge(saved, 0);
  ck_assert_int_ge(dup2(fd, 2), 0);
  stiction_sim *sim = stiction_sim_new(&m, NULL, &opt);
  int rc = stiction_sim_run(sim);
  dup2(saved, 2);
  close(saved);
  ck_assert_int_eq(rc, 0);
  ck_assert(stiction_sim_stats(sim)->wall_total > 1.0);
  stiction_sim_free(sim);
  fcntl(reader, F_SETFL, O_NONBLOCK);
  ssize_t n = read(reader, buf, sizeof buf - 1);
  buf[n > 0 ? n : 0] = 0;
  return buf;
}

START_TEST(progress_bar_only_on_a_terminal) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  ck_assert_int_ge(master, 0);
  ck_assert_int_eq(grantpt(master), 0);
  ck_assert_int_eq(unlockpt(master), 0);
  int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
  ck_assert_int_ge(slave, 0);
  const char *out = progress_output(slave, master);
  ck_assert_msg(strstr(out, "[#") && strstr(out, "%"), "no progress bar: '%s'", out);
  close(slave);
  close(master);
  int p[2];
  ck_assert_int_eq(pipe(p), 0);
  out = progress_output(p[1], p[0]); /* not a terminal: silent */
  ck_assert_str_eq(out, "");
  close(p[0]);
  close(p[1]);
}
END_TEST

/* The terminal callback (model.h): called once after a normal end, at the stop time; what it
 * changes appears in one more row at that time. Not called when the run fails. */
typedef struct term_ud {
  int n;       /* first: decay_rhs reads the state count here */
  int calls;
  double t;
} term_ud;

static int term_pass(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  term_ud *u = ud;
  u->calls++;
  u->t = t;
  y[0] = 42;
  info->states_changed = 1;
  return 0;
}

static int failing_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = -y[0];
  return t > 0.5 ? -1 : 0;
}

START_TEST(terminal_pass_after_run) {
  stiction_model m = decay_model();
  m.terminal = term_pass;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  opt.interval = 0.5;
  term_ud u = {1, 0, 0};
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, &u, &opt, &r, NULL, err, sizeof err), STICTION_OK);
  ck_assert_int_eq(u.calls, 1);
  ck_assert(u.t == 2.0);
  ck_assert_int_eq(r.n, 6); /* 5 grid rows and the row after the terminal pass */
  ck_assert(at(&r, 4, 0) == 2.0 && at(&r, 5, 0) == 2.0);
  ck_assert_msg(fabs(at(&r, 4, 1) - exp(-2)) < 1e-5, "y(2) = %g", at(&r, 4, 1));
  ck_assert(at(&r, 5, 1) == 42);
  free(r.v);
  m.derivatives = failing_rhs;
  u.calls = 0;
  rows r2 = {0};
  ck_assert_int_ne(run(&m, &u, &opt, &r2, NULL, err, sizeof err), STICTION_OK);
  ck_assert_int_eq(u.calls, 0);
  free(r2.v);
}
END_TEST

/* A stop time equal to the start time is a run of one instant: one row, the initialized
 * model, on the three solvers (MSL examples with StopTime = 0 that only solve an equation). */
START_TEST(run_of_one_instant) {
  stiction_model m = decay_model();
  stiction_options opt;
  stiction_options_init(&opt);
  opt.start_time = opt.stop_time = 0.5;
  opt.solver = solvers[_i];
  rows r = {0};
  char err[512];
  ck_assert_int_eq(run(&m, NULL, &opt, &r, NULL, err, sizeof err), STICTION_OK);
  ck_assert_int_eq(r.ended, 1);
  ck_assert_int_eq(r.end_status, STICTION_OK);
  ck_assert_int_eq(r.n, 1);
  ck_assert(at(&r, 0, 0) == 0.5);
  ck_assert_double_eq(at(&r, 0, 1), 1); /* the start value */
  free(r.v);
}
END_TEST

int main(void) {
  Suite *s = suite_create("runtime");
  TCase *tc = st_test_case(s, "runtime", 0, ST_TESTS(outputs_only_for_a_sink,
                           decay_jacobian_and_klu, klu_auto_large_without_jacobian,
                           dae_mode_switch_recomputes_algebraic, model_validation_messages,
                           options_defaults_and_handle, progress_bar_only_on_a_terminal,
                           terminal_pass_after_run));
  tcase_add_loop_test(tc, decay_matches_exp, 0, 3);
  tcase_add_loop_test(tc, run_of_one_instant, 0, 3);
  tcase_add_loop_test(tc, dae_index1_on_ida, 0, 4);
  return st_test_main(s);
}
