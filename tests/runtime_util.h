/* What the runtime tests share (test_runtime.c, test_runtime_events.c,
 * test_runtime_failures.c): a sink collecting rows, an event log, running a model into them,
 * the three solvers, and the decay model y' = -y. */
#ifndef ST_TESTS_RUNTIME_UTIL_H
#define ST_TESTS_RUNTIME_UTIL_H

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "testutil.h"

/* ------------------------------------------------------------------ a collecting sink */

typedef struct rows {
  int ncols, n, cap;
  double *v;
  char names[8][32];
  int begun, ended, end_status;
} rows;

static inline int rows_begin(void *ud, int ncols, const char *const *names) {
  rows *r = ud;
  r->ncols = ncols;
  r->begun++;
  for (int i = 0; i < ncols && i < 8; i++) snprintf(r->names[i], 32, "%s", names[i]);
  return 0;
}

static inline int rows_row(void *ud, const double *values) {
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

static inline int rows_end(void *ud, int status) {
  rows *r = ud;
  r->ended++;
  r->end_status = status;
  return 0;
}

static inline double at(const rows *r, int row, int col) { return r->v[(size_t)row * r->ncols + col]; }

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

static inline int log_event(void *ud, const stiction_event_record *rec) {
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
  stiction_sink sink = {sizeof(stiction_sink), rows_begin, rows_row, rows_end, r};
  ck_assert_int_eq(stiction_sim_set_sink(sim, &sink), 0); /* the sink is copied */
  return sim;
}

static inline int run(const stiction_model *m, void *ud, const stiction_options *opt, rows *r,
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

static inline int decay_start(void *ud, double t0, double *y, double *yp) {
  int n = ud ? *(int *)ud : 1;
  for (int i = 0; i < n; i++) y[i] = 1.0 + i;
  return 0;
}

static inline int decay_rhs(void *ud, double t, const double *y, double *ydot) {
  int n = ud ? *(int *)ud : 1;
  for (int i = 0; i < n; i++) ydot[i] = -y[i];
  return 0;
}

static inline int decay_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  return 0;
}

static inline int decay_jac(void *ud, double t, const double *y, const double *ydot, double *J) {
  int n = ud ? *(int *)ud : 1;
  for (int i = 0; i < n * n; i++) J[i] = 0;
  for (int i = 0; i < n; i++) J[i + i * n] = -1;
  return 0;
}

static inline stiction_model decay_model(void) {
  stiction_model m = {.size = sizeof(stiction_model), .name = "decay", .n_states = 1, .n_outputs = 1, .output_names = decay_names,
                      .state_names = decay_names, .start_values = decay_start,
                      .derivatives = decay_rhs, .outputs = decay_out};
  return m;
}

#endif
