/*
 * leine-belt: Leine's block on a moving belt (Leine, van Campen, de Kraker, van den Steen,
 * Nonlinear Dynamics 16 (1998); doc/benchmarks.md §1) with set-valued stick:
 *
 *   der(x) = v,   m der(v) + k x = F,   gamma = v - v_dr (velocity relative to the belt)
 *   slip (mode +1: gamma > 0, -1: gamma < 0):  F = -mode g(gamma),
 *        g(gamma) = Fs / (1 + delta |gamma|)   (stiction_friction_leine_g)
 *   stick (mode 0): gamma = 0, der(v) = 0; F = k x holds the block while |k x| <= Fs.
 *
 * Events (the event-driven scheme of doc/benchmarks.md §1.4):
 *   stick -> slip when the holding force exceeds the limit: k x > Fs (slip -), k x < -Fs
 *   (slip +); slip -> stick when gamma returns to zero with |k x| <= Fs (else the block slips
 *   on in the direction the spring pulls).
 * Indicators: g0 = k x - Fs - eps, g1 = k x + Fs + eps while stuck; g2 = gamma + mode eps
 * while slipping. The hysteresis eps (stiction/model.h) matters twice: the demo starts exactly
 * at break-away (x = Fs/k, v = v_dr: k x - Fs = 0), and every slip phase starts at
 * gamma = 0. On sticking, v is set to v_dr exactly.
 *
 * Limit cycle from break-away: period 12.001031 s (slip 4.295999 s, stick 7.705032 s),
 * x in [-0.5554, 1.1339], 2 mode transitions per period.
 */
#include <math.h>
#include <stddef.h>

#include <stiction/friction.h>
#include <stiction/model.h>

#include "demos/demo_impl.h"

typedef struct lb_data {
  double k, m, Fs, vdr, delta, x0, v0; /* parameters */
  int mode;                            /* 0 stick, +1 / -1 slip with gamma > 0 / < 0 */
} lb_data;

static int lb_start(void *ud, double t0, double *y, double *yp) {
  lb_data *d = ud;
  d->mode = 0;
  y[0] = d->x0;
  y[1] = d->v0;
  return 0;
}

static int lb_derivatives(void *ud, double t, const double *y, double *ydot) {
  const lb_data *d = ud;
  ydot[0] = y[1];
  if (d->mode == 0) {
    ydot[1] = 0.0;
    return 0;
  }
  double g = stiction_friction_leine_g(d->Fs, d->delta, y[1] - d->vdr, NULL);
  ydot[1] = (-d->k * y[0] - d->mode * g) / d->m;
  return 0;
}

static int lb_indicators(void *ud, double t, const double *y, const double *yp, double *g) {
  const lb_data *d = ud;
  double kx = d->k * y[0];
  g[0] = d->mode == 0 ? kx - d->Fs - ST_DEMO_HYSTERESIS : -1.0;
  g[1] = d->mode == 0 ? kx + d->Fs + ST_DEMO_HYSTERESIS : 1.0;
  g[2] = d->mode == 0 ? 1.0 : y[1] - d->vdr + d->mode * ST_DEMO_HYSTERESIS;
  return 0;
}

/* The mode a block with gamma = 0 takes: stuck if friction can hold the spring (|k x| = Fs
 * still holds: the start at break-away sticks for the eps of the indicator). */
static int lb_stick_or_slip(const lb_data *d, double x) {
  double kx = d->k * x;
  return kx > d->Fs ? -1 : kx < -d->Fs ? 1 : 0;
}

static int lb_event(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  lb_data *d = ud;
  double gam = y[1] - d->vdr;
  int mode = d->mode;
  if (info->initial && gam != 0.0) mode = gam > 0.0 ? 1 : -1;
  else if (mode == 0) mode = lb_stick_or_slip(d, y[0]);
  else if (gam * mode <= 0.0) mode = lb_stick_or_slip(d, y[0]);
  if (mode == 0 && y[1] != d->vdr) {
    y[1] = d->vdr;
    info->states_changed = 1;
  }
  if (mode != d->mode) info->discrete_changed = info->equations_changed = 1;
  d->mode = mode;
  return 0;
}

static int lb_discrete(void *ud, double *out) {
  out[0] = ((const lb_data *)ud)->mode;
  return 0;
}

static int lb_outputs(void *ud, double t, const double *y, const double *yp, double *out) {
  out[0] = y[0];
  out[1] = y[1];
  out[2] = ((const lb_data *)ud)->mode;
  return 0;
}

static const char *const lb_output_names[] = {"x", "v", "mode"};
static const char *const lb_state_names[] = {"x", "v"};
static const char *const lb_indicator_names[] = {"k*x - Fs (slip backward)",
                                                 "k*x + Fs (slip forward)", "gamma"};
static const char *const lb_discrete_names[] = {"mode"};

static const stiction_model lb_model = {
    .size = sizeof(stiction_model), .name = "leine-belt",
    .n_states = 2,
    .n_indicators = 3,
    .n_discrete = 1,
    .n_outputs = 3,
    .output_names = lb_output_names,
    .state_names = lb_state_names,
    .indicator_names = lb_indicator_names,
    .discrete_names = lb_discrete_names,
    .start_values = lb_start,
    .derivatives = lb_derivatives,
    .indicators = lb_indicators,
    .event_update = lb_event,
    .get_discrete = lb_discrete,
    .outputs = lb_outputs,
};

#define P(field) offsetof(lb_data, field)
static const st_demo_param lb_params[] = {
    {"k", "spring stiffness [N/m]", 1.0, 0.0, INFINITY, 1, P(k)},
    {"m", "mass [kg]", 1.0, 0.0, INFINITY, 1, P(m)},
    {"Fs", "static friction limit, also the slip force at gamma = 0 [N]", 1.0, 0.0, INFINITY, 1,
     P(Fs)},
    {"vdr", "belt velocity [m/s]", 0.2, -INFINITY, INFINITY, 0, P(vdr)},
    {"delta", "decay of the slip force, g = Fs/(1 + delta |gamma|) [s/m]", 3.0, 0.0, INFINITY, 0,
     P(delta)},
    {"x0", "start position [m] (break-away: Fs/k)", 1.0, -INFINITY, INFINITY, 0, P(x0)},
    {"v0", "start velocity [m/s] (break-away: vdr)", 0.2, -INFINITY, INFINITY, 0, P(v0)},
};
#undef P

const st_demo_def st_demo_leine_belt = {
    .name = "leine-belt",
    .description = "Leine's block on a moving belt, set-valued stick (period 12.00103 s)",
    .model = &lb_model,
    .data_size = sizeof(lb_data),
    .params = lb_params,
    .n_params = (int)(sizeof lb_params / sizeof lb_params[0]),
    .start_time = 0.0,
    .stop_time = 60.0,
    .interval = 0.1,
    .rtol = 1e-6,
};
