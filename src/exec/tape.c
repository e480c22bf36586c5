/* Tapes: the evaluation between two events as one straight program.
 *
 * Why: after specialization (specialize.c) the programs of a small model are a few
 * instructions each (Leine's belt: 25 for all its blocks), and the cost of an evaluation was
 * the walk around them -- one interpreter call per program, the block loop with its kind
 * tests, a call per linear solve -- about 1500 machine instructions per right-hand side.
 * A tape chains the hot programs of all varying blocks in BLT order, each followed by
 * OP_STORE into its unknown's slot; the residuals of a linear block (cached factors, solve.c)
 * end a segment with OP_OSTORE into a scratch vector, and the segment's solve step
 * (st_linear_step) runs before the next segment. The indicator tape does the same for the
 * blocks of the indicator slice and ends with the active indicators' programs.
 *
 * The same programs run in the same order on the same values, so the results are those of
 * st_eval_blocks. A tape exists only when every block it covers is an assignment or a
 * linear block with frozen coefficients (no Newton iteration, no algorithm section), and it
 * runs only while every such block's factors belong to the current event interval (the
 * first evaluation after an event computes them the usual way) and not in the DAE form. */
#include <stdlib.h>

#include "compile/model_impl.h"

typedef struct seg {
  st_prog prog;
  int block; /* linear block solved after prog, or -1 */
} seg;

typedef struct tape {
  seg *segs;
  int nseg, cap;
  st_prog tail; /* after the segments and the alias copies: the indicators */
  int ok;
  long ready_gen; /* the interval in which all factors were found current */
} tape;

struct st_tapes {
  tape all, ind;
  double *out; /* residuals of a segment's linear block; indicator values */
  long gen;    /* the event interval (cm->gen) they were built for */
};

static void tape_free(tape *t) {
  for (int i = 0; i < t->cap; i++) st_prog_free(&t->segs[i].prog);
  free(t->segs);
  st_prog_free(&t->tail);
}

void st_tapes_free(struct st_tapes *t) {
  if (!t) return;
  tape_free(&t->all);
  tape_free(&t->ind);
  free(t->out);
  free(t);
}

static seg *new_seg(tape *t) {
  if (t->nseg == t->cap) {
    int cap = t->cap ? 2 * t->cap : 4;
    seg *s = realloc(t->segs, sizeof *s * (size_t)cap);
    if (!s) return NULL;
    for (int i = t->cap; i < cap; i++) s[i] = (seg){{NULL, 0, 0, 0, 0}, -1};
    t->segs = s;
    t->cap = cap;
  }
  seg *s = &t->segs[t->nseg++];
  s->prog.n = 0;
  s->block = -1;
  return s;
}

/* src then a store of its value; jump targets shifted to the new position. */
static int append(st_prog *dst, const st_prog *src, int store_op, int target) {
  int off = dst->n;
  if (src->n == 0 && st_prog_emit(dst, OP_CONST, 0, 0)) return -1; /* its value is 0 */
  for (int i = 0; i < src->n; i++) {
    st_ins in = src->code[i];
    if (in.op == OP_JZ || in.op == OP_JMP) in.arg += off;
    if (st_prog_emit(dst, in.op, in.arg, in.k)) return -1;
  }
  return st_prog_emit(dst, store_op, target, 0);
}

/* Appends block b to the segment *cur; 0, 1 (cannot be taped), -1 (memory). */
static int add_block(tape *t, seg **cur, st_compiled *cm, int k) {
  st_block *b = &cm->blocks[k];
  if (b->kind == BK_ASSIGN) {
    if (st_spec_block_constant(cm, k)) return 0; /* its slot holds the value */
    return append(&(*cur)->prog, b->hot_assign, OP_STORE, b->slots[0]);
  }
  if (b->kind == BK_ALGORITHM) return 1;
  if (b->n == 0) return 0; /* discrete only: frozen between events */
  if (!b->const_jac || !b->hot_res) return 1;
  for (int i = 0; i < b->n; i++)
    if (append(&(*cur)->prog, &b->hot_res[i], OP_OSTORE, i)) return -1;
  (*cur)->block = k;
  return (*cur = new_seg(t)) ? 0 : -1;
}

/* Indicator programs may read alias slots (when-conditions compiled before elimination):
 * they run after st_sync_aliases, in the tail. */
static int add_indicators(tape *t, st_compiled *cm) {
  t->tail.n = 0;
  for (int i = 0; i < cm->p.nind; i++) {
    int k = cm->p.ind_rel[i];
    if (cm->vm.active[k] && append(&t->tail, cm->rels[k].hot_ind, OP_OSTORE, i)) return -1;
  }
  return 0;
}

static int build(tape *t, st_compiled *cm, const unsigned char *need, int with_ind) {
  t->ok = 0;
  t->ready_gen = -1;
  t->nseg = 0;
  t->tail.n = 0;
  seg *cur = new_seg(t);
  if (!cur) return -1;
  for (int k = 0; k < cm->nblocks; k++) {
    if (!cm->blocks[k].varying || (need && !need[k])) continue;
    int rc = add_block(t, &cur, cm, k);
    if (rc) return rc;
  }
  if (with_ind && add_indicators(t, cm)) return -1;
  t->ok = 1;
  return 0;
}

int st_tapes_build(st_compiled *cm, const unsigned char *need) {
  struct st_tapes *t = cm->tapes;
  if (!t) {
    int n = cm->p.maxn > cm->p.nind ? cm->p.maxn : cm->p.nind;
    t = cm->tapes = calloc(1, sizeof *t);
    if (t) t->out = malloc(sizeof(double) * (size_t)(n + 1));
    if (!t || !t->out) return -1;
  }
  t->gen = cm->gen;
  if (build(&t->all, cm, NULL, 0) < 0) return -1;
  if (need && cm->vm.active && build(&t->ind, cm, need, 1) < 0) return -1;
  if (!need || !cm->vm.active) t->ind.ok = 0;
  return 0;
}

void st_tapes_keep(st_compiled *cm) { cm->tapes->gen = cm->gen; }

/* Usable now: built for this interval and the factors of its linear blocks current (once
 * they are, they stay so until the next event: only an event pass changes cm->gen). The DAE
 * form evaluates its algebraic blocks differently (dae.c); without any it is the ODE form. */
static int ready(const st_compiled *cm, tape *t) {
  if (cm->tapes->gen != cm->gen || !t->ok || (cm->dae && cm->nalg > 0)) return 0;
  if (t->ready_gen == cm->gen) return 1;
  for (int i = 0; i < t->nseg; i++)
    if (t->segs[i].block >= 0 && cm->blocks[t->segs[i].block].gen != cm->gen) return 0;
  t->ready_gen = cm->gen;
  return 1;
}

static void run(st_compiled *cm, const tape *t) {
  cm->tape_runs++;
  cm->vm.out = cm->tapes->out;
  for (int i = 0; i < t->nseg; i++) {
    const seg *s = &t->segs[i];
    st_vm_eval(&cm->vm, &s->prog);
    if (s->block >= 0) st_linear_step(cm, &cm->blocks[s->block], cm->tapes->out);
  }
  st_sync_aliases(cm);
  if (t->tail.n) st_vm_eval(&cm->vm, &t->tail);
}

int st_tape_run_all(st_compiled *cm) {
  if (!cm->tapes || !ready(cm, &cm->tapes->all)) return 1;
  run(cm, &cm->tapes->all);
  return 0;
}

int st_tape_run_indicators(st_compiled *cm, const double **raw) {
  if (!cm->tapes || !ready(cm, &cm->tapes->ind)) return 1;
  run(cm, &cm->tapes->ind);
  *raw = cm->tapes->out;
  return 0;
}
