/* Internals of the TAMSI solver shared by its files (tamsi.c: set-up and getters,
 * tamsi_forces.c: forces, residual and Newton matrix, tamsi_limiter.c, tamsi_solve.c) and
 * reachable by the tests. Model: doc/tamsi.md. */
#ifndef ST_FRICTION_TAMSI_INTERNAL_H
#define ST_FRICTION_TAMSI_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include <stiction/tamsi.h>

typedef enum st_tamsi_scheme { ST_TAMSI_UNSET, ST_TAMSI_ONE_WAY, ST_TAMSI_TWO_WAY } st_tamsi_scheme;

/* Per-contact work arrays; sized for `cap` contacts, grown on demand (never shrunk). */
typedef struct st_tamsi_work {
  int cap;
  double *vn, *vt, *fn, *ft; /* nc, 2nc, nc, 2nc */
  double *dvn, *dvt;         /* Newton step in contact space */
  double *that;              /* soft tangent t^ = vt/||vt||_s (2nc) */
  double *mu_s;              /* regularised mu(s) (nc) */
  double *norm_s;            /* soft norm ||vt||_s (nc) */
  double *dfn;               /* dfn/dvn (nc, two-way) */
} st_tamsi_work;

struct stiction_tamsi {
  int nv, nc;
  st_tamsi_scheme scheme;
  stiction_tamsi_params par;
  double cos_theta_max;
  /* borrowed problem data (row-major) */
  const double *M, *Jn, *Jt, *p_star, *fn_in, *fn0, *k, *d, *mu;
  st_tamsi_work w;
  /* nv-sized arrays and the Newton matrix (column-major for SUNDIALS' dense routines) */
  double *v, *dv, *R, *tau_f, *tau, *jac, **jcols;
  double *scratch_a, *scratch_b; /* nv each, for the Newton matrix assembly */
  int64_t *piv; /* LU row pivots (nv), util/dense_lu.h */
  int iterations;
  double *residuals, *alphas; /* max_iterations entries (at least 1) */
  int stats_cap;
  bool solved;
  char err[256];
};

/* Limiter of section 6 for one contact: vt and dvt are 2-vectors. Returns true with
 * *alpha in (0, 1], or false when the quadratic has no positive root (or inputs are NaN). */
bool st_tamsi_limiter(const double vt[2], const double dvt[2], double cos_theta_max, double v_s,
                      double rel_tol, double *alpha);

/* Refreshes vn, vt, fn (and dfn for two-way), the soft tangents, mu(s) and ft at velocity v
 * (nv entries) for step dt. */
void st_tamsi_update_forces(stiction_tamsi *s, const double *v, double dt);

/* R(v) = M v - p* - dt Jn^T fn(v) - dt Jt^T ft(v) (nv entries). Refreshes the forces. */
void st_tamsi_residual(stiction_tamsi *s, const double *v, double dt, double *R);

/* The Newton matrix J = dR/dv at the forces last refreshed (section 4), written
 * row-major into J (nv*nv) if J is not NULL, and column-major into s->jac otherwise. */
void st_tamsi_jacobian(stiction_tamsi *s, double dt, double *J);

/* Workspace capacity in contacts (grows on demand). */
int st_tamsi_capacity(const stiction_tamsi *s);

#endif
