/* Programs specialized to one interval between events (partial evaluation).
 *
 * Why: between two events every discrete value, pre() value, held relation and parameter is
 * constant (doc/events.md), yet the programs of the blocks read them at every evaluation:
 * `f = if pre(mode) == Forward or startFor then f0 + f1*v elseif ...` tests the same
 * branch conditions thousands of times per interval. The friction block's mixed loop is 61
 * instructions of which 11 compute something that can change before the next event.
 *
 * After each event pass (lazily, at the first evaluation between events) every program that
 * runs between events is copied with the frozen operands replaced by their values: loads of
 * frozen slots and pre() become constants, held relations become their 0/1 value (the code
 * of their operands is dropped: between events a relation reads its held value only,
 * bytecode.c), conditional jumps on constants are resolved, and operations whose operands
 * are all constant are folded by running the interpreter itself on them. The copy is
 * straight-line code over time, the states and the unknowns of varying blocks.
 *
 * Results are bit for bit those of the original program: every folded operation is the
 * same IEEE operation on the same values, computed by st_vm_eval; the only rewritings are
 * exact identities: k + x for x + k, k * x for x * k, x for x * 1, x / 1, x - 0, and a + b
 * for a - (-b) (IEEE 754 defines subtraction as addition of the negation). A program with a jump on a value
 * that varies between events (a noEvent condition) is not specialized.
 *
 * Frozen slots: parameters and constants, discrete and when-assigned variables (assigned in
 * event passes only; solve.c), and the unknowns of blocks that are not varying (evaluated
 * in event passes only) and not among IDA's algebraic unknowns (dae.c loads those). Outputs
 * of algorithm sections are never frozen (the section reassigns them while it runs)..
 *
 * Kept over events: the programs stay valid while every value they folded (the frozen
 * slots they loaded, pre() values, held relations) and the set of active relations are
 * unchanged, so an event that changes none of them keeps the programs and tapes as they
 * are. A Real frozen slot that invalidated two short-lived specializations in a row (a
 * clock tick's held controller output: a new value at every tick, a few evaluations
 * between ticks) is not frozen any more: the programs load it, and the ticks keep them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

/* One entry of the symbolic stack: a constant not yet in the output, or a value that the
 * output code computes, starting at instruction `start`. The code of the dynamic entries
 * lies in the output in stack order, that of the topmost one ending the output. */
typedef struct sval {
  int dyn;
  int start;
  double k;
} sval;

struct st_spec {
  unsigned char *frozen; /* per slot */
  sval *stack;
  int cap;
  st_prog *assign;       /* per block (BK_ASSIGN) */
  st_prog **res;         /* per block: n programs (BK_SOLVE, BK_MIXED) */
  st_prog *ind;          /* per relation */
  unsigned char *need;   /* per block: the indicators' slice (slice_ok) */
  unsigned char *used;   /* per slot, scratch of the slice */
  unsigned char *konst;  /* per block: an assignment whose program folded to a constant */
  int slice_ok;
  /* what the programs folded (reads), to tell whether they still hold after an event */
  struct fold_read {
    int what, index; /* READ_X, READ_PRE: slot; READ_REL: relation */
    double value;
  } *reads;
  int nreads, capreads, reads_ok, valid;
  long serial, *seen;    /* per slot (x, pre) and relation: serial of its last read */
  unsigned char *active; /* vm.active when they were made */
  unsigned char *loaded; /* per slot: loaded, not folded (a value of every tick) */
  unsigned char *strikes; /* per slot: short-lived specializations it ended in a row */
  long evals;            /* evaluations that used them */
};

enum { READ_X, READ_PRE, READ_REL };

/* Specializations ended after fewer evaluations than this are short-lived. */
#define ST_SPEC_SHORT 64

typedef struct pe {
  st_compiled *cm;
  const unsigned char *frozen;
  st_prog *out;
  sval *st;
  int sp;
} pe;

static int push_const(pe *p, double k) {
  p->st[++p->sp] = (sval){0, 0, k};
  return 0;
}

/* The interpreter applied to constant operands: exactly what the original computes. */
static double fold(pe *p, const double *args, int nargs, const st_ins *in) {
  st_ins code[4];
  int n = 0;
  for (int i = 0; i < nargs; i++) code[n++] = (st_ins){OP_CONST, 0, args[i]};
  code[n++] = *in;
  st_prog prog = {code, n, n, 0, 0};
  return st_vm_eval(&p->cm->vm, &prog);
}

static int insert_const(st_prog *out, int pos, double k) {
  if (st_prog_emit(out, OP_CONST, 0, k)) return -1;
  memmove(&out->code[pos + 1], &out->code[pos], sizeof *out->code * (size_t)(out->n - 1 - pos));
  out->code[pos] = (st_ins){OP_CONST, 0, k};
  return 0;
}

/* Puts the constant entries lo..sp into the output code at their stack positions. */
static int materialize(pe *p, int lo) {
  for (int j = lo; j <= p->sp; j++) {
    if (p->st[j].dyn) continue;
    int pos = p->out->n, i = j + 1;
    while (i <= p->sp && !p->st[i].dyn) i++;
    if (i <= p->sp) pos = p->st[i].start;
    if (insert_const(p->out, pos, p->st[j].k)) return -1;
    for (; i <= p->sp; i++) p->st[i].start += p->st[i].dyn;
    p->st[j] = (sval){1, pos, 0};
  }
  return 0;
}

/* The instruction applied at run time to its nargs operands on top of the stack. */
static int emit_generic(pe *p, const st_ins *in, int nargs) {
  int lo = p->sp - nargs + 1;
  if (materialize(p, lo)) return -1;
  int start = nargs > 0 ? p->st[lo].start : p->out->n;
  if (st_prog_emit(p->out, in->op, in->arg, in->k)) return -1;
  p->sp = lo;
  p->st[lo] = (sval){1, start, 0};
  return 0;
}

static int all_const(const pe *p, int nargs) {
  for (int i = p->sp - nargs + 1; i <= p->sp; i++)
    if (p->st[i].dyn) return 0;
  return 1;
}

/* nargs operands -> one result: folded when all are constant. */
static int apply(pe *p, const st_ins *in, int nargs) {
  if (!all_const(p, nargs)) return emit_generic(p, in, nargs);
  double args[3];
  for (int i = 0; i < nargs; i++) args[i] = p->st[p->sp - nargs + 1 + i].k;
  p->sp -= nargs;
  return push_const(p, fold(p, args, nargs, in));
}

/* x * 1, x / 1, x - 0 and 1 * x are x exactly (IEEE 754; x + 0 is not: -0 + 0 = +0). */
static int identity(int op, double k, int k_right) {
  if (op == OP_MUL) return k == 1;
  return k_right && ((op == OP_DIV && k == 1) || (op == OP_SUB && k == 0 && !signbit(k)));
}

/* a - (-b) is a + b and a + (-b) is a - b exactly: the negation of the right operand goes. */
static int drop_negation(pe *p, int op) {
  st_prog *o = p->out;
  if ((op != OP_ADD && op != OP_SUB) || o->n == 0 || o->code[o->n - 1].op != OP_NEG) return op;
  o->n--;
  return op == OP_ADD ? OP_SUB : OP_ADD;
}

/* + - * / with the right operand constant: the fused form; k + x and k * x likewise. */
static int arith(pe *p, int op) {
  static const int with_k[] = {OP_ADDK, OP_SUBK, OP_MULK, OP_DIVK};
  st_ins in = {op, 0, 0};
  sval a = p->st[p->sp - 1], b = p->st[p->sp];
  if (!a.dyn || !b.dyn) {
    if (!a.dyn && !b.dyn) return apply(p, &in, 2);
    int commutes = op == OP_ADD || op == OP_MUL;
    if (b.dyn && !commutes) return emit_generic(p, &in, 2);
    double k = a.dyn ? b.k : a.k;
    p->sp -= 2;
    p->st[++p->sp] = (sval){1, a.dyn ? a.start : b.start, 0};
    if (identity(op, k, a.dyn)) return 0;
    return st_prog_emit(p->out, with_k[op - OP_ADD], 0, k);
  }
  in.op = drop_negation(p, op);
  st_prog *o = p->out;
  if (b.start == o->n - 1 && o->code[b.start].op == OP_LOAD) { /* LOAD s; ADD = ADDX s */
    o->code[b.start].op = OP_ADDX + (in.op - OP_ADD);
    p->sp--;
    return 0;
  }
  return emit_generic(p, &in, 2);
}

/* A value folded into the programs: remembered, once per kind and index. */
static void note_read(pe *p, int what, int index, double value) {
  struct st_spec *s = p->cm->spec;
  long *seen = &s->seen[what == READ_REL ? 2 * p->cm->p.nslots + index
                                        : what * p->cm->p.nslots + index];
  if (*seen == s->serial) return;
  *seen = s->serial;
  if (s->nreads == s->capreads) {
    int cap = 2 * s->capreads + 32;
    struct fold_read *r = realloc(s->reads, sizeof *r * (size_t)cap);
    if (!r) {
      s->reads_ok = 0;
      return;
    }
    s->reads = r;
    s->capreads = cap;
  }
  s->reads[s->nreads++] = (struct fold_read){what, index, value};
}

static int load(pe *p, int slot) {
  if (p->frozen[slot]) {
    note_read(p, READ_X, slot, p->cm->x[slot]);
    return push_const(p, p->cm->x[slot]);
  }
  p->st[++p->sp] = (sval){1, p->out->n, 0};
  return st_prog_emit(p->out, OP_LOAD, slot, 0);
}

/* A held relation: its value; the code computing its operands goes. */
static int held_relation(pe *p, int k) {
  sval a = p->st[p->sp - 1], b = p->st[p->sp];
  if (a.dyn) p->out->n = a.start;
  else if (b.dyn) p->out->n = b.start;
  p->sp -= 2;
  note_read(p, READ_REL, k, p->cm->vm.rel[k]);
  return push_const(p, p->cm->vm.rel[k]);
}

static int pre_value(pe *p, const st_ins *in) {
  if (p->cm->spec->loaded[in->arg]) return emit_generic(p, in, 0);
  note_read(p, READ_PRE, in->arg, p->cm->vm.pre[in->arg]);
  return push_const(p, p->cm->vm.pre[in->arg]);
}

static int edge_or_change(pe *p, const st_ins *in) {
  if (!p->frozen[in->arg] || p->cm->spec->loaded[in->arg]) return emit_generic(p, in, 0);
  note_read(p, READ_X, in->arg, p->cm->x[in->arg]);
  note_read(p, READ_PRE, in->arg, p->cm->vm.pre[in->arg]);
  return apply(p, in, 0);
}

/* One instruction; *pc is the next one to run. 1: not specializable. */
static int step(pe *p, const st_prog *src, int *pc) {
  const st_ins *in = &src->code[(*pc)++];
  int op = in->op;
  switch (op) {
  case OP_CONST: return push_const(p, in->k);
  case OP_LOAD: return load(p, in->arg);
  case OP_PRE: return pre_value(p, in);
  case OP_ADD: case OP_SUB: case OP_MUL: case OP_DIV: return arith(p, op);
  case OP_ADDX: case OP_SUBX: case OP_MULX: case OP_DIVX:
    return load(p, in->arg) || arith(p, OP_ADD + (op - OP_ADDX));
  case OP_ADDK: case OP_SUBK: case OP_MULK: case OP_DIVK:
    return push_const(p, in->k) || arith(p, OP_ADD + (op - OP_ADDK));
  case OP_NEG: case OP_NOT: case OP_FN1: return apply(p, in, 1);
  case OP_POW: case OP_FN2: case OP_AND: case OP_OR: case OP_SAMPLE:
  case OP_LT: case OP_LE: case OP_GT: case OP_GE: case OP_EQ: case OP_NE:
    return apply(p, in, 2);
  case OP_REL: return held_relation(p, in->arg);
  case OP_EDGE: case OP_CHANGE: return edge_or_change(p, in);
  case OP_TIME: case OP_INITIAL: case OP_TERMINAL: return emit_generic(p, in, 0);
  case OP_LAMBDA: /* 1 between events; init.c's path leaves the programs as compiled */
    return p->cm->vm.lambda == 1 ? push_const(p, 1) : 1;
  case OP_CALL: return emit_generic(p, in, st_fcall_width(p->cm->vm.calls, in->arg));
  case OP_JMP: *pc = in->arg; return 0;
  case OP_JZ:
    if (p->st[p->sp].dyn) return 1;
    if (p->st[p->sp--].k == 0) *pc = in->arg;
    return 0;
  default: return 1;
  }
}

/* src specialized into out; 0, 1 when not specializable (out unusable), -1 (memory). */
static int specialize(st_compiled *cm, struct st_spec *s, const st_prog *src, st_prog *out) {
  out->n = 0;
  if (src->n + 1 > s->cap) { /* at most one push per instruction run (jumps go forward) */
    sval *st = realloc(s->stack, sizeof *st * (size_t)(src->n + 1));
    if (!st) return -1;
    s->stack = st;
    s->cap = src->n + 1;
  }
  pe p = {cm, s->frozen, out, s->stack, -1};
  long steps = 0;
  for (int pc = 0; pc < src->n;) {
    /* a backward jump would break the one-push-per-instruction bound: not specialized */
    if (++steps > src->n || p.sp + 1 >= s->cap) return 1;
    int rc = step(&p, src, &pc);
    if (rc) return rc;
  }
  if (p.sp != 0) return p.sp < 0 ? 0 : 1;
  return !p.st[0].dyn && st_prog_emit(out, OP_CONST, 0, p.st[0].k) ? -1 : 0;
}

/* The specialized program, or the original when it cannot be specialized. */
static const st_prog *hot(st_compiled *cm, const st_prog *src, st_prog *out) {
  if (specialize(cm, cm->spec, src, out)) return src;
  cm->spec_count++;
  return out;
}

static void mark_frozen(st_compiled *cm, unsigned char *frozen) {
  for (int s = 0; s < cm->p.nslots; s++) {
    st_kind k = cm->p.slots[s].kind;
    frozen[s] = k == K_PARAM || k == K_CONST || k == K_DISCRETE || k == K_WHEN;
  }
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    /* dae_off counts only in the DAE form (it is 0, not -1, in a model never put in it) */
    int held = !b->varying && !(cm->dae && b->dae_off >= 0) && b->kind != BK_ALGORITHM;
    for (int i = 0; i < b->n; i++) frozen[b->slots[i]] = (unsigned char)held;
  }
  for (int k = 0; k < cm->nblocks; k++) /* every output of an algorithm section */
    if (cm->blocks[k].kind == BK_ALGORITHM)
      for (int i = 0; i < cm->blocks[k].n; i++) frozen[cm->blocks[k].slots[i]] = 0;
  for (int s = 0; s < cm->p.nslots; s++)
    if (cm->spec->loaded[s]) frozen[s] = 0;
}

static struct st_spec *spec_new(const st_compiled *cm) {
  struct st_spec *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->frozen = calloc((size_t)cm->p.nslots + 1, 1);
  s->assign = calloc((size_t)cm->nblocks + 1, sizeof *s->assign);
  s->res = calloc((size_t)cm->nblocks + 1, sizeof *s->res);
  s->ind = calloc((size_t)cm->p.nrels + 1, sizeof *s->ind);
  s->need = calloc((size_t)cm->nblocks + 1, 1);
  s->used = calloc((size_t)cm->p.nslots + 1, 1);
  s->konst = calloc((size_t)cm->nblocks + 1, 1);
  s->seen = calloc((size_t)(2 * cm->p.nslots + cm->p.nrels) + 1, sizeof *s->seen);
  s->active = calloc((size_t)cm->p.nrels + 1, 1);
  s->loaded = calloc((size_t)cm->p.nslots + 1, 1);
  s->strikes = calloc((size_t)cm->p.nslots + 1, 1);
  int ok = s->frozen && s->assign && s->res && s->ind && s->need && s->used && s->konst &&
           s->seen && s->active && s->loaded && s->strikes;
  for (int k = 0; ok && k < cm->nblocks; k++)
    if (cm->blocks[k].res && cm->blocks[k].kind != BK_ASSIGN)
      ok = (s->res[k] = calloc((size_t)cm->blocks[k].n + 1, sizeof **s->res)) != NULL;
  if (!ok) {
    st_spec_free(cm, s);
    return NULL;
  }
  return s;
}

void st_spec_free(const st_compiled *cm, struct st_spec *s) {
  if (!s) return;
  for (int k = 0; k < cm->nblocks; k++) {
    st_prog_free(&s->assign[k]);
    for (int i = 0; s->res && s->res[k] && i < cm->blocks[k].n; i++) st_prog_free(&s->res[k][i]);
    if (s->res) free(s->res[k]);
  }
  for (int k = 0; s->ind && k < cm->p.nrels; k++) st_prog_free(&s->ind[k]);
  free(s->assign);
  free(s->res);
  free(s->ind);
  free(s->frozen);
  free(s->need);
  free(s->used);
  free(s->konst);
  free(s->stack);
  free(s->reads);
  free(s->seen);
  free(s->active);
  free(s->loaded);
  free(s->strikes);
  free(s);
}

/* Points every block's and relation's hot programs at the originals. */
static void use_originals(st_compiled *cm) {
  for (int k = 0; k < cm->nblocks; k++) {
    st_block *b = &cm->blocks[k];
    b->hot_assign = &b->assign;
    b->hot_res = b->res;
  }
  for (int k = 0; k < cm->p.nrels; k++) cm->rels[k].hot_ind = &cm->rels[k].ind;
}

/* An assignment that folded to a constant k (clutch2.fn = fn_max*f_normalized with a Step
 * input: the Step's relation on time is held) holds k until the next event like a frozen
 * slot, so the blocks after it fold their reads of it too, and the tapes leave it out.
 * x[slot] already holds k: the first evaluation of the interval ran the original program on
 * the same frozen values (the same IEEE operations, so the same bits); it is written again
 * so that this does not rest on which evaluation came first. */
static void hold_constant(st_compiled *cm, int k) {
  st_block *b = &cm->blocks[k];
  const st_prog *p = b->hot_assign;
  if (p != &cm->spec->assign[k] || p->n != 1 || p->code[0].op != OP_CONST) return;
  cm->x[b->slots[0]] = p->code[0].k;
  cm->spec->frozen[b->slots[0]] = 1;
  cm->spec->konst[k] = 1;
  cm->spec_held++;
}

static void specialize_block(st_compiled *cm, int k) {
  st_block *b = &cm->blocks[k];
  struct st_spec *s = cm->spec;
  if (b->kind == BK_ASSIGN) {
    b->hot_assign = hot(cm, &b->assign, &s->assign[k]);
    hold_constant(cm, k);
    return;
  }
  if (!b->res || !s->res[k]) return;
  for (int i = 0; i < b->n; i++) /* all or none: hot_res is one array */
    if (specialize(cm, s, &b->res[i], &s->res[k][i])) return;
  b->hot_res = s->res[k];
  cm->spec_count += b->n;
}

/* ------------------------------------------------------------------ indicator slice
 * Why: CVODE evaluates the indicators about twice per step, at points where it evaluates no
 * derivatives (the end of the step and the output instants; a cache by (t, y) hits about 1%
 * of the calls on the friction block and Leine's belt), and an indicator of the current
 * interval typically reads a state or one unknown (the velocity of a sliding element, whose
 * relations on the sticking force are inactive, doc/events.md). Only the varying blocks that
 * the active indicators' hot programs read, directly or through earlier blocks, are run. */

static void mark_slot(const st_compiled *cm, unsigned char *used, int s) {
  used[s] = 1;
  while (cm->p.slots[s].kind == K_ALIAS) used[s = cm->p.slots[s].alias_of] = 1; /* synced copies */
}

static void mark_reads(const st_compiled *cm, unsigned char *used, const st_prog *p) {
  for (int i = 0; i < p->n; i++) {
    int op = p->code[i].op;
    if (op == OP_LOAD || (op >= OP_ADDX && op <= OP_DIVX) || op == OP_EDGE || op == OP_CHANGE)
      mark_slot(cm, used, p->code[i].arg);
  }
}

static int block_needed(const st_block *b, const unsigned char *used) {
  for (int i = 0; i < b->n; i++)
    if (used[b->slots[i]]) return 1;
  return 0;
}

/* Blocks in BLT order: a block reads only unknowns of earlier blocks, so one backward sweep
 * finds all. An algorithm section's reads are not programs here: all before it are kept. */
static void indicator_slice(st_compiled *cm, struct st_spec *s) {
  memset(s->used, 0, (size_t)cm->p.nslots);
  memset(s->need, 0, (size_t)cm->nblocks);
  for (int k = 0; k < cm->p.nrels; k++)
    if (cm->rels[k].indicator >= 0 && cm->vm.active[k])
      mark_reads(cm, s->used, cm->rels[k].hot_ind);
  int all = 0;
  for (int k = cm->nblocks - 1; k >= 0; k--) {
    st_block *b = &cm->blocks[k];
    if (!b->varying && !(cm->dae && b->dae_off >= 0)) continue;
    if (!all && !block_needed(b, s->used)) continue;
    s->need[k] = 1;
    if (b->kind == BK_ALGORITHM) all = 1;
    else if (b->kind == BK_ASSIGN) mark_reads(cm, s->used, b->hot_assign);
    else for (int i = 0; i < b->n && b->hot_res; i++) mark_reads(cm, s->used, &b->hot_res[i]);
  }
  s->slice_ok = 1;
}

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static double read_value(const st_compiled *cm, const struct fold_read *r) {
  return r->what == READ_X ? cm->x[r->index]
         : r->what == READ_PRE ? cm->vm.pre[r->index] : cm->vm.rel[r->index];
}

/* A Real slot whose new value ended a short-lived specialization, twice in a row, is loaded
 * from then on; the others start counting again. */
static void strike(st_compiled *cm, struct st_spec *s) {
  int short_lived = s->evals < ST_SPEC_SHORT;
  for (int i = 0; i < s->nreads; i++) {
    const struct fold_read *r = &s->reads[i];
    if (r->what == READ_REL) continue;
    int changed = !same_bits(r->value, read_value(cm, r));
    int flat = cm->p.slots[r->index].flat;
    int real = flat >= 0 && !cm->p.slots[r->index].is_bool &&
               cm->p.flat->vars[flat].type == ST_T_REAL;
    if (!changed || !short_lived || !real) {
      if (!changed) s->strikes[r->index] = 0;
      continue;
    }
    if (s->strikes[r->index] < 2) s->strikes[r->index]++;
    if (s->strikes[r->index] >= 2) s->loaded[r->index] = 1;
  }
}

/* Whether the programs made for an earlier interval hold for this one (nothing they folded
 * changed); when they do not, the slots that changed are counted (strike). */
static int still_valid(st_compiled *cm) {
  struct st_spec *s = cm->spec;
  if (!s || !s->valid || !cm->specialize || cm->spec_gen < 0) return 0;
  int ok = !cm->vm.active || memcmp(s->active, cm->vm.active, (size_t)cm->p.nrels) == 0;
  for (int i = 0; ok && i < s->nreads; i++) ok = same_bits(s->reads[i].value, read_value(cm, &s->reads[i]));
  if (ok) return 1;
  s->valid = 0;
  strike(cm, s);
  return 0;
}

/* The first evaluation of an interval runs the programs as compiled: for an event pass's
 * left limit it is the only one before the next pass (the friction block specialized 72
 * times per run instead of 20). Programs still valid are kept at once. */
void st_spec_refresh(st_compiled *cm) {
  if (cm->spec_gen == cm->gen) {
    if (cm->spec) cm->spec->evals++;
    return;
  }
  if (still_valid(cm)) {
    cm->spec_kept++;
    cm->spec_gen = cm->spec_defer_gen = cm->gen;
    if (cm->tapes) st_tapes_keep(cm);
    return;
  }
  if (cm->spec_defer_gen == cm->gen) {
    st_specialize(cm);
    return;
  }
  cm->spec_defer_gen = cm->gen;
  use_originals(cm);
  if (cm->spec) cm->spec->slice_ok = 0;
}

int st_spec_block_constant(const st_compiled *cm, int k) {
  return cm->spec && cm->spec_gen == cm->gen && cm->spec->konst[k];
}

const unsigned char *st_indicator_slice(const st_compiled *cm) {
  return cm->spec && cm->spec->slice_ok ? cm->spec->need : NULL;
}

void st_specialize(st_compiled *cm) {
  cm->spec_gen = cm->gen;
  cm->spec_count = 0;
  cm->spec_held = 0;
  use_originals(cm);
  if (cm->spec) {
    cm->spec->slice_ok = 0;
    memset(cm->spec->konst, 0, (size_t)cm->nblocks);
  }
  if (!cm->specialize) return;
  if (!cm->spec && !(cm->spec = spec_new(cm))) return;
  struct st_spec *s = cm->spec;
  cm->spec_made++;
  s->valid = 0;
  s->nreads = 0;
  s->reads_ok = 1;
  s->serial++;
  s->evals = 0;
  mark_frozen(cm, s->frozen);
  int event_mode = cm->vm.event_mode;
  cm->vm.event_mode = 0; /* folding evaluates as between events */
  for (int k = 0; k < cm->nblocks; k++)
    if (cm->blocks[k].varying) specialize_block(cm, k);
  for (int k = 0; k < cm->p.nrels; k++)
    if (cm->rels[k].indicator >= 0)
      cm->rels[k].hot_ind = hot(cm, &cm->rels[k].ind, &cm->spec->ind[k]);
  cm->vm.event_mode = event_mode;
  if (cm->vm.active) indicator_slice(cm, cm->spec);
  if (st_tapes_build(cm, st_indicator_slice(cm))) { /* out of memory: block by block */
    st_tapes_free(cm->tapes);
    cm->tapes = NULL;
  }
  if (cm->vm.active) memcpy(s->active, cm->vm.active, (size_t)cm->p.nrels);
  s->valid = s->reads_ok;
}
