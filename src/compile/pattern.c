/* The structure of df/dy of the ODE form: which states each state derivative can depend on
 * between two events. It lets the runtime difference-quotient many Jacobian columns with
 * one evaluation (Curtis, Powell and Reid 1974) and give KLU a truly sparse matrix.
 *
 * Dependencies are propagated through the blocks in their BLT order: the unknowns of a
 * block depend on the union of what its equations read (states directly, earlier unknowns
 * through their own sets). Discrete unknowns are constant between events (relations are
 * held, pre() is fixed), so they carry no dependency. The result is a superset of the true
 * pattern (both branches of an if count); the diagonal is always included, as the Newton
 * matrix I - gamma*J needs it. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

/* Sparse dependency sets, built in one pass: the cost is the sum of the set sizes read, so a
 * model whose equations each read a few neighbours costs O(n) (dense bit sets cost slots x
 * states, 93 % of translating a 60000-state chain). */
typedef struct dep_sets {
  int *start, *count;     /* per slot: its set in pool (count -1: none, i.e. constant) */
  int *pool, npool, cap;  /* the sets, states in order of discovery */
  int *stamp;             /* per state: the last block that added it to acc */
  int *acc, nacc;         /* the block being built */
  unsigned char *needed;  /* per slot: a state derivative depends on it */
} dep_sets;

static void add_state(dep_sets *d, int state, int block) {
  if (d->stamp[state] == block) return;
  d->stamp[state] = block;
  d->acc[d->nacc++] = state;
}

static void add_slot(const st_compiled *cm, dep_sets *d, int s, int block) {
  const st_slot *sl = &cm->p.slots[s];
  if (sl->kind == K_STATE && sl->state >= 0) {
    add_state(d, sl->state, block);
    return;
  }
  if (sl->kind != K_DER && sl->kind != K_ALG) return; /* parameters, discretes: constant */
  for (int k = 0; k < d->count[s]; k++) add_state(d, d->pool[d->start[s] + k], block);
}

/* Adds what expression e reads (outside pre()) to the block's set. */
static void add_reads(const st_compiled *cm, dep_sets *d, const st_fexpr *e, int block) {
  if (!e) return;
  if (e->kind == FX_BUILTIN && e->op == FB_PRE) return;
  int s = st_ref_slot(cm, e);
  if (s >= 0) {
    add_slot(cm, d, s, block);
    return;
  }
  for (int i = 0; i < e->nargs; i++) add_reads(cm, d, e->args[i], block);
}

/* Marks the slots expression e reads (outside pre()) as needed. */
static void mark_reads(const st_compiled *cm, dep_sets *d, const st_fexpr *e) {
  if (!e) return;
  if (e->kind == FX_BUILTIN && e->op == FB_PRE) return;
  int s = st_ref_slot(cm, e);
  if (s >= 0) {
    d->needed[s] = 1;
    return;
  }
  for (int i = 0; i < e->nargs; i++) mark_reads(cm, d, e->args[i]);
}

/* The slots some state derivative depends on, backwards through the BLT order (a block reads
 * only earlier ones). Only their sets are built: in a chain of components the positions
 * s[i] = s[i-1] + s_rel[i-1] depend on i states each but feed no derivative, and their sets
 * would take N^2/2 integers. */
static void mark_needed(const st_compiled *cm, dep_sets *d) {
  for (int i = 0; i < cm->p.nstates; i++) d->needed[cm->p.slots[cm->p.state_slot[i]].der] = 1;
  for (int bi = cm->nblocks - 1; bi >= 0; bi--) {
    const st_block *b = &cm->blocks[bi];
    int needed = 0;
    for (int k = 0; k < b->n && !needed; k++) needed = d->needed[b->slots[k]];
    for (int k = 0; needed && k < b->n; k++) {
      const st_ceq *q = &cm->p.eqs[b->eqs[k]];
      mark_reads(cm, d, q->lhs);
      mark_reads(cm, d, q->rhs);
    }
  }
}

/* All unknowns of a block share the union of what its equations read. */
static int propagate_block(const st_compiled *cm, dep_sets *d, int bi) {
  const st_block *b = &cm->blocks[bi];
  if (b->kind == BK_DISCRETE) return 0;
  if (b->kind != BK_ASSIGN && b->kind != BK_SOLVE && b->kind != BK_MIXED &&
      b->kind != BK_ALGORITHM) /* its equations' rhs lists all it reads (algorithm.c) */
    return -1;
  int needed = 0;
  for (int k = 0; k < b->n && !needed; k++) needed = d->needed[b->slots[k]];
  if (!needed) return 0; /* its sets stay empty: no derivative reads them */
  d->nacc = 0;
  for (int k = 0; k < b->n; k++) {
    const st_ceq *q = &cm->p.eqs[b->eqs[k]];
    add_reads(cm, d, q->lhs, bi);
    add_reads(cm, d, q->rhs, bi);
  }
  if (d->npool + d->nacc > d->cap) {
    int cap = 2 * d->cap + d->nacc;
    int *pool = realloc(d->pool, sizeof *pool * (size_t)cap);
    if (!pool) return -2;
    d->pool = pool;
    d->cap = cap;
  }
  if (d->nacc) memcpy(d->pool + d->npool, d->acc, sizeof *d->acc * (size_t)d->nacc);
  for (int k = 0; k < b->n; k++) {
    d->start[b->slots[k]] = d->npool;
    d->count[b->slots[k]] = d->nacc;
  }
  d->npool += d->nacc;
  return 0;
}

/* Compressed columns from the per-derivative sets: column j lists, in increasing order, the
 * derivatives that read state j, the diagonal included. */
static int to_columns(st_compiled *cm, const dep_sets *d) {
  int n = cm->p.nstates;
  int *cols = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(n + 1));
  if (!cols) return -1;
  memset(cols, 0, sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) { /* count per column, the diagonal once */
    int der = cm->p.slots[cm->p.state_slot[i]].der, diag = 0;
    for (int k = 0; k < d->count[der]; k++) {
      int j = d->pool[d->start[der] + k];
      cols[j + 1]++;
      diag |= j == i;
    }
    if (!diag) cols[i + 1]++;
  }
  for (int j = 0; j < n; j++) cols[j + 1] += cols[j];
  int *rows = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(cols[n] + 1));
  int *fill = malloc(sizeof *fill * (size_t)(n ? n : 1));
  if (!rows || !fill) {
    free(fill);
    return -1;
  }
  memcpy(fill, cols, sizeof *fill * (size_t)n);
  for (int i = 0; i < n; i++) { /* rows in increasing order: i is the outer loop */
    int der = cm->p.slots[cm->p.state_slot[i]].der, diag = 0;
    for (int k = 0; k < d->count[der]; k++) {
      int j = d->pool[d->start[der] + k];
      rows[fill[j]++] = i;
      diag |= j == i;
    }
    if (!diag) rows[fill[i]++] = i;
  }
  free(fill);
  cm->p.jac_cols = cols;
  cm->p.jac_rows = rows;
  return 0;
}

int st_jacobian_pattern(st_compiled *cm) {
  cm->p.jac_cols = cm->p.jac_rows = NULL;
  if (cm->p.nstates == 0) return 0;
  dep_sets d = {0};
  size_t ns = (size_t)cm->p.nslots, nx = (size_t)cm->p.nstates;
  d.start = calloc(ns, sizeof *d.start);
  d.count = calloc(ns, sizeof *d.count);
  d.stamp = malloc(nx * sizeof *d.stamp);
  d.acc = malloc(nx * sizeof *d.acc);
  d.needed = calloc(ns, 1);
  int rc = d.start && d.count && d.stamp && d.acc && d.needed ? 0 : -2;
  if (!rc) memset(d.stamp, 0xff, nx * sizeof *d.stamp); /* -1: no block yet */
  if (!rc) mark_needed(cm, &d);
  for (int b = 0; b < cm->nblocks && rc == 0; b++) rc = propagate_block(cm, &d, b);
  /* a block kind this pass does not know: no pattern, the runtime treats df/dy as dense */
  cm->p.jac_sets = d.npool;
  if (rc == 0) rc = to_columns(cm, &d);
  else rc = rc == -1 ? 0 : -1;
  free(d.start);
  free(d.count);
  free(d.stamp);
  free(d.acc);
  free(d.needed);
  free(d.pool);
  return rc;
}
