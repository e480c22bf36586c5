/* Large sparse algebraic blocks factored by KLU (issue 4, step 3: "LU with pivoting; KLU when
 * large and sparse"). A block's structural Jacobian (blocks.c jac_start/jac_rows) is fixed,
 * so KLU's symbolic analysis is done once per block; each Newton iteration refactors with the
 * same pattern. Dense LU stays for small or dense blocks and for linear blocks with frozen
 * coefficients (solve.c cached_linear: factored once per event interval, applied over the
 * factors' nonzeros). */
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

/* Solves J x = b in place (b in, x out) for the J now in the values. 0, or -1 when J is
 * singular or not finite (the caller then takes its min-norm step, as after a dense LU
 * failure). */
int st_sparse_block_solve(st_sparse_block *sb, double *b);

#endif
