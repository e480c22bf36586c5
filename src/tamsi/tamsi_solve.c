/* TAMSI Newton-Raphson iteration (doc/tamsi.md, Model) and its dense linear solves:
 * SUNDIALS' Cholesky for the symmetric one-way matrix and for M, the engine's LU with
 * partial pivoting (util/dense_lu.h) for the unsymmetric two-way matrix (section 4). */
#include <math.h>
#include <string.h>

#include <sundials/sundials_dense.h>

#include <stiction/stiction.h>

#include "tamsi/tamsi_internal.h"
#include "util/dense_lu.h"

/* The solver's arrays are double; SUNDIALS must be built for double precision. */
_Static_assert(sizeof(sunrealtype) == sizeof(double), "SUNDIALS must use double precision");

static bool all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++)
    if (!isfinite(x[i])) return false;
  return true;
}

/* Solves (s->jac) x = b in place (b becomes x). Cholesky needs a symmetric positive definite
 * matrix: a non-positive pivot is reported by SUNDIALS, a NaN one caught by the finiteness
 * check of the solution. Returns false on failure. */
static bool dense_solve(stiction_tamsi *s, bool symmetric, double *b) {
  sunindextype n = s->nv;
  if (n == 0) return true;
  if (symmetric) {
    if (SUNDlsMat_densePOTRF(s->jcols, n) != 0) return false;
    SUNDlsMat_densePOTRS(s->jcols, n, b);
  } else {
    if (st_dense_lu_solve(s->jac, n, s->piv, b)) return false;
  }
  return all_finite(b, s->nv);
}

static void mat_t_vec_add(const double *A, int rows, int cols, const double *x, double *y) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) y[j] += A[(size_t)i * (size_t)cols + (size_t)j] * x[i];
}

/* tau_f = Jt^T ft, tau = tau_f + Jn^T fn at the current forces. */
static void generalized_forces(stiction_tamsi *s) {
  int nv = s->nv, nc = s->nc;
  memset(s->tau_f, 0, (size_t)(nv > 0 ? nv : 1) * sizeof *s->tau_f);
  mat_t_vec_add(s->Jt, 2 * nc, nv, s->w.ft, s->tau_f);
  memcpy(s->tau, s->tau_f, (size_t)(nv > 0 ? nv : 1) * sizeof *s->tau);
  mat_t_vec_add(s->Jn, nc, nv, s->w.fn, s->tau);
}

/* No contacts: v = M^-1 p*, reported as one iteration with residual 0. */
static int solve_free(stiction_tamsi *s) {
  int nv = s->nv;
  if (nv > 0) memcpy(s->v, s->p_star, (size_t)nv * sizeof *s->v);
  for (int r = 0; r < nv; r++)
    for (int q = 0; q < nv; q++) s->jcols[q][r] = s->M[(size_t)r * (size_t)nv + (size_t)q];
  generalized_forces(s); /* zero: no contacts */
  s->iterations = 1;
  s->residuals[0] = 0;
  s->alphas[0] = 1;
  if (!dense_solve(s, true, s->v)) return STICTION_TAMSI_LINEAR_SOLVER_FAILED;
  return STICTION_TAMSI_SUCCESS;
}

static double norm2(const double *x, int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) sum += x[i] * x[i];
  return sqrt(sum);
}

/* The Newton step dv = -J^-1 R and its images in contact space; false if J is singular (or
 * not positive definite in the one-way case) or the step is not finite. */
static bool newton_step(stiction_tamsi *s, double dt) {
  int nv = s->nv, nc = s->nc;
  st_tamsi_jacobian(s, dt, NULL);
  for (int j = 0; j < nv; j++) s->dv[j] = -s->R[j];
  if (!dense_solve(s, s->scheme == ST_TAMSI_ONE_WAY, s->dv)) return false;
  for (int i = 0; i < nc; i++) {
    const double *jn = s->Jn + (size_t)i * (size_t)nv;
    double sum = 0;
    for (int j = 0; j < nv; j++) sum += jn[j] * s->dv[j];
    s->w.dvn[i] = sum;
  }
  for (int i = 0; i < 2 * nc; i++) {
    const double *jt = s->Jt + (size_t)i * (size_t)nv;
    double sum = 0;
    for (int j = 0; j < nv; j++) sum += jt[j] * s->dv[j];
    s->w.dvt[i] = sum;
  }
  return true;
}

/* One alpha for the whole update: the minimum over the contacts' limiters. */
static bool limit_step(stiction_tamsi *s, double *alpha) {
  double a = 1.0;
  for (int i = 0; i < s->nc; i++) {
    double ai;
    if (!st_tamsi_limiter(s->w.vt + 2 * i, s->w.dvt + 2 * i, s->cos_theta_max,
                          s->par.stiction_tolerance, s->par.relative_tolerance, &ai))
      return false;
    if (ai < a) a = ai;
  }
  *alpha = a;
  return true;
}

/* Section 5, in its exact order: forces are refreshed at the top of every iteration and the
 * convergence test (on the last full step, normal and tangential) comes after them, so all
 * reported quantities belong to the final v. */
static int iterate(stiction_tamsi *s, double dt) {
  double tol = s->par.relative_tolerance * s->par.stiction_tolerance;
  double vt_err = 2 * tol, vn_err = 2 * tol;
  for (int it = 0; it < s->par.max_iterations; it++) {
    st_tamsi_residual(s, s->v, dt, s->R);
    if (fmax(vt_err, vn_err) < tol) return STICTION_TAMSI_SUCCESS;
    if (!newton_step(s, dt)) return STICTION_TAMSI_LINEAR_SOLVER_FAILED;
    vn_err = norm2(s->w.dvn, s->nc);
    vt_err = norm2(s->w.dvt, 2 * s->nc);
    double alpha;
    if (!limit_step(s, &alpha)) return STICTION_TAMSI_ALPHA_SOLVER_FAILED;
    for (int j = 0; j < s->nv; j++) s->v[j] += alpha * s->dv[j];
    s->residuals[it] = vt_err;
    s->alphas[it] = alpha;
    s->iterations = it + 1;
  }
  /* The forces must describe the final v even when the loop ran out. */
  st_tamsi_update_forces(s, s->v, dt);
  return STICTION_TAMSI_MAX_ITERATIONS_REACHED;
}

int stiction_tamsi_solve(stiction_tamsi *s, double dt, const double *v_guess) {
  if (!s) return STICTION_ERR_ARG;
  if (s->scheme == ST_TAMSI_UNSET) return STICTION_ERR_STATE;
  if (!(dt > 0) || !isfinite(dt) || (!v_guess && s->nv > 0)) return STICTION_ERR_ARG;
  s->solved = true;
  s->iterations = 0;
  if (s->nc == 0) return solve_free(s);
  if (s->nv > 0) memcpy(s->v, v_guess, (size_t)s->nv * sizeof *s->v);
  int result = iterate(s, dt);
  generalized_forces(s);
  return result;
}
