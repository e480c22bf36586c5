/* The runs of `stiction sweep` (doc/sweep.md): parameter sets from a full grid, a table or
 * random draws, and the metrics measured on each run. Pure data and arithmetic; cmd_sweep.c
 * compiles the model once and runs the sets on a thread pool. */
#ifndef ST_CLI_SWEEP_H
#define ST_CLI_SWEEP_H

#include <stddef.h>
#include <stdint.h>

/* The parameter sets: runs x nparams values, row-major, names in order. */
typedef struct st_sweep_sets {
  int nparams;
  char **names;
  size_t nruns;
  double *values;
} st_sweep_sets;

void st_sweep_sets_free(st_sweep_sets *s);

/* Adds a grid axis "NAME=a:step:b" (b included when it is a whole number of steps from a,
 * to 1e-9 of a step) or "NAME=v1,v2,..."; the full grid is their product, the first axis
 * varying slowest. Returns 0, or -1 with a one-line message. */
int st_sweep_add_axis(st_sweep_sets *s, const char *spec, char *msg, size_t size);

/* Reads sets from a CSV file: a header of parameter names, then one row of numbers per run.
 * Returns 0, or -1 with a message naming the line. */
int st_sweep_read_table(st_sweep_sets *s, const char *path, char *msg, size_t size);

/* n random sets from specs "NAME=normal(mu,sigma)" or "NAME=uniform(a,b)"; value (run r,
 * parameter k) depends only on seed, r and k, so any thread count draws the same sets. */
int st_sweep_random(st_sweep_sets *s, const char *const *specs, int nspecs, size_t n,
                    uint64_t seed, char *msg, size_t size);

/* The period of a limit cycle from a signal's rows, fed one at a time (shared by `stiction
 * study` and the sweep's period(x)). Two measures: the mean spacing of the upward zero
 * crossings, each interpolated linearly between rows; and the mean spacing of the first
 * event after each crossing, an event being a time written twice (left and right limit),
 * which the root finder locates to ~1e-12 s instead of the output grid's interpolation. */
typedef struct st_period {
  double level; /* the crossings are those of x - level upwards */
  long rows;
  double tprev, xprev;
  int crossings, events, pending; /* pending: crossings still waiting for their event */
  double cross_first, cross_last, event_first, event_last;
} st_period;

void st_period_init(st_period *p, double level);
void st_period_add(st_period *p, double t, double x);
/* Mean spacing of the crossings; NAN with fewer than two. */
double st_period_crossings(const st_period *p);
/* Mean spacing of the events after the crossings; NAN when fewer than two crossings have one. */
double st_period_events(const st_period *p);

/* A metric: kind(signal), measured on the rows of a run. The last three take a friction
 * element's name and read its recorded mode, relative speed and force (doc/sweep.md). */
typedef enum st_sweep_kind {
  ST_METRIC_FINAL, ST_METRIC_MIN, ST_METRIC_MAX, ST_METRIC_MEAN, ST_METRIC_PERIOD,
  ST_METRIC_STICK_FRACTION, ST_METRIC_TRANSITIONS, ST_METRIC_DISSIPATED
} st_sweep_kind;

typedef struct st_sweep_metric {
  const char *text;   /* as written: the column name */
  st_sweep_kind kind;
  char *signal;
} st_sweep_metric;

/* Parses "final(x)", "min(x)", "max(x)", "mean(x)" (mean over time, trapezoidal), "period(x)",
 * "stick_fraction(e)", "transitions(e)", "dissipated(e)". */
int st_sweep_parse_metric(const char *text, st_sweep_metric *m, char *msg, size_t size);

/* The running state of the metrics of one run (a stiction_sink behind the scenes). */
typedef struct st_sweep_meter {
  const st_sweep_metric *metrics;
  int nmetrics;
  int *column;     /* per metric: its column in the rows (an element's mode or speed) */
  int *column2;    /* per metric: dissipated: the element's force column */
  double *value;   /* per metric: the result so far */
  double t0, tprev;
  double *prev;    /* per metric: the signal (mode; power) in the previous row */
  double **series; /* per metric: period(x): t, x pairs of the run (the level needs them all) */
  size_t *nseries, *capseries;
  long rows;
  char missing[256]; /* "no recorded variable 'x'" after begin() when one is missing */
} st_sweep_meter;

int st_sweep_meter_init(st_sweep_meter *m, const st_sweep_metric *metrics, int n);
void st_sweep_meter_free(st_sweep_meter *m);
/* The sink callbacks: begin finds the signals (non-zero when one is missing), row updates. */
int st_sweep_meter_begin(st_sweep_meter *m, int ncols, const char *const *names);
void st_sweep_meter_row(st_sweep_meter *m, const double *row);
/* The metric values after the last row (NaN where there was no row). */
void st_sweep_meter_finish(st_sweep_meter *m);

#endif
