/* KLU for large sparse algebraic blocks (sparse_block.h). */
#include "exec/sparse_block.h"

#include <klu.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct st_sparse_block {
  int n;
  int *Ap, *Ai;  /* the structural pattern, compressed columns */
  double *Ax;
  klu_common common;
  klu_symbolic *symbolic;
  klu_numeric *numeric; /* the last factorization, refactored in place while it lasts */
};

int st_sparse_block_wanted(int n, int nnz) {
  return n >= ST_SPARSE_BLOCK_MIN && (double)nnz <= 0.2 * (double)n * (double)n;
}

void st_sparse_block_free(st_sparse_block *sb) {
  if (!sb) return;
  if (sb->numeric) klu_free_numeric(&sb->numeric, &sb->common);
  if (sb->symbolic) klu_free_symbolic(&sb->symbolic, &sb->common);
  free(sb->Ap);
  free(sb->Ai);
  free(sb->Ax);
  free(sb);
}

st_sparse_block *st_sparse_block_new(int n, const int *col_start, const int *rows) {
  st_sparse_block *sb = calloc(1, sizeof *sb);
  if (!sb) return NULL;
  int nnz = col_start[n];
  sb->n = n;
  sb->Ap = malloc(sizeof(int) * (size_t)(n + 1));
  sb->Ai = malloc(sizeof(int) * (size_t)(nnz + 1));
  sb->Ax = malloc(sizeof(double) * (size_t)(nnz + 1));
  if (!sb->Ap || !sb->Ai || !sb->Ax || !klu_defaults(&sb->common)) {
    st_sparse_block_free(sb);
    return NULL;
  }
  memcpy(sb->Ap, col_start, sizeof(int) * (size_t)(n + 1));
  memcpy(sb->Ai, rows, sizeof(int) * (size_t)nnz);
  sb->symbolic = klu_analyze(n, sb->Ap, sb->Ai, &sb->common);
  if (!sb->symbolic) {
    st_sparse_block_free(sb);
    return NULL;
  }
  return sb;
}

/* Factors the values now in Ax: a refactorization with the previous pivot order when one
 * exists and stays well conditioned (klu_rcond), else a fresh factorization. */
static int factor(st_sparse_block *sb) {
  if (sb->numeric && klu_refactor(sb->Ap, sb->Ai, sb->Ax, sb->symbolic, sb->numeric, &sb->common) &&
      klu_rcond(sb->symbolic, sb->numeric, &sb->common) && sb->common.rcond > 1e-12)
    return 0;
  if (sb->numeric) klu_free_numeric(&sb->numeric, &sb->common);
  sb->numeric = klu_factor(sb->Ap, sb->Ai, sb->Ax, sb->symbolic, &sb->common);
  return sb->numeric && sb->common.status == KLU_OK ? 0 : -1;
}

double *st_sparse_block_values(st_sparse_block *sb) { return sb->Ax; }

int st_sparse_block_factor(st_sparse_block *sb) {
  for (int p = 0; p < sb->Ap[sb->n]; p++)
    if (!isfinite(sb->Ax[p])) return -1;
  return factor(sb);
}

int st_sparse_block_apply(st_sparse_block *sb, double *b) {
  if (!sb->numeric || !klu_solve(sb->symbolic, sb->numeric, sb->n, 1, b, &sb->common)) return -1;
  for (int i = 0; i < sb->n; i++)
    if (!isfinite(b[i])) return -1;
  return 0;
}

int st_sparse_block_solve(st_sparse_block *sb, double *b) {
  return st_sparse_block_factor(sb) || st_sparse_block_apply(sb, b) ? -1 : 0;
}
