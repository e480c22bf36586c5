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

typedef struct dep_sets {
  int words;               /* 64-bit words per set */
  unsigned long long *bits;/* per slot: the states it depends on */
} dep_sets;

static unsigned long long *set_of(const dep_sets *d, int slot) {
  return d->bits + (size_t)slot * (size_t)d->words;
}

static void add_slot(const st_compiled *cm, const dep_sets *d, int s, unsigned long long *into) {
  const st_slot *sl = &cm->p.slots[s];
  if (sl->kind == K_STATE && sl->state >= 0) {
    into[sl->state / 64] |= 1ull << (sl->state % 64);
    return;
  }
  if (sl->kind != K_DER && sl->kind != K_ALG) return; /* parameters, discretes: constant */
  const unsigned long long *from = set_of(d, s);
  for (int w = 0; w < d->words; w++) into[w] |= from[w];
}

/* Adds what expression e reads (outside pre()) to `into`. */
static void add_reads(const st_compiled *cm, const dep_sets *d, const st_fexpr *e,
                      unsigned long long *into) {
  if (!e) return;
  if (e->kind == FX_BUILTIN && e->op == FB_PRE) return;
  int s = st_ref_slot(cm, e);
  if (s >= 0) {
    add_slot(cm, d, s, into);
    return;
  }
  for (int i = 0; i < e->nargs; i++) add_reads(cm, d, e->args[i], into);
}

/* All unknowns of a block share the union of what its equations read. */
static int propagate_block(const st_compiled *cm, const dep_sets *d, const st_block *b,
                           unsigned long long *acc) {
  if (b->kind == BK_DISCRETE) return 0;
  if (b->kind != BK_ASSIGN && b->kind != BK_SOLVE && b->kind != BK_MIXED &&
      b->kind != BK_ALGORITHM) /* its equations' rhs lists all it reads (algorithm.c) */
    return -1;
  memset(acc, 0, sizeof *acc * (size_t)d->words);
  for (int k = 0; k < b->n; k++) {
    const st_ceq *q = &cm->p.eqs[b->eqs[k]];
    add_reads(cm, d, q->lhs, acc);
    add_reads(cm, d, q->rhs, acc);
  }
  for (int k = 0; k < b->n; k++) memcpy(set_of(d, b->slots[k]), acc, sizeof *acc * (size_t)d->words);
  return 0;
}

static int has_dep(const dep_sets *d, int slot, int state) {
  return (set_of(d, slot)[state / 64] >> (state % 64)) & 1;
}

/* Compressed columns from the per-derivative sets: column j lists the derivatives that read
 * state j, the diagonal included. */
static int to_columns(st_compiled *cm, const dep_sets *d) {
  int n = cm->p.nstates, nnz = 0;
  cm->p.jac_cols = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(n + 1));
  if (!cm->p.jac_cols) return -1;
  for (int pass = 0; pass < 2; pass++) {
    nnz = 0;
    for (int j = 0; j < n; j++) {
      if (pass) cm->p.jac_cols[j] = nnz;
      for (int i = 0; i < n; i++) {
        int der = cm->p.slots[cm->p.state_slot[i]].der;
        if (i != j && !has_dep(d, der, j)) continue;
        if (pass) cm->p.jac_rows[nnz] = i;
        nnz++;
      }
    }
    if (!pass && !(cm->p.jac_rows = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(nnz + 1))))
      return -1;
  }
  cm->p.jac_cols[n] = nnz;
  return 0;
}

int st_jacobian_pattern(st_compiled *cm) {
  cm->p.jac_cols = cm->p.jac_rows = NULL;
  if (cm->p.nstates == 0) return 0;
  dep_sets d = {(cm->p.nstates + 63) / 64, NULL};
  d.bits = calloc((size_t)cm->p.nslots * (size_t)d.words + (size_t)d.words, sizeof *d.bits);
  if (!d.bits) return -1;
  unsigned long long *acc = d.bits + (size_t)cm->p.nslots * (size_t)d.words;
  int rc = 0;
  for (int b = 0; b < cm->nblocks && rc == 0; b++) rc = propagate_block(cm, &d, &cm->blocks[b], acc);
  /* a block kind this pass does not know: no pattern, the runtime treats df/dy as dense */
  if (rc == 0) rc = to_columns(cm, &d);
  else rc = 0;
  free(d.bits);
  return rc;
}
