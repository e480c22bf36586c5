/* The table of external functions stiction provides (external.h): adapters from a flat list of
 * scalar arguments to the friction library's C signatures, returning the partials the library
 * computes. Argument order follows the C function (struct fields spelled out in order);
 * formulas: doc/friction.md, doc/bam.md section 3. */
#include "func/external.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stiction/bam.h>
#include <stiction/friction.h>

static double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

/* An Integer argument (a law or model number) as the C enumeration it stands for. */
static int as_int(double x) { return isfinite(x) && fabs(x) < 1e6 ? (int)lround(x) : -1; }

/* ---- sign(v) regularizations ----------------------------------------------------------- */

/* (law, v, w): every law is a function of v/w, so ds/dw = -(v/w) ds/dv. */
static double ext_sign(const double *x, double *g) {
  double d;
  double s = stiction_friction_sign((stiction_sign_law)as_int(x[0]), x[1], x[2], &d);
  if (g) {
    g[0] = 0;
    g[1] = d;
    g[2] = x[1] == 0 ? 0 : -x[1] / x[2] * d;
  }
  return s;
}

/* ---- Stribeck curve --------------------------------------------------------------------- */

/* Partials of g = Fc + (Fs - Fc) e, e = exp(-x^alpha), x = |v|/vs, with respect to
 * (Fc, Fs, vs, alpha); dgdv is the library's dg/dv. */
static void stribeck_param_partials(const stiction_stribeck *p, double v, double dgdv,
                                    double *g) {
  double x = fabs(v) / p->vs, xa = pow(x, p->alpha), e = exp(-xa);
  g[0] = 1 - e;
  g[1] = e;
  g[2] = v == 0 ? 0 : -v / p->vs * dgdv; /* g depends on v/vs */
  g[3] = x == 0 ? 0 : -(p->Fs - p->Fc) * e * xa * log(x);
}

/* (Fc, Fs, vs, alpha, v) */
static double ext_stribeck_g(const double *x, double *g) {
  stiction_stribeck p = {x[0], x[1], x[2], x[3], 0};
  double d;
  double y = stiction_friction_stribeck_g(&p, x[4], &d);
  if (g) {
    stribeck_param_partials(&p, x[4], d, g);
    g[4] = d;
  }
  return y;
}

/* (Fc, Fs, vs, alpha, Fv, law, w, v): F = s(v; w) g(v) + Fv v. */
static double ext_stribeck(const double *x, double *g) {
  stiction_stribeck p = {x[0], x[1], x[2], x[3], x[4]};
  stiction_sign_law law = (stiction_sign_law)as_int(x[5]);
  double dfdv;
  double y = stiction_friction_stribeck(&p, law, x[6], x[7], &dfdv);
  if (g) {
    double dgdv, sx[3] = {x[5], x[7], x[6]}, sg[3];
    double gv = stiction_friction_stribeck_g(&p, x[7], &dgdv);
    double s = ext_sign(sx, sg);
    stribeck_param_partials(&p, x[7], dgdv, g);
    for (int i = 0; i < 4; i++) g[i] *= s;
    if (s == 0) g[2] = g[3] = 0; /* s = 0 at v = 0: no infinite slope times 0 */
    g[4] = x[7];
    g[5] = 0;
    g[6] = sg[2] * gv;
    g[7] = dfdv;
  }
  return y;
}

/* (Fs, delta, v): Leine et al. 1998, g = Fs/(1 + delta |v|). */
static double ext_leine_g(const double *x, double *g) {
  double d;
  double y = stiction_friction_leine_g(x[0], x[1], x[2], &d);
  if (g) {
    double den = 1 + x[1] * fabs(x[2]);
    g[0] = 1 / den;
    g[1] = -x[0] * fabs(x[2]) / (den * den);
    g[2] = d;
  }
  return y;
}

/* ---- Karnopp ----------------------------------------------------------------------------- */

/* (v, f_app, dv, fs, fk): the kinetic level fk is an argument, so its slope reaches the
 * result through fk's own tangent (dF/dfk = -sign(v) outside the band), not through dfk. */
static double ext_karnopp(const double *x, double *g) {
  double dv, da;
  double y = stiction_friction_karnopp(x[0], x[1], x[2], x[3], x[4], 0, &dv, &da);
  if (g) {
    int inside = fabs(x[0]) < x[2];
    g[0] = dv;
    g[1] = da;
    g[2] = 0; /* piecewise constant in the band width, away from |v| = dv */
    g[3] = inside && da == 0 ? -sgn(x[1]) : 0; /* saturated: F = -sign(f_app) fs */
    g[4] = inside ? 0 : -(x[0] > 0 ? 1.0 : -1.0);
  }
  return y;
}

/* ---- Drake's continuous Stribeck coefficient -------------------------------------------- */

/* (speed, mu_s, mu_d, v_s) */
static double ext_drake_mu(const double *x, double *g) {
  double d;
  double y = stiction_friction_drake_mu(x[0], x[1], x[2], x[3], &d);
  if (g) {
    g[0] = d;
    g[1] = g[2] = g[3] = NAN;
  }
  return y;
}

/* ---- LuGre ------------------------------------------------------------------------------- */

/* (sigma0, sigma1, sigma2, Fc, Fs, vs, alpha, z, v): the state derivative (want_force 0) or
 * the force; partials in z and v from the library, the parameters' by differences. */
static double lugre(const double *x, double *g, int want_force) {
  stiction_lugre p = {x[0], x[1], x[2], x[3], x[4], x[5], x[6]};
  stiction_lugre_eval r;
  stiction_friction_lugre(&p, x[7], x[8], &r);
  if (g) {
    for (int i = 0; i < 7; i++) g[i] = NAN;
    g[7] = want_force ? r.dforce_dz : r.dzdot_dz;
    g[8] = want_force ? r.dforce_dv : r.dzdot_dv;
  }
  return want_force ? r.force : r.zdot;
}

static double ext_lugre_zdot(const double *x, double *g) { return lugre(x, g, 0); }
static double ext_lugre_force(const double *x, double *g) { return lugre(x, g, 1); }

/* (sigma0, sigma1, sigma2, g, z, v) with a caller-supplied steady-state level g (e.g. Leine's
 * slip law): g is an argument, so dg/dv reaches the result through g's tangent. */
static double lugre_g(const double *x, double *g, int want_force) {
  stiction_lugre_eval r;
  stiction_friction_lugre_g(x[0], x[1], x[2], x[3], 0, x[4], x[5], &r);
  if (g) {
    double dzdot_dg = x[0] * fabs(x[5]) * x[4] / (x[3] * x[3]);
    g[0] = g[1] = g[2] = NAN;
    g[3] = want_force ? x[1] * dzdot_dg : dzdot_dg;
    g[4] = want_force ? r.dforce_dz : r.dzdot_dz;
    g[5] = want_force ? r.dforce_dv : r.dzdot_dv;
  }
  return want_force ? r.force : r.zdot;
}

static double ext_lugre_g_zdot(const double *x, double *g) { return lugre_g(x, g, 0); }
static double ext_lugre_g_force(const double *x, double *g) { return lugre_g(x, g, 1); }

/* ---- BAM friction budget (doc/bam.md section 3) ------------------------------------------ */

/* (model, Kc, Kcs, ws, alpha, Kl, Kls, Km, Ke, Kms, Kes, Kmq, Keq, tau_m, tau_e, omega): the
 * frictionloss of model M1..M6 (the budget without Kv|omega|). */
static double ext_bam_frictionloss(const double *x, double *g) {
  stiction_bam_params p;
  memset(&p, 0, sizeof p);
  p.model = (stiction_bam_model)as_int(x[0]);
  p.Kc = x[1];
  p.Kcs = x[2];
  p.ws = x[3];
  p.alpha = x[4];
  p.Kl = x[5];
  p.Kls = x[6];
  p.Km = x[7];
  p.Ke = x[8];
  p.Kms = x[9];
  p.Kes = x[10];
  p.Kmq = x[11];
  p.Keq = x[12];
  double f;
  stiction_bam_friction(&p, x[13], x[14], x[15], &f, NULL);
  if (g) {
    g[0] = 0;
    for (int i = 1; i < 13; i++) g[i] = NAN;
    stiction_bam_friction_partials(&p, x[13], x[14], x[15], &g[13], &g[14], &g[15]);
  }
  return f;
}

/* ---- the table ---------------------------------------------------------------------------- */

static const st_extfn table[] = {
    {"stiction_friction_sign", 3, ext_sign},
    {"stiction_friction_stribeck_g", 5, ext_stribeck_g},
    {"stiction_friction_stribeck", 8, ext_stribeck},
    {"stiction_friction_leine_g", 3, ext_leine_g},
    {"stiction_friction_karnopp", 5, ext_karnopp},
    {"stiction_friction_drake_mu", 4, ext_drake_mu},
    {"stiction_friction_lugre_zdot", 9, ext_lugre_zdot},
    {"stiction_friction_lugre_force", 9, ext_lugre_force},
    {"stiction_friction_lugre_g_zdot", 6, ext_lugre_g_zdot},
    {"stiction_friction_lugre_g_force", 6, ext_lugre_g_force},
    {"stiction_bam_frictionloss", 16, ext_bam_frictionloss},
};
#define NTABLE (int)(sizeof table / sizeof table[0])

const st_extfn *st_extfn_find(const char *name) {
  for (int i = 0; name && i < NTABLE; i++)
    if (!strcmp(table[i].name, name)) return &table[i];
  return NULL;
}

void st_extfn_names(char *buf, size_t len) {
  size_t used = 0;
  if (!len) return;
  buf[0] = 0;
  for (int i = 0; i < NTABLE && used < len; i++) {
    int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", table[i].name);
    if (n < 0) return;
    used += (size_t)n;
  }
}

/* ---- binding a call ------------------------------------------------------------------------ */

static int count_causality(const st_ffunction *fn, st_causality c) {
  int n = 0;
  for (int i = 0; i < fn->nlocals; i++) n += fn->locals[i].causality == c;
  return n;
}

/* Position of local k among the inputs (the call's argument order). */
static int input_position(const st_ffunction *fn, int k) {
  int a = 0;
  for (int i = 0; i < k; i++) a += fn->locals[i].causality == ST_C_INPUT;
  return a;
}

/* The clause's argument list as input positions; the default call takes the inputs in order. */
static int bind_arguments(st_extcall *c, const st_ffunction *fn, int nargs) {
  int n = fn->external_nargs < 0 ? nargs : fn->external_nargs;
  if (n != c->fn->arity) return -1;
  for (int j = 0; j < n; j++) {
    int k = fn->external_nargs < 0 ? -1 : fn->external_args[j];
    c->from[j] = k < 0 ? j : input_position(fn, k);
    if (c->from[j] >= nargs) return -1;
  }
  return 0;
}

int st_extcall_bind(st_extcall *c, const st_ffunction *fn, int nargs, char *why, size_t len) {
  char known[1024];
  memset(c, 0, sizeof *c);
  c->fn = st_extfn_find(fn->external_name);
  if (!c->fn) {
    st_extfn_names(known, sizeof known);
    snprintf(why, len, "external function \"%s\" is not provided by stiction (known: %s); "
             "declared by '%s'", fn->external_name, known, fn->name);
    return -1;
  }
  if (fn->external_nargs == -2) {
    snprintf(why, len, "external function \"%s\" of '%s': every argument of the external call "
             "must name a scalar input", fn->external_name, fn->name);
    return -1;
  }
  if (count_causality(fn, ST_C_OUTPUT) != 1 || nargs != count_causality(fn, ST_C_INPUT) ||
      bind_arguments(c, fn, nargs)) {
    snprintf(why, len, "external function \"%s\" takes %d scalar arguments and returns one "
             "value; '%s' does not match", c->fn->name, c->fn->arity, fn->name);
    return -1;
  }
  return 0;
}

static void gather(const st_extcall *c, const double *args, double *x) {
  for (int j = 0; j < c->fn->arity; j++) x[j] = args[c->from[j]];
}

double st_extcall_eval(const st_extcall *c, const double *args) {
  double x[ST_EXTFN_MAX_ARGS] = {0};
  gather(c, args, x);
  return c->fn->eval(x, NULL);
}

double st_extcall_dual(const st_extcall *c, const double *args, const double *dargs,
                       double *dot) {
  double x[ST_EXTFN_MAX_ARGS] = {0}, dx[ST_EXTFN_MAX_ARGS] = {0}, g[ST_EXTFN_MAX_ARGS] = {0};
  double rest[ST_EXTFN_MAX_ARGS], t = 0, nx = 0, nd = 0;
  int n = c->fn->arity;
  gather(c, args, x);
  gather(c, dargs, dx);
  double y = c->fn->eval(x, g);
  for (int j = 0; j < n; j++) {
    int exact = !isnan(g[j]);
    rest[j] = exact ? 0 : dx[j];
    if (exact && dx[j] != 0) t += g[j] * dx[j];
    nx = fmax(nx, fabs(x[j]));
    nd = fmax(nd, fabs(rest[j]));
  }
  if (nd > 0) {
    /* a forward difference along the tangent of the arguments without partials only, with
     * the relative step sqrt(machine epsilon) of func_calls.c */
    double h = 1.4901161193847656e-08 * (1 + nx) / nd, xs[ST_EXTFN_MAX_ARGS];
    for (int j = 0; j < n; j++) xs[j] = x[j] + h * rest[j];
    t += (c->fn->eval(xs, NULL) - y) / h;
  }
  *dot = t;
  return y;
}
