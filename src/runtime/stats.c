/* stiction_stats_print: one "name: value" per line, in the vocabulary of
 * doc/benchmarks.md section 5. */
#include <stdio.h>

#include "runtime/runtime.h"

void stiction_stats_print(const stiction_stats *s, void *file) {
  FILE *f = file ? file : stdout;
  if (!s) return;
  fprintf(f, "steps: %ld\n", s->steps);
  fprintf(f, "nfe (rhs/residual evaluations): %ld\n", s->nfe);
  fprintf(f, "nfe_fd (for difference-quotient Jacobians): %ld\n", s->nfe_fd);
  fprintf(f, "njac (Jacobian evaluations): %ld\n", s->njac);
  fprintf(f, "nge (indicator evaluations): %ld\n", s->nge);
  fprintf(f, "state events: %ld\n", s->state_events);
  fprintf(f, "time events: %ld\n", s->time_events);
  fprintf(f, "clock ticks: %ld\n", s->clock_ticks);
  fprintf(f, "event iterations: %ld (max %ld per event)\n", s->event_iterations,
          s->max_event_iterations);
  fprintf(f, "event block evaluations: %ld\n", s->event_block_evals);
  fprintf(f, "event y' evaluations: %ld\n", s->event_yp_evals);
  fprintf(f, "event left-limit evaluations: %ld\n", s->event_left_evals);
  fprintf(f, "restarts: %ld\n", s->restarts);
  fprintf(f, "ticks gone through without restart: %ld\n", s->ticks_gone_on);
  fprintf(f, "error test failures: %ld\n", s->err_test_fails);
  fprintf(f, "convergence failures: %ld\n", s->conv_fails);
  fprintf(f, "result rows: %ld\n", s->rows);
  fprintf(f, "step size min/max: %.6g / %.6g\n", s->h_min, s->h_max);
  fprintf(f, "wall time initialization [s]: %.6f\n", s->wall_init);
  fprintf(f, "wall time integration [s]: %.6f\n", s->wall_integrate);
  fprintf(f, "wall time events [s]: %.6f\n", s->wall_events);
  fprintf(f, "wall time output [s]: %.6f\n", s->wall_output);
  fprintf(f, "wall time total [s]: %.6f\n", s->wall_total);
}
