/* Dense LU and matrix kernels installed into SUNDIALS' dense matrix and dense linear solver.
 *
 * Why: as for the vectors (nvector_ops.c), Debian's SUNDIALS is built without optimization,
 * and the dense back substitution alone (denseGETRS, once per Newton iteration) was 2 % of a
 * whole CoupledClutches run. The solver object's `ops` table is public; its setup and solve
 * entries are replaced by the engine's one dense LU (util/dense_lu.h), the library's
 * algorithm compiled with ours: factors, solutions and results are bit-identical
 * (test_kernels checks it against the library on random and singular matrices). */
#include <math.h>

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "runtime/runtime.h"
#include "util/dense_lu.h"

/* the solver object stores the pivots the LU writes */
_Static_assert(_Generic((sunindextype *)0, int64_t *: 1, default: 0),
               "util/dense_lu.h needs SUNDIALS built with 64-bit indices");

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

static SUNLinearSolverContent_Dense content(SUNLinearSolver S) {
  return (SUNLinearSolverContent_Dense)S->content;
}

static int ls_setup(SUNLinearSolver S, SUNMatrix A) {
  dense_view v = view(A);
  if (v.m != v.n) return SUNLS_ILL_INPUT;
  content(S)->last_flag = st_dense_lu_factor(v.a, v.n, content(S)->pivots);
  return content(S)->last_flag > 0 ? SUNLS_LUFACT_FAIL : SUNLS_SUCCESS;
}

static int ls_solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol) {
  (void)tol;
  N_VScale(1.0, b, x);
  dense_view v = view(A);
  st_dense_lu_apply(v.a, v.n, content(S)->pivots, N_VGetArrayPointer(x));
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
