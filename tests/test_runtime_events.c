/* The runtime's events, through the public API with small models written here: the bouncing
 * ball's bounce times, time events hit exactly, events at the start time, simultaneous and
 * coinciding events, an indicator at zero at a restart, frozen modes with sampled indicators,
 * statistics over restarts, two handles side by side. Expected values are analytic. */
#include "runtime_util.h"

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
  stiction_model m = {.size = sizeof(stiction_model), .name = "ball", .n_states = 2, .n_indicators = 1, .n_discrete = 1,
                      .n_outputs = 2, .output_names = ball_names, .state_names = ball_names,
                      .indicator_names = ball_ind, .discrete_names = ball_disc,
                      .start_values = ball_start, .derivatives = ball_rhs};
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
  stiction_model m = {.size = sizeof(stiction_model), .n_states = 1, .n_discrete = 1, .n_outputs = 2, .output_names = tev_names,
                      .start_values = tev_start, .derivatives = tev_rhs, .event_update = tev_update,
                      .outputs = tev_out};
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
 * the start value of x, as PartialFriction does: start = initial() and x > 0 (startForward),
 * mode = 1 when (pre(mode) == 1 or start) and x > 0. After the passes with initial() true
 * (start = 1, mode = 1) the iteration with initial() false clears start and keeps the mode:
 * one row at t0 with mode 1 and start 0, as Dymola's results show PartialFriction. */
typedef struct mode0 {
  double mode, start;
} mode0;

static const char *const mode0_names[3] = {"x", "mode", "start"};

static int mode0_start(void *ud, double t0, double *y, double *yp) {
  ((mode0 *)ud)->mode = -1;
  ((mode0 *)ud)->start = 0;
  y[0] = 2;
  return 0;
}

static int mode0_rhs(void *ud, double t, const double *y, double *ydot) {
  ydot[0] = ((mode0 *)ud)->mode == 1 ? -1 : 1;
  return 0;
}

static int mode0_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  mode0 *s = ud;
  double start = info->initial && y[0] > 0;
  double want = (s->mode == 1 || start) && y[0] > 0 ? 1 : 0;
  if (want != s->mode || start != s->start) {
    s->mode = want;
    s->start = start;
    info->discrete_changed = 1;
    info->equations_changed = 1;
  }
  return 0;
}

static int mode0_disc(void *ud, double *d) {
  d[0] = ((mode0 *)ud)->mode;
  d[1] = ((mode0 *)ud)->start;
  return 0;
}

static int mode0_out(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = ((mode0 *)ud)->mode;
  out[2] = ((mode0 *)ud)->start;
  return 0;
}

START_TEST(event_at_t0_one_row_after_initialization) {
  mode0 s;
  stiction_model m = {.size = sizeof(stiction_model), .n_states = 1, .n_discrete = 2,
                      .n_outputs = 3, .output_names = mode0_names,
                      .start_values = mode0_start, .derivatives = mode0_rhs,
                      .event_update = mode0_update, .get_discrete = mode0_disc,
                      .outputs = mode0_out};
  stiction_options opt;
  stiction_options_init(&opt);
  opt.interval = 0.5;
  opt.start_time = 1;
  opt.stop_time = 2;
  rows r = {0};
  static evlog log;
  char err[512];
  ck_assert_msg(run(&m, &s, &opt, &r, &log, err, sizeof err) == 0, "%s", err);
  ck_assert_int_eq(r.n, 3);
  ck_assert(at(&r, 0, 0) == 1 && at(&r, 1, 0) == 1.5);
  ck_assert(at(&r, 0, 2) == 1 && at(&r, 0, 3) == 0);
  ck_assert(fabs(at(&r, 2, 1) - 1) < 1e-9); /* x' = -1 from x = 2 over one second */
  ck_assert_int_eq(log.n, 1);
  ck_assert_int_eq(log.e[0].kind, STICTION_EVENT_INITIAL);
  ck_assert_int_eq(log.e[0].n_changed, 1);
  ck_assert(log.e[0].before[0] == -1 && log.e[0].after[0] == 1);
  ck_assert(log.e[0].before[1] == 0 && log.e[0].after[1] == 0);
  ck_assert_int_eq(log.e[0].iterations, 4); /* 2 with initial() true, 2 after */
  /* a quiet start (nothing changes at t0) gives exactly one row at t0 too */
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
  stiction_model m = {.size = sizeof(stiction_model), .n_states = 1, .n_indicators = 1, .n_discrete = 2, .n_outputs = 3,
                      .output_names = coinc_names, .start_values = coinc_start,
                      .derivatives = simul_rhs, .indicators = coinc_ind,
                      .event_update = coinc_update, .get_discrete = coinc_disc,
                      .outputs = coinc_out};
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
  stiction_model m = {.size = sizeof(stiction_model), .name = "toy", .n_states = 1, .n_indicators = 2, .n_discrete = 2,
                      .n_outputs = 2, .output_names = toy_names, .discrete_names = toy_disc,
                      .start_values = toy_start, .derivatives = toy_rhs, .indicators = toy_ind,
                      .event_update = toy_update, .get_discrete = toy_disc_fn, .outputs = toy_out};
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

int main(void) {
  Suite *s = suite_create("runtime_events");
  TCase *tc = st_test_case(s, "runtime_events", 0, ST_TESTS(statistics_summed_over_restarts,
                           event_at_t0_one_row_after_initialization, samples_and_solver_roots_in_order,
                           two_handles_independent, grid_without_event_rows));
  tcase_add_loop_test(tc, bouncing_ball_times, 0, 3);
  tcase_add_loop_test(tc, time_events_hit_exactly, 0, 3);
  tcase_add_loop_test(tc, simultaneous_indicators, 0, 3);
  tcase_add_loop_test(tc, time_and_state_event_coincide, 0, 3);
  tcase_add_loop_test(tc, indicator_zero_at_restart_still_switches, 0, 3);
  tcase_add_loop_test(tc, frozen_mode_finds_all_crossings, 0, 3);
  tcase_add_loop_test(tc, frozen_pairs_found_between_samples, 0, 2);
  return st_test_main(s);
}
