/* Minimum-norm solution of a square linear system that may be singular, by the one-sided
 * Jacobi SVD (Hestenes 1958; Demmel and Veselic 1992): plane rotations of the columns of A
 * until they are mutually orthogonal give A V = U diag(sigma); then
 * x = sum over sigma_i > 0 of V_i (u_i . b) / sigma_i.
 *
 * Why: two friction elements locked on the same motion (LossyGearDemo2: the bearing friction
 * and the lossy gear on one shaft) leave their constraint torques undetermined; the linear
 * system of the mixed block is singular but consistent. Dymola continues with a minimum-norm
 * solution (doc/compiler.md, mixed systems); the break-away tests then decide at
 * the next event iteration. The V_i of the dropped sigma_i span the undetermined directions:
 * st_min_norm_solve_sel moves along them to the least norm of selected entries only (the
 * unknowns a mixed block's discrete equations compare, solve.c singular_step). Only used when
 * LU finds a zero pivot, so speed is secondary. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

/* Rotates columns p and q of the n x n matrices A and V so that A's become orthogonal;
 * returns 1 when a rotation was needed. */
static int rotate_pair(double *A, double *V, int n, int p, int q) {
  double *ap = A + (size_t)p * (size_t)n, *aq = A + (size_t)q * (size_t)n;
  double alpha = 0, beta = 0, gamma = 0;
  for (int i = 0; i < n; i++) {
    alpha += ap[i] * ap[i];
    beta += aq[i] * aq[i];
    gamma += ap[i] * aq[i];
  }
  if (gamma == 0 || fabs(gamma) <= 1e-15 * sqrt(alpha * beta)) return 0;
  double zeta = (beta - alpha) / (2 * gamma);
  double t = (zeta >= 0 ? 1 : -1) / (fabs(zeta) + sqrt(1 + zeta * zeta));
  double c = 1 / sqrt(1 + t * t), s = c * t;
  double *vp = V + (size_t)p * (size_t)n, *vq = V + (size_t)q * (size_t)n;
  for (int i = 0; i < n; i++) {
    double a = ap[i], b = aq[i];
    ap[i] = c * a - s * b;
    aq[i] = s * a + c * b;
    a = vp[i];
    b = vq[i];
    vp[i] = c * a - s * b;
    vq[i] = s * a + c * b;
  }
  return 1;
}

static void orthogonalize(double *A, double *V, int n) {
  for (int sweep = 0; sweep < 60; sweep++) {
    int rotated = 0;
    for (int p = 0; p < n - 1; p++)
      for (int q = p + 1; q < n; q++) rotated += rotate_pair(A, V, n, p, q);
    if (!rotated) return;
  }
}

static double column_norm(const double *A, int n, int j) {
  double s = 0;
  for (int i = 0; i < n; i++) s += A[i + (size_t)j * (size_t)n] * A[i + (size_t)j * (size_t)n];
  return sqrt(s);
}

/* Flags in null[] the columns of the orthogonalized A whose norm (a singular value) is below
 * rel_tol times the largest: the undetermined combinations; those columns of V span the
 * null space. */
static void flag_null(const double *A, int n, double rel_tol, unsigned char *null) {
  double smax = 0;
  for (int j = 0; j < n; j++)
    if (column_norm(A, n, j) > smax) smax = column_norm(A, n, j);
  for (int j = 0; j < n; j++) null[j] = !(column_norm(A, n, j) > rel_tol * smax);
}

/* The pseudo-inverse applied to b, the directions flagged null dropped. */
static void pseudo_solve(const double *A, const double *V, int n, const double *b, double *x,
                         const unsigned char *null) {
  memset(x, 0, sizeof(double) * (size_t)n);
  for (int j = 0; j < n; j++) {
    if (null[j]) continue;
    const double *aj = A + (size_t)j * (size_t)n;
    double s2 = 0, ub = 0;
    for (int i = 0; i < n; i++) s2 += aj[i] * aj[i];
    for (int i = 0; i < n; i++) ub += aj[i] * b[i];
    for (int i = 0; i < n; i++) x[i] += V[i + (size_t)j * (size_t)n] * ub / s2;
  }
}

/* A V = U diag(sigma): A's columns orthogonalized in place; V (n x n) followed by n spare
 * doubles, NULL when A is not finite or memory fails. */
static double *orthogonal_columns(double *A, int n) {
  for (int i = 0; i < n * n; i++)
    if (!isfinite(A[i])) return NULL;
  double *V = calloc((size_t)n * (size_t)n + (size_t)n + 1, sizeof(double));
  if (!V) return NULL;
  for (int i = 0; i < n; i++) V[i + (size_t)i * (size_t)n] = 1;
  orthogonalize(A, V, n);
  return V;
}

/* Moves x within the null space (the columns of V flagged in null[]) to the point where the
 * selected entries have the least sum of squares (of their distances to target's when given):
 * min over c of |(x + N c - target)_sel|, by the
 * normal equations (N_sel' N_sel) c = -N_sel' x_sel, themselves solved in the minimum-norm
 * sense (a null direction that moves no selected entry stays at c = 0). */
static int least_selected(const double *V, const unsigned char *null, int n,
                          const unsigned char *sel, const double *target, double *x) {
  int k = 0, *col = malloc(sizeof(int) * (size_t)n + 1);
  if (!col) return -1;
  for (int j = 0; j < n; j++)
    if (null[j]) col[k++] = j;
  double *G = calloc((size_t)k * (size_t)k + (size_t)k + 1, sizeof(double)), *g = G + k * k;
  if (!G) { free(col); return -1; }
  for (int i = 0; i < n; i++) {
    if (!sel[i]) continue;
    for (int p = 0; p < k; p++) {
      double vp = V[i + (size_t)col[p] * (size_t)n];
      g[p] -= vp * (x[i] - (target ? target[i] : 0));
      for (int q = 0; q < k; q++) G[p + q * k] += vp * V[i + (size_t)col[q] * (size_t)n];
    }
  }
  int rc = k ? st_min_norm_solve(G, k, g) : 0;
  for (int p = 0; rc == 0 && p < k; p++)
    for (int i = 0; i < n; i++) x[i] += V[i + (size_t)col[p] * (size_t)n] * g[p];
  free(G);
  free(col);
  return rc;
}

int st_min_norm_solve_sel(double *A, int n, double *b, const unsigned char *sel) {
  return st_min_norm_solve_toward(A, n, b, sel, NULL);
}

int st_min_norm_solve_toward(double *A, int n, double *b, const unsigned char *sel,
                             const double *target) {
  double *V = orthogonal_columns(A, n);
  unsigned char *null = malloc((size_t)n + 1);
  if (!V || !null) {
    free(V);
    free(null);
    return -1;
  }
  double *x = V + (size_t)n * (size_t)n;
  flag_null(A, n, 1e-12, null);
  pseudo_solve(A, V, n, b, x, null);
  int rc = sel ? least_selected(V, null, n, sel, target, x) : 0;
  if (rc == 0) memcpy(b, x, sizeof(double) * (size_t)n);
  free(V);
  free(null);
  return rc;
}

int st_min_norm_solve(double *A, int n, double *b) {
  return st_min_norm_solve_sel(A, n, b, NULL);
}

int st_null_direction(double *A, int n, double *v) {
  double *V = orthogonal_columns(A, n);
  unsigned char *null = malloc((size_t)n + 1);
  int k = 0, col = -1;
  if (V && null) {
    flag_null(A, n, 1e-12, null);
    for (int j = 0; j < n; j++)
      if (null[j]) k++, col = j;
    if (k == 1) memcpy(v, V + (size_t)col * (size_t)n, sizeof(double) * (size_t)n);
  }
  free(V);
  free(null);
  return k == 1;
}
