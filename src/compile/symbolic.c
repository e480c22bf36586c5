/* Symbolic helpers: building nodes, solving an equation for a variable that occurs once
 * (explicit assignment instead of Newton), and the linearity test that lets a block be
 * solved by a single LU step. */
#include <math.h>
#include <string.h>

#include "compile/model_impl.h"

st_fexpr *st_sym_node(st_arena *a, st_fexpr_kind kind, int op, int nargs) {
  st_fexpr *e = st_arena_alloc(a, sizeof *e);
  if (!e) return NULL;
  e->kind = kind;
  e->op = op;
  e->nargs = nargs;
  if (nargs && !(e->args = st_arena_alloc(a, (size_t)nargs * sizeof *e->args))) return NULL;
  return e;
}

/* e with fn applied to each argument; the node is copied only when an argument changes, so
 * that the flat model's expressions stay shared. NULL when fn fails or out of memory. */
st_fexpr *st_sym_map_args(st_arena *a, st_fexpr *e, st_fexpr *(*fn)(void *, st_fexpr *),
                          void *ctx) {
  st_fexpr *copy = NULL;
  for (int i = 0; i < e->nargs; i++) {
    st_fexpr *x = fn(ctx, e->args[i]);
    if (!x) return NULL;
    if (x == e->args[i]) continue;
    if (!copy) {
      if (!(copy = st_sym_node(a, e->kind, e->op, e->nargs))) return NULL;
      st_fexpr **args = copy->args;
      *copy = *e;
      copy->args = args;
      memcpy(args, e->args, (size_t)e->nargs * sizeof *args);
    }
    copy->args[i] = x;
  }
  return copy ? copy : e;
}

st_fexpr *st_sym_num(st_arena *a, double v) {
  st_fexpr *e = st_sym_node(a, FX_REAL, 0, 0);
  if (e) e->value = v;
  return e;
}

st_fexpr *st_sym_bin(st_arena *a, int op, st_fexpr *l, st_fexpr *r) {
  if (!l || !r) return NULL;
  st_fexpr *e = st_sym_node(a, FX_BINARY, op, 2);
  if (!e) return NULL;
  e->args[0] = l;
  e->args[1] = r;
  e->loc = l->loc;
  return e;
}

st_fexpr *st_sym_if(st_arena *a, st_fexpr *c, st_fexpr *x, st_fexpr *y) {
  if (!c || !x || !y) return NULL;
  st_fexpr *e = st_sym_node(a, FX_IF, 0, 3);
  if (!e) return NULL;
  e->args[0] = c;
  e->args[1] = x;
  e->args[2] = y;
  e->loc = c->loc;
  return e;
}

static st_fexpr *neg(st_arena *a, st_fexpr *x) {
  if (!x) return NULL;
  st_fexpr *e = st_sym_node(a, FX_UNARY, FOP_NEG, 1);
  if (e) e->args[0] = x;
  return e;
}

int st_sym_count(const st_compiled *cm, const st_fexpr *e, int slot) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && (e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE))
    return 0;
  if (st_ref_slot(cm, e) == slot) return 1;
  int n = 0;
  for (int i = 0; i < e->nargs; i++) n += st_sym_count(cm, e->args[i], slot);
  return n;
}

/* Walks from the side holding the single occurrence of the target down to it, moving every
 * other operand to `other`: a + b = c with the target in a gives a = c - b, and so on.
 * Returns NULL when the path crosses a non-invertible node (functions, if, power). */
static st_fexpr *isolate(st_compiled *cm, const st_fexpr *e, st_fexpr *other, int slot) {
  st_arena *A = cm->p.arena;
  while (other && st_ref_slot(cm, e) != slot) {
    if (e->kind == FX_UNARY && e->op == FOP_NEG) {
      other = neg(A, other);
      e = e->args[0];
      continue;
    }
    if (e->kind != FX_BINARY) return NULL;
    int left = st_sym_count(cm, e->args[0], slot) > 0;
    st_fexpr *a = e->args[0], *b = e->args[1];
    switch (e->op) {
    case FOP_ADD: other = st_sym_bin(A, FOP_SUB, other, left ? b : a); break;
    case FOP_SUB: other = left ? st_sym_bin(A, FOP_ADD, other, b) : st_sym_bin(A, FOP_SUB, a, other);
      break;
    case FOP_MUL: other = st_sym_bin(A, FOP_DIV, other, left ? b : a); break;
    case FOP_DIV: other = left ? st_sym_bin(A, FOP_MUL, other, b) : st_sym_bin(A, FOP_DIV, a, other);
      break;
    default: return NULL;
    }
    e = left ? a : b;
  }
  double sign = 1;
  if (other && st_resolve_ref(cm, e, &sign) == slot && sign < 0)
    other = neg(A, other); /* an alias reference carries a sign: x_alias = -x means x = -other */
  return other;
}

/* `(if c then r1 else r2) = rhs` with the unknown in both branches but not in c or rhs:
 * the residual form of an if-equation (equations.c), e.g. ElastoBacklash's
 * `if initial() then tau_c = ... else tau_c = ... end if`. Solved branch by branch into
 * `x = if c then x1 else x2`, so that it is an assignment and not a 1-unknown linear system
 * (which the DAE form would make an IDA unknown, and which costs an LU solve on CVODE). */
static st_fexpr *solve_branches(st_compiled *cm, const st_fexpr *e, const st_fexpr *rhs, int slot) {
  if (e->kind != FX_IF || e->nargs != 3 || st_sym_count(cm, e->args[0], slot)) return NULL;
  st_fexpr *a = st_sym_solve(cm, e->args[1], rhs, slot);
  st_fexpr *b = a ? st_sym_solve(cm, e->args[2], rhs, slot) : NULL;
  st_fexpr *f = b ? st_sym_node(cm->p.arena, FX_IF, 0, 3) : NULL;
  if (!f) return NULL;
  f->args[0] = e->args[0];
  f->args[1] = a;
  f->args[2] = b;
  f->loc = e->loc;
  return f;
}

st_fexpr *st_sym_solve(st_compiled *cm, const st_fexpr *lhs, const st_fexpr *rhs, int slot) {
  int nl = st_sym_count(cm, lhs, slot), nr = st_sym_count(cm, rhs, slot);
  if (nl > 1 && nr == 0) return solve_branches(cm, lhs, rhs, slot);
  if (nr > 1 && nl == 0) return solve_branches(cm, rhs, lhs, slot);
  if (nl + nr != 1) return NULL;
  if (nl) return isolate(cm, lhs, (st_fexpr *)rhs, slot);
  return isolate(cm, rhs, (st_fexpr *)lhs, slot);
}

int st_sym_depends(const st_compiled *cm, const st_fexpr *e, const unsigned char *in) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && (e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE))
    return 0;
  int s = st_ref_slot(cm, e);
  if (s >= 0) return in[s];
  for (int i = 0; i < e->nargs; i++)
    if (st_sym_depends(cm, e->args[i], in)) return 1;
  return 0;
}

/* Linear in the marked slots, treating everything else (discrete values, frozen relations,
 * parameters, states) as constant. */
int st_sym_linear(const st_compiled *cm, const st_fexpr *e, const unsigned char *in) {
  if (!st_sym_depends(cm, e, in)) return 1;
  if (st_ref_slot(cm, e) >= 0) return 1;
  switch (e->kind) {
  case FX_UNARY: return e->op == FOP_NEG && st_sym_linear(cm, e->args[0], in);
  case FX_BINARY:
    switch (e->op) {
    case FOP_ADD: case FOP_SUB:
      return st_sym_linear(cm, e->args[0], in) && st_sym_linear(cm, e->args[1], in);
    case FOP_MUL:
      if (st_sym_depends(cm, e->args[0], in) && st_sym_depends(cm, e->args[1], in)) return 0;
      return st_sym_linear(cm, e->args[0], in) && st_sym_linear(cm, e->args[1], in);
    case FOP_DIV:
      return !st_sym_depends(cm, e->args[1], in) && st_sym_linear(cm, e->args[0], in);
    default: return 0;
    }
  case FX_IF:
    return !st_sym_depends(cm, e->args[0], in) && st_sym_linear(cm, e->args[1], in) &&
           st_sym_linear(cm, e->args[2], in);
  case FX_BUILTIN:
    if (e->op == FB_HOMOTOPY) /* both count: init.c's path evaluates the blend */
      return st_sym_linear(cm, e->args[0], in) && st_sym_linear(cm, e->args[1], in);
    if (e->op == FB_NOEVENT || e->op == FB_SMOOTH)
      return st_sym_linear(cm, e->args[e->op == FB_SMOOTH ? e->nargs - 1 : 0], in);
    return 0;
  default: return 0;
  }
}

int st_quiet_builtin(const st_fexpr *e) {
  if (e->kind != FX_BUILTIN) return 0;
  if (e->op == FB_NOEVENT) return 1;
  return e->op == FB_SMOOTH && e->nargs == 2 && e->args[0]->kind == FX_REAL && e->args[0]->value >= 1;
}

/* Dependencies with relations counted as discrete: their values are frozen between events. */
static int frozen_deps(const st_compiled *cm, const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_BINARY && e->op >= FOP_LT && e->op <= FOP_GE) return DEP_DISC;
  if (st_quiet_builtin(e)) return st_expr_deps(cm, e);
  if (e->kind == FX_VAR || e->kind == FX_TIME || e->kind == FX_BUILTIN)
    if (e->kind != FX_BUILTIN || e->op == FB_DER || e->op == FB_PRE) return st_expr_deps(cm, e);
  int d = 0;
  for (int i = 0; i < e->nargs; i++) d |= frozen_deps(cm, e->args[i]);
  return e->kind == FX_BUILTIN && e->nargs == 0 ? st_expr_deps(cm, e) : d;
}

static int frozen(const st_compiled *cm, const st_fexpr *e, const unsigned char *in) {
  return !st_sym_depends(cm, e, in) && !(frozen_deps(cm, e) & (DEP_CONT | DEP_TIME));
}

/* Linear, and every coefficient of a block unknown is constant between events (parameters,
 * discrete values, frozen relations): the Jacobian only changes at events. */
int st_sym_frozen_coefficients(const st_compiled *cm, const st_fexpr *e,
                               const unsigned char *in) {
  if (!st_sym_depends(cm, e, in) || st_ref_slot(cm, e) >= 0) return 1;
  switch (e->kind) {
  case FX_UNARY: return e->op == FOP_NEG && st_sym_frozen_coefficients(cm, e->args[0], in);
  case FX_BINARY:
    switch (e->op) {
    case FOP_ADD: case FOP_SUB:
      return st_sym_frozen_coefficients(cm, e->args[0], in) &&
             st_sym_frozen_coefficients(cm, e->args[1], in);
    case FOP_MUL:
      if (st_sym_depends(cm, e->args[0], in))
        return frozen(cm, e->args[1], in) && st_sym_frozen_coefficients(cm, e->args[0], in);
      return frozen(cm, e->args[0], in) && st_sym_frozen_coefficients(cm, e->args[1], in);
    case FOP_DIV:
      return frozen(cm, e->args[1], in) && st_sym_frozen_coefficients(cm, e->args[0], in);
    default: return 0;
    }
  case FX_IF:
    return frozen(cm, e->args[0], in) && st_sym_frozen_coefficients(cm, e->args[1], in) &&
           st_sym_frozen_coefficients(cm, e->args[2], in);
  default: return 0;
  }
}

/* The value of a parameter expression, or -1 when e is not one the walk knows. */
int st_sym_param_value(const st_compiled *cm, const st_fexpr *e, double *v) {
  double a, b, sign;
  switch (e->kind) {
  case FX_REAL: *v = e->value; return 0;
  case FX_VAR: {
    int s = st_resolve_ref(cm, e, &sign);
    if (s < 0 || (cm->p.slots[s].kind != K_PARAM && cm->p.slots[s].kind != K_CONST)) return -1;
    *v = sign * cm->x[s];
    return 0;
  }
  case FX_UNARY:
    if (e->op != FOP_NEG || st_sym_param_value(cm, e->args[0], &a)) return -1;
    *v = -a;
    return 0;
  case FX_BINARY:
    if (st_sym_param_value(cm, e->args[0], &a) || st_sym_param_value(cm, e->args[1], &b)) return -1;
    switch (e->op) {
    case FOP_ADD: *v = a + b; return 0;
    case FOP_SUB: *v = a - b; return 0;
    case FOP_MUL: *v = a * b; return 0;
    case FOP_DIV: *v = a / b; return isfinite(*v) ? 0 : -1;
    default: return -1;
    }
  default: return -1;
  }
}

/* d e / d slot: ST_COEF_NONE (slot does not occur), ST_COEF_EXACT with the number in *c (e is
 * linear in slot with a coefficient of numbers and parameters), else ST_COEF_GENERIC. One walk
 * of e: the flow sum of a connection set of N members is asked for each of its N unknowns, so
 * counting the occurrences again at every level of its left-deep sum made that N^3. */
int st_sym_coefficient(const st_compiled *cm, const st_fexpr *e, int slot, double *c) {
  double sign, a = 0, b = 0, k;
  if (!e) return ST_COEF_NONE;
  int s = st_resolve_ref(cm, e, &sign);
  if (s == slot) { *c = sign; return ST_COEF_EXACT; }
  int pre = e->kind == FX_BUILTIN && (e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE);
  if (pre) return ST_COEF_NONE;
  if (e->kind == FX_UNARY && e->op == FOP_NEG) {
    int r = st_sym_coefficient(cm, e->args[0], slot, &a);
    *c = -a;
    return r;
  }
  if (e->kind != FX_BINARY) return st_sym_count(cm, e, slot) ? ST_COEF_GENERIC : ST_COEF_NONE;
  int ra = st_sym_coefficient(cm, e->args[0], slot, &a), rb = st_sym_coefficient(cm, e->args[1], slot, &b);
  if (ra == ST_COEF_NONE && rb == ST_COEF_NONE) return ST_COEF_NONE;
  if (ra == ST_COEF_GENERIC || rb == ST_COEF_GENERIC) return ST_COEF_GENERIC;
  switch (e->op) {
  case FOP_ADD: *c = (ra ? a : 0) + (rb ? b : 0); return ST_COEF_EXACT;
  case FOP_SUB: *c = (ra ? a : 0) - (rb ? b : 0); return ST_COEF_EXACT;
  case FOP_MUL: /* exactly one side holds slot (both would be nonlinear) */
    if (ra && rb) return ST_COEF_GENERIC;
    if (st_sym_param_value(cm, e->args[ra ? 1 : 0], &k)) return ST_COEF_GENERIC;
    *c = (ra ? a : b) * k;
    return ST_COEF_EXACT;
  case FOP_DIV:
    if (rb || st_sym_param_value(cm, e->args[1], &k) || k == 0) return ST_COEF_GENERIC;
    *c = a / k;
    return ST_COEF_EXACT;
  default: return ST_COEF_GENERIC;
  }
}
