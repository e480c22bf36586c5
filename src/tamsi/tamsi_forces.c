/* TAMSI contact forces, residual and Newton matrix (doc/tamsi.md, Model). */
#include <math.h>
#include <string.h>

#include "tamsi/tamsi_internal.h"

/* y = A x for row-major A (rows x cols). */
static void mat_vec(const double *A, int rows, int cols, const double *x, double *y) {
  for (int i = 0; i < rows; i++) {
    const double *a = A + (size_t)i * (size_t)cols;
    double sum = 0;
    for (int j = 0; j < cols; j++) sum += a[j] * x[j];
    y[i] = sum;
  }
}

/* y += c A^T x for row-major A (rows x cols). */
static void add_mat_t_vec(const double *A, int rows, int cols, double c, const double *x,
                          double *y) {
  for (int i = 0; i < rows; i++) {
    const double *a = A + (size_t)i * (size_t)cols;
    double ci = c * x[i];
    for (int j = 0; j < cols; j++) y[j] += ci * a[j];
  }
}

/* Two-way normal force of section 1 in the TAMSI form fn = (1 - d vn)+ (fn0 - dt k vn)+ and
 * its derivative (section 3). The Heaviside is 1 at zero, as in TamsiSolver. */
static void normal_force(double fn0, double k, double d, double vn, double dt, double *fn,
                         double *dfn) {
  double damp = 1.0 - d * vn;
  double elastic = fn0 - dt * k * vn; /* = k x, x = x0 - dt vn */
  double damp_p = damp > 0 ? damp : 0;
  double elastic_p = elastic > 0 ? elastic : 0;
  *fn = damp_p * elastic_p;
  *dfn = -(d * (damp >= 0 ? 1.0 : 0.0) * elastic_p + dt * k * damp_p * (elastic >= 0 ? 1.0 : 0.0));
}

/* Regularised friction of section 2 for contact i: soft norm, soft tangent, mu(s), ft. */
static void friction_force(stiction_tamsi *s, int i) {
  st_tamsi_work *w = &s->w;
  double v_s = s->par.stiction_tolerance;
  double eps = s->par.relative_tolerance * v_s;
  const double *vt = w->vt + 2 * i;
  double ns = sqrt(vt[0] * vt[0] + vt[1] * vt[1] + eps * eps);
  double sr = ns / v_s;
  double mu = s->mu[i];
  double mus = sr < 1 ? mu * sr * (2.0 - sr) : mu;
  w->norm_s[i] = ns;
  w->mu_s[i] = mus;
  w->that[2 * i] = vt[0] / ns;
  w->that[2 * i + 1] = vt[1] / ns;
  w->ft[2 * i] = -mus * w->that[2 * i] * w->fn[i];
  w->ft[2 * i + 1] = -mus * w->that[2 * i + 1] * w->fn[i];
}

void st_tamsi_update_forces(stiction_tamsi *s, const double *v, double dt) {
  st_tamsi_work *w = &s->w;
  int nv = s->nv, nc = s->nc;
  mat_vec(s->Jn, nc, nv, v, w->vn);
  mat_vec(s->Jt, 2 * nc, nv, v, w->vt);
  for (int i = 0; i < nc; i++) {
    if (s->scheme == ST_TAMSI_TWO_WAY)
      normal_force(s->fn0[i], s->k[i], s->d[i], w->vn[i], dt, &w->fn[i], &w->dfn[i]);
    else {
      w->fn[i] = s->fn_in[i];
      w->dfn[i] = 0;
    }
    friction_force(s, i);
  }
}

void st_tamsi_residual(stiction_tamsi *s, const double *v, double dt, double *R) {
  int nv = s->nv, nc = s->nc;
  st_tamsi_update_forces(s, v, dt);
  mat_vec(s->M, nv, nv, v, R);
  for (int j = 0; j < nv; j++) R[j] -= s->p_star[j];
  add_mat_t_vec(s->Jn, nc, nv, -dt, s->w.fn, R);
  add_mat_t_vec(s->Jt, 2 * nc, nv, -dt, s->w.ft, R);
}

/* D_i = -d ft_i / d vt_i (2x2, symmetric), section 2. */
static void friction_gradient(const stiction_tamsi *s, int i, double D[4]) {
  const st_tamsi_work *w = &s->w;
  double v_s = s->par.stiction_tolerance;
  double ns = w->norm_s[i], sr = ns / v_s, mu = s->mu[i];
  double dmu = sr < 1 ? 2.0 * mu * (1.0 - sr) : 0.0;
  double t0 = w->that[2 * i], t1 = w->that[2 * i + 1];
  double perp = w->mu_s[i] / ns, par = dmu / v_s, fn = w->fn[i];
  double P[4] = {t0 * t0, t0 * t1, t1 * t0, t1 * t1};
  double I[4] = {1, 0, 0, 1};
  for (int k = 0; k < 4; k++) D[k] = fn * (perp * (I[k] - P[k]) + par * P[k]);
}

/* Adds c * a b^T (a, b of nv entries) to the matrix, row-major or column-major. */
static void add_outer(stiction_tamsi *s, double c, const double *a, const double *b, double *J) {
  int nv = s->nv;
  for (int r = 0; r < nv; r++) {
    if (a[r] == 0) continue;
    for (int q = 0; q < nv; q++) {
      double val = c * a[r] * b[q];
      if (J) J[(size_t)r * (size_t)nv + (size_t)q] += val;
      else s->jcols[q][r] += val;
    }
  }
}

/* J = M + dt sum_i Jt_i^T D_i Jt_i + dt sum_i (mu_i Jt_i^T t^_i - Jn_i^T) (dfn_i Jn_i),
 * i.e. M - dt Jt^T Gt - dt Jn^T Gn of section 4 written contact by contact. */
static void add_contact(stiction_tamsi *s, int i, double dt, double *J) {
  int nv = s->nv;
  const double *t0 = s->Jt + (size_t)(2 * i) * (size_t)nv, *t1 = t0 + nv;
  const double *jn = s->Jn + (size_t)i * (size_t)nv;
  double D[4], *a = s->scratch_a, *b = s->scratch_b;
  friction_gradient(s, i, D);
  /* Jt_i^T D Jt_i = sum over the two tangent rows r: Jt_r^T (D_r0 Jt_0 + D_r1 Jt_1) */
  for (int r = 0; r < 2; r++) {
    for (int q = 0; q < nv; q++) b[q] = D[2 * r] * t0[q] + D[2 * r + 1] * t1[q];
    add_outer(s, dt, r == 0 ? t0 : t1, b, J);
  }
  if (s->scheme != ST_TAMSI_TWO_WAY || s->w.dfn[i] == 0) return;
  double m0 = s->w.mu_s[i] * s->w.that[2 * i], m1 = s->w.mu_s[i] * s->w.that[2 * i + 1];
  for (int q = 0; q < nv; q++) a[q] = m0 * t0[q] + m1 * t1[q] - jn[q];
  add_outer(s, dt * s->w.dfn[i], a, jn, J);
}

void st_tamsi_jacobian(stiction_tamsi *s, double dt, double *J) {
  int nv = s->nv;
  for (int r = 0; r < nv; r++)
    for (int q = 0; q < nv; q++) {
      double m = s->M[(size_t)r * (size_t)nv + (size_t)q];
      if (J) J[(size_t)r * (size_t)nv + (size_t)q] = m;
      else s->jcols[q][r] = m;
    }
  for (int i = 0; i < s->nc; i++) add_contact(s, i, dt, J);
}
