/*
 * bouncing-ball: a ball dropped from height h0 onto a floor, restitution coefficient e:
 *
 *   der(h) = v,   der(v) = -g,   when h reaches 0 moving down: reinit(v, -e pre(v))
 *
 * Analytic bounce times (for the test): the first impact at t1 = sqrt(2 h0 / g) with speed
 * w1 = g t1; every bounce multiplies the speed by e and a flight with take-off speed w lasts
 * 2 w / g, so t(n+1) = t(n) + 2 e^n w1 / g, accumulating at t1 (1 + 2 e / (1 - e)) (Zeno):
 * 4.06 s for the defaults, so the default run stops at 3 s, after 6 bounces.
 *
 * Indicator: h + eps. After a bounce the ball sits at h = 0 with v > 0 and "h > 0" is
 * considered true, so the hysteresis eps of stiction/model.h keeps the indicator off zero at
 * the restart; the impact fires once h = -eps, and the bounce puts the ball back at h = 0.
 * Discrete variables: the number of bounces so far, and "resting".
 *
 * Resting: the bounces accumulate (Zeno) and the flights become too short for any integrator
 * to resolve; past t_inf a plain model falls through the floor. A rebound slower than v_min
 * therefore leaves the ball resting on the floor (h = v = 0, der(v) = 0 while resting).
 */
#include <math.h>
#include <stddef.h>

#include <stiction/model.h>

#include "demos/demo_impl.h"

typedef struct bb_data {
  double h0, v0, e, g, v_min; /* parameters */
  double bounces;             /* discrete state */
  int resting;
} bb_data;

static int bb_start(void *ud, double t0, double *y, double *yp) {
  bb_data *d = ud;
  d->bounces = 0.0;
  d->resting = 0;
  y[0] = d->h0;
  y[1] = d->v0;
  return 0;
}

static int bb_derivatives(void *ud, double t, const double *y, double *ydot) {
  const bb_data *d = ud;
  ydot[0] = y[1];
  ydot[1] = d->resting ? 0.0 : -d->g;
  return 0;
}

static int bb_indicators(void *ud, double t, const double *y, const double *yp, double *g) {
  g[0] = ((const bb_data *)ud)->resting ? 1.0 : y[0] + ST_DEMO_HYSTERESIS;
  return 0;
}

static int bb_event(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  bb_data *d = ud;
  if (d->resting || y[0] + ST_DEMO_HYSTERESIS > 0.0) return 0; /* not at the floor */
  if (y[1] >= d->v_min) return 0; /* already leaving: nothing to do */
  double w = y[1] < 0.0 ? -d->e * y[1] : 0.0;
  if (y[1] < 0.0) d->bounces += 1.0;
  if (w < d->v_min) {
    w = 0.0;
    d->resting = 1;
    info->equations_changed = 1;
  }
  y[0] = 0.0;
  y[1] = w;
  info->states_changed = 1;
  info->discrete_changed = 1;
  return 0;
}

static int bb_discrete(void *ud, double *out) {
  const bb_data *d = ud;
  out[0] = d->bounces;
  out[1] = d->resting;
  return 0;
}

static int bb_outputs(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = y[1];
  return 0;
}

static const char *const bb_output_names[] = {"h", "v"};
static const char *const bb_state_names[] = {"h", "v"};
static const char *const bb_indicator_names[] = {"h"};
static const char *const bb_discrete_names[] = {"bounces", "resting"};

static const stiction_model bb_model = {
    .size = sizeof(stiction_model), .name = "bouncing-ball",
    .n_states = 2,
    .n_indicators = 1,
    .n_discrete = 2,
    .n_outputs = 2,
    .output_names = bb_output_names,
    .state_names = bb_state_names,
    .indicator_names = bb_indicator_names,
    .discrete_names = bb_discrete_names,
    .start_values = bb_start,
    .derivatives = bb_derivatives,
    .indicators = bb_indicators,
    .event_update = bb_event,
    .get_discrete = bb_discrete,
    .outputs = bb_outputs,
};

#define P(field) offsetof(bb_data, field)
static const st_demo_param bb_params[] = {
    {"h0", "drop height [m]", 1.0, 0.0, INFINITY, 0, P(h0)},
    {"v0", "start velocity, up positive [m/s]", 0.0, -INFINITY, INFINITY, 0, P(v0)},
    {"e", "coefficient of restitution", 0.8, 0.0, 1.0, 0, P(e)},
    {"g", "gravity [m/s2]", 9.81, 0.0, INFINITY, 1, P(g)},
    {"v_min", "rebounds slower than this leave the ball resting [m/s]", 1e-3, 0.0, INFINITY, 0,
     P(v_min)},
};
#undef P

const st_demo_def st_demo_bouncing_ball = {
    .name = "bouncing-ball",
    .description = "ball bouncing on a floor (restitution e; analytic bounce times)",
    .model = &bb_model,
    .data_size = sizeof(bb_data),
    .params = bb_params,
    .n_params = (int)(sizeof bb_params / sizeof bb_params[0]),
    .start_time = 0.0,
    .stop_time = 3.0,
    .interval = 0.01,
    .rtol = 1e-6,
};
