/* Alias elimination: equations `a = b`, `a = -b`, `a + b = 0` between continuous unknowns
 * and `v = c` with c a parameter expression, as connections and flange variables produce
 * them by the dozen (every connect() of two flanges gives phi1 = phi2 and tau1 + tau2 = 0).
 *
 * It runs after index reduction, so that state selection has already seen the original
 * equations and an alias equation can never hide a constraint between states: of the two
 * variables of an alias equation at most one is a state then. The eliminated variable
 * becomes K_ALIAS (x = sign * x[alias_of]) and its equation is dropped; the representative
 * is a state or derivative when one takes part, else the variable with a fixed start value,
 * then the one higher in the instance hierarchy (fewer dots; Dymola keeps that name too).
 * A variable set by a parameter expression becomes K_CONST and is computed with the
 * parameters. Start attributes are combined: a fixed start value moves to the
 * representative (with the sign); two different fixed start values are an error at both
 * declarations. The eliminated variables keep their names in the results (cb_outputs and
 * st_compiled_value follow alias_of). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

/* A side of an equation as sum(coef * unknown) + (parameter part). */
typedef struct lin {
  int n;
  int slot[3];
  double coef[3];
  int other;  /* a non-zero parameter/constant part */
  int bad;    /* anything else: not an alias equation */
} lin;

static int continuous_unknown(st_kind k) { return k == K_ALG || k == K_DER || k == K_STATE; }

/* Only parameters, constants and literals (inputs are set after the parameters). */
static int param_only(const st_compiled *cm, const st_fexpr *e) {
  double sign;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: return 1;
  case FX_VAR: {
    st_kind k = cm->p.slots[st_resolve_ref(cm, e, &sign)].kind;
    return k == K_PARAM || k == K_CONST;
  }
  case FX_UNARY: case FX_BINARY: case FX_IF: case FX_CALL: break;
  case FX_BUILTIN:
    if (e->op == FB_DER || e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE ||
        e->op == FB_INITIAL || e->op == FB_TERMINAL || e->op == FB_SAMPLE || e->op == FB_DELAY)
      return 0;
    break;
  default: return 0;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!param_only(cm, e->args[i])) return 0;
  return 1;
}

static void add_term(lin *l, int slot, double coef) {
  for (int i = 0; i < l->n; i++)
    if (l->slot[i] == slot) {
      l->coef[i] += coef;
      return;
    }
  if (l->n == 3) { l->bad = 1; return; }
  l->slot[l->n] = slot;
  l->coef[l->n++] = coef;
}

static void walk(const st_compiled *cm, const st_fexpr *e, double sign, lin *l) {
  if (l->bad) return;
  double rs;
  int s = st_resolve_ref(cm, e, &rs);
  /* sums and negations are taken apart before param_only() looks at a part: asked of every
   * node of a long sum on the way down, it made the walk quadratic */
  if (s >= 0 && continuous_unknown(cm->p.slots[s].kind)) {
    add_term(l, s, sign * rs);
  } else if (e->kind == FX_UNARY && e->op == FOP_NEG) {
    walk(cm, e->args[0], -sign, l);
  } else if (e->kind == FX_BINARY && (e->op == FOP_ADD || e->op == FOP_SUB)) {
    walk(cm, e->args[0], sign, l);
    walk(cm, e->args[1], e->op == FOP_ADD ? sign : -sign, l);
  } else if (param_only(cm, e)) {
    l->other |= !(e->kind == FX_REAL && e->value == 0);
  } else {
    l->bad = 1;
  }
}

/* lhs - rhs as a linear form with the cancelled terms dropped. */
static lin decompose(const st_compiled *cm, const st_ceq *q) {
  lin l = {0};
  if (q->target >= 0) { l.bad = 1; return l; }
  walk(cm, q->lhs, 1, &l);
  walk(cm, q->rhs, -1, &l);
  int n = 0;
  for (int i = 0; i < l.n; i++)
    if (l.coef[i] != 0) {
      l.slot[n] = l.slot[i];
      l.coef[n++] = l.coef[i];
    }
  l.n = n;
  return l;
}

/* The continuous unknowns of equation e when it is linear in at most three of them with
 * coefficients +-1 and a parameter part (also before elimination: index.c gives alias sets
 * one stateSelect): their number, else 0. */
int st_linear_terms(const st_compiled *cm, int e, int slot[3], int *unit_coefs) {
  lin l = decompose(cm, &cm->p.eqs[e]);
  if (l.bad) return 0;
  *unit_coefs = 1;
  for (int i = 0; i < l.n; i++) {
    slot[i] = l.slot[i];
    if (fabs(l.coef[i]) != 1) *unit_coefs = 0;
  }
  return l.n;
}

static int dots(const char *name) {
  int n = 0;
  for (; name && *name; name++) n += *name == '.';
  return n;
}

/* > 0 when b rather than a should be kept as the representative: a state or derivative,
 * then a fixed start value, a declared variable (not a derivative slot), fewer dots. */
static int prefer(const st_compiled *cm, int a, int b) {
  const st_slot *sa = &cm->p.slots[a], *sb = &cm->p.slots[b];
  int c = (sb->kind != K_ALG) - (sa->kind != K_ALG);
  if (!c) c = sb->fixed - sa->fixed;
  if (!c) c = (b < cm->p.flat->nvars) - (a < cm->p.flat->nvars);
  if (!c) c = dots(sa->name) - dots(sb->name);
  return c ? c : a - b;
}

static double start_of(st_compiled *cm, int s) {
  return cm->p.start_prog[s].n ? st_vm_eval(&cm->vm, &cm->p.start_prog[s]) : 0;
}

/* The start value of v (= sign * r) moves to r; negated for a negative alias. */
static int move_start(st_compiled *cm, int v, int r, double sign) {
  st_prog_free(&cm->p.start_prog[r]);
  cm->p.start_prog[r] = cm->p.start_prog[v];
  memset(&cm->p.start_prog[v], 0, sizeof cm->p.start_prog[v]);
  if (sign < 0 && cm->p.start_prog[r].n && st_prog_emit(&cm->p.start_prog[r], OP_NEG, 0, 0))
    return -1;
  return 0;
}

static int same_value(double a, double b) {
  return fabs(a - b) <= 1e-12 * (1 + fabs(a) + fabs(b));
}

/* Combines the start attributes of v into its representative r. */
static int combine_starts(st_compiled *cm, int v, int r, double sign, const st_ceq *q) {
  st_slot *sv = &cm->p.slots[v], *sr = &cm->p.slots[r];
  if (sv->fixed && sr->fixed) {
    double a = start_of(cm, v), b = sign * start_of(cm, r);
    if (same_value(a, b)) return 0;
    st_error(cm->diag, sv->loc, "conflicting fixed start values: '%s' (start = %g) and '%s' "
             "(start = %g) are %s by an equation", sv->name, a, sr->name, start_of(cm, r),
             sign < 0 ? "opposite" : "equal");
    st_note(cm->diag, sr->loc, "'%s' is declared here with fixed = true", sr->name);
    st_note(cm->diag, q->loc, "the equation that makes them %s", sign < 0 ? "opposite" : "equal");
    return -1;
  }
  if (sv->fixed) {
    sr->fixed = 1;
    return move_start(cm, v, r, sign);
  }
  if (!sr->fixed && cm->p.start_prog[r].n == 0 && cm->p.start_prog[v].n > 0)
    return move_start(cm, v, r, sign);
  return 0;
}

/* c0*a + c1*b = 0 with |c0| = |c1| = 1. Returns 1 when eliminated, 0 when not, -1 on error. */
static int eliminate_alias(st_compiled *cm, const lin *l, const st_ceq *q) {
  int a = l->slot[0], b = l->slot[1];
  if (fabs(l->coef[0]) != 1 || fabs(l->coef[1]) != 1) return 0;
  if (prefer(cm, a, b) < 0) { int t = a; a = b; b = t; }
  if (cm->p.slots[a].kind != K_ALG) return 0; /* two states or derivatives: both stay */
  double sign = -l->coef[0] * l->coef[1];
  if (combine_starts(cm, a, b, sign, q)) return -1;
  st_slot *s = &cm->p.slots[a];
  s->kind = K_ALIAS;
  s->alias_of = b;
  s->alias_sign = sign;
  cm->p.n_aliases++;
  return 1;
}

/* v = c: v becomes K_CONST with the program of c. Variables with a fixed start value stay
 * unknowns (their start may have to be checked against the initial system). */
static int eliminate_const(st_compiled *cm, const lin *l, const st_ceq *q) {
  int v = l->slot[0];
  if (fabs(l->coef[0]) != 1 || cm->p.slots[v].kind != K_ALG || cm->p.slots[v].fixed ||
      v >= cm->p.flat->nvars)
    return 0;
  st_fexpr *sol = st_sym_solve(cm, q->lhs, q->rhs, v);
  if (!sol) return 0;
  st_prog *p = &cm->p.const_prog[cm->p.nconsts];
  memset(p, 0, sizeof *p);
  if (st_emit(cm, p, sol, EMIT_PLAIN)) {
    st_prog_free(p); /* what was emitted before the failure: not yet counted in nconsts */
    return -1;
  }
  cm->p.const_slot[cm->p.nconsts++] = v;
  cm->p.slots[v].kind = K_CONST;
  return 1;
}

/* pinned: outputs of algorithm sections, which the section assigns as a whole (algorithm.c);
 * an alias equation that involves one stays an equation. */
static int try_equation(st_compiled *cm, const st_ceq *q, const unsigned char *pinned) {
  if (q->algorithm) return 0;
  lin l = decompose(cm, q);
  if (l.bad) return 0;
  for (int i = 0; i < l.n; i++)
    if (pinned[l.slot[i]]) return 0;
  if (l.n == 2 && !l.other) return eliminate_alias(cm, &l, q);
  if (l.n == 1) return eliminate_const(cm, &l, q);
  return 0;
}

static void mark_prog(const st_compiled *cm, const st_prog *p, unsigned char *used) {
  for (int i = 0; i < p->n; i++) {
    int op = p->code[i].op, a = p->code[i].arg;
    if ((op == OP_LOAD || op == OP_PRE || op == OP_EDGE || op == OP_CHANGE) &&
        cm->p.slots[a].kind == K_ALIAS)
      used[a] = 1;
  }
}

/* The programs compiled before elimination: when-clauses, asserts and their relations. */
static void mark_early_programs(const st_compiled *cm, unsigned char *used) {
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches; i++) {
      const st_when_branch *b = &cm->p.whens[w].branches[i];
      mark_prog(cm, &b->cond, used);
      for (int a = 0; a < b->nactions; a++) mark_prog(cm, &b->actions[a].value, used);
    }
  for (int i = 0; i < cm->nasserts; i++) mark_prog(cm, &cm->asserts[i].cond, used);
  for (int k = 0; k < cm->p.nrels; k++) {
    mark_prog(cm, &cm->rels[k].ind, used);
    mark_prog(cm, &cm->rels[k].threshold, used);
  }
}

static int setup_sync(st_compiled *cm) {
  unsigned char *used = calloc((size_t)cm->p.nslots + 1, 1);
  cm->p.sync_slot = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(cm->p.n_aliases + 1));
  if (!used || !cm->p.sync_slot) { free(used); return -1; }
  mark_early_programs(cm, used);
  for (int s = 0; s < cm->p.nslots; s++)
    if (used[s]) cm->p.sync_slot[cm->p.nsync++] = s;
  free(used);
  return 0;
}

int st_eliminate_aliases(st_compiled *cm) {
  /* as index reduction: the others are reported as written */
  if (!st_system_is_square(cm)) return 0;
  cm->p.const_slot = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(cm->p.neqs + 1));
  cm->p.const_prog = st_arena_alloc(cm->p.arena, sizeof(st_prog) * (size_t)(cm->p.neqs + 1));
  unsigned char *gone = calloc((size_t)cm->p.neqs + 1, 1);
  unsigned char *pinned = calloc((size_t)cm->p.nslots + 1, 1);
  if (!cm->p.const_slot || !cm->p.const_prog || !gone || !pinned) {
    free(gone);
    free(pinned);
    return -1;
  }
  for (int e = 0; e < cm->p.neqs; e++)
    if (cm->p.eqs[e].algorithm && cm->p.eqs[e].target >= 0) pinned[cm->p.eqs[e].target] = 1;
  st_algorithms_pin_reads(cm, pinned);
  int changed = 1, rc = 0;
  while (changed && !rc) {
    changed = 0;
    for (int e = 0; e < cm->p.neqs && !rc; e++) {
      if (gone[e]) continue;
      int r = try_equation(cm, &cm->p.eqs[e], pinned);
      if (r < 0) rc = -1;
      else if (r > 0) gone[e] = changed = 1;
    }
  }
  int n = 0;
  for (int e = 0; e < cm->p.neqs; e++)
    if (!gone[e]) cm->p.eqs[n++] = cm->p.eqs[e];
  cm->p.n_alias_eqs = cm->p.neqs - n;
  cm->p.neqs = n;
  free(gone);
  free(pinned);
  return rc ? -1 : setup_sync(cm);
}

/* With the parameters: the K_CONST slots in the order they were found (a later one may use
 * an earlier one). */
void st_eval_consts(st_compiled *cm) {
  for (int k = 0; k < cm->p.nconsts; k++)
    cm->x[cm->p.const_slot[k]] = st_vm_eval(&cm->vm, &cm->p.const_prog[k]);
}

/* Programs compiled before elimination (when-conditions, asserts, their relations) still
 * load the alias slots, and pre() copies x[]: keep x[alias] = sign * x[representative]. */
void st_sync_aliases(st_compiled *cm) {
  for (int k = 0; k < cm->p.nsync; k++) {
    int s = cm->p.sync_slot[k];
    double sign = 1;
    int r = s;
    while (cm->p.slots[r].kind == K_ALIAS) {
      sign *= cm->p.slots[r].alias_sign;
      r = cm->p.slots[r].alias_of;
    }
    cm->x[s] = sign * cm->x[r];
  }
}
