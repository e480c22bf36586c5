/* Turning the strongly connected components into solvable blocks: explicit assignments
 * where the unknown occurs once and can be isolated, linear systems (one LU step), nonlinear
 * systems (damped Newton), discrete assignments and mixed continuous/discrete systems. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

static int *ints(st_compiled *cm, int n) {
  return st_arena_alloc(cm->p.arena, (size_t)(n > 0 ? n : 1) * sizeof(int));
}

static int build_assign(st_compiled *cm, st_block *b) {
  const st_ceq *q = &cm->p.eqs[b->eqs[0]];
  st_fexpr *sol = st_sym_solve(cm, q->lhs, q->rhs, b->slots[0]);
  if (sol) {
    b->kind = BK_ASSIGN;
    b->solved_explicitly = 1;
    return st_emit(cm, &b->assign, sol, 0);
  }
  return 1; /* not isolable: solve numerically */
}

/* The structural nonzeros of a block's Jacobian, by column (compressed), in O(nnz): the
 * (row, column) pairs are collected row by row, then placed by column (a counting sort), so
 * each column's rows come out ascending. A block of 10^5 unknowns has a few 10^5 nonzeros;
 * a row-by-column bitmap would be 10^10 bytes to walk. */
typedef struct pattern_ctx {
  const int *col_of; /* slot -> column + 1, 0 outside the block */
  int *last_row;     /* column -> the last row that marked it (a duplicate is marked once) */
  int row;
  int *cols, len, cap; /* the columns of the pairs, row after row */
  int failed;
} pattern_ctx;

static void mark_column(void *ctx, int slot) {
  pattern_ctx *p = ctx;
  int j = p->col_of[slot] - 1;
  if (j < 0 || p->last_row[j] == p->row || p->failed) return;
  p->last_row[j] = p->row;
  if (p->len == p->cap) {
    int cap = p->cap ? 2 * p->cap : 64;
    int *c = realloc(p->cols, sizeof *c * (size_t)cap);
    if (!c) { p->failed = 1; return; }
    p->cols = c;
    p->cap = cap;
  }
  p->cols[p->len++] = j;
}

/* The pairs of p (rows given by row_end) as compressed columns of b. */
static int place_by_column(st_compiled *cm, st_block *b, const pattern_ctx *p,
                           const int *row_end) {
  int n = b->n, nnz = p->len;
  b->jac_rows = ints(cm, nnz);
  int *next = calloc((size_t)n + 1, sizeof *next);
  if (!b->jac_rows || !next) { free(next); return -1; }
  for (int q = 0; q < nnz; q++) next[p->cols[q] + 1]++;
  for (int j = 0; j < n; j++) next[j + 1] += next[j];
  memcpy(b->jac_start, next, sizeof(int) * ((size_t)n + 1));
  for (int i = 0, q = 0; i < n; i++)
    for (; q < row_end[i]; q++) b->jac_rows[next[p->cols[q]]++] = i;
  free(next);
  return 0;
}

static int build_pattern(st_compiled *cm, st_block *b) {
  int n = b->n, rc = -1;
  int *col_of = calloc((size_t)cm->p.nslots, sizeof *col_of);
  int *row_end = malloc(sizeof(int) * ((size_t)n + 1));
  pattern_ctx p = {col_of, malloc(sizeof(int) * ((size_t)n + 1)), -1, NULL, 0, 0, 0};
  b->jac_start = ints(cm, n + 1);
  if (col_of && row_end && p.last_row && b->jac_start) {
    for (int j = 0; j < n; j++) col_of[b->slots[j]] = j + 1, p.last_row[j] = -1;
    for (int i = 0; i < n; i++) {
      p.row = i;
      st_expr_unknowns(cm, cm->p.eqs[b->eqs[i]].lhs, mark_column, &p);
      st_expr_unknowns(cm, cm->p.eqs[b->eqs[i]].rhs, mark_column, &p);
      row_end[i] = p.len;
    }
    rc = p.failed ? -1 : place_by_column(cm, b, &p, row_end);
  }
  free(col_of);
  free(row_end);
  free(p.last_row);
  free(p.cols);
  return rc;
}

static int build_residuals(st_compiled *cm, st_block *b) {
  b->res = st_arena_alloc(cm->p.arena, (size_t)(b->n > 0 ? b->n : 1) * sizeof(st_prog));
  unsigned char *in = calloc((size_t)cm->p.nslots, 1);
  if (!b->res || !in) { free(in); return -1; }
  for (int i = 0; i < b->n; i++) in[b->slots[i]] = 1;
  b->linear = 1;
  b->const_jac = 1;
  for (int i = 0; i < b->n; i++) {
    const st_ceq *q = &cm->p.eqs[b->eqs[i]];
    if (!st_sym_linear(cm, q->lhs, in) || !st_sym_linear(cm, q->rhs, in)) b->linear = 0;
    if (!st_sym_frozen_coefficients(cm, q->lhs, in) || !st_sym_frozen_coefficients(cm, q->rhs, in))
      b->const_jac = 0;
    if (st_emit_residual(cm, &b->res[i], q->lhs, q->rhs)) { free(in); return -1; }
  }
  free(in);
  if (build_pattern(cm, b)) return -1;
  b->const_jac = b->const_jac && b->linear;
  b->gen = -1;
  /* a large sparse one is factored by KLU (solve.c cached_linear): no dense factors */
  if (b->const_jac && !st_block_uses_klu(b) && !(b->fac = st_factors_new(cm->p.arena, b->n)))
    return -1;
  if (b->n > cm->p.maxn) cm->p.maxn = b->n;
  return 0;
}

/* Marks the real unknowns of b that occur in an operand of a comparison of e (pre() values
 * are not unknowns). */
static int mark_compared(const st_compiled *cm, const st_block *b, const st_fexpr *e,
                         int in_comparison) {
  if (!e || (e->kind == FX_BUILTIN && e->op == FB_PRE)) return 0;
  if (e->kind == FX_BINARY && e->op >= FOP_LT && e->op <= FOP_GE) in_comparison = 1;
  int s = in_comparison ? st_ref_slot(cm, e) : -1, marked = 0;
  for (int j = 0; s >= 0 && j < b->n; j++)
    if (b->slots[j] == s && !b->compared[j]) b->compared[j] = 1, marked++;
  for (int i = 0; i < e->nargs; i++) marked += mark_compared(cm, b, e->args[i], in_comparison);
  return marked;
}

/* The unknowns the mode logic of a mixed block reads. When the real part is singular (two
 * friction elements locked on one motion) they decide which of its solutions is taken
 * (solve.c singular_step); a block whose discrete equations compare none keeps NULL. */
static int find_compared(st_compiled *cm, st_block *b) {
  b->compared = st_arena_alloc(cm->p.arena, (size_t)b->n + 1);
  if (!b->compared) return -1;
  memset(b->compared, 0, (size_t)b->n + 1);
  int marked = 0;
  for (int i = 0; i < b->nd; i++) marked += mark_compared(cm, b, cm->p.eqs[b->deqs[i]].rhs, 0);
  if (!marked) b->compared = NULL;
  return 0;
}

static int build_discrete(st_compiled *cm, st_block *b) {
  b->dexpr = st_arena_alloc(cm->p.arena, (size_t)(b->nd > 0 ? b->nd : 1) * sizeof(st_prog));
  if (!b->dexpr) return -1;
  for (int i = 0; i < b->nd; i++) {
    if (st_emit(cm, &b->dexpr[i], cm->p.eqs[b->deqs[i]].rhs, 0)) return -1;
    for (int k = 0; k < b->dexpr[i].n; k++) b->samples |= b->dexpr[i].code[k].op == OP_SAMPLE;
  }
  return b->n ? find_compared(cm, b) : 0;
}

static int build_one(st_compiled *cm, st_block *b, const int *comp, int size,
                     const int *match_eq) {
  /* one array for the slots and equations (most blocks have one of each); the discrete
   * ones only where there are some (or an algorithm section may assign) */
  int ndisc = 0, alg = 0;
  for (int i = 0; i < size; i++) {
    ndisc += cm->p.eqs[comp[i]].target >= 0;
    alg |= cm->p.eqs[comp[i]].algorithm != 0;
  }
  b->slots = ints(cm, 2 * size);
  if (!b->slots) return -1;
  b->eqs = b->slots + size;
  if (ndisc || alg) {
    b->dslots = ints(cm, 2 * size);
    if (!b->dslots) return -1;
    b->deqs = b->dslots + size;
  }
  if (alg) return st_algorithm_block(cm, b, comp, size);
  for (int i = 0; i < size; i++) {
    int e = comp[i];
    if (cm->p.eqs[e].target >= 0) {
      b->dslots[b->nd] = cm->p.eqs[e].target;
      b->deqs[b->nd++] = e;
    } else {
      b->slots[b->n] = match_eq[e];
      b->eqs[b->n++] = e;
    }
  }
  if (b->nd && build_discrete(cm, b)) return -1;
  if (b->nd) {
    b->kind = b->n ? BK_MIXED : BK_DISCRETE;
    if (b->nd > cm->p.maxn) cm->p.maxn = b->nd;
    return b->n ? build_residuals(cm, b) || st_tear_block(cm, b) : 0;
  }
  if (b->n == 1) {
    int rc = build_assign(cm, b);
    if (rc <= 0) return rc;
  }
  b->kind = BK_SOLVE;
  return build_residuals(cm, b) || st_tear_block(cm, b) ? -1 : 0;
}

/* Does e change between events: time, a state, or an unknown of a varying block? Inside
 * pre() nothing does (pre-values are held); parameters and discrete variables never do. */
static int refs_varying(const st_compiled *cm, const st_fexpr *e, const unsigned char *var) {
  if (!e) return 0;
  if (e->kind == FX_TIME) return 1;
  if (e->kind == FX_BUILTIN && e->op == FB_PRE) return 0;
  /* event-only built-ins read differently outside event passes (initial() is false) */
  if (e->kind == FX_BUILTIN && (e->op == FB_INITIAL || e->op == FB_TERMINAL ||
                                e->op == FB_SAMPLE || e->op == FB_EDGE || e->op == FB_CHANGE ||
                                e->op == FB_DELAY)) /* delay(): history moves with time */
    return 1;
  int s = st_ref_slot(cm, e);
  if (s >= 0) return cm->p.slots[s].kind == K_STATE || var[s];
  for (int i = 0; i < e->nargs; i++)
    if (refs_varying(cm, e->args[i], var)) return 1;
  return 0;
}

/* A block none of whose equations varies between events (parameter-only expressions such as
 * a table lookup at w = 0, or functions of discrete variables) gets the same values at every
 * continuous evaluation after an event pass: st_eval_blocks computes it in event mode only
 * (initialization and every event pass, which also follow any parameter change). Blocks are
 * in BLT order, so one forward pass sees every input before its use. */
static int mark_varying(st_compiled *cm) {
  unsigned char *var = calloc((size_t)cm->p.nslots, 1);
  if (!var) return -1;
  for (int k = 0; k < cm->nblocks; k++) {
    st_block *b = &cm->blocks[k];
    /* an algorithm section runs as a whole: always (its statements are not analysed here) */
    b->varying = b->kind == BK_ALGORITHM;
    for (int i = 0; i < b->n && !b->varying; i++) {
      const st_ceq *q = &cm->p.eqs[b->eqs[i]];
      b->varying = refs_varying(cm, q->lhs, var) || refs_varying(cm, q->rhs, var);
    }
    for (int i = 0; i < b->n && b->varying; i++) var[b->slots[i]] = 1;
  }
  free(var);
  return 0;
}

int st_build_blocks(st_compiled *cm, const int *order, const int *comp_start, int ncomp,
                    const int *match_eq) {
  int nb = ncomp + cm->nalgs;
  cm->blocks = st_arena_alloc(cm->p.arena, (size_t)(nb > 0 ? nb : 1) * sizeof(st_block));
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
  return mark_varying(cm);
}
