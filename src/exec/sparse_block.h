/* Large sparse algebraic blocks factored by KLU (issue 4, step 3: "LU with pivoting; KLU when
 * large and sparse"). A block's structural Jacobian (blocks.c jac_start/jac_rows) is fixed,
 * so KLU's symbolic analysis is done once per block; each Newton iteration refactors with the
 * same pattern; a linear block with frozen coefficients is factored once per event interval
 * (solve.c cached_linear). Dense LU stays for small or dense blocks (a small frozen one
 * applies its factors over their nonzeros, solve.c sparse_factors). */
#ifndef ST_EXEC_SPARSE_BLOCK_H
#define ST_EXEC_SPARSE_BLOCK_H

/* Blocks of at least this many unknowns whose structural Jacobian has at most a fifth of its
 * entries nonzero go to KLU: below it dense LU's O(n^3) is cheaper than KLU's overhead. */
#define ST_SPARSE_BLOCK_MIN 40

typedef struct st_sparse_block st_sparse_block;

/* 1 when a block of n unknowns with nnz structural nonzeros should use KLU. */
int st_sparse_block_wanted(int n, int nnz);

/* The KLU state of a block with the column pattern col_start[0..n], rows[] (ascending in
 * each column; copied). NULL when out of memory or when KLU refuses the pattern. */
st_sparse_block *st_sparse_block_new(int n, const int *col_start, const int *rows);
void st_sparse_block_free(st_sparse_block *sb);

/* The values of J at the pattern's places, in its order (column by column): the caller
 * writes them before each solve. Owned by sb. */
double *st_sparse_block_values(st_sparse_block *sb);

/* Factors the J now in the values (a refactorization in the last pivot order while it
 * stays well conditioned); apply then solves J x = b in place with those factors, as often
 * as wanted (a linear block with frozen coefficients: once per event interval, then one
 * apply per evaluation). 0, or -1 when J is singular or not finite, or x is not finite. */
int st_sparse_block_factor(st_sparse_block *sb);
int st_sparse_block_apply(st_sparse_block *sb, double *b);

/* Solves J x = b in place (b in, x out) for the J now in the values. 0, or -1 when J is
 * singular or not finite (the caller then takes its min-norm step, as after a dense LU
 * failure). */
int st_sparse_block_solve(st_sparse_block *sb, double *b);

#endif
