/* The one dense LU of the engine: A = P L U with partial pivoting, column-major, in place.
 * Used by the run-time Newton and linear blocks (src/exec), by SUNDIALS' dense linear solver
 * (src/runtime/dense_ops.c installs it) and by TAMSI's two-way Newton matrix (src/tamsi).
 *
 * The algorithm is LINPACK's dgefa/dgesl "gaxpy" form, the one SUNDIALS' denseGETRF/GETRS
 * use (Golub & Van Loan, alg. 3.4.1): first largest |a_ik| as pivot, whole rows swapped,
 * the column scaled by the reciprocal of the pivot, a rank-one update column by column that
 * skips zero a_kj; then the permuted forward and column-oriented backward substitutions.
 * Every element sees the library's operations in the library's order, so factors and
 * solutions are bit-identical to it (test_kernels). Pivot indices are int64_t because that
 * is SUNDIALS' sunindextype, whose solver object stores them. */
#ifndef ST_DENSE_LU_H
#define ST_DENSE_LU_H

#include <stdint.h>

/* Factors the n x n column-major a in place; piv[k] = the row swapped with row k. Returns
 * 0, or k + 1 when the k-th pivot is exactly zero (a is then partly factored). */
int64_t st_dense_lu_factor(double *a, int64_t n, int64_t *piv);

/* b <- A^-1 b from the factors and pivots of st_dense_lu_factor. */
void st_dense_lu_apply(const double *lu, int64_t n, const int64_t *piv, double *b);

/* 1 when every pivot of the factors is finite (a NaN or infinite pivot factors without a zero
 * pivot but its solutions are not numbers). */
int st_dense_lu_finite(const double *lu, int64_t n);

/* Solves A x = b (a destroyed: its factors; x in b): 0, or -1 when a pivot is zero or not
 * finite (b is then unspecified). */
int st_dense_lu_solve(double *a, int64_t n, int64_t *piv, double *b);

#endif
