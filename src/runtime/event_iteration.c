/* Event handling: the event iteration, restarts, left/right rows, the event record and
 * chattering detection. The semantics are described in doc/events.md. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <nvector/nvector_serial.h>

#include "runtime/runtime.h"

/* Two instants closer than this are one: the root finders of CVODE and IDA locate a root to
 * 100 units of rounding of t (their ttol, with |t| + |h|), so a state event that lies closer
 * to a time event than that is the same instant reported twice (four rows). Not more: CVODE
 * interpolates (CVodeGetDky) at most that far (its tfuzz) beyond its current time. */
static double coincidence_window(double t) { return 100 * DBL_EPSILON * fabs(t); }

int st_event_coincides(double t, double te) {
  return isfinite(te) && te >= t && te - t <= coincidence_window(t);
}

/* Which callback an event iteration repeats: event_update (initial() true or not) or the
 * terminal pass (model.h). */
enum { PHASE_EVENT, PHASE_INITIAL, PHASE_TERMINAL };

/* What the passes of one event iteration did, OR-ed over the passes. */
typedef struct iter_result {
  int iterations;
  int discrete_changed, states_changed, equations_changed, terminate;
  int clock_ticks;
  int yp_set;                  /* the last pass left f(t, y) in sim->yp (event_info.yp_set) */
  int other;                   /* a pass did more than tick clocks (stiction_event_info) */
  double next_time;            /* earliest time event scheduled by a pass, INFINITY if none */
  const char *message;
} iter_result;

static const char *disc_name(const stiction_sim *sim, int i, char *buf, size_t size) {
  if (sim->model->discrete_names && sim->model->discrete_names[i])
    return sim->model->discrete_names[i];
  snprintf(buf, size, "discrete[%d]", i);
  return buf;
}

static const char *ind_name(const stiction_sim *sim, int i, char *buf, size_t size) {
  if (sim->model->indicator_names && sim->model->indicator_names[i])
    return sim->model->indicator_names[i];
  snprintf(buf, size, "indicator[%d]", i);
  return buf;
}

/* Appends ", name" (or "name") to list, truncating silently: the message is one line. */
static void list_add(char *list, size_t size, const char *name) {
  size_t len = strlen(list);
  if (len + 3 >= size) return;
  snprintf(list + len, size - len, "%s%s", len ? ", " : "", name);
}

/* Names the discrete variables that differ between the last two passes. */
static int not_converged(stiction_sim *sim, double t) {
  char list[300] = "", buf[32];
  for (int i = 0; i < sim->nd; i++)
    if (sim->d_prev[i] != sim->d_cur[i] &&
        !(isnan(sim->d_prev[i]) && isnan(sim->d_cur[i])))
      list_add(list, sizeof list, disc_name(sim, i, buf, sizeof buf));
  return st_sim_fail(sim, STICTION_ERR_EVENT_ITER,
                     "event iteration at t = %.17g did not converge in %d passes; still changing: %s",
                     t, sim->opt.max_event_iterations,
                     list[0] ? list : "(unknown: the model reports no discrete values)");
}

static int schedule(stiction_sim *sim, double t, const stiction_event_info *info, iter_result *r) {
  if (!info->next_time_defined) return STICTION_OK;
  if (!(info->next_time > t) || !isfinite(info->next_time))
    return st_sim_fail(sim, STICTION_ERR_MODEL,
                       "event_update() at t = %.17g scheduled a time event at %.17g (must be later)",
                       t, info->next_time);
  if (info->next_time < r->next_time) r->next_time = info->next_time;
  return STICTION_OK;
}

static void accumulate(iter_result *r, const stiction_event_info *info) {
  r->discrete_changed |= info->discrete_changed;
  r->states_changed |= info->states_changed;
  r->equations_changed |= info->equations_changed;
  r->clock_ticks += info->clock_ticks;
  r->other |= !info->ticks_only;
  r->yp_set = info->yp_set;
  if (info->terminate) {
    r->terminate = 1;
    if (info->message) r->message = info->message;
  }
}

/* One pass of event_update; the last allowed pass also samples the discrete values around it
 * so that a failure can name what kept changing. */
static int one_pass(stiction_sim *sim, double t, int phase, int it, iter_result *r,
                    stiction_event_info *info) {
  int last = it == sim->opt.max_event_iterations - 1;
  if (last && st_call_discrete(sim, sim->d_prev)) return STICTION_ERR_CALLBACK;
  memset(info, 0, sizeof *info);
  info->initial = phase == PHASE_INITIAL;
  info->iteration = it;
  info->n_crossed = sim->n_crossed;
  info->crossed = sim->fired;
  info->crossed_dir = sim->fired_dir;
  int (*pass)(void *, double, double *, double *, stiction_event_info *) =
      phase == PHASE_TERMINAL ? sim->model->terminal : sim->model->event_update;
  int rc = pass(sim->ud, t, N_VGetArrayPointer(sim->y), N_VGetArrayPointer(sim->yp), info);
  if (rc)
    return st_sim_fail(sim, STICTION_ERR_CALLBACK, "%s: %s() failed (returned %d) at t = %.17g",
                       sim->model->name ? sim->model->name : "model",
                       phase == PHASE_TERMINAL ? "terminal" : "event_update", rc, t);
  accumulate(r, info);
  sim->stats.event_block_evals += info->block_evals;
  sim->stats.event_left_evals += info->left_evals;
  rc = schedule(sim, t, info, r);
  if (!rc && last && info->discrete_changed) {
    if (st_call_discrete(sim, sim->d_cur)) return STICTION_ERR_CALLBACK;
    return not_converged(sim, t);
  }
  return rc;
}

static int iterate(stiction_sim *sim, double t, int phase, iter_result *r) {
  memset(r, 0, sizeof *r);
  r->next_time = INFINITY;
  stiction_event_info info;
  for (int it = 0; it < sim->opt.max_event_iterations; it++) {
    int rc = one_pass(sim, t, phase, it, r, &info);
    if (rc) return rc;
    r->iterations = it + 1;
    if (!info.discrete_changed) break;
  }
  sim->stats.event_iterations += r->iterations;
  if (r->iterations > sim->stats.max_event_iterations)
    sim->stats.max_event_iterations = r->iterations;
  if (r->states_changed)
    return st_check_finite(sim, t, N_VGetArrayPointer(sim->y), sim->n, "event_update",
                           sim->model->state_names);
  return STICTION_OK;
}

/* A time event stays scheduled until it is reached or a pass schedules an earlier one. */
static void apply_schedule(stiction_sim *sim, const iter_result *r) {
  if (r->next_time < sim->next_time_event) sim->next_time_event = r->next_time;
}

static int changed_list(stiction_sim *sim) {
  int k = 0;
  for (int i = 0; i < sim->nd; i++)
    if (sim->d_before[i] != sim->d_cur[i]) sim->changed[k++] = i;
  return k;
}

static int notify(stiction_sim *sim, double t, stiction_event_kind kind, int n_fired,
                  int iterations, int restarted, int clock_ticks) {
  sim->stats.clock_ticks += clock_ticks;
  if (!sim->listener) return STICTION_OK;
  if (st_call_discrete(sim, sim->d_cur)) return STICTION_ERR_CALLBACK;
  stiction_event_record rec = {
      .time = t, .kind = kind, .n_fired = n_fired, .fired = sim->fired,
      .fired_direction = sim->fired_dir, .iterations = iterations,
      .n_changed = changed_list(sim), .changed = sim->changed,
      .before = sim->nd ? sim->d_before : NULL, .after = sim->nd ? sim->d_cur : NULL,
      .restarted = restarted, .clock_ticks = clock_ticks};
  int rc = sim->listener(sim->listener_ud, &rec);
  return rc ? st_sim_fail(sim, STICTION_ERR_CALLBACK, "event listener failed at t = %.17g", t)
            : STICTION_OK;
}

/* ---- chattering ---- */

static void ring_push(stiction_sim *sim, double t, int n_fired, int is_time) {
  int w = sim->ng + 1;
  int slot = sim->ring_head;
  unsigned char *f = sim->ring_fired + (size_t)slot * (size_t)w;
  memset(f, 0, (size_t)w);
  for (int k = 0; k < n_fired; k++) f[sim->fired[k]] = 1;
  f[sim->ng] = (unsigned char)is_time;
  sim->ring_t[slot] = t;
  sim->ring_head = (slot + 1) % sim->ring_size;
  if (sim->ring_count < sim->ring_size) sim->ring_count++;
}

static int chatter_fail(stiction_sim *sim, double t0, double t1) {
  char list[300] = "", buf[32];
  int w = sim->ng + 1;
  for (int i = 0; i <= sim->ng; i++) {
    int any = 0;
    for (int s = 0; s < sim->ring_count && !any; s++) any = sim->ring_fired[(size_t)s * w + i];
    if (any)
      list_add(list, sizeof list, i == sim->ng ? "time events" : ind_name(sim, i, buf, sizeof buf));
  }
  return st_sim_fail(sim, STICTION_ERR_CHATTER,
                     "chattering: %d events between t = %.17g and t = %.17g (limit %d in %g s); "
                     "involved: %s",
                     sim->ring_count, t0, t1, sim->opt.chatter_max_events, sim->opt.chatter_window,
                     list);
}

/* More than chatter_max_events events within chatter_window of model time is Zeno-like
 * behaviour: the ring holds the last chatter_max_events + 1 events, so the test is whether
 * the oldest of them is within the window of the newest. */
static int chatter_check(stiction_sim *sim, double t, int n_fired, int is_time) {
  ring_push(sim, t, n_fired, is_time);
  if (sim->ring_count < sim->ring_size) return STICTION_OK;
  double oldest = sim->ring_t[sim->ring_head];
  if (t - oldest > sim->opt.chatter_window) return STICTION_OK;
  return chatter_fail(sim, oldest, t);
}

/* ---- restarts ---- */

/* An indicator exactly zero after an event would make CVODE/IDA report "root at and very
 * near t" if they just continued; after a restart they instead ignore it until it leaves
 * zero, and then see its next sign change. */
static int indicator_at_zero(stiction_sim *sim, double t, int *zero) {
  *zero = 0;
  if (sim->ng == 0) return STICTION_OK;
  int rc = st_call_indicators(sim, t, N_VGetArrayPointer(sim->y), N_VGetArrayPointer(sim->yp),
                              sim->g);
  for (int i = 0; !rc && i < sim->ng; i++)
    if (sim->g[i] == 0) *zero = 1;
  return rc;
}

/* y moved along y' by the coincidence window w into probe (after the indicators there). */
static double *moved_state(stiction_sim *sim, double t) {
  double w = coincidence_window(t), *y1 = sim->probe + sim->ng;
  const double *y = N_VGetArrayPointer(sim->y), *yp = N_VGetArrayPointer(sim->yp);
  for (int i = 0; i < sim->n; i++) y1[i] = y[i] + w * yp[i];
  return y1;
}

/* A state event just after a time event, within the coincidence window: the root finder
 * would report it a few units of rounding later as an event of its own, with two more rows
 * (x = t reaching 0.5 on an indicator 1e7*(x - 0.5) while time = 0.5 is a time event). The
 * indicators at t + w with y moved along y' tell; those that change sign fire with the time
 * event, and *moved asks for y to be moved there before the event iteration, so that their
 * relations switch in it (the move is w*y', a few units of rounding). */
static int coincident_crossings(stiction_sim *sim, double t, int *n_fired, int *moved) {
  *n_fired = *moved = 0;
  if (sim->ng == 0) return STICTION_OK;
  double w = coincidence_window(t), *g1 = sim->probe, *y1 = moved_state(sim, t);
  const double *y = N_VGetArrayPointer(sim->y), *yp = N_VGetArrayPointer(sim->yp);
  int rc = st_call_indicators(sim, t, y, yp, sim->g);
  if (!rc) rc = st_call_indicators(sim, t + w, y1, yp, g1);
  for (int i = 0; !rc && i < sim->ng; i++)
    if (sim->g[i] * g1[i] < 0) {
      sim->fired[*n_fired] = i;
      sim->fired_dir[(*n_fired)++] = g1[i] > 0 ? 1 : -1;
    }
  *moved = *n_fired > 0;
  return rc;
}

/* A state event whose root finder stopped where a fired indicator is exactly zero (CVODE and
 * IDA stop on an exact zero; on a long step the interpolant's rounding is coarse enough that
 * this is likely: a ball bouncing on a floor, indicator h, stopped on h = 0 at its first
 * bounce without a step bound). The model would evaluate its relation on the boundary (h < 0
 * is false at h = 0), see no change and fall through the floor. As for a crossing just after
 * a time event (coincident_crossings), *moved asks for y to be moved along y' by the
 * coincidence window, where the indicator has left zero on the side it crossed to. */
static int zero_at_root(stiction_sim *sim, double t, int n_fired, int *moved) {
  *moved = 0;
  int zero = 0;
  int rc = n_fired ? st_call_indicators(sim, t, N_VGetArrayPointer(sim->y),
                                        N_VGetArrayPointer(sim->yp), sim->g)
                   : STICTION_OK;
  for (int k = 0; !rc && k < n_fired; k++) zero |= sim->g[sim->fired[k]] == 0;
  if (rc || !zero) return rc;
  double *g1 = sim->probe, *y1 = moved_state(sim, t);
  rc = st_call_indicators(sim, t + coincidence_window(t), y1, N_VGetArrayPointer(sim->yp), g1);
  for (int k = 0; !rc && k < n_fired; k++) {
    int i = sim->fired[k];
    if (sim->g[i] == 0 && g1[i] * sim->fired_dir[k] > 0) *moved = 1;
  }
  return rc;
}

static int restart(stiction_sim *sim, double t) {
  sim->ops->harvest(sim);
  sim->stats.restarts++;
  return sim->ops->reinit(sim, t);
}

static int fired_list(stiction_sim *sim, stiction_event_kind kind) {
  int n = 0;
  if (kind != STICTION_EVENT_STATE) return 0;
  if (sim->ops->root_info(sim, sim->rootsfound)) return 0;
  for (int i = 0; i < sim->ng; i++)
    if (sim->rootsfound[i]) {
      sim->fired[n] = i;
      sim->fired_dir[n++] = sim->rootsfound[i] > 0 ? 1 : -1;
    }
  return n;
}

/* y' = f(t, y) evaluated by the event handling (counted: tests see a skipped one). */
static int yp_eval(stiction_sim *sim, double t) {
  sim->stats.event_yp_evals++;
  return sim->ops->yp_at(sim, t, 1);
}

/* y' after the passes. At a time event that only ticked clocks and moved no state, the ODE
 * form's last pass left f(t, y) in sim->yp (the equations after the latches, evaluated with
 * the values the event left: stiction_event_info.yp_set), the y' an evaluation would give
 * again; a 1 kHz controller paid that evaluation at every tick. Other events evaluate: the
 * model's blocks then hold a continuous-time evaluation at t, from which a restart's first
 * Newton iterations start. */
static int yp_after(stiction_sim *sim, double t, const iter_result *r) {
  int tick = !r->states_changed && r->clock_ticks > 0 && !r->other;
  if (tick && r->yp_set && sim->ops == &st_cvode_ops) return STICTION_OK;
  return yp_eval(sim, t);
}

/* Decides on and performs the restart after the iteration. A newly scheduled time event at a
 * state event also restarts: the integrator may already have stepped past it. */
static int after_iteration(stiction_sim *sim, double t, stiction_event_kind kind,
                           const iter_result *r, int *restarted) {
  int rc = yp_after(sim, t, r);
  int zero = 0;
  if (!rc) rc = indicator_at_zero(sim, t, &zero);
  if (rc) return rc;
  int new_time_event = kind == STICTION_EVENT_STATE && isfinite(r->next_time);
  *restarted = r->states_changed || r->equations_changed || zero || new_time_event;
  st_sample_forget(sim); /* the indicators may differ after the event */
  /* passes that only ticked clocks and moved no state: the right-hand side jumped with the
   * held inputs, which the integrator may go through without a restart (cvode.c goes_on) */
  int ticks_only = !r->states_changed && r->clock_ticks > 0;
  if (*restarted && ticks_only && !r->other && !zero && !new_time_event && sim->ops->goes_on &&
      sim->ops->goes_on(sim, t)) {
    sim->stats.ticks_gone_on++;
    *restarted = 0;
  }
  if (!*restarted) return STICTION_OK;
  /* clock ticks that moved no state changed only held inputs: the Jacobian of before serves
   * (jacfd.c), and y' as evaluated above (reinit leaves it). Other restarts evaluate the model
   * again: the blocks' Newton then starts from the values just solved there, and a stiff
   * machine model (MSL QuasiStatic IMC_Transformer) failed at 0.67 s without that. */
  sim->jac_keep = ticks_only;
  rc = restart(sim, t);
  return rc || ticks_only ? rc : yp_eval(sim, t);
}

/* Whether the event ends the run by terminate(); its message is kept for
 * stiction_sim_terminated (the model's text may not outlive the pass). */
static int note_terminate(stiction_sim *sim, int rc, const iter_result *r) {
  if (rc || !r->terminate) return 0;
  sim->terminated = 1;
  snprintf(sim->terminate_message, sizeof sim->terminate_message, "%s",
           r->message ? r->message : "");
  return 1;
}

int st_event_handle(stiction_sim *sim, double t, stiction_event_kind kind, int *terminate) {
  double w0 = st_wall_now();
  int n_fired = fired_list(sim, kind), moved = 0, is_time = kind == STICTION_EVENT_TIME;
  if (kind == STICTION_EVENT_STATE) sim->stats.state_events++;
  else sim->stats.time_events++;
  if (is_time) sim->next_time_event = INFINITY;
  int rc = sim->ops->yp_at(sim, t, 0);
  memcpy(sim->yp_left, N_VGetArrayPointer(sim->yp), sizeof(double) * (size_t)sim->n);
  if (!rc && is_time) rc = coincident_crossings(sim, t, &n_fired, &moved);
  else if (!rc) rc = zero_at_root(sim, t, n_fired, &moved);
  if (moved && is_time) { /* one instant that is both: counted as both, reported as a state event */
    sim->stats.state_events++;
    kind = STICTION_EVENT_STATE;
  }
  if (!rc) rc = chatter_check(sim, t, n_fired, is_time);
  /* a time event may turn out to be a clock tick only, whose rows are left out: its left row
   * waits for the iteration */
  int hold = !rc && sim->opt.record_events && !sim->opt.tick_rows && is_time && !moved;
  if (!rc && sim->opt.record_events)
    rc = hold ? st_output_hold_left(sim, t) : st_output_row(sim, t);
  hold &= !rc;
  if (!rc && moved)
    memcpy(N_VGetArrayPointer(sim->y), sim->probe + sim->ng, sizeof(double) * (size_t)sim->n);
  if (!rc) rc = st_call_discrete(sim, sim->d_before);
  iter_result r = {0};
  sim->n_crossed = kind == STICTION_EVENT_STATE ? n_fired : 0;
  if (!rc) rc = iterate(sim, t, PHASE_EVENT, &r);
  sim->n_crossed = 0;
  int restarted = 0;
  if (!rc) {
    apply_schedule(sim, &r);
    r.states_changed |= moved; /* y was moved by w*y': the integrator restarts from it */
    rc = after_iteration(sim, t, kind, &r, &restarted);
  }
  int tick_only = !rc && hold && !r.other && r.clock_ticks > 0 && !r.states_changed;
  sim->rows_at_event = sim->opt.record_events && !tick_only;
  if (hold && !tick_only) { /* also after a failure: the rows before it are the result */
    int sent = st_output_left(sim);
    if (!rc) rc = sent;
  }
  if (!rc && sim->rows_at_event) rc = st_output_row(sim, t);
  if (!rc) rc = notify(sim, t, kind, n_fired, r.iterations, restarted, r.clock_ticks);
  *terminate = note_terminate(sim, rc, &r);
  sim->stats.wall_events += st_wall_now() - w0;
  return rc;
}

/* Inputs are held between steps, so their change is an event of its own: the right-hand
 * side jumps (a restart, always) and relations or discrete equations may switch. It writes
 * no rows: the step's end row was written before, the next grid row comes after. */
int st_event_inputs(stiction_sim *sim, double t, int *terminate) {
  double w0 = st_wall_now();
  iter_result r;
  int rc = sim->ops->yp_at(sim, t, 0);
  if (!rc) rc = st_call_discrete(sim, sim->d_before);
  if (!rc) rc = iterate(sim, t, PHASE_EVENT, &r);
  if (!rc) {
    apply_schedule(sim, &r);
    st_sample_forget(sim);
    rc = restart(sim, t);
  }
  if (!rc) rc = sim->ops->yp_at(sim, t, 1);
  *terminate = note_terminate(sim, rc, &r);
  sim->stats.wall_events += st_wall_now() - w0;
  return rc;
}

/* The initial event iteration at t0: passes with initial() true (the initialization: when
 * initial(), sample() at t0, pre() moving to the initialized values), then, as before any
 * integration pre(v) must equal v (Modelica 3.6 section 8.6), the event iteration with
 * initial() false from those values (PartialFriction's `initial() and w_relfric < 0` holds
 * startBackward only during initialization). Both belong to the start: one row at t0 with
 * the values they produced, as Dymola and OpenModelica write it. The integrator is created
 * after the iteration, from the values it produced. */
int st_event_initial(stiction_sim *sim, double t, int *terminate) {
  int rc = st_call_discrete(sim, sim->d_before);
  iter_result r, after;
  memset(&r, 0, sizeof r);
  memset(&after, 0, sizeof after);
  r.next_time = after.next_time = INFINITY;
  if (!rc && sim->model->event_update) rc = iterate(sim, t, PHASE_INITIAL, &r);
  if (!rc && sim->model->event_update && !r.terminate) rc = iterate(sim, t, PHASE_EVENT, &after);
  if (!rc) {
    r.iterations += after.iterations;
    r.clock_ticks += after.clock_ticks;
    if (after.next_time < r.next_time) r.next_time = after.next_time;
    if (after.terminate) {
      r.terminate = 1;
      r.message = after.message;
    }
    apply_schedule(sim, &r);
    rc = sim->ops->create(sim, t);
  }
  if (!rc) rc = sim->ops->yp_at(sim, t, 1);
  if (!rc) rc = st_output_row(sim, t);
  if (!rc) rc = notify(sim, t, STICTION_EVENT_INITIAL, 0, r.iterations, 0, r.clock_ticks);
  *terminate = note_terminate(sim, rc, &r);
  return rc;
}

/* The terminal pass (Modelica terminal()) once the run has ended: iterated like an event but
 * it schedules nothing and does not restart; when it changed something, one more row at t
 * holds the final values (the row before it is the last grid or event row). */
int st_event_terminal(stiction_sim *sim, double t) {
  if (!sim->model->terminal) return STICTION_OK;
  iter_result r;
  int rc = iterate(sim, t, PHASE_TERMINAL, &r);
  if (!rc && (r.discrete_changed || r.states_changed) && sim->opt.record_events)
    rc = st_output_row(sim, t);
  return rc;
}
