/* Collecting the scalar equations of the flat model: equalities, if-equations (one residual
 * per branch position), declaration equations; when-equations and asserts go to exec/event_pass.c. */
#include <string.h>

#include "compile/model_impl.h"

typedef struct eq_vec {
  st_ceq *items;
  int n, cap;
} eq_vec;

static int push(st_compiled *cm, eq_vec *v, st_ceq q) {
  if (v->n == v->cap) {
    int cap = v->cap ? 2 * v->cap : 32;
    st_ceq *items = st_arena_alloc(cm->p.arena, (size_t)cap * sizeof *items);
    if (!items) return -1;
    if (v->n) memcpy(items, v->items, (size_t)v->n * sizeof *items);
    v->items = items;
    v->cap = cap;
  }
  v->items[v->n++] = q;
  return 0;
}

static int push_ctx(st_compiled *cm, void *ctx, st_ceq q) { return push(cm, ctx, q); }

/* An equation `d = expr` (or `expr = d`) for a discrete variable d is an assignment. */
static st_ceq make_eq(const st_compiled *cm, st_fexpr *lhs, st_fexpr *rhs, const st_feq *src) {
  st_ceq q = {lhs, rhs, -1, src->loc, src->origin, 0, 0};
  int sl = lhs->kind == FX_VAR ? st_ref_slot(cm, lhs) : -1;
  int sr = rhs->kind == FX_VAR ? st_ref_slot(cm, rhs) : -1;
  if (sl >= 0 && cm->p.slots[sl].kind == K_DISCRETE && lhs->index == sl) {
    q.target = sl;
  } else if (sr >= 0 && cm->p.slots[sr].kind == K_DISCRETE && rhs->index == sr &&
             !(sl >= 0 && lhs->index == sl && cm->p.slots[sl].kind == K_ALG)) {
    /* (x = d for a continuous x is x's equation: a Real bound to an Integer input) */
    q.lhs = rhs;
    q.rhs = lhs;
    q.target = sr;
  }
  return q;
}

static int param_condition(st_compiled *cm, const st_fexpr *c, int *value) {
  if (st_expr_deps(cm, c) & (DEP_TIME | DEP_CONT | DEP_DISC)) return 0;
  st_prog p = {0};
  int rc = st_emit(cm, &p, c, EMIT_PLAIN);
  if (!rc) *value = st_vm_eval(&cm->vm, &p) != 0;
  st_prog_free(&p);
  return rc ? -1 : 1;
}

static int add_list(st_compiled *cm, eq_vec *v, const st_feq_list *l);

/* One residual of an if-equation's branch and where it was written. */
typedef struct resid {
  st_fexpr *r;
  st_loc loc;
} resid;

static int if_residuals(st_compiled *cm, const st_feq *q, resid **out, int *n);

/* The residuals lhs - rhs of the equations of a branch, in order; a nested if-equation
 * gives its own, position by position. */
static int list_residuals(st_compiled *cm, const st_feq_list *l, resid **out, int *n) {
  int cap = l->n + 1, k = 0;
  resid *r = st_arena_alloc(cm->p.arena, (size_t)cap * sizeof *r);
  if (!r) return -1;
  for (int i = 0; i < l->n; i++) {
    const st_feq *e = l->items[i];
    resid *sub = NULL;
    int m = 1;
    if (e->kind == FE_IF) {
      if (if_residuals(cm, e, &sub, &m)) return -1;
    } else if (e->kind != FE_EQUAL) {
      st_error(cm->diag, e->loc, "only equalities are supported inside an if-equation with "
               "non-parameter conditions");
      return -1;
    }
    if (k + m > cap) {
      resid *g = st_arena_alloc(cm->p.arena, (size_t)(2 * (k + m)) * sizeof *g);
      if (!g) return -1;
      memcpy(g, r, (size_t)k * sizeof *g);
      r = g;
      cap = 2 * (k + m);
    }
    if (sub) {
      memcpy(r + k, sub, (size_t)m * sizeof *sub);
    } else if (!(r[k].r = st_sym_bin(cm->p.arena, FOP_SUB, e->lhs, e->rhs))) {
      return -1;
    } else {
      r[k].loc = e->loc;
    }
    k += m;
  }
  *out = r;
  *n = k;
  return 0;
}

/* if c1 then A elseif c2 then B else C: residual i is (if c1 then A_i elseif c2 then B_i
 * else C_i), A_i = lhs - rhs of the i-th equation of A (nested if-equations give theirs).
 * Branch sizes must agree unless the conditions are parameter expressions, which are
 * decided here. */
static int if_residuals(st_compiled *cm, const st_feq *q, resid **out, int *n) {
  for (int i = 0; i < q->nconds; i++) {
    int val = 0, r = param_condition(cm, q->conds[i], &val);
    if (r < 0) return -1;
    if (r == 0) break;
    if (val) return list_residuals(cm, &q->branches[i], out, n);
    if (i == q->nconds - 1) return list_residuals(cm, &q->branches[q->nconds], out, n);
  }
  if (q->nconds == 0) return list_residuals(cm, &q->branches[0], out, n);
  resid **br = st_arena_alloc(cm->p.arena, (size_t)(q->nconds + 1) * sizeof *br);
  int nb = 0;
  if (!br) return -1;
  for (int b = 0; b <= q->nconds; b++) {
    int m;
    if (list_residuals(cm, &q->branches[b], &br[b], &m)) return -1;
    if (b == 0) nb = m;
    if (m != nb) {
      st_error(cm->diag, q->loc, "the branches of this if-equation have different numbers of "
               "equations (%d and %d) and its conditions are not parameter expressions", nb, m);
      return -1;
    }
  }
  for (int i = 0; i < nb; i++) {
    st_fexpr *res = br[q->nconds][i].r;
    for (int b = q->nconds - 1; b >= 0; b--) {
      st_fexpr *f = st_sym_node(cm->p.arena, FX_IF, 0, 3);
      if (!f) return -1;
      f->args[0] = q->conds[b];
      f->args[1] = br[b][i].r;
      f->args[2] = res;
      f->loc = br[b][i].loc;
      res = f;
    }
    br[0][i].r = res;
  }
  *out = br[0];
  *n = nb;
  return 0;
}

static int add_if(st_compiled *cm, eq_vec *v, const st_feq *q) {
  int all_param = 1;
  for (int i = 0; i < q->nconds && all_param; i++) {
    int val = 0, r = param_condition(cm, q->conds[i], &val);
    if (r < 0) return -1;
    if (r == 0) { all_param = 0; break; }
    if (val) return add_list(cm, v, &q->branches[i]);
  }
  if (all_param) return add_list(cm, v, &q->branches[q->nconds]);
  resid *r;
  int n;
  if (if_residuals(cm, q, &r, &n)) return -1;
  for (int i = 0; i < n; i++)
    if (push(cm, v, (st_ceq){r[i].r, st_sym_num(cm->p.arena, 0), -1, r[i].loc, q->origin, 0, 0}))
      return -1;
  return 0;
}

/* (a, b) = f(x): one equation per named element, a = (output 1 of f(x)), b = (output 2 of
 * f(x)), each a call that returns that output (the function runs once per element). */
static int add_tuple(st_compiled *cm, eq_vec *v, const st_feq *q) {
  const st_fexpr *call = q->rhs;
  if (!call || call->kind != FX_CALL) {
    st_error(cm->diag, q->loc, "a tuple equation needs a function call on its right side");
    return -1;
  }
  for (int i = 0; i < q->ntuple; i++) {
    if (!q->tuple[i]) continue;
    st_fexpr *c = st_sym_node(cm->p.arena, FX_CALL, i, call->nargs);
    if (!c) return -1;
    c->index = call->index;
    c->loc = call->loc;
    memcpy(c->args, call->args, (size_t)call->nargs * sizeof *c->args);
    if (push(cm, v, make_eq(cm, q->tuple[i], c, q))) return -1;
  }
  return 0;
}

static int add_eq(st_compiled *cm, eq_vec *v, const st_feq *q) {
  switch (q->kind) {
  case FE_EQUAL: return push(cm, v, make_eq(cm, q->lhs, q->rhs, q));
  case FE_IF: return add_if(cm, v, q);
  case FE_TUPLE: return add_tuple(cm, v, q);
  case FE_WHEN: return st_add_when(cm, q);
  case FE_ASSERT: return st_add_assert(cm, q);
  case FE_REINIT:
    st_error(cm->diag, q->loc, "reinit() is only allowed inside a when-equation");
    return -1;
  default:
    st_error(cm->diag, q->loc, "a function call as an equation is not supported by "
             "the compiler yet");
    return -1;
  }
}

static int add_list(st_compiled *cm, eq_vec *v, const st_feq_list *l) {
  for (int i = 0; i < l->n; i++)
    if (add_eq(cm, v, l->items[i])) return -1;
  return 0;
}

static int add_bindings(st_compiled *cm, eq_vec *v) {
  for (int i = 0; i < cm->p.flat->nvars; i++) {
    const st_fvar *fv = &cm->p.flat->vars[i];
    st_kind k = cm->p.slots[i].kind;
    if (!fv->binding || k == K_PARAM || k == K_IGNORED || k == K_WHEN) continue;
    st_fexpr *ref = st_sym_node(cm->p.arena, FX_VAR, 0, 0);
    if (!ref) return -1;
    ref->index = i;
    ref->loc = fv->loc;
    st_feq src = {.loc = fv->loc, .origin = ""};
    if (push(cm, v, make_eq(cm, ref, fv->binding, &src))) return -1;
  }
  return 0;
}

/* An initial equation `v = expr` (or `expr = v`) for a variable v assigned in when-clauses
 * (classify.c counts a parameter with fixed = false and no binding among them) determines
 * v's value at the start (Blocks.Sources.Pulse: `count = integer(...)`). Such an equation
 * has nothing to say about the continuous states, so it is not part of the Newton system: it
 * becomes an assignment evaluated before it (Modelica 3.6 section 8.6: the initialization
 * problem includes the discrete unknowns). Returns the target slot or -1. */
static int initial_target(const st_compiled *cm, st_fexpr **lhs, st_fexpr **rhs) {
  for (int side = 0; side < 2; side++) {
    st_fexpr *a = side ? *rhs : *lhs, *b = side ? *lhs : *rhs;
    /* pre(d) = expr for any discrete d gives d's value before the initial event, which the
     * equations may then change (Blocks.Math.MultiSwitch: pre(u) = fill(false, nu)) */
    int pre = a->kind == FX_BUILTIN && a->op == FB_PRE && a->nargs == 1 && a->args[0]->kind == FX_VAR;
    if (pre) a = a->args[0];
    int s = a->kind == FX_VAR ? st_ref_slot(cm, a) : -1;
    if (s < 0 || a->index != s || st_sym_count(cm, b, s) ||
        !(cm->p.slots[s].kind == K_WHEN || (pre && cm->p.slots[s].kind == K_DISCRETE)))
      continue;
    *lhs = a;
    *rhs = b;
    return s;
  }
  return -1;
}

/* An initial equation `d = value` for a discrete variable that the equations define as a
 * chain of discrete variables ending in a pre() (StateGraph's InitialStep: active = true with
 * active = localActive, localActive = pre(newActive)) sets every variable of the chain to the
 * value before the initial event: that pre() is the unknown the equation determines (Modelica
 * 3.6 section 8.6). 1 when the chain was found and its assignments pushed to a. */
static int discrete_chain(st_compiled *cm, const eq_vec *eqs, st_fexpr *lhs, st_fexpr *rhs,
                          const st_feq *q, eq_vec *a) {
  int chain[8], n = 0;
  const st_fexpr *d = lhs;
  for (int step = 0; step < 8; step++) {
    int s = d->kind == FX_VAR ? st_ref_slot(cm, d) : -1;
    if (s < 0 || d->index != s || cm->p.slots[s].kind != K_DISCRETE) return 0;
    chain[n++] = s;
    const st_fexpr *def = NULL;
    for (int e = 0; e < eqs->n && !def; e++)
      if (eqs->items[e].target == s && !eqs->items[e].algorithm) def = eqs->items[e].rhs;
    if (!def) return 0;
    if (def->kind == FX_BUILTIN && def->op == FB_PRE && def->nargs == 1) {
      d = def->args[0];
      s = d->kind == FX_VAR ? st_ref_slot(cm, d) : -1;
      if (s < 0 || d->index != s || cm->p.slots[s].kind != K_DISCRETE || st_sym_count(cm, rhs, s))
        return 0;
      chain[n++] = s;
      for (int i = 0; i < n; i++) {
        st_fexpr *ref = st_sym_node(cm->p.arena, FX_VAR, 0, 0);
        if (!ref) return 0;
        ref->index = chain[i];
        ref->loc = q->loc;
        if (push(cm, a, (st_ceq){ref, rhs, chain[i], q->loc, q->origin, 0, 0})) return 0;
      }
      return 1;
    }
    d = def;
  }
  return 0;
}

/* An initial equation over discrete variables and parameters only (StateGraph's InitialStep:
 * `active = true` where active = pre(newActive) and newActive has fixed = true) adds nothing
 * to the system of the states: it is redundant, and checked once they are initialized. */
static int is_check(const st_compiled *cm, const st_fexpr *lhs, const st_fexpr *rhs) {
  return !((st_expr_deps(cm, lhs) | st_expr_deps(cm, rhs)) & DEP_CONT);
}

static int add_initial(st_compiled *cm, const eq_vec *eqs) {
  eq_vec v = {0}, a = {0}, c = {0};
  const st_feq_list *l = &cm->p.flat->initial_equations;
  for (int i = 0; i < l->n; i++) {
    const st_feq *q = l->items[i];
    if (q->kind != FE_EQUAL) {
      st_error(cm->diag, q->loc, "only equalities are supported in initial equations");
      return -1;
    }
    st_fexpr *lhs = q->lhs, *rhs = q->rhs;
    if (discrete_chain(cm, eqs, lhs, rhs, q, &a) || discrete_chain(cm, eqs, rhs, lhs, q, &a))
      continue;
    int target = initial_target(cm, &lhs, &rhs);
    eq_vec *to = target >= 0 ? &a : is_check(cm, lhs, rhs) ? &c : &v;
    if (push(cm, to, (st_ceq){lhs, rhs, target, q->loc, q->origin, 0, 0})) return -1;
  }
  cm->p.init_checks = c.items;
  cm->p.ninit_checks = c.n;
  cm->p.init_eqs = v.items;
  cm->p.ninit = v.n;
  cm->p.init_assign = a.items;
  cm->p.ninit_assign = a.n;
  return 0;
}

int st_collect_equations(st_compiled *cm) {
  eq_vec v = {0};
  if (add_list(cm, &v, &cm->p.flat->equations) || add_bindings(cm, &v) ||
      st_add_algorithms(cm, push_ctx, &v) || add_initial(cm, &v) || st_add_initial_algorithms(cm))
    return -1;
  cm->p.eqs = v.items;
  cm->p.neqs = v.n;
  return 0;
}
