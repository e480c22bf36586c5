/* Turning the strongly connected components into solvable blocks: explicit assignments
 * where the unknown occurs once and can be isolated, linear systems (one LU step), nonlinear
 * systems (damped Newton), discrete assignments and mixed continuous/discrete systems. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

static int *ints(st_compiled *cm, int n) {
  return st_arena_alloc(cm->arena, (size_t)(n > 0 ? n : 1) * sizeof(int));
}

static int build_assign(st_compiled *cm, st_block *b) {
  const st_ceq *q = &cm->eqs[b->eqs[0]];
  st_fexpr *sol = st_sym_solve(cm, q->lhs, q->rhs, b->slots[0]);
  if (sol) {
    b->kind = BK_ASSIGN;
    b->solved_explicitly = 1;
    return st_emit(cm, &b->assign, sol, 0);
  }
  return 1; /* not isolable: solve numerically */
}

static int build_residuals(st_compiled *cm, st_block *b) {
  b->res = st_arena_alloc(cm->arena, (size_t)(b->n > 0 ? b->n : 1) * sizeof(st_prog));
  unsigned char *in = calloc((size_t)cm->nslots, 1);
  if (!b->res || !in) { free(in); return -1; }
  for (int i = 0; i < b->n; i++) in[b->slots[i]] = 1;
  b->linear = 1;
  b->const_jac = 1;
  for (int i = 0; i < b->n; i++) {
    const st_ceq *q = &cm->eqs[b->eqs[i]];
    if (!st_sym_linear(cm, q->lhs, in) || !st_sym_linear(cm, q->rhs, in)) b->linear = 0;
    if (!st_sym_frozen_coefficients(cm, q->lhs, in) || !st_sym_frozen_coefficients(cm, q->rhs, in))
      b->const_jac = 0;
    if (st_emit_residual(cm, &b->res[i], q->lhs, q->rhs)) { free(in); return -1; }
  }
  free(in);
  b->const_jac = b->const_jac && b->linear;
  b->gen = -1;
  if (b->const_jac) {
    b->lu = st_arena_alloc(cm->arena, sizeof(double) * (size_t)(b->n * b->n));
    b->lupiv = ints(cm, b->n);
    if (!b->lu || !b->lupiv) return -1;
  }
  if (b->n > cm->maxn) cm->maxn = b->n;
  return 0;
}

static int build_discrete(st_compiled *cm, st_block *b) {
  b->dexpr = st_arena_alloc(cm->arena, (size_t)(b->nd > 0 ? b->nd : 1) * sizeof(st_prog));
  if (!b->dexpr) return -1;
  for (int i = 0; i < b->nd; i++)
    if (st_emit(cm, &b->dexpr[i], cm->eqs[b->deqs[i]].rhs, 0)) return -1;
  return 0;
}

static int build_one(st_compiled *cm, st_block *b, const int *comp, int size,
                     const int *match_eq) {
  b->slots = ints(cm, size);
  b->eqs = ints(cm, size);
  b->dslots = ints(cm, size);
  b->deqs = ints(cm, size);
  if (!b->slots || !b->eqs || !b->dslots || !b->deqs) return -1;
  for (int i = 0; i < size; i++)
    if (cm->eqs[comp[i]].algorithm) return st_algorithm_block(cm, b, comp, size);
  for (int i = 0; i < size; i++) {
    int e = comp[i];
    if (cm->eqs[e].target >= 0) {
      b->dslots[b->nd] = cm->eqs[e].target;
      b->deqs[b->nd++] = e;
    } else {
      b->slots[b->n] = match_eq[e];
      b->eqs[b->n++] = e;
    }
  }
  if (b->nd && build_discrete(cm, b)) return -1;
  if (b->nd) {
    b->kind = b->n ? BK_MIXED : BK_DISCRETE;
    if (b->nd > cm->maxn) cm->maxn = b->nd;
    return b->n ? build_residuals(cm, b) : 0;
  }
  if (b->n == 1) {
    int rc = build_assign(cm, b);
    if (rc <= 0) return rc;
  }
  b->kind = BK_SOLVE;
  return build_residuals(cm, b);
}

int st_build_blocks(st_compiled *cm, const int *order, const int *comp_start, int ncomp,
                    const int *match_eq) {
  int nb = ncomp + cm->nalgs;
  cm->blocks = st_arena_alloc(cm->arena, (size_t)(nb > 0 ? nb : 1) * sizeof(st_block));
  int *rest = ints(cm, cm->nalgs);
  if (!cm->blocks || !rest) return -1;
  memset(cm->blocks, 0, (size_t)(nb > 0 ? nb : 1) * sizeof(st_block));
  cm->nblocks = ncomp;
  for (int c = 0; c < ncomp; c++) {
    const int *comp = order + comp_start[c];
    if (build_one(cm, &cm->blocks[c], comp, comp_start[c + 1] - comp_start[c], match_eq))
      return -1;
  }
  /* Sections that assign only when-variables determine no unknown: they run last, and the
   * event iteration propagates what they assign (they are idempotent, algorithm.c). */
  int nrest = st_algorithms_without_block(cm, rest);
  for (int i = 0; i < nrest; i++) {
    st_block *b = &cm->blocks[cm->nblocks++];
    b->kind = BK_ALGORITHM;
    b->alg = rest[i];
  }
  return 0;
}
