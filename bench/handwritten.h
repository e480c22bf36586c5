/* Hand-written C + CVODE baselines for `make bench`: the friction block and Leine's block on a
 * belt, integrated with the same equations, indicators and event handling as the built-in
 * demos (src/demos) but WITHOUT any stiction code, so the ratio stiction / hand-written
 * measures what the generic runtime costs. */
#ifndef BENCH_HANDWRITTEN_H
#define BENCH_HANDWRITTEN_H

#include <stdio.h>

typedef struct hw_options {
  double rtol, atol;        /* CVODE tolerances (scalar) */
  double stop_time;
  double interval;          /* output grid; also the maximum step, as stiction's default */
  int adams;                /* 1: Adams-Moulton, 0: BDF */
} hw_options;

typedef struct hw_stats {
  long steps, nfe, njac, nge;
  long events;              /* state events (indicator sign changes handled) */
  long restarts;            /* CVodeReInit calls */
  long transitions;         /* changes of the mode variable */
  long rows;                /* output rows produced (grid + 2 per event) */
  double first_transition;  /* time of the first mode change (NaN if none) */
  double x_end, v_end;      /* states at the stop time */
} hw_stats;

/* Each runs one simulation from scratch (create ... free). Rows go to `out` as CSV if not
 * NULL. Returns 0, or -1 on a CVODE failure (message on stderr). */
int hw_friction_block_run(const hw_options *opt, hw_stats *stats, FILE *out);
int hw_leine_belt_run(const hw_options *opt, hw_stats *stats, FILE *out);

#endif
