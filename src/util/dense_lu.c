/* Dense LU with partial pivoting (dense_lu.h). */
#include "util/dense_lu.h"

#include <math.h>

static int64_t pivot_row(const double *col, int64_t k, int64_t n) {
  int64_t l = k;
  for (int64_t i = k + 1; i < n; i++)
    if (fabs(col[i]) > fabs(col[l])) l = i;
  return l;
}

static void swap_rows(double *a, int64_t n, int64_t k, int64_t l) {
  for (int64_t j = 0; j < n; j++) {
    double *col = a + j * n, t = col[l];
    col[l] = col[k];
    col[k] = t;
  }
}

int64_t st_dense_lu_factor(double *a, int64_t n, int64_t *piv) {
  for (int64_t k = 0; k < n; k++) {
    double *ck = a + k * n;
    int64_t l = pivot_row(ck, k, n);
    piv[k] = l;
    if (ck[l] == 0.0) return k + 1;
    if (l != k) swap_rows(a, n, k, l);
    double r = 1.0 / ck[k];
    for (int64_t i = k + 1; i < n; i++) ck[i] *= r;
    for (int64_t j = k + 1; j < n; j++) {
      double *cj = a + j * n, akj = cj[k];
      if (akj == 0.0) continue;
      for (int64_t i = k + 1; i < n; i++) cj[i] -= akj * ck[i];
    }
  }
  return 0;
}

/* The factors hold PA = LU for the product P of all swaps, so b is permuted completely
 * before the forward substitution (interleaving the swaps with the elimination is wrong as
 * soon as a later pivot moves a row). */
void st_dense_lu_apply(const double *lu, int64_t n, const int64_t *piv, double *b) {
  if (n <= 0) return;
  for (int64_t k = 0; k < n; k++) {
    int64_t p = piv[k];
    if (p == k) continue;
    double t = b[k];
    b[k] = b[p];
    b[p] = t;
  }
  for (int64_t k = 0; k + 1 < n; k++) {
    const double *ck = lu + k * n;
    for (int64_t i = k + 1; i < n; i++) b[i] -= ck[i] * b[k];
  }
  for (int64_t k = n - 1; k > 0; k--) {
    const double *ck = lu + k * n;
    b[k] /= ck[k];
    for (int64_t i = 0; i < k; i++) b[i] -= ck[i] * b[k];
  }
  b[0] /= lu[0];
}

/* the pivots, each chosen once, stay on the diagonal */
int st_dense_lu_finite(const double *lu, int64_t n) {
  for (int64_t k = 0; k < n; k++)
    if (!isfinite(lu[k + k * n])) return 0;
  return 1;
}

int st_dense_lu_solve(double *a, int64_t n, int64_t *piv, double *b) {
  if (st_dense_lu_factor(a, n, piv) || !st_dense_lu_finite(a, n)) return -1;
  st_dense_lu_apply(a, n, piv, b);
  return 0;
}
