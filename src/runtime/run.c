/* stiction_sim_run: set-up, the initial event, and the integration loop over output grid
 * points, time events and state events (doc/events.md). */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>

#include "runtime/runtime.h"

static void *alloc_n(size_t count, size_t size) { return calloc(count ? count : 1, size); }

static int alloc_work(stiction_sim *sim) {
  size_t ng = (size_t)sim->ng, nd = (size_t)sim->nd, nc = (size_t)sim->ncols;
  sim->ring_size = sim->opt.chatter_max_events + 1;
  sim->names = alloc_n(nc, sizeof *sim->names);
  sim->row = alloc_n(nc, sizeof(double));
  sim->row_left = alloc_n(nc, sizeof(double));
  sim->g = alloc_n(ng, sizeof(double));
  sim->rootsfound = alloc_n(ng, sizeof(int));
  sim->fired = alloc_n(ng, sizeof(int));
  sim->fired_dir = alloc_n(ng, sizeof(int));
  sim->probe = alloc_n(ng + (size_t)sim->n, sizeof(double));
  sim->yp_left = alloc_n((size_t)sim->n, sizeof(double));
  sim->d_before = alloc_n(nd, sizeof(double));
  sim->d_prev = alloc_n(nd, sizeof(double));
  sim->d_cur = alloc_n(nd, sizeof(double));
  sim->changed = alloc_n(nd, sizeof(int));
  sim->ring_t = alloc_n((size_t)sim->ring_size, sizeof(double));
  sim->ring_fired = alloc_n((size_t)sim->ring_size * (ng + 1), 1);
  sim->smp_found = alloc_n(ng, sizeof(int));
  sim->smp_prev = alloc_n(ng, sizeof(double));
  sim->smp_lo = alloc_n(ng, sizeof(double));
  sim->smp_hi = alloc_n(ng, sizeof(double));
  sim->smp_mid = alloc_n(ng, sizeof(double));
  int ok = sim->names && sim->row && sim->row_left && sim->g && sim->rootsfound && sim->fired &&
           sim->fired_dir && sim->probe && sim->yp_left && sim->d_before && sim->d_prev && sim->d_cur && sim->changed &&
           sim->ring_t && sim->ring_fired && sim->smp_found && sim->smp_prev &&
           sim->smp_lo && sim->smp_hi && sim->smp_mid;
  return ok ? STICTION_OK
            : st_sim_fail(sim, STICTION_ERR_NOMEM, "out of memory while setting up the run");
}

/* atol_i = atol * nominal_i, or rtol * 1e-2 * nominal_i when no atol is given. Again after
 * start_values(), which may set the model's nominal values (from its parameters). */
static void fill_tolerances(stiction_sim *sim) {
  double *a = N_VGetArrayPointer(sim->atolv), *id = N_VGetArrayPointer(sim->id);
  double base = sim->opt.atol > 0 ? sim->opt.atol : sim->opt.rtol * 1e-2;
  const double *nom = sim->model->nominal;
  for (int i = 0; i < sim->n; i++) {
    a[i] = base * (nom && isfinite(nom[i]) && nom[i] > 0 ? nom[i] : 1.0);
    id[i] = i < sim->nx ? 1.0 : 0.0;
  }
}

static int create_sundials(stiction_sim *sim) {
  if (st_sun_context_create(&sim->ctx))
    return st_sim_fail(sim, STICTION_ERR_NOMEM, "cannot create a SUNDIALS context");
  sim->y = N_VNew_Serial(sim->n, sim->ctx);
  sim->yp = N_VNew_Serial(sim->n, sim->ctx);
  sim->id = N_VNew_Serial(sim->n, sim->ctx);
  sim->atolv = N_VNew_Serial(sim->n, sim->ctx);
  sim->ys = N_VNew_Serial(sim->n, sim->ctx);
  if (!sim->y || !sim->yp || !sim->id || !sim->atolv || !sim->ys)
    return st_sim_fail(sim, STICTION_ERR_NOMEM, "out of memory while creating the solver's vectors");
  N_Vector mine[4] = {sim->y, sim->yp, sim->id, sim->atolv};
  for (int i = 0; i < 4; i++) st_nvector_use_fast_ops(mine[i]);
  N_VConst(0.0, sim->y);
  N_VConst(0.0, sim->yp);
  fill_tolerances(sim);
  sim->ops = sim->opt.solver == STICTION_SOLVER_IDA ? &st_ida_ops : &st_cvode_ops;
  return st_linsol_create(sim);
}

/* Output grid: start + k * interval for k = 0 .. grid_count - 1, the last point being stop
 * (a shorter last interval when the interval does not divide the span). Computed by
 * multiplication so that points do not drift by accumulated rounding. */
static void init_grid(stiction_sim *sim) {
  sim->grid_index = 1;
  if (!(sim->opt.stop_time > sim->opt.start_time)) { /* one instant: the start row only */
    sim->grid_count = 1;
    return;
  }
  double m = (sim->opt.stop_time - sim->opt.start_time) / sim->interval;
  sim->grid_count = (long)ceil(m - 1e-9) + 1;
  if (sim->grid_count < 2) sim->grid_count = 2;
}

static double grid_time(const stiction_sim *sim, long k) {
  if (k >= sim->grid_count - 1) return sim->opt.stop_time;
  return sim->opt.start_time + (double)k * sim->interval;
}

/* Why a bound by default: see doc/events.md, "Frozen modes". It is 1/500 of the run, not the
 * output interval: grid rows are interpolated, and a finer grid must not cost steps. CVODE
 * (driven one step at a time) keeps it by sampling the indicators inside longer steps, so its
 * steps are free; IDA (driven towards each grid point) still bounds its step, and so does a
 * model without indicators (nothing to sample; the bound keeps the rows of a failed run close
 * to the failure). A given max_step bounds the step; INFINITY turns both off. */
static void set_bound(stiction_sim *sim) {
  double bound = (sim->opt.stop_time - sim->opt.start_time) / 500;
  sim->sample_step = INFINITY;
  if (sim->opt.max_step > 0 || !(bound > 0)) return;
  if (sim->ops->sample_at && sim->ng > 0) sim->sample_step = bound;
  else sim->opt.max_step = bound;
}

static int prepare(stiction_sim *sim) {
  char msg[256];
  if (stiction_model_validate(sim->model, msg, sizeof msg))
    return st_sim_fail(sim, STICTION_ERR_ARG, "%s", msg);
  int rc = st_options_check(sim);
  if (rc) return rc;
  const stiction_model *m = sim->model;
  sim->nx = m->n_states;
  sim->n = m->n_states + m->n_algebraic;
  sim->ng = m->n_indicators;
  sim->nd = m->n_discrete;
  sim->ncols = 1 + m->n_outputs;
  init_grid(sim);
  rc = alloc_work(sim);
  if (!rc) rc = create_sundials(sim);
  if (!rc) set_bound(sim);
  return rc;
}

static int start(stiction_sim *sim, int *terminate) {
  double t0 = sim->opt.start_time;
  sim->t = t0;
  int rc = st_call_start(sim, t0, N_VGetArrayPointer(sim->y), N_VGetArrayPointer(sim->yp));
  if (!rc) fill_tolerances(sim);
  if (!rc) rc = st_event_initial(sim, t0, terminate);
  return rc;
}

/* True when b is so close to a that no integrator step fits between them. */
static int same_instant(double a, double b) {
  if (!isfinite(a) || !isfinite(b)) return 0;
  double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(b - a) <= 4 * DBL_EPSILON * (scale > 1 ? scale : 1);
}

/* Reached tout exactly: a time event there, else a grid row. */
static int at_tstop(stiction_sim *sim, double t, int *terminate) {
  int is_grid = t == grid_time(sim, sim->grid_index);
  int rc = STICTION_OK;
  /* a time event a rounding after the grid point (a clock's tick k/1000 against the grid's
   * k*0.001): the grid row comes with it (at_current), with the values after it, as its rows
   * did when every event wrote them; not past the stop time, where the run ends */
  if (is_grid && t != sim->next_time_event && sim->next_time_event <= sim->opt.stop_time &&
      same_instant(t, sim->next_time_event))
    return STICTION_OK;
  if (t == sim->next_time_event) {
    rc = st_event_handle(sim, t, STICTION_EVENT_TIME, terminate);
    /* the event rows stand for the grid row at the same instant */
    if (!rc && is_grid && !sim->rows_at_event) rc = st_output_row(sim, t);
  } else if (is_grid) {
    rc = st_output_row(sim, t);
  }
  if (is_grid) sim->grid_index++;
  return rc;
}

static int advance(stiction_sim *sim, double tout, double tstop, int *terminate) {
  double t = sim->t;
  int r = sim->ops->advance(sim, tout, tstop, &t);
  if (r < 0) return r;
  sim->t = t;
  if (r == ST_ADV_ROOT && st_event_coincides(t, sim->next_time_event)) {
    /* the time event is at the same instant: one event, at its exact time (time relations
     * take their right limit there), counted as both */
    sim->t = sim->next_time_event;
    sim->next_time_event = INFINITY;
    sim->stats.time_events++;
  }
  /* A zero crossing exactly at the stop time is not handled: the indicator only reaches zero
   * there, and the run ends with the values before it, as in Dymola's results (a PWM period
   * ending at the stop time would add a row of switched values that no reference has). */
  int at_end = t == sim->opt.stop_time && sim->grid_index == sim->grid_count - 1;
  if (r == ST_ADV_ROOT && !at_end) return st_event_handle(sim, sim->t, STICTION_EVENT_STATE, terminate);
  return at_tstop(sim, t, terminate);
}

/* Catches up with grid points and time events at the current instant (after a state event
 * exactly there, or one closer than the integrator can resolve). */
static int at_current(stiction_sim *sim, int *terminate, int *handled) {
  double t = sim->t;
  *handled = 1;
  if (sim->next_time_event <= t || same_instant(t, sim->next_time_event)) {
    int is_grid = same_instant(t, grid_time(sim, sim->grid_index));
    /* a grid point a few roundings before the event (0.2 + 0.2 + 0.2 > 0.6): the event at its
     * own time, where a time relation on that threshold takes its right limit (at the grid
     * time `time < 0.2 + 0.2 + 0.2` stayed true until the next event) */
    if (sim->next_time_event > t) sim->t = t = sim->next_time_event;
    int rc = st_event_handle(sim, t, STICTION_EVENT_TIME, terminate);
    if (!rc && is_grid && !sim->rows_at_event) rc = st_output_row(sim, t);
    if (is_grid) sim->grid_index++;
    return rc;
  }
  if (sim->grid_index < sim->grid_count && same_instant(t, grid_time(sim, sim->grid_index))) {
    sim->grid_index++; /* the event rows at t stand for this grid row, if it wrote them */
    return sim->rows_at_event ? STICTION_OK : st_output_row(sim, t);
  }
  *handled = 0;
  return STICTION_OK;
}

/* Integrates until the stop time, or until `until` (stepping: stiction_sim_advance) is
 * reached exactly: it is a stop time of the integrator like a time event, so inputs set
 * between two advances hold over the whole step. */
static int loop(stiction_sim *sim, double until) {
  int terminate = 0;
  while (!terminate && sim->grid_index < sim->grid_count && sim->t < until) {
    int handled, rc = at_current(sim, &terminate, &handled);
    if (rc) return rc;
    if (handled) continue;
    double tout = grid_time(sim, sim->grid_index), tstop = sim->opt.stop_time;
    if (sim->next_time_event < tstop) tstop = sim->next_time_event;
    if (until < tstop) tstop = until;
    if (tstop < tout) tout = tstop;
    rc = advance(sim, tout, tstop, &terminate);
    if (rc) return rc;
    st_progress_update(sim, sim->t);
  }
  sim->stopped |= terminate;
  return STICTION_OK;
}

static void finish(stiction_sim *sim, int status) {
  if (sim->mem) sim->ops->harvest(sim);
  st_progress_finish(sim);
  if (sim->sink.end) {
    double w0 = st_wall_now();
    sim->sink.end(sim->sink.user_data, status);
    sim->stats.wall_output += st_wall_now() - w0;
  }
  stiction_stats *s = &sim->stats;
  s->wall_total = st_wall_now() - sim->t_wall0;
  /* the rest is integration: no clock reads around each step (output.c says why) */
  s->wall_integrate = s->wall_total - s->wall_init - s->wall_events - s->wall_output;
  if (s->wall_integrate < 0) s->wall_integrate = 0;
}

/* Set-up, initialization and the initial event iteration at the start time. */
static int begin(stiction_sim *sim) {
  sim->ran = 1;
  sim->t_wall0 = st_wall_now();
  sim->t = sim->opt.start_time;
  int terminate = 0;
  int rc = prepare(sim);
  if (!rc) rc = st_output_begin(sim);
  if (!rc) rc = start(sim, &terminate);
  sim->stats.wall_init = st_wall_now() - sim->t_wall0;
  sim->stopped = terminate;
  return rc;
}

/* The terminal pass after a successful run, the message of a failure, the sink's end. */
static int end(stiction_sim *sim, int rc) {
  if (!rc) rc = st_event_terminal(sim, sim->t);
  if (rc && !sim->error) st_sim_fail(sim, rc, "%s", stiction_strerror(rc));
  finish(sim, rc);
  sim->ended = 1;
  return rc;
}

static int runs_once(stiction_sim *sim) {
  if (!sim) return STICTION_ERR_ARG;
  if (sim->ran)
    return st_sim_fail(sim, STICTION_ERR_STATE, "a simulation handle runs only once");
  return STICTION_OK;
}

int stiction_sim_run(stiction_sim *sim) {
  int rc = runs_once(sim);
  if (rc) return rc;
  rc = begin(sim);
  if (!rc && !sim->stopped) rc = loop(sim, INFINITY);
  return end(sim, rc);
}

int stiction_sim_start(stiction_sim *sim) {
  int rc = runs_once(sim);
  if (rc) return rc;
  rc = begin(sim);
  return rc ? end(sim, rc) : STICTION_OK;
}

/* A stepping call is valid between stiction_sim_start() and the end of the run. */
static int stepping(stiction_sim *sim) {
  if (!sim) return STICTION_ERR_ARG;
  if (!sim->ran || sim->ended)
    return st_sim_fail(sim, STICTION_ERR_STATE, "not between stiction_sim_start() and the end "
                       "of the run");
  return STICTION_OK;
}

int stiction_sim_advance(stiction_sim *sim, double t) {
  int rc = stepping(sim);
  if (rc) return rc;
  if (!(t >= sim->t) || t > sim->opt.stop_time)
    return st_sim_fail(sim, STICTION_ERR_ARG, "advance to t = %.17g: outside [%.17g, %.17g]", t,
                       sim->t, sim->opt.stop_time);
  if (sim->stopped) return STICTION_OK;
  rc = loop(sim, t);
  /* the model's last evaluation may be an iterate or a sample inside the step: evaluate it
   * at the time reached, so that what the caller reads of it belongs there */
  if (!rc) rc = sim->ops->yp_at(sim, sim->t, 0);
  if (!rc) rc = st_call_outputs(sim, sim->t, N_VGetArrayPointer(sim->y),
                                N_VGetArrayPointer(sim->yp), sim->row + 1);
  return rc ? end(sim, rc) : STICTION_OK;
}

int stiction_sim_inputs_changed(stiction_sim *sim) {
  int rc = stepping(sim);
  if (rc || sim->stopped) return rc;
  int terminate = 0;
  rc = st_event_inputs(sim, sim->t, &terminate);
  sim->stopped |= terminate;
  return rc ? end(sim, rc) : STICTION_OK;
}

int stiction_sim_finish(stiction_sim *sim) {
  int rc = stepping(sim);
  return rc ? rc : end(sim, STICTION_OK);
}

int stiction_sim_stopped(const stiction_sim *sim) {
  return sim && (sim->stopped || sim->ended || sim->grid_index >= sim->grid_count);
}
