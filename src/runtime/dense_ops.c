/* Dense LU and matrix kernels installed into SUNDIALS' dense matrix and dense linear solver.
 *
 * Why: as for the vectors (nvector_ops.c), Debian's SUNDIALS is built without optimization,
 * and the dense back substitution alone (denseGETRS, once per Newton iteration) was 2 % of a
 * whole CoupledClutches run. The solver object's `ops` table is public; its setup and solve
 * entries are replaced by the same algorithm compiled with ours: LU with partial pivoting by
 * columns (Golub & Van Loan, Matrix Computations, alg. 3.4.1, "gaxpy" form as in LINPACK's
 * dgefa/dgesl: first largest |a_ik| as pivot, whole rows swapped, column scaled by the
 * reciprocal of the pivot, rank-one update column by column skipping zero a_kj), then the
 * permuted forward and backward substitutions. Every element sees the same operations in the
 * same order as the library's routine, so factors, solutions and results are bit-identical
 * (test_nvector checks it against the library on random and singular matrices). */
#include <math.h>

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "runtime/runtime.h"

/* SUNDIALS 7 replaced the matrix module's own error codes by SUNErrCode values. */
#ifdef SUNMAT_ILL_INPUT
#define ST_MAT_INCOMPATIBLE SUNMAT_ILL_INPUT
#else
#define ST_MAT_INCOMPATIBLE SUN_ERR_ARG_INCOMPATIBLE
#endif

typedef struct dense_view {
  sunrealtype *a;   /* column-major, a[i + j * ld] */
  sunindextype m, n;
} dense_view;

static dense_view view(SUNMatrix A) {
  dense_view v = {SM_DATA_D(A), SM_ROWS_D(A), SM_COLUMNS_D(A)};
  return v;
}

static sunindextype pivot_row(const sunrealtype *col, sunindextype k, sunindextype m) {
  sunindextype l = k;
  for (sunindextype i = k + 1; i < m; i++)
    if (fabs(col[i]) > fabs(col[l])) l = i;
  return l;
}

static void swap_rows(dense_view v, sunindextype k, sunindextype l) {
  for (sunindextype j = 0; j < v.n; j++) {
    sunrealtype *col = v.a + j * v.m, t = col[l];
    col[l] = col[k];
    col[k] = t;
  }
}

/* A = P L U in place; 0, or k + 1 when the k-th pivot is exactly zero */
static sunindextype lu_factor(dense_view v, sunindextype *p) {
  for (sunindextype k = 0; k < v.n; k++) {
    sunrealtype *ck = v.a + k * v.m;
    sunindextype l = pivot_row(ck, k, v.m);
    p[k] = l;
    if (ck[l] == 0.0) return k + 1;
    if (l != k) swap_rows(v, k, l);
    sunrealtype r = 1.0 / ck[k];
    for (sunindextype i = k + 1; i < v.m; i++) ck[i] *= r;
    for (sunindextype j = k + 1; j < v.n; j++) {
      sunrealtype *cj = v.a + j * v.m, akj = cj[k];
      if (akj == 0.0) continue;
      for (sunindextype i = k + 1; i < v.m; i++) cj[i] -= akj * ck[i];
    }
  }
  return 0;
}

/* b <- A^-1 b from the factors of lu_factor (square A) */
static void lu_solve(dense_view v, const sunindextype *p, sunrealtype *b) {
  sunindextype n = v.n;
  for (sunindextype k = 0; k < n; k++) {
    sunindextype pk = p[k];
    if (pk == k) continue;
    sunrealtype t = b[k];
    b[k] = b[pk];
    b[pk] = t;
  }
  for (sunindextype k = 0; k + 1 < n; k++) {
    const sunrealtype *ck = v.a + k * v.m;
    for (sunindextype i = k + 1; i < n; i++) b[i] -= ck[i] * b[k];
  }
  for (sunindextype k = n - 1; k > 0; k--) {
    const sunrealtype *ck = v.a + k * v.m;
    b[k] /= ck[k];
    for (sunindextype i = 0; i < k; i++) b[i] -= ck[i] * b[k];
  }
  b[0] /= v.a[0];
}

static SUNLinearSolverContent_Dense content(SUNLinearSolver S) {
  return (SUNLinearSolverContent_Dense)S->content;
}

static int ls_setup(SUNLinearSolver S, SUNMatrix A) {
  content(S)->last_flag = lu_factor(view(A), content(S)->pivots);
  return content(S)->last_flag > 0 ? SUNLS_LUFACT_FAIL : SUNLS_SUCCESS;
}

static int ls_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol) {
  (void)tol;
  N_VScale(1.0, b, x);
  lu_solve(view(A), content(S)->pivots, N_VGetArrayPointer(x));
  content(S)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

/* A <- c A + I, each element scaled then the diagonal incremented, as the library does */
static int mat_scale_add_identity(sunrealtype c, SUNMatrix A) {
  dense_view v = view(A);
  for (sunindextype j = 0; j < v.n; j++) {
    sunrealtype *col = v.a + j * v.m;
    for (sunindextype i = 0; i < v.m; i++) col[i] *= c;
    if (j < v.m) col[j] += 1.0;
  }
  return 0;
}

/* B <- A (same shape; SUNDIALS' own copy refuses other shapes, so does this one) */
static int mat_copy(SUNMatrix A, SUNMatrix B) {
  dense_view a = view(A), b = view(B);
  if (SUNMatGetID(B) != SUNMATRIX_DENSE || a.m != b.m || a.n != b.n) return ST_MAT_INCOMPATIBLE;
  for (sunindextype k = 0; k < a.m * a.n; k++) b.a[k] = a.a[k];
  return 0;
}

void st_dense_use_fast_ops(SUNMatrix A, SUNLinearSolver LS) {
  if (A && A->ops && SUNMatGetID(A) == SUNMATRIX_DENSE) {
    if (A->ops->scaleaddi) A->ops->scaleaddi = mat_scale_add_identity;
    if (A->ops->copy) A->ops->copy = mat_copy;
  }
  if (LS && LS->ops && SUNLinSolGetID(LS) == SUNLINEARSOLVER_DENSE) {
    LS->ops->setup = ls_setup;
    LS->ops->solve = ls_solve;
  }
}
