/* Structural zeros: terms that final or Evaluate = true parameters make 0 are dropped from
 * the equations before index reduction, and so are the variables such terms define.
 *
 * `c = smooth(1, tau*is/vt*exlin(v) + Cj*powlin(v))` with tau = Cj = 0 evaluated (Analog's
 * HeatingNPN_NORGate: CapVal = tauVal = 0, Evaluate = true) makes c zero whatever v is, and
 * then `i = c*der(v)` is `i = 0`: v is no state. Dymola and OpenModelica simplify
 * these products with the evaluated values and propagate the constant; kept, the equation
 * solved for der(v) divided by c = 0. A product with such a parameter was already no
 * incidence (emit.c st_zero_parameter); here the zero travels on through sums, quotients,
 * smooth(), noEvent() and if-expressions with two zero branches into the algebraic variable
 * an equation of its own sets to it, and the terms become the literal 0 in the equations,
 * so that no code reads a derivative that is no longer computed. The parameters keep their
 * value at every run (st_zero_parameters_hold). */
#include "compile/model_impl.h"

#include <math.h>
#include <stdlib.h>

/* e is 0 whatever the unknowns are: a zero of zero_param, a product with one, ... */
static int structural_zero(const st_compiled *cm, const st_fexpr *e) {
  switch (e->kind) {
  case FX_REAL: return e->value == 0;
  case FX_VAR: return st_zero_parameter(cm, e);
  case FX_UNARY: return e->op == FOP_NEG && e->nargs == 1 && structural_zero(cm, e->args[0]);
  case FX_BINARY:
    if (e->nargs != 2) return 0;
    if (e->op == FOP_MUL)
      return structural_zero(cm, e->args[0]) || structural_zero(cm, e->args[1]);
    if (e->op == FOP_DIV) return structural_zero(cm, e->args[0]);
    if (e->op == FOP_ADD || e->op == FOP_SUB)
      return structural_zero(cm, e->args[0]) && structural_zero(cm, e->args[1]);
    return 0;
  case FX_BUILTIN:
    if (e->op == FB_SMOOTH && e->nargs == 2) return structural_zero(cm, e->args[1]);
    if (e->op == FB_NOEVENT && e->nargs == 1) return structural_zero(cm, e->args[0]);
    return 0;
  case FX_IF:
    return e->nargs == 3 && structural_zero(cm, e->args[1]) && structural_zero(cm, e->args[2]);
  default: return 0;
  }
}

/* The parameters a call found zero by its body read keep their values at every run. */
static void hold_arguments(st_compiled *cm, const st_fexpr *e) {
  int s = st_ref_slot(cm, e);
  if (s >= 0 && s < cm->p.flat->nvars && cm->p.slots[s].kind == K_PARAM &&
      (cm->p.flat->vars[s].is_final || cm->p.flat->vars[s].evaluate) &&
      isnan(cm->p.held_param[s]) && !cm->p.zero_param[s])
    cm->p.held_param[s] = cm->x[s];
  for (int i = 0; e->kind != FX_VAR && i < e->nargs; i++) hold_arguments(cm, e->args[i]);
}

/* v = (a term that zeros make 0) for an algebraic v (not through an alias): v joins
 * zero_param. A literal 0 (a ground's p.v = 0) is an ordinary equation for alias
 * elimination. */
static int defines_zero(st_compiled *cm, st_zero_memo *m, const st_fexpr *v,
                        const st_fexpr *other) {
  int s = v->kind == FX_VAR ? st_ref_slot(cm, v) : -1;
  if (s < 0 || s != v->index || s >= cm->p.flat->nvars || cm->p.zero_param[s] ||
      cm->p.slots[s].kind != K_ALG || other->kind == FX_REAL)
    return 0;
  if (!structural_zero(cm, other) && !(other->kind == FX_CALL && st_call_is_zero(cm, m, other)))
    return 0;
  cm->p.zero_param[s] = 1;
  if (other->kind == FX_CALL) hold_arguments(cm, other);
  return 1;
}

/* e with its structurally zero terms replaced by 0 (nodes copied; the flat model is
 * shared); NULL when out of memory. A lone variable stays: the equation that makes it 0
 * still determines it. */
static st_fexpr *fold(void *ctx, st_fexpr *e) {
  st_compiled *cm = ctx;
  if (!e) return e;
  if (e->kind == FX_REAL || e->kind == FX_VAR) return e;
  if (structural_zero(cm, e)) return st_sym_num(cm->p.arena, 0);
  return st_sym_map_args(cm->p.arena, e, fold, cm);
}

static int fold_list(st_compiled *cm, st_ceq *q, int n) {
  for (int i = 0; i < n; i++)
    if (!(q[i].lhs = fold(cm, q[i].lhs)) || !(q[i].rhs = fold(cm, q[i].rhs))) return -1;
  return 0;
}

/* The state of each der(v) in e is marked in used (by flat index). */
static void mark_ders(const st_compiled *cm, const st_fexpr *e, unsigned char *used) {
  if (!e) return;
  if (e->kind == FX_BUILTIN && e->op == FB_DER && e->nargs == 1 && e->args[0]->kind == FX_VAR &&
      e->args[0]->index >= 0 && e->args[0]->index < cm->p.flat->nvars)
    used[e->args[0]->index] = 1;
  for (int i = 0; i < e->nargs; i++) mark_ders(cm, e->args[i], used);
}

static void mark_list(const st_compiled *cm, const st_ceq *q, int n, unsigned char *used) {
  for (int i = 0; i < n; i++) {
    mark_ders(cm, q[i].lhs, used);
    mark_ders(cm, q[i].rhs, used);
  }
}

static void mark_stmts(const st_compiled *cm, const st_fstmt_list *l, unsigned char *used) {
  for (int i = 0; l && i < l->n; i++) {
    const st_fstmt *t = l->items[i];
    mark_ders(cm, t->value, used);
    mark_ders(cm, t->range, used);
    mark_ders(cm, t->message, used);
    for (int c = 0; c < t->nconds; c++) mark_ders(cm, t->conds[c], used);
    int nb = t->kind == FS_IF ? t->nconds + 1 : t->kind == FS_WHEN ? t->nconds
             : t->kind == FS_FOR || t->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; t->branches && b < nb; b++) mark_stmts(cm, &t->branches[b], used);
  }
}

/* The der() in the equations that are not collected into cm->p.eqs: when-clauses (all of
 * them), asserts, terminate and calls for their effects (also inside if-equations). */
static void mark_other_eqs(const st_compiled *cm, const st_feq_list *l, int in_when,
                           unsigned char *used) {
  for (int i = 0; l && i < l->n; i++) {
    const st_feq *q = l->items[i];
    int when = in_when || q->kind == FE_WHEN;
    if (when || (q->kind != FE_EQUAL && q->kind != FE_TUPLE && q->kind != FE_IF)) {
      mark_ders(cm, q->lhs, used);
      mark_ders(cm, q->rhs, used);
      mark_ders(cm, q->message, used);
      for (int c = 0; c < q->nconds; c++) mark_ders(cm, q->conds[c], used);
      for (int c = 0; c < q->ntuple; c++) mark_ders(cm, q->tuple[c], used);
    }
    int nb = q->kind == FE_IF ? q->nconds + 1 : q->kind == FE_WHEN ? q->nconds : 0;
    for (int k = 0; q->branches && k < nb; k++) mark_other_eqs(cm, &q->branches[k], when, used);
  }
}

/* A state whose every der() was a term that folding dropped is an algebraic variable; its
 * derivative slot is left out (K_IGNORED). Kept a state, index reduction differentiated
 * the equations that determine it to find a der() that nothing reads: Spice3's Inverter
 * without capacitances solved the derivative of its whole nonlinear circuit, and failed
 * where that was singular. A der() that also occurs outside the collected equations (an
 * algorithm, a when-clause, an assert) keeps the state. */
static int drop_vanished_states(st_compiled *cm, const unsigned char *before) {
  int nv = cm->p.flat->nvars;
  unsigned char *after = calloc((size_t)nv + 1, 1);
  if (!after) return -1;
  mark_list(cm, cm->p.eqs, cm->p.neqs, after);
  mark_list(cm, cm->p.init_eqs, cm->p.ninit, after);
  const st_flat_model *f = cm->p.flat;
  for (int a = 0; a < f->nalgorithms; a++) mark_stmts(cm, &f->algorithms[a], after);
  for (int a = 0; a < f->ninitial_algorithms; a++)
    mark_stmts(cm, &f->initial_algorithms[a], after);
  mark_other_eqs(cm, &f->equations, 0, after);
  mark_other_eqs(cm, &f->initial_equations, 0, after);
  int ns = 0;
  for (int i = 0; i < cm->p.nstates; i++) {
    int s = cm->p.state_slot[i], d = cm->p.slots[s].der;
    if (d < 0) continue; /* no derivative slot (a saved model the fuzzer made): no state */
    if (before[s] && !after[s]) {
      cm->p.slots[s].kind = K_ALG;
      cm->p.slots[s].state = cm->p.slots[s].der = -1;
      cm->p.slots[d].kind = K_IGNORED;
      cm->p.slots[d].state = -1;
      continue;
    }
    cm->p.slots[s].state = cm->p.slots[d].state = ns;
    cm->p.state_slot[ns++] = s;
  }
  cm->p.nstates = ns;
  free(after);
  return 0;
}

int st_fold_structural_zeros(st_compiled *cm) {
  int any = 0;
  for (int s = 0; s < cm->p.flat->nvars && !any; s++) any = cm->p.zero_param[s];
  for (int i = 0; i < cm->p.neqs && !any; i++) /* a call may be zero through its body */
    any = cm->p.eqs[i].target < 0 && (cm->p.eqs[i].lhs->kind == FX_CALL || cm->p.eqs[i].rhs->kind == FX_CALL);
  if (!any) return 0;
  /* a zero variable can make the next one zero: until nothing changes */
  st_zero_memo *m = st_zero_memo_new();
  if (!m) return -1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < cm->p.neqs; i++) {
      const st_ceq *q = &cm->p.eqs[i];
      if (q->target >= 0) continue;
      changed |= defines_zero(cm, m, q->lhs, q->rhs) || defines_zero(cm, m, q->rhs, q->lhs);
    }
  }
  cm->p.zero_call_runs = st_zero_memo_runs(m);
  st_zero_memo_free(m);
  unsigned char *before = calloc((size_t)cm->p.flat->nvars + 1, 1);
  if (!before) return -1;
  mark_list(cm, cm->p.eqs, cm->p.neqs, before);
  mark_list(cm, cm->p.init_eqs, cm->p.ninit, before);
  int rc = fold_list(cm, cm->p.eqs, cm->p.neqs) || fold_list(cm, cm->p.init_eqs, cm->p.ninit) ||
                   drop_vanished_states(cm, before)
               ? -1
               : 0;
  free(before);
  return rc;
}
