/*
 * friction-block: the simple friction element of the MSL friction documentation
 * (Modelica.Mechanics.Rotational.UsersGuide.ModelingOfFriction; doc/benchmarks.md
 * §9), a mass pushed by a sine force over a dry-friction surface:
 *
 *   der(x) = v,   m der(v) = u - f,   u = U sin(2 pi freq t)
 *
 * The friction force follows a parameterized curve with the path parameter sa:
 *   Stuck (mode 0, locked):       a = 0,  f = f0 sa  (|sa| <= 1: static friction holds u)
 *   Forward (1) or starting fwd:  f =  f0 + f1 v
 *   Backward (-1) or starting bwd: f = -f0 + f1 v
 * With a = der(v), the curve gives m a / f0 = sa - 1 (forward), sa + 1 (backward), 0 (stuck);
 * in every mode this is the same continuous function sa = (u - f1 v) / f0 (v = 0 when stuck).
 *
 * Mode machine (discrete: mode, startFor, startBack; pre() = the values before the pass):
 *   startFor  = pre(mode) == Stuck and sa >= 1
 *   startBack = pre(mode) == Stuck and sa <= -1
 *   mode = Forward   if (pre(mode) == Forward or startFor) and v > 0
 *          Backward  if (pre(mode) == Backward or startBack) and v < 0
 *          Stuck     otherwise
 * so after break-away the element first "waits" in Stuck with startFor set (already
 * accelerating on the forward curve) and becomes Forward once v > 0, as in MSL.
 *
 * Indicators (continuous for fixed discrete values):
 *   g0 = sa - 1, g1 = sa + 1   while locked (constants otherwise: they cannot fire);
 *   g2 = v                     while sliding (it stops at v = 0);
 *   g2 = v - eps / v + eps     while waiting to start forward / backward: v is exactly 0 at
 *                              the restart, so the relation v > 0 gets the hysteresis eps of
 *                              stiction/model.h and fires once v = eps (Dymola does the same).
 * The relations use ">=": the root finder stops where sa - 1 has reached zero, and rounding
 * of sin() may leave sa at exactly 1.0 there; "> 1" would then miss the break-away and the
 * element would stay stuck for half a period.
 *
 * When the element sticks, v (which the root finder leaves at ~1e-16 past zero) is set to 0
 * exactly, so the locked phase is the exact v = 0 of the model.
 */
#include <math.h>
#include <stddef.h>

#include <stiction/model.h>

#include "demos/demo_impl.h"

enum { STUCK = 0, FORWARD = 1, BACKWARD = -1 };

typedef struct fb_data {
  double m, f0, f1, U, freq, x0, v0; /* parameters */
  int mode, start_for, start_back;   /* discrete state */
} fb_data;

static const double TWO_PI = 6.283185307179586;

static double fb_u(const fb_data *d, double t) { return d->U * sin(TWO_PI * d->freq * t); }

static double fb_sa(const fb_data *d, double t, double v) { return (fb_u(d, t) - d->f1 * v) / d->f0; }

static int fb_locked(const fb_data *d) {
  return d->mode == STUCK && !d->start_for && !d->start_back;
}

/* +1 on the forward curve, -1 on the backward curve, 0 locked. */
static int fb_direction(const fb_data *d) {
  if (d->mode == FORWARD || d->start_for) return 1;
  if (d->mode == BACKWARD || d->start_back) return -1;
  return 0;
}

static double fb_force(const fb_data *d, double t, double v) {
  int dir = fb_direction(d);
  return dir == 0 ? fb_u(d, t) : dir * d->f0 + d->f1 * v;
}

static int fb_start(void *ud, double t0, double *y, double *yp) {
  fb_data *d = ud;
  d->mode = STUCK; /* pre() values for the initial event iteration */
  d->start_for = d->start_back = 0;
  y[0] = d->x0;
  y[1] = d->v0;
  return 0;
}

static int fb_derivatives(void *ud, double t, const double *y, double *ydot) {
  const fb_data *d = ud;
  ydot[0] = y[1];
  ydot[1] = fb_locked(d) ? 0.0 : (fb_u(d, t) - fb_force(d, t, y[1])) / d->m;
  return 0;
}

static int fb_indicators(void *ud, double t, const double *y, const double *yp, double *g) {
  const fb_data *d = ud;
  double v = y[1], sa = fb_sa(d, t, v);
  int locked = fb_locked(d);
  g[0] = locked ? sa - 1.0 : 1.0;
  g[1] = locked ? sa + 1.0 : -1.0;
  if (d->mode != STUCK) g[2] = v;
  else if (d->start_for) g[2] = v - ST_DEMO_HYSTERESIS;
  else if (d->start_back) g[2] = v + ST_DEMO_HYSTERESIS;
  else g[2] = -1.0;
  return 0;
}

/* One pass of the mode machine above. At initial() the direction of a non-zero start
 * velocity decides the mode (MSL's "initial() and w > 0" terms). */
static int fb_event(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  fb_data *d = ud;
  double v = y[1], sa = fb_sa(d, t, v);
  int pm = d->mode;
  int sf = pm == STUCK && sa >= 1.0, sb = pm == STUCK && sa <= -1.0, mode = STUCK;
  if ((pm == FORWARD || sf || info->initial) && v > 0.0) mode = FORWARD;
  else if ((pm == BACKWARD || sb || info->initial) && v < 0.0) mode = BACKWARD;
  if (mode != d->mode || sf != d->start_for || sb != d->start_back)
    info->discrete_changed = info->equations_changed = 1;
  if (mode == STUCK && pm != STUCK) {
    y[1] = 0.0;
    info->states_changed = 1;
  }
  d->mode = mode;
  d->start_for = sf;
  d->start_back = sb;
  return 0;
}

static int fb_discrete(void *ud, double *out) {
  const fb_data *d = ud;
  out[0] = d->mode;
  out[1] = d->start_for;
  out[2] = d->start_back;
  return 0;
}

static int fb_outputs(void *ud, double t, const double *y, const double *yp, double *out) {
  const fb_data *d = ud;
  out[0] = y[0];
  out[1] = y[1];
  out[2] = fb_u(d, t);
  out[3] = fb_force(d, t, y[1]);
  out[4] = fb_sa(d, t, y[1]);
  out[5] = d->mode;
  return 0;
}

static const char *const fb_output_names[] = {"x", "v", "u", "f", "sa", "mode"};
static const char *const fb_state_names[] = {"x", "v"};
static const char *const fb_indicator_names[] = {"sa - 1 (start forward)",
                                                 "sa + 1 (start backward)", "v"};
static const char *const fb_discrete_names[] = {"mode", "startFor", "startBack"};

static const stiction_model fb_model = {
    .size = sizeof(stiction_model), .name = "friction-block",
    .n_states = 2,
    .n_indicators = 3,
    .n_discrete = 3,
    .n_outputs = 6,
    .output_names = fb_output_names,
    .state_names = fb_state_names,
    .indicator_names = fb_indicator_names,
    .discrete_names = fb_discrete_names,
    .start_values = fb_start,
    .derivatives = fb_derivatives,
    .indicators = fb_indicators,
    .event_update = fb_event,
    .get_discrete = fb_discrete,
    .outputs = fb_outputs,
};

#define P(field) offsetof(fb_data, field)
static const st_demo_param fb_params[] = {
    {"m", "mass [kg]", 1.0, 0.0, INFINITY, 1, P(m)},
    {"f0", "sliding friction force at v = 0+, also the static limit [N]", 1.0, 0.0, INFINITY, 1,
     P(f0)},
    {"f1", "viscous friction coefficient while sliding [N.s/m]", 0.1, 0.0, INFINITY, 0, P(f1)},
    {"U", "amplitude of the driving force u [N]", 1.5, -INFINITY, INFINITY, 0, P(U)},
    {"freq", "frequency of the driving force [Hz]", 0.5, -INFINITY, INFINITY, 0, P(freq)},
    {"x0", "start position [m]", 0.0, -INFINITY, INFINITY, 0, P(x0)},
    {"v0", "start velocity [m/s]", 0.0, -INFINITY, INFINITY, 0, P(v0)},
};
#undef P

const st_demo_def st_demo_friction_block = {
    .name = "friction-block",
    .description = "mass on a dry-friction surface pushed by a sine force (MSL simple friction "
                   "element; 19 mode transitions in 10 s)",
    .model = &fb_model,
    .data_size = sizeof(fb_data),
    .params = fb_params,
    .n_params = (int)(sizeof fb_params / sizeof fb_params[0]),
    .start_time = 0.0,
    .stop_time = 10.0,
    .interval = 0.02,
    .rtol = 1e-6,
};
