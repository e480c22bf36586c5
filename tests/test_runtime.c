/* The runtime (src/runtime): the simulation handle on CVODE and IDA, driven through the public
 * API with small models written here. Expected values are analytic (exp(-t), bounce times,
 * polynomial trajectories), never numbers taken from a previous run. */
#define _XOPEN_SOURCE 700 /* posix_openpt for the progress-bar test */
#include <check.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "testutil.h"

/* ------------------------------------------------------------------ a collecting sink */

typedef struct rows {
  int ncols, n, cap;
  double *v;
  char names[8][32];
  int begun, ended, end_status;
} rows;

static int rows_begin(void *ud, int ncols, const char *const *names) {
  rows *r = ud;
  r->ncols = ncols;
  r->begun++;
  for (int i = 0; i < ncols && i < 8; i++) snprintf(r->names[i], 32, "%s", names[i]);
  return 0;
}

static int rows_row(void *ud, const double *values) {
  rows *r = ud;
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 256;
    r->v = realloc(r->v, (size_t)r->cap * (size_t)r->ncols * sizeof(double));
    ck_assert_ptr_nonnull(r->v);
  }
  memcpy(r->v + (size_t)r->n * (size_t)r->ncols, values, (size_t)r->ncols * sizeof(double));
  r->n++;
  return 0;
}

static int rows_end(void *ud, int status) {
  rows *r = ud;
  r->ended++;
  r->end_status = status;
  return 0;
}

static double at(const rows *r, int row, int col) { return r->v[(size_t)row * r->ncols + col]; }

/* ------------------------------------------------------------------ an event log */

typedef struct ev {
  double time;
  int kind, n_fired, fired[4], dir[4], iterations, n_changed, restarted;
  double before[4], after[4];
} ev;

typedef struct evlog {
  int n;
  ev e[400];
} evlog;

static int log_event(void *ud, const stiction_event_record *rec) {
  evlog *l = ud;
  if (l->n >= 400) return 0;
  ev *e = &l->e[l->n++];
  e->time = rec->time;
  e->kind = rec->kind;
  e->n_fired = rec->n_fired;
  for (int i = 0; i < rec->n_fired && i < 4; i++) {
    e->fired[i] = rec->fired[i];
    e->dir[i] = rec->fired_direction[i];
  }
  e->iterations = rec->iterations;
  e->n_changed = rec->n_changed;
  e->restarted = rec->restarted;
  for (int i = 0; i < 4 && rec->before && i < rec->n_changed; i++) {
    e->before[i] = rec->before[rec->changed[i]];
    e->after[i] = rec->after[rec->changed[i]];
  }
  return 0;
}

/* Runs model with opt into r (zero-initialized or from an earlier run, whose rows are
 * dropped) and the log if given; returns the status. */
/* A simulation whose rows go to *r (emptied first); the caller runs and frees it, and can
 * still ask it for time, stats and messages afterwards. */
static stiction_sim *sim_into_rows(const stiction_model *m, void *ud, const stiction_options *opt,
                                   rows *r) {
  free(r->v);
  memset(r, 0, sizeof *r);
  stiction_sim *sim = stiction_sim_new(m, ud, opt);
  ck_assert_ptr_nonnull(sim);
  stiction_sink sink = {rows_begin, rows_row, rows_end, r};
  ck_assert_int_eq(stiction_sim_set_sink(sim, &sink), 0); /* the sink is copied */
  return sim;
}

static int run(const stiction_model *m, void *ud, const stiction_options *opt, rows *r,
               evlog *log, char *err, size_t errsize) {
  stiction_sim *sim = sim_into_rows(m, ud, opt, r);
  if (log) {
    memset(log, 0, sizeof *log);
    stiction_sim_set_event_listener(sim, log_event, log);
  }
  int rc = stiction_sim_run(sim);
  if (err) snprintf(err, errsize, "%s", stiction_sim_error(sim));
  stiction_sim_free(sim);
  return rc;
}

static const stiction_solver solvers[3] = {STICTION_SOLVER_CVODE_BDF, STICTION_SOLVER_CVODE_ADAMS,
                                           STICTION_SOLVER_IDA};

/* ------------------------------------------------------------------ exponential decay */

static const char *const decay_names[1] = {"y"};

static int decay_start(void *ud, double t0, double *y, double *yp) {
  int n = ud ? *(int *)ud : 1;
  for (int i = 0; i < n; i++) y[i] = 1.0 + i;
  return 0;
}

static int decay_rhs(void *ud, double t, const double *y, double *ydot) {
  int n = ud ? *(int *)ud : 1;
  for (int i = 0; i < n; i++) ydot[i] = -y[i];
  return 0;
}

static int decay_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  return 0;
}

static int decay_jac(void *ud, double t, const double *y, const double *ydot, double *J) {
  int n = ud ? *(int *)ud : 1;
  for (int i = 0; i < n * n; i++) J[i] = 0;
  for (int i = 0; i < n; i++) J[i + i * n] = -1;
  return 0;
}

static stiction_model decay_model(void) {
  stiction_model m = {0};
  m.name = "decay";
  m.n_states = 1;
  m.n_outputs = 1;
  m.output_names = decay_names;
  m.state_names = decay_names;
  m.start_values = decay_start;
  m.derivatives = decay_rhs;
  m.outputs = decay_out;
  return m;
}

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
    stiction_sink sink = {rows_begin, variant & 2 ? rows_row : NULL, rows_end, &r};
    stiction_sim_set_sink(sim, &sink);
    ck_assert_int_eq(stiction_sim_run(sim), STICTION_OK);
    ck_assert_int_eq(stiction_sim_stats(sim)->rows, 11);
    if (variant & 2) ck_assert_int_ge(calls, 11); /* + the t0 row kept aside, events.c */
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

START_TEST(dae_index1_on_ida) {
  stiction_model m = {0};
  m.name = "dae";
  m.n_states = 1;
  m.n_algebraic = 1;
  m.n_outputs = 2;
  m.output_names = dae_names;
  m.start_values = dae_start;
  m.residual = dae_res;
  m.outputs = dae_out;
  if (_i) m.dae_jacobian = dae_jac;
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
  stiction_model m = {0};
  m.n_states = 1;
  m.n_algebraic = 1;
  m.n_discrete = 1;
  m.n_outputs = 2;
  m.output_names = dae_names;
  m.start_values = dae2_start;
  m.residual = dae2_res;
  m.event_update = dae2_update;
  m.outputs = dae_out;
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

/* ------------------------------------------------------------------ bouncing ball */

/* h' = v, v' = -g; `when h < 0 then reinit(v, -e * pre(v))`. The relation h < 0 is a discrete
 * (below) whose indicator is h: an event when h falls through 0 (below becomes true, v is
 * reinitialized) and another when it rises through 0 again (below becomes false). */
typedef struct ball {
  double g, e, below;
} ball;

static const char *const ball_names[2] = {"h", "v"};
static const char *const ball_ind[1] = {"h"};
static const char *const ball_disc[1] = {"below"};

static int ball_start(void *ud, double t0, double *y, double *yp) {
  ball *b = ud;
  y[0] = 1;
  y[1] = 0;
  b->below = 0;
  return 0;
}

static int ball_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = y[1];
  ydot[1] = -((ball *)ud)->g;
  return 0;
}

static int ball_res(void *ud, double t, const double *y, const double *yp, double *r) {
  r[0] = yp[0] - y[1];
  r[1] = yp[1] + ((ball *)ud)->g;
  return 0;
}

static int ball_ind_fn(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = y[0];
  return 0;
}

static int ball_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  ball *b = ud;
  double below = y[0] < 0;
  if (below != b->below) {
    if (below) {
      y[1] = -b->e * y[1];
      info->states_changed = 1;
    }
    b->below = below;
    info->discrete_changed = 1;
  }
  return 0;
}

static int ball_get_disc(void *ud, double *d) {
  d[0] = ((ball *)ud)->below;
  return 0;
}

static int ball_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = y[1];
  return 0;
}

static stiction_model ball_model(int dae) {
  stiction_model m = {0};
  m.name = "ball";
  m.n_states = 2;
  m.n_indicators = 1;
  m.n_discrete = 1;
  m.n_outputs = 2;
  m.output_names = ball_names;
  m.state_names = ball_names;
  m.indicator_names = ball_ind;
  m.discrete_names = ball_disc;
  m.start_values = ball_start;
  m.derivatives = ball_rhs;
  if (dae) m.residual = ball_res;
  m.indicators = ball_ind_fn;
  m.event_update = ball_update;
  m.get_discrete = ball_get_disc;
  m.outputs = ball_out;
  return m;
}

/* Bounce k happens at t_k = t_1 + sum_{j<k} 2 e^j v_1 / g with t_1 = sqrt(2 h0 / g). */
START_TEST(bouncing_ball_times) {
  ball b = {9.81, 0.8, 0};
  stiction_model m = ball_model(_i == 2);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 3;
  opt.rtol = 1e-9;
  opt.solver = _i == 0 ? STICTION_SOLVER_CVODE_BDF : STICTION_SOLVER_IDA;
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &b, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  double t1 = sqrt(2 / b.g), v1 = b.g * t1, tk = t1, vk = v1;
  int bounces = 0;
  ck_assert_int_eq(log.e[0].kind, STICTION_EVENT_INITIAL);
  for (int i = 1; i < log.n; i++) {
    ev *e = &log.e[i];
    ck_assert_int_eq(e->kind, STICTION_EVENT_STATE);
    ck_assert_int_eq(e->n_fired, 1);
    ck_assert_int_eq(e->fired[0], 0);
    if (e->dir[0] > 0) continue; /* h rising through 0 again: below := false */
    ck_assert_msg(fabs(e->time - tk) < 1e-6, "bounce %d at %.10f, expected %.10f", bounces,
                  e->time, tk);
    ck_assert_int_eq(e->n_changed, 1);
    ck_assert(e->before[0] == 0 && e->after[0] == 1);
    ck_assert_int_eq(e->iterations, 2);
    ck_assert_int_eq(e->restarted, 1);
    bounces++;
    vk *= b.e;
    tk += 2 * vk / b.g;
  }
  ck_assert_int_eq(bounces, 6); /* t_6 = 2.88 < 3 < t_7 */
  ck_assert(tk > 3);
  /* two rows per event with the same time: left limit v < 0, right limit v > 0 */
  int pairs = 0;
  for (int k = 1; k < r.n; k++)
    if (at(&r, k, 0) == at(&r, k - 1, 0)) {
      pairs++;
      if (at(&r, k - 1, 2) < -1) ck_assert(fabs(at(&r, k, 2) + b.e * at(&r, k - 1, 2)) < 1e-12);
    }
  ck_assert_int_eq(pairs, log.n - 1);
  /* the ball never sinks measurably below the floor */
  for (int k = 0; k < r.n; k++) ck_assert(at(&r, k, 1) > -1e-6);
  free(r.v);
}
END_TEST

/* Counters are summed over restarts and agree with what the sink and listener saw. */
START_TEST(statistics_summed_over_restarts) {
  ball b = {9.81, 0.8, 0};
  stiction_model m = ball_model(0);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 3;
  /* a given bound on the step (the default step is free, doc/events.md "Frozen modes"), so
   * that the step count below tells summed counters from a segment's */
  opt.max_step = 3.0 / 500;
  rows r = {0};
  stiction_sim *sim = sim_into_rows(&m, &b, &opt, &r);
  static evlog log;
  memset(&log, 0, sizeof log);
  stiction_sim_set_event_listener(sim, log_event, &log);
  ck_assert_int_eq(stiction_sim_run(sim), 0);
  const stiction_stats *s = stiction_sim_stats(sim);
  ck_assert_int_eq(s->state_events, log.n - 1);
  ck_assert_int_eq(s->time_events, 0);
  ck_assert_int_eq(s->rows, r.n);
  ck_assert_int_eq(s->restarts, 6); /* one per bounce (reinit of v) */
  ck_assert_int_eq(s->max_event_iterations, 2);
  ck_assert_int_ge(s->event_iterations, 2 * 6);
  /* a single segment cannot take this many steps: the counters were summed, not reset */
  ck_assert_int_gt(s->steps, 500 / 3);
  ck_assert_int_gt(s->nfe, s->steps);
  ck_assert_int_gt(s->nge, s->steps);
  ck_assert(s->h_min > 0 && s->h_max <= 3.0 / 500 + 1e-15);
  ck_assert(s->wall_total >= s->wall_integrate);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  stiction_stats_print(s, f);
  fclose(f);
  ck_assert_ptr_nonnull(strstr(buf, "state events: 12"));
  ck_assert_ptr_nonnull(strstr(buf, "restarts: 6"));
  free(buf);
  stiction_sim_free(sim);
  free(r.v);
}
END_TEST

/* ------------------------------------------------------------------ time events */

/* y' = k; time events at 0.35 (k := 1) and at 0.5 (k := 2, on a grid point). y is piecewise
 * linear, so y(1) = 0.15 * 1 + 0.5 * 2 = 1.15 and y is continuous at both events. */
typedef struct tev {
  double k;
} tev;

static const char *const tev_names[2] = {"y", "k"};

static int tev_start(void *ud, double t0, double *y, double *yp) {
  ((tev *)ud)->k = 0;
  y[0] = 0;
  return 0;
}

static int tev_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = ((tev *)ud)->k;
  return 0;
}

static int tev_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  tev *s = ud;
  if (info->initial) {
    info->next_time_defined = 1;
    info->next_time = 0.35;
    return 0;
  }
  if (t == 0.35 && s->k == 0) {
    s->k = 1;
    info->next_time_defined = 1;
    info->next_time = 0.5;
  } else if (t == 0.5 && s->k == 1) {
    s->k = 2;
  } else {
    return 0;
  }
  info->discrete_changed = 1;
  info->equations_changed = 1;
  return 0;
}

static int tev_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = ((tev *)ud)->k;
  return 0;
}

/* Rows and events of the tev model: y' = k, k = 0 -> 1 at 0.35 -> 2 at 0.5, grid 0.1. */
static void check_tev_rows(const rows *r, const evlog *log) {
  int n035 = 0, n05 = 0;
  for (int k = 0; k < r->n; k++) {
    double t = at(r, k, 0);
    if (t == 0.35) {
      ck_assert(at(r, k, 2) == n035); /* left row k = 0, right row k = 1 */
      ck_assert(fabs(at(r, k, 1)) < 1e-12);
      n035++;
    }
    if (t == 0.5) {
      ck_assert(at(r, k, 2) == 1 + n05);
      ck_assert_msg(fabs(at(r, k, 1) - 0.15) < 1e-10, "y(0.5) = %.15g", at(r, k, 1));
      n05++;
    }
    if (t > 0.35 && t < 0.5) /* y = t - 0.35 exactly: a linear solution */
      ck_assert_msg(fabs(at(r, k, 1) - (t - 0.35)) < 1e-10, "y(%g) = %.15g", t, at(r, k, 1));
  }
  ck_assert_int_eq(n035, 2);
  ck_assert_int_eq(n05, 2); /* left and right rows stand for the grid row */
  ck_assert_int_eq(r->n, 11 + 1 + 2);
  ck_assert(at(r, r->n - 1, 0) == 1.0);
  ck_assert_msg(fabs(at(r, r->n - 1, 1) - 1.15) < 1e-9, "y(1) = %.15g", at(r, r->n - 1, 1));
  ck_assert_int_eq(log->n, 3);
  ck_assert_int_eq(log->e[1].kind, STICTION_EVENT_TIME);
  ck_assert(log->e[1].time == 0.35 && log->e[2].time == 0.5);
  ck_assert_int_eq(log->e[1].restarted, 1);
}

/* Also without a step bound: then the step that ends on the time event at 0.5 passes the
 * grid point 0.4 first, and the event must still see the state at 0.5, not the one
 * interpolated for the grid row (a bug of the CV_ONE_STEP driver while it was written:
 * SimpleGearShift's clutch then locked 0.1 ms early). */
START_TEST(time_events_hit_exactly) {
  tev s;
  stiction_model m = {0};
  m.n_states = 1;
  m.n_discrete = 1;
  m.n_outputs = 2;
  m.output_names = tev_names;
  m.start_values = tev_start;
  m.derivatives = tev_rhs;
  m.event_update = tev_update;
  m.outputs = tev_out;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.interval = 0.1;
  opt.solver = solvers[_i];
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &s, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  check_tev_rows(&r, &log);
  opt.max_step = INFINITY;
  ck_assert_msg(run(&m, &s, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  check_tev_rows(&r, &log);
  free(r.v);
}
END_TEST

/* ------------------------------------------------------------------ event at t0 */

/* The mode is unknown before initialization (-1); the initial event iteration sets it from
 * the start value of x, so there is an event at t0: a left row (mode -1) and a right row. */
typedef struct mode0 {
  double mode;
} mode0;

static const char *const mode0_names[2] = {"x", "mode"};

static int mode0_start(void *ud, double t0, double *y, double *yp) {
  ((mode0 *)ud)->mode = -1;
  y[0] = 2;
  return 0;
}

static int mode0_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = ((mode0 *)ud)->mode == 1 ? -1 : 1;
  return 0;
}

static int mode0_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  mode0 *s = ud;
  double want = y[0] > 0 ? 1 : 0;
  if (want != s->mode) {
    s->mode = want;
    info->discrete_changed = 1;
    info->equations_changed = 1;
  }
  return 0;
}

static int mode0_disc(void *ud, double *d) {
  d[0] = ((mode0 *)ud)->mode;
  return 0;
}

static int mode0_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = ((mode0 *)ud)->mode;
  return 0;
}

START_TEST(event_at_t0_two_rows) {
  mode0 s;
  stiction_model m = {0};
  m.n_states = 1;
  m.n_discrete = 1;
  m.n_outputs = 2;
  m.output_names = mode0_names;
  m.start_values = mode0_start;
  m.derivatives = mode0_rhs;
  m.event_update = mode0_update;
  m.get_discrete = mode0_disc;
  m.outputs = mode0_out;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.interval = 0.5;
  opt.start_time = 1;
  opt.stop_time = 2;
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &s, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(r.n, 4);
  ck_assert(at(&r, 0, 0) == 1 && at(&r, 1, 0) == 1);
  ck_assert(at(&r, 0, 2) == -1 && at(&r, 1, 2) == 1);
  ck_assert(fabs(at(&r, 3, 1) - 1) < 1e-9); /* x' = -1 from x = 2 over one second */
  ck_assert_int_eq(log.n, 1);
  ck_assert_int_eq(log.e[0].kind, STICTION_EVENT_INITIAL);
  ck_assert_int_eq(log.e[0].n_changed, 1);
  ck_assert(log.e[0].before[0] == -1 && log.e[0].after[0] == 1);
  ck_assert_int_eq(log.e[0].iterations, 2);
  /* a quiet start (nothing changes at t0) gives exactly one row at t0 */
  stiction_model d = decay_model();
  ck_assert_int_eq(run(&d, NULL, &opt, &r, NULL, err, sizeof err), 0);
  ck_assert_int_eq(r.n, 3);
  ck_assert(at(&r, 0, 0) == 1 && at(&r, 1, 0) == 1.5);
  free(r.v);
}
END_TEST

/* ------------------------------------------------------------------ simultaneous roots */

/* x' = 1 from 0; indicators x - 0.5 (rising) and 1 - 2x (falling) cross at the same instant:
 * one event with both fired, directions +1 and -1. */
static int simul_start(void *ud, double t0, double *y, double *yp) {
  y[0] = 0;
  return 0;
}

static int simul_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = 1;
  return 0;
}

static int simul_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = y[0] - 0.5;
  g[1] = 1 - 2 * y[0];
  return 0;
}

static int noop_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  return 0;
}

START_TEST(simultaneous_indicators) {
  stiction_model m = decay_model();
  m.start_values = simul_start;
  m.derivatives = simul_rhs;
  m.n_indicators = 2;
  m.indicators = simul_ind;
  m.event_update = noop_update;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[_i];
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, NULL, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(log.n, 2);
  ck_assert_int_eq(log.e[1].n_fired, 2);
  ck_assert_int_eq(log.e[1].fired[0], 0);
  ck_assert_int_eq(log.e[1].dir[0], 1);
  ck_assert_int_eq(log.e[1].fired[1], 1);
  ck_assert_int_eq(log.e[1].dir[1], -1);
  ck_assert(fabs(log.e[1].time - 0.5) < 1e-9);
  free(r.v);
}
END_TEST

/* ------------------------------------------------------------------ coinciding events */

/* x' = 1 from 0; a time event at 0.5 (tick := 1) and a steep indicator 1e7*(x - 0.5) + off
 * (on := g > 0) whose root is at x = 0.5 - off*1e-7: off = 2e-8 puts it 2e-15 before the time
 * event, off = -5e-8 5e-15 after it, both within the root finders' resolution (~1e-14 at
 * 0.5): one instant, so one event at exactly 0.5 with both changes and two rows. Before,
 * each gave two events at 0.5 and 0.5 + 5e-15 (four rows). off = -1e-3 puts the root 1e-10
 * after: two instants, two events. */
typedef struct coinc {
  double off, on, tick;
} coinc;

static const char *const coinc_names[3] = {"x", "on", "tick"};

static int coinc_start(void *ud, double t0, double *y, double *yp) {
  coinc *c = ud;
  c->on = c->tick = 0;
  y[0] = 0;
  return 0;
}

static int coinc_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = 1e7 * (y[0] - 0.5) + ((coinc *)ud)->off;
  return 0;
}

static int coinc_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  coinc *c = ud;
  if (info->initial) {
    info->next_time_defined = 1;
    info->next_time = 0.5;
  }
  double g, on, tick = t >= 0.5 ? 1 : 0;
  coinc_ind(ud, t, y, yp, &g);
  on = g > 0 ? 1 : 0;
  info->discrete_changed = on != c->on || tick != c->tick;
  info->equations_changed = info->discrete_changed;
  c->on = on;
  c->tick = tick;
  return 0;
}

static int coinc_disc(void *ud, double *d) {
  d[0] = ((coinc *)ud)->on;
  d[1] = ((coinc *)ud)->tick;
  return 0;
}

static int coinc_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = ((coinc *)ud)->on;
  out[2] = ((coinc *)ud)->tick;
  return 0;
}

static void run_coinc(stiction_solver solver, double off, int events_expected) {
  coinc c = {.off = off};
  stiction_model m = {0};
  m.n_states = 1;
  m.n_indicators = 1;
  m.n_discrete = 2;
  m.n_outputs = 3;
  m.output_names = coinc_names;
  m.start_values = coinc_start;
  m.derivatives = simul_rhs;
  m.indicators = coinc_ind;
  m.event_update = coinc_update;
  m.get_discrete = coinc_disc;
  m.outputs = coinc_out;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.interval = 0.1;
  opt.solver = solver;
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &c, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(log.n, 1 + events_expected);
  int near = 0;
  for (int k = 0; k < r.n; k++) near += fabs(at(&r, k, 0) - 0.5) < 1e-9;
  ck_assert_int_eq(near, 2 * events_expected);
  ck_assert(log.e[1].time == 0.5);
  ck_assert(at(&r, r.n - 1, 2) == 1 && at(&r, r.n - 1, 3) == 1); /* on, tick */
  ck_assert_double_eq_tol(at(&r, r.n - 1, 1), 1, 1e-9);          /* x(1) */
  if (events_expected == 1) {
    ck_assert_int_eq(log.e[1].kind, STICTION_EVENT_STATE);
    ck_assert_int_eq(log.e[1].n_fired, 1);
    ck_assert_int_eq(log.e[1].dir[0], 1);
    ck_assert_int_eq(log.e[1].n_changed, 2);
  } else {
    ck_assert_int_eq(log.e[1].kind, STICTION_EVENT_TIME);
    ck_assert_int_eq(log.e[2].kind, STICTION_EVENT_STATE);
    ck_assert_double_eq_tol(log.e[2].time, 0.5 + 1e-10, 1e-12);
  }
  free(r.v);
}

START_TEST(time_and_state_event_coincide) {
  run_coinc(solvers[_i], 2e-8, 1);   /* root 2e-15 before the time event */
  run_coinc(solvers[_i], -5e-8, 1);  /* root 5e-15 after it */
  run_coinc(solvers[_i], -1e-3, 2);  /* root 1e-10 after it: a separate instant */
}
END_TEST

/* ------------------------------------------------------------------ zero at restart */

/* A friction-like toy: stuck (v' = 0, v = 0) until t = t_rel; then sliding with
 * v' = 1 - 5 (t - t_rel), so v = s - 2.5 s^2 (s = t - t_rel) returns to 0 at s = 0.4, where it
 * sticks again (v := 0) and waits 0.2 s. The sticking indicator v is exactly 0 when sliding
 * starts; CVODE/IDA ignore a root at the restart point, and the test shows the next sign
 * change is still found: stick at t_rel + 0.4, release 0.2 later, and so on. */
typedef struct toy {
  double sliding, t_rel;
} toy;

static const char *const toy_names[2] = {"v", "sliding"};
static const char *const toy_disc[2] = {"sliding", "t_rel"};

static int toy_start(void *ud, double t0, double *y, double *yp) {
  toy *s = ud;
  s->sliding = 0;
  s->t_rel = 0.3;
  y[0] = 0;
  return 0;
}

static int toy_rhs(void *ud, double t, const double *y, double *ydot) {
  toy *s = ud;
  ydot[0] = s->sliding ? 1 - 5 * (t - s->t_rel) : 0;
  return 0;
}

static int toy_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  toy *s = ud;
  g[0] = t - s->t_rel; /* release (time only, while stuck) */
  g[1] = s->sliding ? y[0] : 1; /* stick: v falls through 0 */
  return 0;
}

static int toy_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  toy *s = ud;
  if (!s->sliding && t >= s->t_rel) {
    s->sliding = 1;
  } else if (s->sliding && y[0] <= 0 && t > s->t_rel + 0.1) {
    s->sliding = 0;
    s->t_rel = t + 0.2;
    y[0] = 0;
    info->states_changed = 1;
  } else {
    return 0;
  }
  info->discrete_changed = 1;
  info->equations_changed = 1;
  return 0;
}

static int toy_disc_fn(void *ud, double *d) {
  d[0] = ((toy *)ud)->sliding;
  d[1] = ((toy *)ud)->t_rel;
  return 0;
}

static int toy_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = ((toy *)ud)->sliding;
  return 0;
}

START_TEST(indicator_zero_at_restart_still_switches) {
  toy s;
  stiction_model m = {0};
  m.name = "toy";
  m.n_states = 1;
  m.n_indicators = 2;
  m.n_discrete = 2;
  m.n_outputs = 2;
  m.output_names = toy_names;
  m.discrete_names = toy_disc;
  m.start_values = toy_start;
  m.derivatives = toy_rhs;
  m.indicators = toy_ind;
  m.event_update = toy_update;
  m.get_discrete = toy_disc_fn;
  m.outputs = toy_out;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 3;
  opt.rtol = 1e-8;
  opt.solver = solvers[_i];
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &s, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  /* releases at 0.3, 0.9, 1.5, 2.1, 2.7; sticks at 0.7, 1.3, 1.9, 2.5 */
  double expect = 0.3;
  int n = 0;
  for (int i = 1; i < log.n; i++) {
    if (log.e[i].n_changed == 0) continue;
    ck_assert_msg(fabs(log.e[i].time - expect) < 1e-6, "switch %d at %.10f, expected %.10f", n,
                  log.e[i].time, expect);
    expect += (n % 2 == 0) ? 0.4 : 0.2;
    n++;
  }
  ck_assert_int_eq(n, 9);
  free(r.v);
}
END_TEST

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

START_TEST(terminate_ends_cleanly) {
  stiction_model m = decay_model();
  m.n_indicators = 1;
  m.indicators = term_ind;
  m.event_update = term_update;
  /* the initial pass would terminate at once: only terminate after t0 */
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[_i];
  rows r = {0};
  stiction_sim *sim = sim_into_rows(&m, NULL, &opt, &r);
  ck_assert_int_eq(stiction_sim_run(sim), STICTION_OK);
  ck_assert_int_eq(r.end_status, STICTION_OK);
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
  stiction_model m = decay_model();
  m.n_indicators = 1;
  m.indicators = term_ind;
  m.event_update = term_late_update;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.solver = solvers[_i];
  rows r = {0};
  stiction_sim *sim = sim_into_rows(&m, NULL, &opt, &r);
  ck_assert_int_eq(stiction_sim_run(sim), STICTION_OK);
  ck_assert_int_eq(r.end_status, STICTION_OK);
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

/* ------------------------------------------------------------------ frozen modes */

/* The state is frozen (y' = 0) for the whole run, so the integrator's step would grow without
 * bound; the indicator sin(2 pi f t) - 0.999 is positive only for 0.0285 s around each
 * maximum (f = 0.5: t = 0.5, 2.5, ..., 8.5). With the defaults (max step = output interval
 * = 0.02 s) all ten crossings are found, at the analytic times. */
static int frozen_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = 0;
  return 0;
}

static int frozen_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = sin(2 * M_PI * 0.5 * t) - 0.999;
  return 0;
}

/* y' = 0 with the indicator sin(pi t) - 0.999 (frozen_rhs, frozen_ind). */
static stiction_model frozen_model(void) {
  stiction_model m = decay_model();
  m.derivatives = frozen_rhs;
  m.n_indicators = 1;
  m.indicators = frozen_ind;
  m.event_update = noop_update;
  return m;
}

static int count_events(const stiction_model *m, const stiction_options *opt, evlog *log) {
  rows r = {0};
  char err[512];
  ck_assert_msg(run(m, NULL, opt, &r, log, err, sizeof err) == 0, "%s", err);
  free(r.v);
  return log->n - 1;
}

START_TEST(frozen_mode_finds_all_crossings) {
  stiction_model m = frozen_model();
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 10;
  opt.solver = solvers[_i];
  static evlog log;
  ck_assert_int_eq(count_events(&m, &opt, &log), 10);
  double half = acos(0.999) / M_PI; /* sin(pi t) = 0.999 at t = 0.5 -+ half (+ 2k) */
  for (int i = 1; i <= 10; i++) {
    double peak = 0.5 + 2 * ((i - 1) / 2);
    double expect = i % 2 ? peak - half : peak + half;
    ck_assert_msg(fabs(log.e[i].time - expect) < 1e-6, "crossing %d at %.10f, expected %.10f",
                  i, log.e[i].time, expect);
    ck_assert_int_eq(log.e[i].dir[0], i % 2 ? 1 : -1);
  }
  /* one output interval for the whole run, no bound on the step and no indicator samples:
   * the solver steps over them. This is what the default (samples inside long steps on
   * CVODE, a step bound on IDA) protects against. */
  opt.interval = 10;
  opt.max_step = INFINITY;
  ck_assert_int_lt(count_events(&m, &opt, &log), 10);
}
END_TEST

/* The frozen model on CVODE with the defaults: its step is free (no bound), so a pair of
 * crossings (0.0285 s apart) lies inside one step, and only the indicator samples inside long
 * steps (sampling.c, spaced <= 1/500 of the run) see it. All ten crossings at their analytic
 * times (located on the interpolant to CVODE's resolution), in steps much longer than the
 * bound and far fewer than the 500 a bound on the step forces. With max_step = INFINITY (the
 * same free steps, no samples) they are missed. */
static const stiction_stats *frozen_run(const stiction_model *m, stiction_options *opt,
                                        evlog *log, stiction_sim **sim) {
  static rows r;
  *sim = sim_into_rows(m, NULL, opt, &r);
  memset(log, 0, sizeof *log);
  stiction_sim_set_event_listener(*sim, log_event, log);
  ck_assert_msg(stiction_sim_run(*sim) == 0, "%s", stiction_sim_error(*sim));
  free(r.v);
  memset(&r, 0, sizeof r);
  return stiction_sim_stats(*sim);
}

START_TEST(frozen_pairs_found_between_samples) {
  stiction_model m = frozen_model();
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 10;
  opt.solver = solvers[_i];
  static evlog log;
  stiction_sim *sim;
  const stiction_stats *s = frozen_run(&m, &opt, &log, &sim);
  ck_assert_int_eq(log.n - 1, 10);
  double half = acos(0.999) / M_PI;
  for (int i = 1; i <= 10; i++) {
    double peak = 0.5 + 2 * ((i - 1) / 2), expect = i % 2 ? peak - half : peak + half;
    ck_assert_msg(fabs(log.e[i].time - expect) < 1e-9, "crossing %d at %.12f, expected %.12f",
                  i, log.e[i].time, expect);
    ck_assert_int_eq(log.e[i].kind, STICTION_EVENT_STATE);
    ck_assert_int_eq(log.e[i].dir[0], i % 2 ? 1 : -1);
  }
  ck_assert_msg(s->h_max > 10 * 0.02, "h_max %g: the step was bounded", s->h_max);
  ck_assert_msg(s->steps < 250, "%ld steps", s->steps);
  stiction_sim_free(sim);
  opt.max_step = INFINITY;
  s = frozen_run(&m, &opt, &log, &sim);
  ck_assert(s->h_max > 10 * 0.02);
  ck_assert_int_lt(log.n - 1, 10);
  stiction_sim_free(sim);
}
END_TEST

/* A second indicator 4.5 - t crosses between the rise (4.4858) and the fall (4.5142) of the
 * fifth pair: CVODE reports its root itself when one step covers it, the samples find the
 * rise before it; every crossing is one event, in time order, at its time. */
static int frozen_two_ind(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = sin(M_PI * t) - 0.999;
  g[1] = 4.5 - t;
  return 0;
}

START_TEST(samples_and_solver_roots_in_order) {
  stiction_model m = decay_model();
  m.derivatives = frozen_rhs;
  m.n_indicators = 2;
  m.indicators = frozen_two_ind;
  m.event_update = noop_update;
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 10;
  static evlog log;
  stiction_sim *sim;
  frozen_run(&m, &opt, &log, &sim);
  stiction_sim_free(sim);
  ck_assert_int_eq(log.n - 1, 11);
  double half = acos(0.999) / M_PI;
  for (int i = 1, k = 1; i <= 11; i++) {
    ev *e = &log.e[i];
    ck_assert_int_eq(e->n_fired, 1);
    if (e->fired[0] == 1) {
      ck_assert_msg(fabs(e->time - 4.5) < 1e-9 && e->dir[0] == -1, "t = %.12f", e->time);
      ck_assert_msg(i == 6, "the root of 4.5 - t is event %d", i);
      continue;
    }
    double peak = 0.5 + 2 * ((k - 1) / 2), expect = k % 2 ? peak - half : peak + half;
    ck_assert_msg(fabs(e->time - expect) < 1e-9, "crossing %d at %.12f, expected %.12f", k,
                  e->time, expect);
    k++;
  }
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

/* Two models side by side in one process: nothing global, each keeps its own state. */
START_TEST(two_handles_independent) {
  ball b1 = {9.81, 0.8, 0}, b2 = {9.81, 0.5, 0};
  stiction_model m = ball_model(0);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  stiction_sim *s1 = stiction_sim_new(&m, &b1, &opt);
  stiction_sim *s2 = stiction_sim_new(&m, &b2, &opt);
  ck_assert_int_eq(stiction_sim_run(s2), 0);
  ck_assert_int_eq(stiction_sim_run(s1), 0);
  /* e = 0.8: bounces at 0.45, 1.17, 1.75; e = 0.5: 0.45, 0.90, 1.13, 1.24, ... more */
  ck_assert_int_lt(stiction_sim_stats(s1)->state_events, stiction_sim_stats(s2)->state_events);
  ck_assert_int_eq(stiction_sim_stats(s1)->state_events, 6);
  stiction_sim_free(s1);
  stiction_sim_free(s2);
}
END_TEST

/* record_events = 0: only grid rows; an interval that does not divide the span ends on the
 * stop time with a shorter last interval. */
START_TEST(grid_without_event_rows) {
  ball b = {9.81, 0.8, 0};
  stiction_model m = ball_model(0);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2.05;
  opt.interval = 0.1;
  opt.record_events = 0;
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &b, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  ck_assert_int_gt(log.n, 3); /* events happened ... */
  ck_assert_int_eq(r.n, 22);  /* ... but only 0, 0.1, ..., 2.0 and 2.05 were written */
  for (int k = 0; k < 21; k++) ck_assert(fabs(at(&r, k, 0) - 0.1 * k) < 1e-12);
  ck_assert(at(&r, 21, 0) == 2.05);
  free(r.v);
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

static Suite *runtime_suite(void) {
  Suite *s = suite_create("runtime");
  TCase *tc = tcase_create("runtime");
  tcase_add_loop_test(tc, decay_matches_exp, 0, 3);
  tcase_add_test(tc, decay_jacobian_and_klu);
  tcase_add_test(tc, outputs_only_for_a_sink);
  tcase_add_test(tc, terminal_pass_after_run);
  tcase_add_test(tc, klu_auto_large_without_jacobian);
  tcase_add_loop_test(tc, dae_index1_on_ida, 0, 2);
  tcase_add_test(tc, dae_mode_switch_recomputes_algebraic);
  tcase_add_loop_test(tc, bouncing_ball_times, 0, 3);
  tcase_add_test(tc, statistics_summed_over_restarts);
  tcase_add_loop_test(tc, time_events_hit_exactly, 0, 3);
  tcase_add_test(tc, event_at_t0_two_rows);
  tcase_add_loop_test(tc, simultaneous_indicators, 0, 3);
  tcase_add_loop_test(tc, time_and_state_event_coincide, 0, 3);
  tcase_add_loop_test(tc, indicator_zero_at_restart_still_switches, 0, 3);
  tcase_add_test(tc, event_iteration_names_variable);
  tcase_add_loop_test(tc, chattering_detected, 0, 3);
  tcase_add_loop_test(tc, terminate_ends_cleanly, 0, 3);
  tcase_add_loop_test(tc, terminate_at_event_writes_final_row, 0, 3);
  tcase_add_loop_test(tc, nonfinite_keeps_rows, 0, 3);
  tcase_add_loop_test(tc, callback_failure_reported, 0, 3);
  tcase_add_loop_test(tc, solver_failure_names_flag, 0, 3);
  tcase_add_loop_test(tc, frozen_mode_finds_all_crossings, 0, 3);
  tcase_add_loop_test(tc, frozen_pairs_found_between_samples, 0, 2);
  tcase_add_test(tc, samples_and_solver_roots_in_order);
  tcase_add_test(tc, model_validation_messages);
  tcase_add_test(tc, options_defaults_and_handle);
  tcase_add_test(tc, two_handles_independent);
  tcase_add_test(tc, grid_without_event_rows);
  tcase_add_test(tc, progress_bar_only_on_a_terminal);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(runtime_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
