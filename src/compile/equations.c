/* Collecting the scalar equations of the flat model: equalities, if-equations (one residual
 * per branch position), declaration equations; when-equations and asserts go to exec/event_pass.c. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

typedef struct eq_vec {
  st_ceq *items;
  int n, cap;
  int heap; /* the model's equations: on the heap, grown in place by index reduction (build.c
               frees them); the initial ones and temporaries live in the arena */
} eq_vec;

static st_fexpr *fold_structural_ifs(st_compiled *cm, st_fexpr *e);

static int push(st_compiled *cm, eq_vec *v, st_ceq q) {
  if (!(q.lhs = fold_structural_ifs(cm, q.lhs)) || !(q.rhs = fold_structural_ifs(cm, q.rhs)))
    return -1;
  if (v->n == v->cap) { /* on the heap the arena does not keep every outgrown copy */
    int cap = v->cap ? 2 * v->cap : 32;
    st_ceq *items = v->heap ? realloc(v->items, (size_t)cap * sizeof *items)
                            : st_arena_alloc(cm->p.arena, (size_t)cap * sizeof *items);
    if (!items) return -1;
    if (!v->heap && v->n) memcpy(items, v->items, (size_t)v->n * sizeof *items);
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

/* Condition c reads only constants and parameters that are final or Evaluate = true
 * (mark: note their values in held_param). */
static int structural(st_compiled *cm, const st_fexpr *c, int mark) {
  if (c->kind == FX_VAR) {
    int s = st_ref_slot(cm, c);
    if (s < 0) return 0;
    if (cm->p.slots[s].kind == K_CONST) return 1;
    if (cm->p.slots[s].kind != K_PARAM || s >= cm->p.flat->nvars) return 0;
    const st_fvar *fv = &cm->p.flat->vars[s];
    if (!fv->is_final && !fv->evaluate) return 0;
    if (mark) cm->p.held_param[s] = cm->x[s];
    return 1;
  }
  for (int i = 0; i < c->nargs; i++)
    if (!structural(cm, c->args[i], mark)) return 0;
  return 1;
}

/* An if-expression whose condition is structural is its branch: the other one, never
 * taken, is no part of the equation's incidence (FluxTubes' `mu_r = if
 * nonLinearPermeability then f(B) else mu_rConst` with the Evaluate = true flag false is
 * no equation in B, and G_m = mu_0 mu_r A/l no nonlinear loop). Dymola and OpenModelica
 * evaluate such parameters; their values at compilation must hold at every run
 * (st_zero_parameters_hold). Nodes are copied, the flat model is shared. */
static st_fexpr *fold_ifs_arg(void *cm, st_fexpr *e) { return fold_structural_ifs(cm, e); }

static st_fexpr *fold_structural_ifs(st_compiled *cm, st_fexpr *e) {
  if (!e || !e->nargs) return e;
  int val;
  if (e->kind == FX_IF && e->nargs == 3 &&
      !(st_expr_deps(cm, e->args[0]) & (DEP_TIME | DEP_CONT | DEP_DISC)) &&
      structural(cm, e->args[0], 0)) {
    int r = param_condition(cm, e->args[0], &val);
    if (r < 0) return NULL;
    if (r > 0) {
      structural(cm, e->args[0], 1);
      return fold_structural_ifs(cm, e->args[val ? 1 : 2]);
    }
  }
  return st_sym_map_args(cm->p.arena, e, fold_ifs_arg, cm);
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
    if (e->kind == FE_ASSERT) continue; /* guarded by branch_asserts */
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

static st_fexpr *if_value(st_compiled *cm, const st_feq *q, int var, const st_fexpr **lhs);

/* The value list l gives variable var (`var = e`, or a nested if-equation assigning var in
 * every branch), NULL when none; *lhs: the assigned reference. */
static st_fexpr *list_value(st_compiled *cm, const st_feq_list *l, int var, const st_fexpr **lhs) {
  for (int k = 0; k < l->n; k++) {
    const st_feq *e = l->items[k];
    if (e->kind == FE_EQUAL && e->lhs->kind == FX_VAR && e->lhs->index == var) {
      *lhs = e->lhs;
      return e->rhs;
    }
    st_fexpr *r = e->kind == FE_IF ? if_value(cm, e, var, lhs) : NULL;
    if (r) return r;
  }
  return NULL;
}

/* if c1 then (value in branch 1) elseif ... for an if-equation assigning var everywhere. */
static st_fexpr *if_value(st_compiled *cm, const st_feq *q, int var, const st_fexpr **lhs) {
  st_fexpr *r = list_value(cm, &q->branches[q->nconds], var, lhs);
  for (int b = q->nconds - 1; r && b >= 0; b--)
    r = st_sym_if(cm->p.arena, q->conds[b], list_value(cm, &q->branches[b], var, lhs), r);
  return r;
}

/* Appends the variables list l assigns (nested if-equations: their first branch) to vars;
 * the new count, -1 when l holds anything else or more than cap. */
static int assigned_vars(const st_feq_list *l, int *vars, int n, int cap) {
  for (int k = 0; k < l->n && n >= 0; k++) {
    const st_feq *e = l->items[k];
    if (e->kind == FE_ASSERT) continue; /* guarded by branch_asserts */
    if (e->kind == FE_IF) n = assigned_vars(&e->branches[0], vars, n, cap);
    else if (e->kind == FE_EQUAL && e->lhs->kind == FX_VAR && n < cap) vars[n++] = e->lhs->index;
    else return -1;
  }
  return n;
}

/* An if-equation whose branches assign the same variables, in any order and through nested
 * if-equations (`x = ...`): one equation x = if c1 then e1 elseif ... per variable, solved
 * for x like any assignment (a Boolean or Integer x has no residual to solve; MSL's clocked
 * TickBasedSources.Pulse assigns its two discrete variables in either order, Blocks.Sources
 * KinematicPTP2 nests if-equations). 1 when q is not of that form. */
static int add_if_assignments(st_compiled *cm, eq_vec *v, const st_feq *q) {
  enum { CAP = 64 };
  int vars[CAP], other[CAP];
  int n = assigned_vars(&q->branches[0], vars, 0, CAP);
  if (n <= 0) return 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      if (vars[i] == vars[j]) return 1;
  for (int b = 1; b <= q->nconds; b++)
    if (assigned_vars(&q->branches[b], other, 0, CAP) != n) return 1;
  st_fexpr *rhs[CAP];
  const st_fexpr *lhs[CAP];
  for (int i = 0; i < n; i++)
    if (!(rhs[i] = if_value(cm, q, vars[i], &lhs[i]))) return 1;
  for (int i = 0; i < n; i++) {
    st_feq src = {.loc = lhs[i]->loc, .origin = q->origin};
    if (push(cm, v, make_eq(cm, (st_fexpr *)lhs[i], rhs[i], &src))) return -1;
  }
  return 0;
}

/* The branch of an if-equation an assert sits in, and the ones around it. */
typedef struct branch_path {
  const st_feq *q;
  int b;
  const struct branch_path *outer;
} branch_path;

/* cond where the path's branches are taken, true elsewhere: `if c_0 then true elseif ...
 * c_b then cond else true`, wrapped from the innermost if-equation out. */
static st_fexpr *guarded(st_compiled *cm, const branch_path *p, st_fexpr *cond) {
  for (; p && cond; p = p->outer) {
    st_fexpr *t = st_sym_node(cm->p.arena, FX_BOOL, 0, 0);
    if (!t) return NULL;
    t->value = 1;
    st_fexpr *e = p->b == p->q->nconds ? cond : t;
    for (int i = p->q->nconds - 1; i >= 0 && e; i--)
      e = st_sym_if(cm->p.arena, p->q->conds[i], i == p->b ? cond : t, e);
    cond = e;
  }
  return cond;
}

/* Asserts inside an if-equation whose conditions vary hold where their branch is taken
 * (Blocks.Continuous.LimIntegrator checks its output inside `if initial() and not
 * limitsAtInit`): each becomes an assert of its guarded condition. */
static int branch_asserts(st_compiled *cm, const st_feq *q, const branch_path *outer) {
  for (int b = 0; b <= q->nconds; b++) {
    branch_path p = {q, b, outer};
    for (int k = 0; k < q->branches[b].n; k++) {
      const st_feq *e = q->branches[b].items[k];
      if (e->kind == FE_IF && branch_asserts(cm, e, &p)) return -1;
      if (e->kind != FE_ASSERT) continue;
      st_feq a = *e;
      if (!(a.rhs = guarded(cm, &p, e->rhs)) || st_add_assert(cm, &a)) return -1;
    }
  }
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
  if (branch_asserts(cm, q, NULL)) return -1;
  int done = add_if_assignments(cm, v, q);
  if (done <= 0) return done;
  resid *r;
  int n;
  if (if_residuals(cm, q, &r, &n)) return -1;
  for (int i = 0; i < n; i++)
    if (push(cm, v, (st_ceq){r[i].r, st_sym_num(cm->p.arena, 0), -1, r[i].loc, q->origin, 0, 0}))
      return -1;
  return 0;
}

/* target = (output i of call), element by element when target is an array {a, b, ...}
 * (row-major, nested for matrices): a = (element 1 of output i), ...; *element counts. */
static int add_tuple_output(st_compiled *cm, eq_vec *v, const st_feq *q, const st_fexpr *call,
                            int i, st_fexpr *target, int *element) {
  if (target->kind == FX_ARRAY) {
    for (int k = 0; k < target->nargs; k++)
      if (add_tuple_output(cm, v, q, call, i, target->args[k], element)) return -1;
    return 0;
  }
  st_fexpr *c = st_sym_node(cm->p.arena, FX_CALL, i, call->nargs);
  if (!c) return -1;
  c->index = call->index;
  c->loc = call->loc;
  if (*element >= 0) c->value = ++*element;
  if (call->nargs) memcpy(c->args, call->args, (size_t)call->nargs * sizeof *c->args);
  return push(cm, v, make_eq(cm, target, c, q));
}

/* (a, b) = f(x): one equation per named element, a = (output 1 of f(x)), b = (output 2 of
 * f(x)), each a call that returns that output (the function runs once per element); an
 * array output one per element ((r, {s[1], s[2]}) = f(x), MSL Clocked's random()). */
static int add_tuple(st_compiled *cm, eq_vec *v, const st_feq *q) {
  const st_fexpr *call = q->rhs;
  if (!call || call->kind != FX_CALL) {
    st_error(cm->diag, q->loc, "a tuple equation needs a function call on its right side");
    return -1;
  }
  for (int i = 0; i < q->ntuple; i++) {
    if (!q->tuple[i]) continue;
    int element = q->tuple[i]->kind == FX_ARRAY ? 0 : -1;
    if (add_tuple_output(cm, v, q, call, i, q->tuple[i], &element)) return -1;
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
    /* a Real parameter set from continuous unknowns (idq0 = machine.idq) waits for their
     * values: it is an unknown of the initial system (initial_parameters); a Boolean or
     * Integer one (a joint's branch) stays an assignment, evaluated again at the solved
     * initial point until it settles (init.c) */
    const st_fvar *v = &cm->p.flat->vars[s];
    if (!pre && v->variability == ST_V_PARAMETER && v->type == ST_T_REAL &&
        (st_expr_deps(cm, b) & DEP_CONT))
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

/* A statement of l (or of its branches) assigns slot s. */
static int statements_assign(const st_compiled *cm, const st_fstmt_list *l, int s) {
  for (int i = 0; l && i < l->n; i++) {
    const st_fstmt *q = l->items[i];
    if (q->kind == FS_ASSIGN && q->target && q->target->kind == FX_VAR &&
        st_ref_slot(cm, q->target) == s)
      return 1;
    for (int t = 0; q->kind == FS_TUPLE && t < q->ntargets; t++)
      if (q->targets[t] && q->targets[t]->kind == FX_VAR && st_ref_slot(cm, q->targets[t]) == s)
        return 1;
    int nb = q->kind == FS_IF ? q->nconds + 1 : q->kind == FS_WHEN ? q->nconds
             : q->kind == FS_FOR || q->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; q->branches && b < nb; b++)
      if (statements_assign(cm, &q->branches[b], s)) return 1;
  }
  return 0;
}

/* A Real parameter with fixed = false that no initial assignment sets (its initial equations
 * are implicit: `0 = R*i[1] - w*L*i[2]`), or one bound to such parameters: an unknown of the
 * initial system beside the free states, held afterwards (Modelica 3.6 section 8.6). One an
 * initial algorithm assigns is that algorithm's (FluidHeatFlow's SimpleFriction k). */
static int is_initial_parameter(const st_compiled *cm, int s, const eq_vec *assigned) {
  const st_fvar *v = &cm->p.flat->vars[s];
  if (cm->p.slots[s].kind != K_WHEN || v->variability != ST_V_PARAMETER || v->type != ST_T_REAL)
    return 0;
  for (int k = 0; k < assigned->n; k++)
    if (assigned->items[k].target == s) return 0;
  for (int i = 0; i < cm->p.flat->ninitial_algorithms; i++)
    if (statements_assign(cm, &cm->p.flat->initial_algorithms[i], s)) return 0;
  return 1;
}

static int reads_slot_of(const st_fexpr *e, const unsigned char *mark) {
  if (!e) return 0;
  if (e->kind == FX_VAR) return mark[e->index];
  for (int i = 0; i < e->nargs; i++)
    if (reads_slot_of(e->args[i], mark)) return 1;
  return 0;
}

/* The initial parameters, and the checks that read one become initial equations. */
static int initial_parameters(st_compiled *cm, eq_vec *v, const eq_vec *a, eq_vec *c) {
  int nv = cm->p.flat->nvars, n = 0;
  unsigned char *mark = calloc((size_t)nv + 1, 1);
  cm->p.init_params = st_arena_alloc(cm->p.arena, sizeof(int) * ((size_t)nv + 1));
  if (!mark || !cm->p.init_params) { free(mark); return -1; }
  for (int s = 0; s < nv; s++)
    if (is_initial_parameter(cm, s, a)) {
      mark[s] = 1;
      cm->p.init_params[n++] = s;
    }
  cm->p.ninit_params = n;
  int kept = 0;
  for (int i = 0; i < c->n; i++) {
    st_ceq q = c->items[i];
    if (n && (reads_slot_of(q.lhs, mark) || reads_slot_of(q.rhs, mark))) {
      if (push(cm, v, q)) { free(mark); return -1; }
    } else {
      c->items[kept++] = q;
    }
  }
  c->n = kept;
  free(mark);
  return 0;
}

/* One initial equality: an assignment before the initial system (a), a check after it (c),
 * or an equation of it (v). */
static int add_initial_equality(st_compiled *cm, const eq_vec *eqs, const st_feq *q, eq_vec *v,
                                eq_vec *a, eq_vec *c) {
  st_fexpr *lhs = q->lhs, *rhs = q->rhs;
  if (discrete_chain(cm, eqs, lhs, rhs, q, a) || discrete_chain(cm, eqs, rhs, lhs, q, a))
    return 0;
  int target = initial_target(cm, &lhs, &rhs);
  eq_vec *to = target >= 0 ? a : is_check(cm, lhs, rhs) ? c : v;
  return push(cm, to, (st_ceq){lhs, rhs, target, q->loc, q->origin, 0, 0});
}

static int add_initial(st_compiled *cm, const eq_vec *eqs) {
  eq_vec v = {0}, a = {0}, c = {0};
  const st_feq_list *l = &cm->p.flat->initial_equations;
  for (int i = 0; i < l->n; i++) {
    const st_feq *q = l->items[i];
    if (q->kind == FE_IF || q->kind == FE_TUPLE) {
      /* as in the equations: an if-equation assigning the same variables in every branch
       * gives `x = if c then a else b` (PowerConverters' SoftStartControl sets its mode so),
       * others residuals per branch; a tuple one equation per element */
      eq_vec t = {0};
      if (q->kind == FE_IF ? add_if(cm, &t, q) : add_tuple(cm, &t, q)) return -1;
      for (int k = 0; k < t.n; k++) {
        st_feq e = {.kind = FE_EQUAL, .lhs = t.items[k].lhs, .rhs = t.items[k].rhs,
                    .loc = t.items[k].loc, .origin = t.items[k].origin};
        if (add_initial_equality(cm, eqs, &e, &v, &a, &c)) return -1;
      }
      continue;
    }
    if (q->kind != FE_EQUAL) {
      st_error(cm->diag, q->loc, "only equalities, if-equations and tuple equations are "
               "supported in initial equations");
      return -1;
    }
    if (add_initial_equality(cm, eqs, q, &v, &a, &c)) return -1;
  }
  for (int s = 0; s < cm->p.flat->nvars; s++) {
    const st_fvar *fv = &cm->p.flat->vars[s];
    if (!cm->p.init_bound || !cm->p.init_bound[s]) continue;
    st_fexpr *ref = st_sym_node(cm->p.arena, FX_VAR, 0, 0);
    if (!ref) return -1;
    ref->index = s;
    ref->loc = fv->loc;
    if (push(cm, &c, (st_ceq){ref, fv->binding, -1, fv->loc, "", 0, 0})) return -1;
  }
  if (initial_parameters(cm, &v, &a, &c)) return -1;
  cm->p.init_checks = c.items;
  cm->p.ninit_checks = c.n;
  cm->p.init_eqs = v.items;
  cm->p.ninit = v.n;
  cm->p.init_assign = a.items;
  cm->p.ninit_assign = a.n;
  return 0;
}

int st_collect_equations(st_compiled *cm) {
  eq_vec v = {.heap = 1};
  if (add_list(cm, &v, &cm->p.flat->equations) || add_bindings(cm, &v) ||
      st_add_algorithms(cm, push_ctx, &v) || add_initial(cm, &v) || st_add_initial_algorithms(cm)) {
    free(v.items);
    return -1;
  }
  cm->p.eqs = v.items; /* on the heap, grown in place by index reduction (build.c frees it) */
  cm->p.neqs = v.n;
  return 0;
}
