/* Default options and their checks before a run. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "runtime/runtime.h"

void stiction_options_init(stiction_options *opt) {
  if (!opt) return;
  memset(opt, 0, sizeof *opt);
  opt->size = sizeof *opt;
  opt->start_time = 0;
  opt->stop_time = 1;
  opt->interval = 0;
  opt->rtol = 1e-6;
  opt->atol = 0;
  opt->max_step = 0;
  opt->solver = STICTION_SOLVER_CVODE_BDF;
  opt->linear_solver = STICTION_LINSOL_AUTO;
  opt->max_event_iterations = 100;
  opt->chatter_max_events = 100;
  opt->chatter_window = 1e-9;
  opt->record_events = 1;
  opt->progress = 0;
  opt->tick_rows = 0;
  opt->tick_restart = 0;
}

static int check_times(stiction_sim *sim) {
  const stiction_options *o = &sim->opt;
  if (o->size != sizeof *o)
    return st_sim_fail(sim, STICTION_ERR_ARG,
                       "options: size is %s (fill them with stiction_options_init())",
                       o->size ? "not sizeof(stiction_options) of this library" : "not set");
  if (!isfinite(o->start_time) || !isfinite(o->stop_time))
    return st_sim_fail(sim, STICTION_ERR_ARG, "start and stop time must be finite");
  /* stop == start is a run of one instant: the initialized model, one row (as other tools) */
  if (!(o->stop_time >= o->start_time))
    return st_sim_fail(sim, STICTION_ERR_ARG, "stop time %g must not be before start time %g",
                       o->stop_time, o->start_time);
  if (isnan(o->interval) || isinf(o->interval))
    return st_sim_fail(sim, STICTION_ERR_ARG, "output interval must be finite");
  if (isnan(o->max_step))
    return st_sim_fail(sim, STICTION_ERR_ARG, "max step must not be NaN");
  return STICTION_OK;
}

static int check_tolerances(stiction_sim *sim) {
  const stiction_options *o = &sim->opt;
  if (!(o->rtol > 0) || !isfinite(o->rtol))
    return st_sim_fail(sim, STICTION_ERR_ARG, "relative tolerance must be > 0 (got %g)", o->rtol);
  if (isnan(o->atol) || isinf(o->atol))
    return st_sim_fail(sim, STICTION_ERR_ARG, "absolute tolerance must be finite");
  return STICTION_OK;
}

static int check_events(stiction_sim *sim) {
  const stiction_options *o = &sim->opt;
  if (o->max_event_iterations < 1)
    return st_sim_fail(sim, STICTION_ERR_ARG, "max event iterations must be >= 1");
  if (o->chatter_max_events < 1 || o->chatter_max_events > 1000000)
    return st_sim_fail(sim, STICTION_ERR_ARG, "chatter event count must be in 1..1000000");
  if (!(o->chatter_window >= 0) || !isfinite(o->chatter_window))
    return st_sim_fail(sim, STICTION_ERR_ARG, "chatter window must be finite and >= 0");
  if ((unsigned)o->solver > STICTION_SOLVER_IDA)
    return st_sim_fail(sim, STICTION_ERR_ARG, "unknown solver %d", (int)o->solver);
  if ((unsigned)o->linear_solver > STICTION_LINSOL_KLU)
    return st_sim_fail(sim, STICTION_ERR_ARG, "unknown linear solver %d", (int)o->linear_solver);
  return STICTION_OK;
}

/* The output grid is bounded: every grid point is a result row, and (stop - start) /
 * interval as a count of rows must stay far from LONG_MAX (casting a larger double is
 * undefined) and from a run that never ends. Points closer than the resolution of double
 * times would repeat a time. */
static int check_grid(stiction_sim *sim, double span) {
  const stiction_options *o = &sim->opt;
  double points = span / sim->interval;
  if (!(points <= STICTION_MAX_OUTPUT_POINTS))
    return st_sim_fail(sim, STICTION_ERR_ARG,
                       "output interval %g gives %.3g output points over [%.10g, %.10g]; the limit "
                       "is %d (each point is a result row): use a larger interval",
                       sim->interval, points, o->start_time, o->stop_time,
                       STICTION_MAX_OUTPUT_POINTS);
  double t_max = fmax(fabs(o->start_time), fabs(o->stop_time));
  if (sim->interval < 8 * t_max * DBL_EPSILON)
    return st_sim_fail(sim, STICTION_ERR_ARG,
                       "output interval %g is below the resolution of time values near %g",
                       sim->interval, t_max);
  return STICTION_OK;
}

/* Validates options against the model and fills the derived ones (interval). */
int st_options_check(stiction_sim *sim) {
  int rc = check_times(sim);
  if (!rc) rc = check_tolerances(sim);
  if (!rc) rc = check_events(sim);
  if (rc) return rc;
  stiction_options *o = &sim->opt;
  double span = o->stop_time - o->start_time;
  sim->interval = o->interval > 0 ? o->interval : span / 500;
  if (sim->interval > span) sim->interval = span;
  rc = span > 0 ? check_grid(sim, span) : STICTION_OK;
  if (rc) return rc;
  if (sim->model->n_algebraic > 0 && o->solver != STICTION_SOLVER_IDA)
    return st_sim_fail(sim, STICTION_ERR_ARG,
                       "model %s has %d algebraic variables: use the IDA solver",
                       sim->model->name ? sim->model->name : "(unnamed)",
                       sim->model->n_algebraic);
  return STICTION_OK;
}
