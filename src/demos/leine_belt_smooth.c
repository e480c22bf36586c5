/*
 * leine-belt-smooth: Leine's block on a moving belt (doc/benchmarks.md §1) with
 * the set-valued stick of the leine-belt demo replaced by a regularized friction law, the
 * alternatives of doc/benchmarks.md §1.3 and §2:
 *
 *   der(x) = v,   m der(v) + k x = F_T,   gamma = v - v_dr,   g(gamma) = Fs/(1 + delta |gamma|)
 *   law 1 arctan:  F_T = -g(gamma) (2/pi) atan(eps gamma)            (Leine's smoothing)
 *   law 2 tanh:    F_T = -g(gamma) tanh(eps gamma)
 *   law 3 Karnopp: |gamma| < eps (the velocity band DV): F_T cancels the spring force k x up
 *                  to Fs; outside: F_T = -sign(gamma) g(gamma)              (Karnopp 1985)
 *   law 4 LuGre:   der(z) = gamma - sigma0 |gamma| z / g(gamma),
 *                  F_T = -(sigma0 z + sigma1 der(z))          (Canudas de Wit et al. 1995)
 *
 * Every law is a function of include/stiction/friction.h; this file only wires them into the
 * model interface with their analytic Jacobian. The state vector is (x, v, z) for every law
 * so that one model table serves all four (der(z) = 0 except for LuGre).
 *
 * Karnopp is discontinuous at the band edges |gamma| = DV, and stiction/model.h wants the
 * right-hand side continuous while the discrete state is frozen: the demo keeps a discrete
 * "inside the band" flag, switched by one indicator |gamma| - DV (with the usual hysteresis),
 * and evaluates the law on the branch the flag selects. The other laws are smooth (LuGre has
 * a kink of der(z) at gamma = 0) and have no events.
 *
 * Default start: break-away, x = Fs/k = 1, v = v_dr = 0.2; for LuGre z0 = 0.01 (the start of
 * the reference computation of doc/benchmarks.md §1.3, whose periods the tests check).
 */
#include <math.h>
#include <stddef.h>

#include <stiction/friction.h>
#include <stiction/model.h>

#include "demos/demo_impl.h"

/* Defined here, registered in registry.c. */
extern const st_demo_def st_demo_leine_belt_smooth;

enum { LAW_ATAN = 1, LAW_TANH = 2, LAW_KARNOPP = 3, LAW_LUGRE = 4 };

typedef struct lbs_data {
  double k, m, Fs, vdr, delta, x0, v0, z0; /* the belt, as in leine-belt */
  double law, eps, sigma0, sigma1;        /* the friction law and its width */
  int inside;                              /* Karnopp: |gamma| < DV (frozen between events) */
} lbs_data;

/* Friction force F_T on the block and its partials d/dx, d/dv, d/dz; der(z) and its
 * partials for LuGre (zero otherwise). */
typedef struct lbs_eval {
  double F, dF_dx, dF_dv, dF_dz;
  double zdot, dzdot_dv, dzdot_dz;
} lbs_eval;

static int lbs_law(const lbs_data *d) { return (int)d->law; }

static void eval_sign_law(const lbs_data *d, stiction_sign_law law, double gam, lbs_eval *e) {
  double dg, ds;
  double g = stiction_friction_leine_g(d->Fs, d->delta, gam, &dg);
  double s = stiction_friction_sign(law, gam, 1.0 / d->eps, &ds);
  e->F = -g * s;
  e->dF_dv = -(dg * s + g * ds);
}

/* Karnopp on the branch the frozen flag selects: inside, the law sees gamma = 0 (always in
 * the band); outside, a band of zero width (never in it), so the branch cannot change
 * between events even where the integrator probes just past the edge. */
static void eval_karnopp(const lbs_data *d, double x, double gam, lbs_eval *e) {
  double dg, dfdv, dfdapp, f_app = -d->k * x;
  double fk = stiction_friction_leine_g(d->Fs, d->delta, gam, &dg);
  double dfk = gam < 0 ? -dg : dg; /* d g / d|gamma| from the odd dg/dgamma */
  e->F = d->inside ? stiction_friction_karnopp(0.0, f_app, d->eps, d->Fs, fk, dfk, &dfdv, &dfdapp)
                   : stiction_friction_karnopp(gam, f_app, 0.0, d->Fs, fk, dfk, &dfdv, &dfdapp);
  e->dF_dv = dfdv;
  e->dF_dx = -d->k * dfdapp;
}

static void eval_lugre(const lbs_data *d, double z, double gam, lbs_eval *e) {
  double dg;
  double g = stiction_friction_leine_g(d->Fs, d->delta, gam, &dg);
  stiction_lugre_eval l;
  stiction_friction_lugre_g(d->sigma0, d->sigma1, 0.0, g, dg, z, gam, &l);
  e->F = -l.force;
  e->dF_dv = -l.dforce_dv;
  e->dF_dz = -l.dforce_dz;
  e->zdot = l.zdot;
  e->dzdot_dv = l.dzdot_dv;
  e->dzdot_dz = l.dzdot_dz;
}

static void lbs_eval_at(const lbs_data *d, const double *y, lbs_eval *e) {
  *e = (lbs_eval){0};
  double gam = y[1] - d->vdr;
  switch (lbs_law(d)) {
  case LAW_ATAN: eval_sign_law(d, STICTION_SIGN_ATAN, gam, e); break;
  case LAW_TANH: eval_sign_law(d, STICTION_SIGN_TANH, gam, e); break;
  case LAW_KARNOPP: eval_karnopp(d, y[0], gam, e); break;
  default: eval_lugre(d, y[2], gam, e); break;
  }
}

/* The parameter table only checks ranges; the law must also be one of the four integers. */
static int lbs_start(void *ud, double t0, double *y, double *yp) {
  lbs_data *d = ud;
  int law = lbs_law(d);
  if (d->law != law || law < LAW_ATAN || law > LAW_LUGRE) return -1;
  y[0] = d->x0;
  y[1] = d->v0;
  y[2] = law == LAW_LUGRE ? d->z0 : 0.0;
  d->inside = fabs(y[1] - d->vdr) < d->eps;
  return 0;
}

static int lbs_derivatives(void *ud, double t, const double *y, double *ydot) {
  const lbs_data *d = ud;
  lbs_eval e;
  lbs_eval_at(d, y, &e);
  ydot[0] = y[1];
  ydot[1] = (-d->k * y[0] + e.F) / d->m;
  ydot[2] = e.zdot;
  return 0;
}

/* df/dy, column-major J[i + 3 j]. */
static int lbs_jacobian(void *ud, double t, const double *y, const double *ydot, double *J) {
  const lbs_data *d = ud;
  lbs_eval e;
  lbs_eval_at(d, y, &e);
  double col0[3] = {0.0, (-d->k + e.dF_dx) / d->m, 0.0};
  double col1[3] = {1.0, e.dF_dv / d->m, e.dzdot_dv};
  double col2[3] = {0.0, e.dF_dz / d->m, e.dzdot_dz};
  for (int i = 0; i < 3; i++) {
    J[i] = col0[i];
    J[i + 3] = col1[i];
    J[i + 6] = col2[i];
  }
  return 0;
}

/* Karnopp band edge |gamma| = DV, shifted by the hysteresis towards the current side
 * (stiction/model.h); a constant for the laws without events. */
static int lbs_indicators(void *ud, double t, const double *y, const double *yp, double *g) {
  const lbs_data *d = ud;
  if (lbs_law(d) != LAW_KARNOPP) {
    g[0] = 1.0;
    return 0;
  }
  double s = fabs(y[1] - d->vdr) - d->eps;
  g[0] = d->inside ? s - ST_DEMO_HYSTERESIS : s + ST_DEMO_HYSTERESIS;
  return 0;
}

static int lbs_event(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  lbs_data *d = ud;
  if (lbs_law(d) != LAW_KARNOPP) return 0;
  int inside = fabs(y[1] - d->vdr) < d->eps;
  if (inside != d->inside) info->discrete_changed = info->equations_changed = 1;
  d->inside = inside;
  return 0;
}

static int lbs_discrete(void *ud, double *out) {
  out[0] = ((const lbs_data *)ud)->inside;
  return 0;
}

static int lbs_outputs(void *ud, double t, const double *y, const double *yp, double *out) {
  const lbs_data *d = ud;
  lbs_eval e;
  lbs_eval_at(d, y, &e);
  out[0] = y[0];
  out[1] = y[1];
  out[2] = y[2];
  out[3] = e.F;
  return 0;
}

static const char *const lbs_output_names[] = {"x", "v", "z", "F"};
static const char *const lbs_state_names[] = {"x", "v", "z"};
static const char *const lbs_indicator_names[] = {"|gamma| - DV (Karnopp band)"};
static const char *const lbs_discrete_names[] = {"inside"};

static const stiction_model lbs_model = {
    .size = sizeof(stiction_model), .name = "leine-belt-smooth",
    .n_states = 3,
    .n_indicators = 1,
    .n_discrete = 1,
    .n_outputs = 4,
    .output_names = lbs_output_names,
    .state_names = lbs_state_names,
    .indicator_names = lbs_indicator_names,
    .discrete_names = lbs_discrete_names,
    .start_values = lbs_start,
    .derivatives = lbs_derivatives,
    .indicators = lbs_indicators,
    .event_update = lbs_event,
    .get_discrete = lbs_discrete,
    .outputs = lbs_outputs,
    .ode_jacobian = lbs_jacobian,
};

#define P(field) offsetof(lbs_data, field)
static const st_demo_param lbs_params[] = {
    {"law", "friction law: 1 arctan, 2 tanh, 3 Karnopp velocity band, 4 LuGre", 1.0, 1.0, 4.0,
     0, P(law)},
    {"eps", "width: arctan/tanh slope eps [s/m] (sign ~ s(eps gamma)), Karnopp band DV [m/s]",
     1e3, 0.0, INFINITY, 1, P(eps)},
    {"sigma0", "LuGre bristle stiffness [N/m]", 100.0, 0.0, INFINITY, 1, P(sigma0)},
    {"sigma1", "LuGre bristle damping [N s/m]", 20.0, 0.0, INFINITY, 0, P(sigma1)},
    {"k", "spring stiffness [N/m]", 1.0, 0.0, INFINITY, 1, P(k)},
    {"m", "mass [kg]", 1.0, 0.0, INFINITY, 1, P(m)},
    {"Fs", "static friction limit, also the slip force at gamma = 0 [N]", 1.0, 0.0, INFINITY, 1,
     P(Fs)},
    {"vdr", "belt velocity [m/s]", 0.2, -INFINITY, INFINITY, 0, P(vdr)},
    {"delta", "decay of the slip force, g = Fs/(1 + delta |gamma|) [s/m]", 3.0, 0.0, INFINITY, 0,
     P(delta)},
    {"x0", "start position [m] (break-away: Fs/k)", 1.0, -INFINITY, INFINITY, 0, P(x0)},
    {"v0", "start velocity [m/s] (break-away: vdr)", 0.2, -INFINITY, INFINITY, 0, P(v0)},
    {"z0", "LuGre start bristle deflection [m]", 0.01, -INFINITY, INFINITY, 0, P(z0)},
};
#undef P

const st_demo_def st_demo_leine_belt_smooth = {
    .name = "leine-belt-smooth",
    .description = "Leine's belt with a regularized law: arctan, tanh, Karnopp or LuGre "
                   "(parameter law, width eps)",
    .model = &lbs_model,
    .data_size = sizeof(lbs_data),
    .params = lbs_params,
    .n_params = (int)(sizeof lbs_params / sizeof lbs_params[0]),
    .start_time = 0.0,
    .stop_time = 60.0,
    .interval = 0.1,
    .rtol = 1e-6,
};
