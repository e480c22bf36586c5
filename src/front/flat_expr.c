/* Flat expression constructors and constant evaluation. */
#include "front/flat_expr.h"

#include <math.h>
#include <string.h>

st_fexpr *st_fx_new(st_arena *a, st_fexpr_kind kind, int op, int nargs, st_loc loc) {
  st_fexpr *e = st_arena_alloc(a, sizeof *e);
  if (!e) return NULL;
  e->kind = kind;
  e->op = op;
  e->nargs = nargs;
  e->loc = loc;
  if (nargs > 0) {
    e->args = st_arena_alloc(a, (size_t)nargs * sizeof *e->args);
    if (!e->args) return NULL;
  }
  return e;
}

st_fexpr *st_fx_real(st_arena *a, double v, st_loc loc) {
  st_fexpr *e = st_fx_new(a, FX_REAL, 0, 0, loc);
  if (e) e->value = v;
  return e;
}

st_fexpr *st_fx_bool(st_arena *a, int v, st_loc loc) {
  st_fexpr *e = st_fx_new(a, FX_BOOL, 0, 0, loc);
  if (e) e->value = v != 0;
  return e;
}

st_fexpr *st_fx_copy_node(st_arena *a, const st_fexpr *e) {
  st_fexpr *r = st_arena_alloc(a, sizeof *r);
  if (!r) return NULL;
  *r = *e;
  if (e->nargs > 0) {
    r->args = st_arena_alloc(a, sizeof *r->args * (size_t)e->nargs);
    if (!r->args) return NULL;
    memcpy(r->args, e->args, sizeof *r->args * (size_t)e->nargs);
  }
  return r;
}

st_feq *st_fx_equation(st_arena *a, st_fexpr *lhs, st_fexpr *rhs, st_loc loc) {
  st_feq *q = st_arena_alloc(a, sizeof *q);
  if (!q) return NULL;
  memset(q, 0, sizeof *q);
  q->kind = FE_EQUAL;
  q->lhs = lhs;
  q->rhs = rhs;
  q->origin = "";
  q->loc = loc;
  return q;
}

st_fexpr *st_fx_var(st_arena *a, int index, st_loc loc) {
  st_fexpr *e = st_fx_new(a, FX_VAR, 0, 0, loc);
  if (e) e->index = index;
  return e;
}

st_fexpr *st_fx_binary(st_arena *a, st_fop op, st_fexpr *l, st_fexpr *r, st_loc loc) {
  st_fexpr *e = st_fx_new(a, FX_BINARY, (int)op, 2, loc);
  if (!e) return NULL;
  e->args[0] = l;
  e->args[1] = r;
  return e;
}

st_fexpr *st_fx_unary(st_arena *a, st_fop op, st_fexpr *x, st_loc loc) {
  st_fexpr *e = st_fx_new(a, FX_UNARY, (int)op, 1, loc);
  if (e) e->args[0] = x;
  return e;
}

typedef struct evaluator {
  st_fx_binding_fn binding;
  st_fx_call_fn call;
  void *ctx;
  int depth; /* guards against cyclic bindings (p = q, q = p) */
} evaluator;

static int eval(evaluator *ev, const st_fexpr *e, double *out);

int st_fx_apply_binary(st_fop op, double x, double y, double *out) {
  switch (op) {
  case FOP_ADD: *out = x + y; return 0;
  case FOP_SUB: *out = x - y; return 0;
  case FOP_MUL: *out = x * y; return 0;
  case FOP_DIV: *out = x / y; return 0;
  case FOP_POW: *out = pow(x, y); return 0;
  case FOP_LT: *out = x < y; return 0;
  case FOP_LE: *out = x <= y; return 0;
  case FOP_GT: *out = x > y; return 0;
  case FOP_GE: *out = x >= y; return 0;
  case FOP_EQ: *out = x == y; return 0;
  case FOP_NE: *out = x != y; return 0;
  case FOP_AND: *out = x != 0 && y != 0; return 0;
  case FOP_OR: *out = x != 0 || y != 0; return 0;
  default: return -1;
  }
}

static int eval_builtin(evaluator *ev, const st_fexpr *e, double *out) {
  double x, y;
  if (e->op == FB_SMOOTH && e->nargs == 2) return eval(ev, e->args[1], out);
  if (e->nargs == 1 && eval(ev, e->args[0], &x) == 0) return st_fx_apply_builtin1(e->op, x, out);
  if (e->nargs == 2 && eval(ev, e->args[0], &x) == 0 && eval(ev, e->args[1], &y) == 0)
    return st_fx_apply_builtin2(e->op, x, y, out);
  return -1;
}

static int eval_var(evaluator *ev, const st_fexpr *e, double *out) {
  st_fexpr *b = ev->binding ? ev->binding(ev->ctx, e->index) : NULL;
  if (!b || ev->depth > 200) return -1;
  ev->depth++;
  int rc = eval(ev, b, out);
  ev->depth--;
  return rc;
}

static int eval(evaluator *ev, const st_fexpr *e, double *out) {
  double x, y;
  if (!e) return -1;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: *out = e->value; return 0;
  case FX_VAR: return eval_var(ev, e, out);
  case FX_BINARY:
    if (eval(ev, e->args[0], &x) || eval(ev, e->args[1], &y)) return -1;
    return st_fx_apply_binary((st_fop)e->op, x, y, out);
  case FX_UNARY:
    if (eval(ev, e->args[0], &x)) return -1;
    *out = e->op == FOP_NOT ? (x == 0) : -x;
    return 0;
  case FX_IF:
    if (eval(ev, e->args[0], &x)) return -1;
    return eval(ev, e->args[x != 0 ? 1 : 2], out);
  case FX_BUILTIN: return eval_builtin(ev, e, out);
  case FX_CALL: return ev->call ? ev->call(ev->ctx, e, out) : -1;
  default: return -1;
  }
}

int st_fx_eval(const st_fexpr *e, st_fx_binding_fn binding, void *ctx, double *out) {
  return st_fx_eval_ex(e, binding, NULL, ctx, out);
}

int st_fx_eval_ex(const st_fexpr *e, st_fx_binding_fn binding, st_fx_call_fn call, void *ctx,
                  double *out) {
  evaluator ev = {binding, call, ctx, 0};
  return eval(&ev, e, out);
}

static int is_logical(const st_fexpr *e) {
  if (e->kind == FX_UNARY) return e->op == FOP_NOT;
  if (e->kind == FX_BINARY) return e->op >= FOP_LT && e->op <= FOP_OR;
  return e->kind == FX_BUILTIN &&
         (e->op == FB_EDGE || e->op == FB_CHANGE || e->op == FB_INITIAL ||
          e->op == FB_TERMINAL || e->op == FB_SAMPLE);
}

st_ftype st_fx_type(const st_fexpr *e, const st_fvar *vars) {
  if (!e) return ST_T_REAL;
  switch (e->kind) {
  case FX_BOOL: return ST_T_BOOLEAN;
  case FX_STRING: return ST_T_STRING;
  case FX_ENUM: return ST_T_ENUM;
  case FX_VAR: return vars[e->index].type;
  case FX_IF: return st_fx_type(e->args[1], vars);
  case FX_ARRAY: return e->nargs ? st_fx_type(e->args[0], vars) : ST_T_REAL;
  case FX_BUILTIN:
    if (e->op == FB_PRE || e->op == FB_NOEVENT) return st_fx_type(e->args[0], vars);
    if (e->op == FB_SMOOTH) return st_fx_type(e->args[e->nargs - 1], vars);
    if (e->op == FB_CLOCK) return ST_T_CLOCK;
    if (e->op == FB_FIRSTTICK || e->op == FB_ACTIVESTATE) return ST_T_BOOLEAN;
    if (e->op == FB_TICKSINSTATE) return ST_T_INTEGER;
    if (e->op == FB_INTERVAL) return ST_T_REAL;
    if (e->op == FB_STRING) return ST_T_STRING;
    if (e->op >= FB_CSAMPLE && e->op <= FB_NOCLOCK && e->nargs > 0)
      return st_fx_type(e->args[0], vars); /* sample(u, c), hold(u), subSample(u, n), ... */
    return is_logical(e) ? ST_T_BOOLEAN : ST_T_REAL;
  default: return is_logical(e) ? ST_T_BOOLEAN : ST_T_REAL;
  }
}

int st_fx_is_parametric(const st_fexpr *e, const st_fvar *vars) {
  if (!e) return 1;
  switch (e->kind) {
  case FX_TIME: return 0;
  case FX_VAR: return vars[e->index].variability <= ST_V_PARAMETER;
  case FX_BUILTIN:
    if (e->op == FB_PRE || e->op == FB_DER || e->op == FB_EDGE || e->op == FB_CHANGE ||
        e->op == FB_INITIAL || e->op == FB_TERMINAL || e->op == FB_SAMPLE ||
        e->op == FB_DELAY || e->op == FB_CARDINALITY || (e->op >= FB_CLOCK && e->op <= FB_NOCLOCK) ||
        (e->op >= FB_TRANSITION && e->op <= FB_TIMEINSTATE))
      return 0;
    break;
  default: break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!st_fx_is_parametric(e->args[i], vars)) return 0;
  return 1;
}

int st_fx_uses_local(const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_LOCAL) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (st_fx_uses_local(e->args[i])) return 1;
  return 0;
}
