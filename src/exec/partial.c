/* Evaluations near the last full one.
 *
 * Why: a difference-quotient Jacobian (runtime/jacfd.c) calls derivatives() once per column
 * group, each time at y with a few states moved, and a full evaluation then runs every
 * block -- in a circuit of 36 gates, every gate's Newton -- although only the blocks those
 * states reach can change. So a full evaluation between events at (t, y) is kept as the
 * base (the values of the unknowns it computed); a later call at the same t, in the same
 * event interval, whose y differs from the base in at most a quarter of the states, starts
 * from the base values and evaluates, in BLT order, only the blocks that read a moved state
 * or an unknown of such a block (the reader lists of event_pass.c). The blocks it skips
 * would compute from the same inputs what they hold; a Newton block it runs starts from the
 * base solution. The result is that of a full evaluation up to the tolerance of the Newton
 * blocks (where a full one also depends on its start values); bit for bit for a model of
 * explicit and linear blocks, which never takes this path anyway (see eligible()).
 *
 * Only for models whose blocks are functions of t, the states, the parameters and the
 * frozen discrete values: no algorithm section (its reads are not in the lists), no
 * delay(), no impure function, no dynamic state selection, not the DAE form. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

struct st_partial {
  int nw;
  int *w;          /* the slots an evaluation writes: unknowns of varying blocks, states */
  double *snap;    /* x[w[i]] of the base */
  double *base_y;  /* the states of the base */
  double base_t;
  long base_gen;   /* cm->gen of the base: an event pass or a new parameter voids it */
  int valid;
  unsigned char *need; /* per block: to be evaluated */
  int *moved;      /* states that differ from the base */
};

static int any_impure(const st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  for (int k = 0; k < f->nfunctions; k++)
    if (f->functions[k].is_impure) return 1;
  return 0;
}

/* Worth it and sound: a varying Newton block (else tapes make a full evaluation cheap). */
static int eligible(st_compiled *cm) {
  if (cm->dae || cm->nalgs || cm->delays || cm->p.ndyn || any_impure(cm)) return 0;
  int newton = 0;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    if (b->kind == BK_ALGORITHM) return 0;
    newton |= b->varying && (b->kind == BK_SOLVE || b->kind == BK_MIXED) && b->n > 0 && !b->linear;
  }
  if (!newton) return 0;
  st_block_reads(cm);
  return cm->rdr_start != NULL;
}

static struct st_partial *setup(st_compiled *cm) {
  st_arena *a = cm->iarena;
  struct st_partial *p = st_arena_alloc(a, sizeof *p);
  if (!p) return NULL;
  memset(p, 0, sizeof *p);
  int ns = cm->p.nstates, nw = ns;
  for (int k = 0; k < cm->nblocks; k++)
    if (cm->blocks[k].varying) nw += cm->blocks[k].n;
  p->w = st_arena_alloc(a, sizeof *p->w * (size_t)(nw + 1));
  p->snap = st_arena_alloc(a, sizeof *p->snap * (size_t)(nw + 1));
  p->base_y = st_arena_alloc(a, sizeof *p->base_y * (size_t)(ns + 1));
  p->moved = st_arena_alloc(a, sizeof *p->moved * (size_t)(ns + 1));
  p->need = st_arena_alloc(a, (size_t)cm->nblocks + 1);
  if (!p->w || !p->snap || !p->base_y || !p->moved || !p->need) return NULL;
  for (int i = 0; i < ns; i++) p->w[p->nw++] = cm->p.state_slot[i];
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    for (int i = 0; b->varying && i < b->n; i++) p->w[p->nw++] = b->slots[i];
  }
  return p;
}

/* The instance's partial state, made at the first call; NULL when the model is not eligible
 * (decided once) or the mechanism is off (st_compiled_set_partial). */
static struct st_partial *state(st_compiled *cm) {
  if (cm->partial_off) return NULL;
  if (!cm->partial_decided) {
    cm->partial_decided = 1;
    cm->partial = eligible(cm) ? setup(cm) : NULL;
  }
  return cm->partial;
}

void st_partial_base(st_compiled *cm, double t, const double *y) {
  struct st_partial *p = state(cm);
  if (!p) return;
  for (int i = 0; i < p->nw; i++) p->snap[i] = cm->x[p->w[i]];
  memcpy(p->base_y, y, sizeof *y * (size_t)cm->p.nstates);
  p->base_t = t;
  p->base_gen = cm->gen;
  p->valid = 1;
}

/* The blocks to evaluate: the readers of the moved states, then, in BLT order, the readers
 * of what a marked block assigns (a block reads only what earlier blocks assign). */
static int mark_reached(st_compiled *cm, struct st_partial *p, int nmoved) {
  double sign;
  memset(p->need, 0, (size_t)cm->nblocks);
  for (int m = 0; m < nmoved; m++) {
    int s = st_value_slot(cm, cm->p.state_slot[p->moved[m]], &sign);
    for (int j = cm->rdr_start[s]; j < cm->rdr_start[s + 1]; j++) p->need[cm->rdr_block[j]] = 1;
  }
  int count = 0;
  for (int k = 0; k < cm->nblocks; k++) {
    if (!p->need[k]) continue;
    const st_block *b = &cm->blocks[k];
    count += b->varying;
    for (int i = 0; i < b->n; i++) {
      int s = st_value_slot(cm, b->slots[i], &sign);
      for (int j = cm->rdr_start[s]; j < cm->rdr_start[s + 1]; j++) p->need[cm->rdr_block[j]] = 1;
    }
  }
  return count;
}

int st_partial_eval(st_compiled *cm, double t, const double *y) {
  struct st_partial *p = state(cm);
  if (!p || !p->valid || t != p->base_t || cm->gen != p->base_gen) return 1;
  int ns = cm->p.nstates, nmoved = 0;
  for (int i = 0; i < ns; i++)
    if (!(y[i] == p->base_y[i]) && (nmoved++, 4 * nmoved > ns)) return 1;
  for (int i = 0, m = 0; i < ns; i++)
    if (!(y[i] == p->base_y[i])) p->moved[m++] = i;
  for (int i = 0; i < p->nw; i++) cm->x[p->w[i]] = p->snap[i];
  st_load_states(cm, y);
  cm->vm.time = t;
  cm->vm.initial = 0;
  st_spec_refresh(cm);
  cm->partial_evals++;
  cm->partial_blocks += mark_reached(cm, p, nmoved);
  return st_eval_slice(cm, p->need) ? -1 : 0;
}
