/* The structure of df/dy of the ODE form: which states each state derivative can depend on
 * between two events; and that of dF/dy + cj dF/dy' of the DAE form (exec/dae.c), where the
 * unknowns of the blocks IDA iterates on are inputs like the states and each of their
 * equations is a residual row. It lets the runtime difference-quotient many Jacobian columns with
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
  const int *col;         /* per slot: the column (input) it is, or -1 */
  int *start, *count;     /* per slot: its set in pool (count -1: none, i.e. constant) */
  int *pool, npool, cap;  /* the sets, columns in order of discovery */
  int *stamp;             /* per column: the last set that added it to acc */
  int *acc, nacc;         /* the set being built */
  unsigned char *needed;  /* per slot: a row depends on it */
} dep_sets;

static void add_state(dep_sets *d, int state, int block) {
  if (d->stamp[state] == block) return;
  d->stamp[state] = block;
  d->acc[d->nacc++] = state;
}

static void add_slot(const st_compiled *cm, dep_sets *d, int s, int block) {
  const st_slot *sl = &cm->p.slots[s];
  if (d->col[s] >= 0) {
    add_state(d, d->col[s], block);
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
    int needed = b->n > 0 && d->col[b->slots[0]] >= 0; /* residual rows of the DAE form */
    for (int k = 0; k < b->n && !needed; k++) needed = d->needed[b->slots[k]];
    for (int k = 0; needed && k < b->n; k++) {
      const st_ceq *q = &cm->p.eqs[b->eqs[k]];
      mark_reads(cm, d, q->lhs);
      mark_reads(cm, d, q->rhs);
    }
  }
}

/* acc appended to the pool: its start there. */
static int keep_acc(dep_sets *d) {
  if (d->npool + d->nacc > d->cap) {
    int cap = 2 * d->cap + d->nacc;
    int *pool = realloc(d->pool, sizeof *pool * (size_t)cap);
    if (!pool) return -2;
    d->pool = pool;
    d->cap = cap;
  }
  if (d->nacc) memcpy(d->pool + d->npool, d->acc, sizeof *d->acc * (size_t)d->nacc);
  d->npool += d->nacc;
  return d->npool - d->nacc;
}

/* All unknowns of a block share the union of what its equations read. */
static int propagate_block(const st_compiled *cm, dep_sets *d, int bi) {
  const st_block *b = &cm->blocks[bi];
  if (b->kind == BK_DISCRETE || (b->n > 0 && d->col[b->slots[0]] >= 0)) return 0; /* inputs */
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
  int at = keep_acc(d);
  if (at < 0) return at;
  for (int k = 0; k < b->n; k++) {
    d->start[b->slots[k]] = at;
    d->count[b->slots[k]] = d->nacc;
  }
  return 0;
}

/* Compressed columns from the sets of n rows (row i: pool[rstart[i] ..] of rcount[i]
 * columns): column j lists, in increasing order, the rows that read j, the diagonal
 * included. Arrays from arena. */
static int to_columns(st_arena *arena, const dep_sets *d, int n, const int *rstart,
                      const int *rcount, int **cols_out, int **rows_out) {
  int *cols = st_arena_alloc(arena, sizeof(int) * (size_t)(n + 1));
  if (!cols) return -1;
  memset(cols, 0, sizeof(int) * (size_t)(n + 1));
  for (int i = 0; i < n; i++) { /* count per column, the diagonal once */
    int diag = 0;
    for (int k = 0; k < rcount[i]; k++) {
      int j = d->pool[rstart[i] + k];
      cols[j + 1]++;
      diag |= j == i;
    }
    if (!diag) cols[i + 1]++;
  }
  for (int j = 0; j < n; j++) cols[j + 1] += cols[j];
  int *rows = st_arena_alloc(arena, sizeof(int) * (size_t)(cols[n] + 1));
  int *fill = malloc(sizeof *fill * (size_t)(n ? n : 1));
  if (!rows || !fill) {
    free(fill);
    return -1;
  }
  memcpy(fill, cols, sizeof *fill * (size_t)n);
  for (int i = 0; i < n; i++) { /* rows in increasing order: i is the outer loop */
    int diag = 0;
    for (int k = 0; k < rcount[i]; k++) {
      int j = d->pool[rstart[i] + k];
      rows[fill[j]++] = i;
      diag |= j == i;
    }
    if (!diag) rows[fill[i]++] = i;
  }
  free(fill);
  *cols_out = cols;
  *rows_out = rows;
  return 0;
}

static int dep_sets_init(const st_compiled *cm, dep_sets *d, const int *col, int ncols) {
  size_t ns = (size_t)cm->p.nslots, nx = (size_t)(ncols > 0 ? ncols : 1);
  *d = (dep_sets){.col = col};
  d->start = calloc(ns + 1, sizeof *d->start);
  d->count = calloc(ns + 1, sizeof *d->count);
  d->stamp = malloc(nx * sizeof *d->stamp);
  d->acc = malloc(nx * sizeof *d->acc);
  d->needed = calloc(ns + 1, 1);
  if (!d->start || !d->count || !d->stamp || !d->acc || !d->needed) return -2;
  memset(d->stamp, 0xff, nx * sizeof *d->stamp); /* -1: no set yet */
  mark_needed(cm, d);
  return 0;
}

static void dep_sets_free(dep_sets *d) {
  free(d->start);
  free(d->count);
  free(d->stamp);
  free(d->acc);
  free(d->needed);
  free(d->pool);
}

int st_jacobian_pattern(st_compiled *cm) {
  cm->p.jac_cols = cm->p.jac_rows = NULL;
  int n = cm->p.nstates;
  if (n == 0) return 0;
  dep_sets d = {0};
  int *col = malloc(sizeof(int) * ((size_t)cm->p.nslots + 1));
  int *rstart = malloc(sizeof(int) * (size_t)n), *rcount = malloc(sizeof(int) * (size_t)n);
  int rc = col && rstart && rcount ? 0 : -2;
  for (int s = 0; !rc && s < cm->p.nslots; s++)
    col[s] = cm->p.slots[s].kind == K_STATE ? cm->p.slots[s].state : -1;
  if (!rc) rc = dep_sets_init(cm, &d, col, n);
  for (int b = 0; b < cm->nblocks && rc == 0; b++) rc = propagate_block(cm, &d, b);
  /* a block kind this pass does not know: no pattern, the runtime treats df/dy as dense */
  cm->p.jac_sets = d.npool;
  for (int i = 0; rc == 0 && i < n; i++) {
    int der = cm->p.slots[cm->p.state_slot[i]].der;
    rstart[i] = d.start[der];
    rcount[i] = d.count[der];
  }
  if (rc == 0) rc = to_columns(cm->p.arena, &d, n, rstart, rcount, &cm->p.jac_cols, &cm->p.jac_rows);
  else rc = rc == -1 ? 0 : -1;
  dep_sets_free(&d);
  free(col);
  free(rstart);
  free(rcount);
  return rc;
}

int st_dae_pattern(st_compiled *cm, const int *col, int n, int **cols, int **rows) {
  *cols = *rows = NULL;
  int ns = cm->p.nstates, rc;
  dep_sets d = {0};
  int *rstart = calloc((size_t)n + 1, sizeof(int)), *rcount = calloc((size_t)n + 1, sizeof(int));
  rc = rstart && rcount ? dep_sets_init(cm, &d, col, n) : -2;
  for (int b = 0; b < cm->nblocks && rc == 0; b++) rc = propagate_block(cm, &d, b);
  for (int i = 0; rc == 0 && i < ns; i++) { /* r_i = yp_i - der(x_i); der(x_i) may be a column */
    d.nacc = 0;
    add_slot(cm, &d, cm->p.slots[cm->p.state_slot[i]].der, cm->nblocks + i);
    int at = keep_acc(&d);
    if (at < 0) rc = at;
    rstart[i] = at;
    rcount[i] = d.nacc;
  }
  for (int bi = 0; rc == 0 && bi < cm->nblocks; bi++) { /* a row per equation of a block */
    const st_block *b = &cm->blocks[bi];
    if (b->n == 0 || col[b->slots[0]] < 0) continue;
    for (int k = 0; rc == 0 && k < b->n; k++) {
      const st_ceq *q = &cm->p.eqs[b->eqs[k]];
      int row = col[b->slots[0]] + k, set = cm->nblocks + row; /* stamps apart from blocks' */
      d.nacc = 0;
      add_reads(cm, &d, q->lhs, set);
      add_reads(cm, &d, q->rhs, set);
      int at = keep_acc(&d);
      if (at < 0) rc = at;
      rstart[row] = at;
      rcount[row] = d.nacc;
    }
  }
  if (rc == 0) rc = to_columns(cm->iarena, &d, n, rstart, rcount, cols, rows);
  else rc = rc == -1 ? 0 : -1;
  dep_sets_free(&d);
  free(rstart);
  free(rcount);
  return rc;
}
