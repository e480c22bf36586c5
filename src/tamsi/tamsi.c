/* TAMSI solver object: creation, parameters, problem set-up with size checks, getters.
 * The iteration itself is in tamsi_solve.c. Model and parameters: doc/tamsi.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "tamsi/tamsi_internal.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *stiction_tamsi_result_name(int result) {
  switch (result) {
  case STICTION_TAMSI_SUCCESS: return "success";
  case STICTION_TAMSI_MAX_ITERATIONS_REACHED: return "max_iterations_reached";
  case STICTION_TAMSI_LINEAR_SOLVER_FAILED: return "linear_solver_failed";
  case STICTION_TAMSI_ALPHA_SOLVER_FAILED: return "alpha_solver_failed";
  default: return "unknown";
  }
}

stiction_tamsi_params stiction_tamsi_default_params(void) {
  return (stiction_tamsi_params){.stiction_tolerance = 1.0e-4, .relative_tolerance = 1.0e-2,
                                 .theta_max = M_PI / 3.0, .max_iterations = 100};
}

static void set_error(stiction_tamsi *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->err, sizeof s->err, fmt, ap);
  va_end(ap);
}

/* Statistics hold one entry per allowed iteration (and at least one for nc = 0). */
static int grow_stats(stiction_tamsi *s, int n) {
  if (n <= s->stats_cap) return STICTION_OK;
  double *r = realloc(s->residuals, (size_t)n * sizeof *r);
  if (!r) return STICTION_ERR_NOMEM;
  s->residuals = r;
  double *a = realloc(s->alphas, (size_t)n * sizeof *a);
  if (!a) return STICTION_ERR_NOMEM;
  s->alphas = a;
  s->stats_cap = n;
  return STICTION_OK;
}

int stiction_tamsi_create(int nv, stiction_tamsi **out) {
  if (!out) return STICTION_ERR_ARG;
  *out = NULL;
  if (nv < 0) return STICTION_ERR_ARG;
  stiction_tamsi *s = calloc(1, sizeof *s);
  if (!s) return STICTION_ERR_NOMEM;
  s->nv = nv;
  size_t n = nv > 0 ? (size_t)nv : 1;
  s->v = calloc(n, sizeof *s->v);
  s->dv = calloc(n, sizeof *s->dv);
  s->R = calloc(n, sizeof *s->R);
  s->tau_f = calloc(n, sizeof *s->tau_f);
  s->tau = calloc(n, sizeof *s->tau);
  s->jac = calloc(n * n, sizeof *s->jac);
  s->jcols = calloc(n, sizeof *s->jcols);
  s->piv = calloc(n, sizeof *s->piv);
  s->scratch_a = calloc(n, sizeof *s->scratch_a);
  s->scratch_b = calloc(n, sizeof *s->scratch_b);
  s->par = stiction_tamsi_default_params();
  s->cos_theta_max = cos(s->par.theta_max);
  if (!s->v || !s->dv || !s->R || !s->tau_f || !s->tau || !s->jac || !s->jcols || !s->piv ||
      !s->scratch_a || !s->scratch_b ||
      grow_stats(s, s->par.max_iterations)) {
    stiction_tamsi_free(s);
    return STICTION_ERR_NOMEM;
  }
  for (int j = 0; j < nv; j++) s->jcols[j] = s->jac + (size_t)j * (size_t)nv;
  *out = s;
  return STICTION_OK;
}

static void free_work(st_tamsi_work *w) {
  free(w->vn); free(w->vt); free(w->fn); free(w->ft); free(w->dvn); free(w->dvt);
  free(w->that); free(w->mu_s); free(w->norm_s); free(w->dfn);
}

void stiction_tamsi_free(stiction_tamsi *s) {
  if (!s) return;
  free_work(&s->w);
  free(s->v); free(s->dv); free(s->R); free(s->tau_f); free(s->tau);
  free(s->jac); free(s->jcols); free(s->piv);
  free(s->scratch_a); free(s->scratch_b);
  free(s->residuals); free(s->alphas);
  free(s);
}

int stiction_tamsi_nv(const stiction_tamsi *s) { return s ? s->nv : 0; }
int stiction_tamsi_nc(const stiction_tamsi *s) { return s ? s->nc : 0; }
int st_tamsi_capacity(const stiction_tamsi *s) { return s ? s->w.cap : 0; }
const char *stiction_tamsi_error(const stiction_tamsi *s) { return s ? s->err : ""; }

static bool params_valid(const stiction_tamsi_params *p) {
  /* Written so that NaN fails every test. */
  return p->stiction_tolerance > 0 && isfinite(p->stiction_tolerance) &&
         p->relative_tolerance > 0 && p->relative_tolerance < 1 &&
         p->theta_max > 0 && p->theta_max <= M_PI && p->max_iterations >= 1;
}

int stiction_tamsi_set_params(stiction_tamsi *s, const stiction_tamsi_params *p) {
  if (!s || !p) return STICTION_ERR_ARG;
  if (!params_valid(p)) {
    set_error(s, "invalid parameters: need stiction_tolerance > 0, 0 < relative_tolerance < 1, "
                 "0 < theta_max <= pi, max_iterations >= 1");
    return STICTION_ERR_ARG;
  }
  int rc = grow_stats(s, p->max_iterations);
  if (rc) return rc;
  s->par = *p;
  s->cos_theta_max = cos(p->theta_max);
  return STICTION_OK;
}

stiction_tamsi_params stiction_tamsi_get_params(const stiction_tamsi *s) {
  return s ? s->par : stiction_tamsi_default_params();
}

/* Grows every per-contact array to hold nc contacts; on failure keeps the old capacity
 * (arrays already grown stay valid, realloc keeps the contents). */
static int grow_work(st_tamsi_work *w, int nc) {
  if (nc <= w->cap) return STICTION_OK;
  size_t n = (size_t)nc;
  double **one[] = {&w->vn, &w->fn, &w->dvn, &w->mu_s, &w->norm_s, &w->dfn};
  double **two[] = {&w->vt, &w->ft, &w->dvt, &w->that};
  for (size_t i = 0; i < sizeof one / sizeof one[0]; i++) {
    double *p = realloc(*one[i], n * sizeof *p);
    if (!p) return STICTION_ERR_NOMEM;
    *one[i] = p;
  }
  for (size_t i = 0; i < sizeof two / sizeof two[0]; i++) {
    double *p = realloc(*two[i], 2 * n * sizeof *p);
    if (!p) return STICTION_ERR_NOMEM;
    *two[i] = p;
  }
  w->cap = nc;
  return STICTION_OK;
}

static bool check_mat(stiction_tamsi *s, const char *name, stiction_tamsi_mat m, int rows,
                      int cols) {
  if (m.rows != rows || m.cols != cols) {
    set_error(s, "%s must be %d x %d, got %d x %d", name, rows, cols, m.rows, m.cols);
    return false;
  }
  if (!m.data && rows > 0 && cols > 0) {
    set_error(s, "%s has no data", name);
    return false;
  }
  return true;
}

static bool check_vec(stiction_tamsi *s, const char *name, stiction_tamsi_vec x, int size) {
  if (x.size != size) {
    set_error(s, "%s must have %d entries, got %d", name, size, x.size);
    return false;
  }
  if (!x.data && size > 0) {
    set_error(s, "%s has no data", name);
    return false;
  }
  return true;
}

/* Checks the part common to both schemes; nc is taken from Jn. */
static int check_common(stiction_tamsi *s, st_tamsi_scheme scheme, stiction_tamsi_mat M,
                        stiction_tamsi_mat Jn, stiction_tamsi_mat Jt, stiction_tamsi_vec p_star,
                        stiction_tamsi_vec mu) {
  if (s->scheme != ST_TAMSI_UNSET && s->scheme != scheme) {
    set_error(s, "this solver was set up for %s coupling; it cannot switch to %s coupling",
              s->scheme == ST_TAMSI_ONE_WAY ? "one-way" : "two-way",
              scheme == ST_TAMSI_ONE_WAY ? "one-way" : "two-way");
    return STICTION_ERR_STATE;
  }
  int nv = s->nv, nc = Jn.rows;
  if (nc < 0) {
    set_error(s, "Jn has a negative number of rows");
    return STICTION_ERR_ARG;
  }
  if (!check_mat(s, "M", M, nv, nv) || !check_mat(s, "Jn", Jn, nc, nv) ||
      !check_mat(s, "Jt", Jt, 2 * nc, nv) || !check_vec(s, "p_star", p_star, nv) ||
      !check_vec(s, "mu", mu, nc))
    return STICTION_ERR_ARG;
  return grow_work(&s->w, nc);
}

static void store_common(stiction_tamsi *s, st_tamsi_scheme scheme, stiction_tamsi_mat M,
                         stiction_tamsi_mat Jn, stiction_tamsi_mat Jt,
                         stiction_tamsi_vec p_star, stiction_tamsi_vec mu) {
  s->scheme = scheme;
  s->nc = Jn.rows;
  s->M = M.data;
  s->Jn = Jn.data;
  s->Jt = Jt.data;
  s->p_star = p_star.data;
  s->mu = mu.data;
  s->solved = false;
  s->err[0] = 0;
}

int stiction_tamsi_set_one_way(stiction_tamsi *s, stiction_tamsi_mat M, stiction_tamsi_mat Jn,
                               stiction_tamsi_mat Jt, stiction_tamsi_vec p_star,
                               stiction_tamsi_vec fn, stiction_tamsi_vec mu) {
  if (!s) return STICTION_ERR_ARG;
  int rc = check_common(s, ST_TAMSI_ONE_WAY, M, Jn, Jt, p_star, mu);
  if (rc) return rc;
  if (!check_vec(s, "fn", fn, Jn.rows)) return STICTION_ERR_ARG;
  store_common(s, ST_TAMSI_ONE_WAY, M, Jn, Jt, p_star, mu);
  s->fn_in = fn.data;
  s->fn0 = s->k = s->d = NULL;
  return STICTION_OK;
}

int stiction_tamsi_set_two_way(stiction_tamsi *s, stiction_tamsi_mat M, stiction_tamsi_mat Jn,
                               stiction_tamsi_mat Jt, stiction_tamsi_vec p_star,
                               stiction_tamsi_vec fn0, stiction_tamsi_vec stiffness,
                               stiction_tamsi_vec dissipation, stiction_tamsi_vec mu) {
  if (!s) return STICTION_ERR_ARG;
  int rc = check_common(s, ST_TAMSI_TWO_WAY, M, Jn, Jt, p_star, mu);
  if (rc) return rc;
  int nc = Jn.rows;
  if (!check_vec(s, "fn0", fn0, nc) || !check_vec(s, "stiffness", stiffness, nc) ||
      !check_vec(s, "dissipation", dissipation, nc))
    return STICTION_ERR_ARG;
  store_common(s, ST_TAMSI_TWO_WAY, M, Jn, Jt, p_star, mu);
  s->fn_in = NULL;
  s->fn0 = fn0.data;
  s->k = stiffness.data;
  s->d = dissipation.data;
  return STICTION_OK;
}

#define GETTER(name, expr)                                                                  \
  const double *stiction_tamsi_##name(const stiction_tamsi *s) {                            \
    return s && s->solved ? (expr) : NULL;                                                  \
  }
GETTER(v, s->v)
GETTER(vn, s->w.vn)
GETTER(vt, s->w.vt)
GETTER(fn, s->w.fn)
GETTER(ft, s->w.ft)
GETTER(tau_f, s->tau_f)
GETTER(tau, s->tau)
GETTER(residuals, s->residuals)
GETTER(alphas, s->alphas)
#undef GETTER

int stiction_tamsi_iterations(const stiction_tamsi *s) {
  return s && s->solved ? s->iterations : 0;
}

double stiction_tamsi_vt_residual(const stiction_tamsi *s) {
  if (!s || !s->solved || s->iterations < 1) return 0;
  return s->residuals[s->iterations - 1];
}
