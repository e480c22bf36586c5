/* TAMSI solver: the scenarios of Drake's own tests (PizzaSaver, RollingCylinder,
 * multiplicity, empty world, closed-form normal velocity), the Newton matrix against central
 * finite differences of the residual, result codes and set-up errors. */
#include <check.h>
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>
#include <stiction/tamsi.h>

#include "tamsi/tamsi_internal.h"

#define KTOL (10 * DBL_EPSILON)

static stiction_tamsi_mat mat(int r, int c, const double *d) {
  return (stiction_tamsi_mat){r, c, d};
}
static stiction_tamsi_vec vec(int n, const double *d) { return (stiction_tamsi_vec){n, d}; }

/* Central differences of R(v) against the analytic J at v (row-major), entry by entry:
 * |J - J_fd| <= rel * max(1, max |J|). Leaves the forces refreshed at v. */
static void check_jacobian(stiction_tamsi *s, const double *v, double dt, double h, double rel) {
  int nv = s->nv;
  double *J = calloc((size_t)(nv * nv), sizeof *J), *vp = malloc((size_t)nv * sizeof *vp);
  double *Rp = malloc((size_t)nv * sizeof *Rp), *Rm = malloc((size_t)nv * sizeof *Rm);
  st_tamsi_update_forces(s, v, dt);
  st_tamsi_jacobian(s, dt, J);
  double jmax = 1;
  for (int k = 0; k < nv * nv; k++) jmax = fmax(jmax, fabs(J[k]));
  for (int q = 0; q < nv; q++) {
    memcpy(vp, v, (size_t)nv * sizeof *vp);
    vp[q] = v[q] + h;
    st_tamsi_residual(s, vp, dt, Rp);
    vp[q] = v[q] - h;
    st_tamsi_residual(s, vp, dt, Rm);
    for (int r = 0; r < nv; r++) {
      double fd = (Rp[r] - Rm[r]) / (2 * h);
      ck_assert_msg(fabs(fd - J[r * nv + q]) <= rel * jmax, "J(%d,%d) = %.12g, fd %.12g", r, q,
                    J[r * nv + q], fd);
    }
  }
  st_tamsi_update_forces(s, v, dt);
  free(J); free(vp); free(Rp); free(Rm);
}

/* Complex-step derivative of an independent re-implementation of R(v) (spec sections 1-2,
 * section 8.4): branches are decided on the real parts, and the soft norm uses the analytic
 * sqrt(vt.vt + eps^2) (no modulus), so Im R(v + i h e_q) / h is dR/dv_q to round-off. */
static void residual_cs(const stiction_tamsi *s, const double complex *v, double dt,
                        double complex *R) {
  int nv = s->nv, nc = s->nc;
  double vs = s->par.stiction_tolerance, eps = s->par.relative_tolerance * vs;
  for (int r = 0; r < nv; r++) {
    R[r] = -s->p_star[r];
    for (int q = 0; q < nv; q++) R[r] += s->M[r * nv + q] * v[q];
  }
  for (int i = 0; i < nc; i++) {
    double complex vn = 0, vt[2] = {0, 0};
    for (int q = 0; q < nv; q++) {
      vn += s->Jn[i * nv + q] * v[q];
      vt[0] += s->Jt[(2 * i) * nv + q] * v[q];
      vt[1] += s->Jt[(2 * i + 1) * nv + q] * v[q];
    }
    double complex fn = s->scheme == ST_TAMSI_ONE_WAY ? s->fn_in[i] : 0;
    if (s->scheme == ST_TAMSI_TWO_WAY) {
      double complex damp = 1 - s->d[i] * vn, el = s->fn0[i] - dt * s->k[i] * vn;
      fn = (creal(damp) > 0 ? damp : 0) * (creal(el) > 0 ? el : 0);
    }
    double complex ns = csqrt(vt[0] * vt[0] + vt[1] * vt[1] + eps * eps), sr = ns / vs;
    double complex mus = creal(sr) < 1 ? s->mu[i] * sr * (2 - sr) : s->mu[i];
    for (int q = 0; q < nv; q++) {
      double complex ft0 = -mus * vt[0] / ns * fn, ft1 = -mus * vt[1] / ns * fn;
      R[q] -= dt * (s->Jn[i * nv + q] * fn + s->Jt[(2 * i) * nv + q] * ft0 +
                    s->Jt[(2 * i + 1) * nv + q] * ft1);
    }
  }
}

/* Drake's check of the Newton matrix at v: against the complex-step derivative, either
 * absolute within nv ||J||_F eps, or relative (|a - b| <= 40 eps max(1, |a|, |b|)). */
static void check_jacobian_cs(stiction_tamsi *s, const double *v, double dt, bool relative) {
  int nv = s->nv;
  double J[64];
  double complex vc[8], R[8];
  ck_assert_int_le(nv, 8);
  st_tamsi_update_forces(s, v, dt);
  st_tamsi_jacobian(s, dt, J);
  double frob = 0;
  for (int k = 0; k < nv * nv; k++) frob += J[k] * J[k];
  double abs_tol = nv * sqrt(frob) * DBL_EPSILON, h = 1e-30;
  for (int q = 0; q < nv; q++) {
    for (int j = 0; j < nv; j++) vc[j] = v[j] + (j == q ? h * I : 0);
    residual_cs(s, vc, dt, R);
    for (int r = 0; r < nv; r++) {
      double a = J[r * nv + q], b = cimag(R[r]) / h;
      double tol = relative ? 40 * DBL_EPSILON * fmax(1, fmax(fabs(a), fabs(b))) : abs_tol;
      ck_assert_msg(fabs(a - b) <= tol, "J(%d,%d) = %.17g, complex step %.17g", r, q, a, b);
    }
  }
}

/* ---- PizzaSaver (section 8.2): one-way, 3 contacts, nv = 3 ---- */

typedef struct pizza {
  double M[9], Jn[9], Jt[18], p_star[3], fn[3], mu[3], v0[3];
} pizza;

static void pizza_init(pizza *p, double Mz) {
  memset(p, 0, sizeof *p);
  double th = M_PI / 5, c = cos(th), s = sin(th);
  double legs[3][2] = {{-sqrt(3.0) / 2, -0.5}, {sqrt(3.0) / 2, -0.5}, {0, 1}};
  for (int i = 0; i < 3; i++) {
    double x = c * legs[i][0] + s * legs[i][1], y = -s * legs[i][0] + c * legs[i][1];
    double *r0 = p->Jt + 6 * i, *r1 = r0 + 3;
    r0[0] = 1; r0[2] = -y;
    r1[1] = 1; r1[2] = x;
    p->fn[i] = 10.0 / 3;
    p->mu[i] = 0.5;
    p->M[4 * i] = 1;
  }
  p->p_star[2] = 1e-3 * Mz;
}

static stiction_tamsi *pizza_solver(pizza *p, int *result) {
  stiction_tamsi *s;
  ck_assert_int_eq(stiction_tamsi_create(3, &s), STICTION_OK);
  stiction_tamsi_params par = stiction_tamsi_default_params();
  par.stiction_tolerance = 1e-6;
  par.relative_tolerance = 1e-4;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &par), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, p->M), mat(3, 3, p->Jn),
                                              mat(6, 3, p->Jt), vec(3, p->p_star),
                                              vec(3, p->fn), vec(3, p->mu)),
                   STICTION_OK);
  *result = stiction_tamsi_solve(s, 1e-3, p->v0);
  return s;
}

static double slip(const double *vt, int i) { return hypot(vt[2 * i], vt[2 * i + 1]); }

/* Independent scalar model of the symmetric solution: I w = dt [Mz - 3 R fn mu(s) u/||u||_s],
 * u = R w, solved by bisection (section 8.2). */
static double pizza_omega_bisection(double Mz) {
  double vs = 1e-6, eps = 1e-10, fn = 10.0 / 3, lo = 0, hi = 1e-3 * Mz;
  for (int k = 0; k < 200; k++) {
    double w = 0.5 * (lo + hi), ns = sqrt(w * w + eps * eps), sr = ns / vs;
    double mus = sr < 1 ? 0.5 * sr * (2 - sr) : 0.5;
    double f = w - 1e-3 * (Mz - 3 * fn * mus * w / ns);
    if (f > 0) hi = w; else lo = w;
  }
  return 0.5 * (lo + hi);
}

START_TEST(pizza_small_applied_moment) {
  pizza p;
  pizza_init(&p, 3);
  int rc;
  stiction_tamsi *s = pizza_solver(&p, &rc);
  ck_assert_int_eq(rc, STICTION_TAMSI_SUCCESS);
  ck_assert_double_lt(stiction_tamsi_vt_residual(s), 1e-10);
  const double *tf = stiction_tamsi_tau_f(s), *v = stiction_tamsi_v(s), *vt = stiction_tamsi_vt(s);
  ck_assert_double_eq_tol(tf[0], 0, KTOL);
  ck_assert_double_eq_tol(tf[1], 0, KTOL);
  ck_assert_double_eq_tol(tf[2], -3, 5e-4);
  ck_assert_double_eq_tol(tf[2], -2.99963251328353, 1e-12);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(slip(vt, i), slip(vt, 0), KTOL);
    ck_assert_double_lt(slip(vt, i), 1e-6);
  }
  ck_assert_double_eq_tol(v[0], 0, KTOL);
  ck_assert_double_eq_tol(v[1], 0, KTOL);
  ck_assert_double_eq_tol(v[2], 3.67486369835958e-7, 3.67486369835958e-7 * 1e-12);
  /* Newton stops on the size of its last step, e = 1.44e-11 after 5.62e-9 (spec residuals).
   * With quadratic convergence e' ~ C e^2 and C ~ 1.44e-11 / 5.62e-9^2 ~ 4.6e5, so the
   * error left is ~1e-16, inside 1e-15. */
  ck_assert_double_eq_tol(v[2], pizza_omega_bisection(3), 1e-15);
  /* the last residual is the last entry of the per-iteration statistics */
  int n = stiction_tamsi_iterations(s);
  ck_assert_int_ge(n, 1);
  ck_assert_double_eq(stiction_tamsi_residuals(s)[n - 1], stiction_tamsi_vt_residual(s));
  check_jacobian(s, v, 1e-3, 1e-10, 1e-6);
  check_jacobian_cs(s, v, 1e-3, false);
  stiction_tamsi_free(s);
}
END_TEST

START_TEST(pizza_large_applied_moment) {
  pizza p;
  pizza_init(&p, 6);
  int rc;
  stiction_tamsi *s = pizza_solver(&p, &rc);
  ck_assert_int_eq(rc, STICTION_TAMSI_SUCCESS);
  ck_assert_double_lt(stiction_tamsi_vt_residual(s), 1e-10);
  const double *tf = stiction_tamsi_tau_f(s), *v = stiction_tamsi_v(s), *vt = stiction_tamsi_vt(s);
  ck_assert_double_eq_tol(tf[0], 0, KTOL);
  ck_assert_double_eq_tol(tf[1], 0, KTOL);
  ck_assert_double_eq_tol(tf[2], -5, 1e-13);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(slip(vt, i), slip(vt, 0), KTOL);
    ck_assert_double_gt(slip(vt, i), 1e-6);
    ck_assert_double_eq_tol(slip(vt, i), 1.0 * v[2], KTOL);
  }
  ck_assert_double_eq_tol(v[0], 0, KTOL);
  ck_assert_double_eq_tol(v[1], 0, KTOL);
  ck_assert_double_eq_tol(v[2], 1e-3 * (6 - 5) / 1.0, KTOL);
  check_jacobian(s, v, 1e-3, 1e-8, 1e-6);
  check_jacobian_cs(s, v, 1e-3, false);
  stiction_tamsi_free(s);
}
END_TEST

START_TEST(pizza_no_contact) {
  double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, p_star[3] = {0, 0, 6e-3}, v0[3] = {0, 0, 0};
  stiction_tamsi *s;
  ck_assert_int_eq(stiction_tamsi_create(3, &s), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, M), mat(0, 3, NULL), mat(0, 3, NULL),
                                              vec(3, p_star), vec(0, NULL), vec(0, NULL)),
                   STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, v0), STICTION_TAMSI_SUCCESS);
  const double *v = stiction_tamsi_v(s), *tf = stiction_tamsi_tau_f(s);
  for (int j = 0; j < 3; j++) ck_assert(tf[j] == 0);
  ck_assert_int_eq(stiction_tamsi_iterations(s), 1);
  ck_assert(stiction_tamsi_vt_residual(s) == 0);
  ck_assert_double_eq_tol(v[0], 0, KTOL);
  ck_assert_double_eq_tol(v[1], 0, KTOL);
  ck_assert_double_eq_tol(v[2], 6e-3, KTOL);
  ck_assert_int_eq(stiction_tamsi_nc(s), 0);
  stiction_tamsi_free(s);
}
END_TEST

/* The convergence test runs at the top of an iteration: converging on the last allowed
 * update still reports MAX_ITERATIONS_REACHED (section 5). */
START_TEST(pizza_max_iterations) {
  pizza p;
  pizza_init(&p, 3);
  int rc;
  stiction_tamsi *s = pizza_solver(&p, &rc);
  ck_assert_int_eq(rc, STICTION_TAMSI_SUCCESS);
  int n = stiction_tamsi_iterations(s);
  stiction_tamsi_params par = stiction_tamsi_get_params(s);
  par.max_iterations = n;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &par), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, p.v0), STICTION_TAMSI_MAX_ITERATIONS_REACHED);
  ck_assert_int_eq(stiction_tamsi_iterations(s), n);
  par.max_iterations = n + 1;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &par), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, p.v0), STICTION_TAMSI_SUCCESS);
  par.max_iterations = 1;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &par), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, p.v0), STICTION_TAMSI_MAX_ITERATIONS_REACHED);
  /* the reported forces belong to the final iterate */
  double R[3];
  const double *ft = stiction_tamsi_ft(s);
  double ft0 = ft[0];
  st_tamsi_residual(s, stiction_tamsi_v(s), 1e-3, R);
  ck_assert_double_eq(s->w.ft[0], ft0);
  stiction_tamsi_free(s);
}
END_TEST

/* A negative definite mass matrix without friction load: the one-way Cholesky
 * factorization meets a negative pivot. */
START_TEST(pizza_indefinite_mass_fails_linear_solver) {
  pizza p;
  pizza_init(&p, 3);
  for (int i = 0; i < 3; i++) {
    p.M[4 * i] = -1;
    p.fn[i] = 0;
  }
  int rc;
  stiction_tamsi *s = pizza_solver(&p, &rc);
  ck_assert_int_eq(rc, STICTION_TAMSI_LINEAR_SOLVER_FAILED);
  ck_assert_ptr_nonnull(stiction_tamsi_v(s));
  stiction_tamsi_free(s);
}
END_TEST

/* ---- RollingCylinder (section 8.3): two-way, nv = 3 ---- */

typedef struct cylinder {
  int n;
  double M[9], *Jn, *Jt, p_star[3], *fn0, *k, *d, *mu, v0[3];
} cylinder;

static const double cyl_k = 9e6, cyl_d = 1.0 / 3000.0 / 1e-6;

/* The single contact duplicated n times with fn0 split evenly (multiplicity variant). */
static void cylinder_init(cylinder *c, double vx0, int n) {
  memset(c, 0, sizeof *c);
  c->n = n;
  c->Jn = calloc((size_t)(3 * n), sizeof(double));
  c->Jt = calloc((size_t)(6 * n), sizeof(double));
  c->fn0 = malloc((size_t)n * sizeof(double));
  c->k = malloc((size_t)n * sizeof(double));
  c->d = malloc((size_t)n * sizeof(double));
  c->mu = malloc((size_t)n * sizeof(double));
  for (int i = 0; i < n; i++) {
    c->Jn[3 * i + 1] = 1;
    c->Jt[6 * i] = 1;
    c->Jt[6 * i + 2] = 1; /* R = 1; the second (out-of-plane) row stays 0 */
    c->fn0[i] = cyl_k * 1e-3 / n;
    c->k[i] = cyl_k;
    c->d[i] = cyl_d;
    c->mu[i] = 0.1;
  }
  for (int j = 0; j < 3; j++) c->M[4 * j] = 1;
  c->v0[0] = vx0;
  c->v0[1] = -3;
  c->p_star[0] = vx0;
  c->p_star[1] = -3 - 1e-3 * 9;
}

static void cylinder_free(cylinder *c) {
  free(c->Jn); free(c->Jt); free(c->fn0); free(c->k); free(c->d); free(c->mu);
}

static int cylinder_setup(stiction_tamsi *s, cylinder *c) {
  int n = c->n;
  return stiction_tamsi_set_two_way(s, mat(3, 3, c->M), mat(n, 3, c->Jn), mat(2 * n, 3, c->Jt),
                                    vec(3, c->p_star), vec(n, c->fn0), vec(n, c->k),
                                    vec(n, c->d), vec(n, c->mu));
}

static stiction_tamsi *cylinder_solver(void) {
  stiction_tamsi *s;
  ck_assert_int_eq(stiction_tamsi_create(3, &s), STICTION_OK);
  stiction_tamsi_params par = stiction_tamsi_default_params();
  par.stiction_tolerance = 1e-6;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &par), STICTION_OK);
  return s;
}

/* Section 8.3: the normal direction decouples, vy solves 3000 vy^2 - 3010 vy + 5.991 = 0. */
static double closed_form_vy(void) {
  double a = 3000, b = -3010, c = 5.991;
  double q = -0.5 * (b - sqrt(b * b - 4 * a * c)); /* b < 0: stable root formula */
  return c / q;
}

START_TEST(closed_form_normal_velocity) {
  ck_assert_double_eq_tol(closed_form_vy(), 0.0019943296, 1e-10);
  cylinder c;
  cylinder_init(&c, 0.5, 1);
  stiction_tamsi *s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, c.v0), STICTION_TAMSI_SUCCESS);
  double vy = closed_form_vy();
  ck_assert_double_eq_tol(stiction_tamsi_v(s)[1], vy, 1e-12);
  ck_assert_double_eq_tol(stiction_tamsi_vn(s)[0], vy, 1e-12);
  /* fn = (1 - d vy) k (x0 - dt vy) */
  double fn = (1 - cyl_d * vy) * cyl_k * (1e-3 - 1e-3 * vy);
  ck_assert_double_eq_tol(stiction_tamsi_fn(s)[0], fn, 1e-8 * fn);
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

START_TEST(cylinder_stiction_after_impact) {
  cylinder c;
  cylinder_init(&c, 0.5, 1);
  stiction_tamsi *s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, c.v0), STICTION_TAMSI_SUCCESS);
  ck_assert_double_lt(stiction_tamsi_vt_residual(s), 1e-8);
  const double *v = stiction_tamsi_v(s), *vt = stiction_tamsi_vt(s), *tf = stiction_tamsi_tau_f(s);
  ck_assert_double_eq_tol(tf[1], 0, KTOL);
  ck_assert_double_eq_tol(tf[2], 1.0 * tf[0], KTOL);
  ck_assert_double_eq_tol(vt[1], 0, KTOL);
  ck_assert_double_lt(fabs(vt[0]), 1e-6);
  ck_assert_double_lt(fabs(v[0] + v[2]), 1e-6);
  const double ref[3] = {0.2500002940506068, 0.001994329585210411, -0.2499997059493932};
  for (int j = 0; j < 3; j++) ck_assert_double_eq_tol(v[j], ref[j], 1e-12);
  ck_assert_double_eq_tol(stiction_tamsi_fn(s)[0], 3010.994329585211, 3010.99 * 1e-12);
  ck_assert_double_eq_tol(stiction_tamsi_ft(s)[0], -249.99966554106297, 250 * 1e-10);
  check_jacobian(s, v, 1e-3, 1e-10, 1e-6);
  check_jacobian_cs(s, v, 1e-3, true);
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

START_TEST(cylinder_sliding_after_impact) {
  cylinder c;
  cylinder_init(&c, 0.7, 1);
  stiction_tamsi *s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, c.v0), STICTION_TAMSI_SUCCESS);
  ck_assert_double_lt(stiction_tamsi_vt_residual(s), 1e-8);
  const double *v = stiction_tamsi_v(s), *vt = stiction_tamsi_vt(s), *tf = stiction_tamsi_tau_f(s);
  ck_assert_double_eq_tol(tf[1], 0, KTOL);
  ck_assert_double_eq_tol(tf[2], 1.0 * tf[0], KTOL);
  ck_assert_double_eq_tol(vt[1], 0, KTOL);
  ck_assert_double_gt(vt[0], 1e-6);
  ck_assert_double_lt(v[2], 0);
  ck_assert_double_eq_tol(v[0] + v[2], vt[0], KTOL);
  const double ref[3] = {0.39890056704148047, 0.001994329585210411, -0.3010994329585195};
  for (int j = 0; j < 3; j++) ck_assert_double_eq_tol(v[j], ref[j], 1e-12);
  const double *fn = stiction_tamsi_fn(s), *ft = stiction_tamsi_ft(s);
  ck_assert_double_eq_tol(ft[0], -0.1 * fn[0], 1e-12 * fn[0]);
  ck_assert_double_eq_tol(ft[0], -301.0994329585195, 301.1 * 1e-12);
  check_jacobian(s, v, 1e-3, 1e-6, 1e-6);
  check_jacobian_cs(s, v, 1e-3, false);
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

/* The Newton matrix also matches away from a solution: at the impact state (the guess). */
START_TEST(jacobian_at_impact_state) {
  cylinder c;
  cylinder_init(&c, 0.5, 1);
  stiction_tamsi *s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  /* impact, sliding while pressing, near stiction, and separating faster than 1/d (the
   * damping factor is clipped: fn = 0 and so is its gradient) */
  const double states[4][3] = {
      {0.5, -3, 0}, {0.3, -0.01, 0.1}, {0.2, 1e-4, -0.2 + 3e-7}, {0.2, 0.01, -0.1}};
  for (int k = 0; k < 4; k++) {
    check_jacobian(s, states[k], 1e-3, k == 2 ? 1e-10 : 1e-6, 1e-6);
    check_jacobian_cs(s, states[k], 1e-3, false);
  }
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

START_TEST(cylinder_repeated_contacts) {
  stiction_tamsi *s = cylinder_solver();
  static const int mult[] = {1, 4, 16, 64, 256};
  for (size_t m = 0; m < sizeof mult / sizeof mult[0]; m++) {
    cylinder c;
    int n = mult[m];
    cylinder_init(&c, 0.5, n);
    ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
    ck_assert_int_ge(st_tamsi_capacity(s), n);
    ck_assert_int_eq(stiction_tamsi_nc(s), n);
    ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, c.v0), STICTION_TAMSI_SUCCESS);
    ck_assert_double_lt(stiction_tamsi_vt_residual(s), 1e-8);
    const double *vt = stiction_tamsi_vt(s), *tf = stiction_tamsi_tau_f(s);
    for (int i = 0; i < n; i++) {
      ck_assert_double_lt(fabs(vt[2 * i]), 1e-6);
      ck_assert_double_eq_tol(vt[2 * i + 1], 0, KTOL);
    }
    ck_assert_double_eq_tol(tf[1], 0, KTOL);
    ck_assert_double_eq_tol(tf[2], tf[0], 1e-12 * fabs(tf[0]));
    cylinder_free(&c);
  }
  stiction_tamsi_free(s);
}
END_TEST

/* Two identical contact Jacobian columns and no mass: the two-way LU meets a zero pivot. */
START_TEST(cylinder_singular_matrix_fails_linear_solver) {
  cylinder c;
  cylinder_init(&c, 0.5, 1);
  memset(c.M, 0, sizeof c.M);
  stiction_tamsi *s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, c.v0), STICTION_TAMSI_LINEAR_SOLVER_FAILED);
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

/* Non-finite data yields a failure code, never an abort or a "success". */
START_TEST(non_finite_input_fails) {
  cylinder c;
  cylinder_init(&c, 0.5, 1);
  c.v0[0] = NAN;
  stiction_tamsi *s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  int rc = stiction_tamsi_solve(s, 1e-3, c.v0);
  ck_assert(rc == STICTION_TAMSI_LINEAR_SOLVER_FAILED || rc == STICTION_TAMSI_ALPHA_SOLVER_FAILED);
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

/* ---- empty world and set-up errors ---- */

START_TEST(empty_world) {
  stiction_tamsi *s;
  ck_assert_int_eq(stiction_tamsi_create(0, &s), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(0, 0, NULL), mat(0, 0, NULL),
                                              mat(0, 0, NULL), vec(0, NULL), vec(0, NULL),
                                              vec(0, NULL)),
                   STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, NULL), STICTION_TAMSI_SUCCESS);
  stiction_tamsi_free(s);
  ck_assert_int_eq(stiction_tamsi_create(0, &s), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_set_two_way(s, mat(0, 0, NULL), mat(0, 0, NULL),
                                              mat(0, 0, NULL), vec(0, NULL), vec(0, NULL),
                                              vec(0, NULL), vec(0, NULL), vec(0, NULL)),
                   STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, NULL), STICTION_TAMSI_SUCCESS);
  stiction_tamsi_free(s);
}
END_TEST

START_TEST(setup_errors) {
  stiction_tamsi *s = (stiction_tamsi *)&s;
  ck_assert_int_eq(stiction_tamsi_create(-1, &s), STICTION_ERR_ARG);
  ck_assert_ptr_null(s);
  ck_assert_int_eq(stiction_tamsi_create(3, NULL), STICTION_ERR_ARG);
  pizza p;
  pizza_init(&p, 3);
  ck_assert_int_eq(stiction_tamsi_create(3, &s), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, p.v0), STICTION_ERR_STATE);
  /* wrong sizes: Jt must have 2 nc rows, fn nc entries, M nv x nv */
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, p.M), mat(3, 3, p.Jn), mat(3, 3, p.Jt),
                                              vec(3, p.p_star), vec(3, p.fn), vec(3, p.mu)),
                   STICTION_ERR_ARG);
  ck_assert_str_eq(stiction_tamsi_error(s), "Jt must be 6 x 3, got 3 x 3");
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, p.M), mat(3, 3, p.Jn), mat(6, 3, p.Jt),
                                              vec(3, p.p_star), vec(2, p.fn), vec(3, p.mu)),
                   STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(2, 3, p.M), mat(3, 3, p.Jn), mat(6, 3, p.Jt),
                                              vec(3, p.p_star), vec(3, p.fn), vec(3, p.mu)),
                   STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, p.M), mat(3, 3, NULL), mat(6, 3, p.Jt),
                                              vec(3, p.p_star), vec(3, p.fn), vec(3, p.mu)),
                   STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, p.M), mat(3, 3, p.Jn), mat(6, 3, p.Jt),
                                              vec(3, p.p_star), vec(3, p.fn), vec(3, p.mu)),
                   STICTION_OK);
  /* a one-way solver may not become two-way */
  ck_assert_int_eq(stiction_tamsi_set_two_way(s, mat(3, 3, p.M), mat(3, 3, p.Jn), mat(6, 3, p.Jt),
                                              vec(3, p.p_star), vec(3, p.fn), vec(3, p.fn),
                                              vec(3, p.fn), vec(3, p.mu)),
                   STICTION_ERR_STATE);
  ck_assert_ptr_nonnull(strstr(stiction_tamsi_error(s), "cannot switch"));
  ck_assert_int_eq(stiction_tamsi_solve(s, 0, p.v0), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_tamsi_solve(s, NAN, p.v0), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_tamsi_solve(s, 1e-3, NULL), STICTION_ERR_ARG);
  stiction_tamsi_params bad = stiction_tamsi_default_params();
  bad.stiction_tolerance = 0;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &bad), STICTION_ERR_ARG);
  bad = stiction_tamsi_default_params();
  bad.theta_max = NAN;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &bad), STICTION_ERR_ARG);
  bad = stiction_tamsi_default_params();
  bad.max_iterations = 0;
  ck_assert_int_eq(stiction_tamsi_set_params(s, &bad), STICTION_ERR_ARG);
  ck_assert_double_eq(stiction_tamsi_get_params(s).stiction_tolerance, 1e-4);
  stiction_tamsi_free(s);
  /* and a two-way solver may not become one-way */
  cylinder c;
  cylinder_init(&c, 0.5, 1);
  s = cylinder_solver();
  ck_assert_int_eq(cylinder_setup(s, &c), STICTION_OK);
  ck_assert_int_eq(stiction_tamsi_set_one_way(s, mat(3, 3, c.M), mat(1, 3, c.Jn), mat(2, 3, c.Jt),
                                              vec(3, c.p_star), vec(1, c.fn0), vec(1, c.mu)),
                   STICTION_ERR_STATE);
  stiction_tamsi_free(s);
  cylinder_free(&c);
}
END_TEST

START_TEST(defaults_and_names) {
  stiction_tamsi_params p = stiction_tamsi_default_params();
  ck_assert_double_eq(p.stiction_tolerance, 1e-4);
  ck_assert_double_eq(p.relative_tolerance, 1e-2);
  ck_assert_double_eq_tol(p.theta_max, M_PI / 3, 1e-15);
  ck_assert_int_eq(p.max_iterations, 100);
  ck_assert_str_eq(stiction_tamsi_result_name(0), "success");
  ck_assert_str_eq(stiction_tamsi_result_name(1), "max_iterations_reached");
  ck_assert_str_eq(stiction_tamsi_result_name(2), "linear_solver_failed");
  ck_assert_str_eq(stiction_tamsi_result_name(3), "alpha_solver_failed");
  ck_assert_str_eq(stiction_tamsi_result_name(7), "unknown");
}
END_TEST

int main(void) {
  Suite *s = suite_create("tamsi_solver");
  TCase *pz = tcase_create("pizza_saver");
  tcase_add_test(pz, pizza_small_applied_moment);
  tcase_add_test(pz, pizza_large_applied_moment);
  tcase_add_test(pz, pizza_no_contact);
  tcase_add_test(pz, pizza_max_iterations);
  tcase_add_test(pz, pizza_indefinite_mass_fails_linear_solver);
  suite_add_tcase(s, pz);
  TCase *cy = tcase_create("rolling_cylinder");
  tcase_add_test(cy, closed_form_normal_velocity);
  tcase_add_test(cy, cylinder_stiction_after_impact);
  tcase_add_test(cy, cylinder_sliding_after_impact);
  tcase_add_test(cy, jacobian_at_impact_state);
  tcase_add_test(cy, cylinder_repeated_contacts);
  tcase_add_test(cy, cylinder_singular_matrix_fails_linear_solver);
  tcase_add_test(cy, non_finite_input_fails);
  suite_add_tcase(s, cy);
  TCase *api = tcase_create("api");
  tcase_add_test(api, empty_world);
  tcase_add_test(api, setup_errors);
  tcase_add_test(api, defaults_and_names);
  suite_add_tcase(s, api);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
