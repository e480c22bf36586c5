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
static int defines_zero(st_compiled *cm, const st_fexpr *v, const st_fexpr *other) {
  int s = v->kind == FX_VAR ? st_ref_slot(cm, v) : -1;
  if (s < 0 || s != v->index || s >= cm->p.flat->nvars || cm->p.zero_param[s] ||
      cm->p.slots[s].kind != K_ALG || other->kind == FX_REAL)
    return 0;
  if (!structural_zero(cm, other) && !(other->kind == FX_CALL && st_call_is_zero(cm, other)))
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

int st_fold_structural_zeros(st_compiled *cm) {
  int any = 0;
  for (int s = 0; s < cm->p.flat->nvars && !any; s++) any = cm->p.zero_param[s];
  for (int i = 0; i < cm->p.neqs && !any; i++) /* a call may be zero through its body */
    any = cm->p.eqs[i].target < 0 && (cm->p.eqs[i].lhs->kind == FX_CALL || cm->p.eqs[i].rhs->kind == FX_CALL);
  if (!any) return 0;
  /* a zero variable can make the next one zero: until nothing changes */
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < cm->p.neqs; i++) {
      const st_ceq *q = &cm->p.eqs[i];
      if (q->target >= 0) continue;
      changed |= defines_zero(cm, q->lhs, q->rhs) || defines_zero(cm, q->rhs, q->lhs);
    }
  }
  return fold_list(cm, cm->p.eqs, cm->p.neqs) || fold_list(cm, cm->p.init_eqs, cm->p.ninit)
             ? -1
             : 0;
}
