/* Phase 2 for equation and algorithm sections (Modelica 3.5 chapters 8 and 11):
 * array equations expanded to scalars, for-equations unrolled, if-equations whose
 * conditions are parameter expressions resolved to the chosen branch, when-equations with
 * reinit/assert/terminate kept as FE_WHEN, connect-equations collected for connect.c. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <stdlib.h>
#include <string.h>

static void translate_eqs(st_fl *fl, const st_ast_equation *eq, st_env env, st_eqbuf *out);

static int push_iter(st_fl *fl, const char *name, const st_ast_expr *at, st_env env) {
  if (fl->niters == 32) {
    st_fl_error(fl, at->loc, env.inst, "for-loops nested too deeply");
    return -1;
  }
  fl->iters[fl->niters].name = name;
  fl->iters[fl->niters].value = 0;
  fl->niters++;
  return 0;
}

static const char *origin_of(const st_env *env) { return env->inst ? env->inst->path : ""; }

/* ------------------------------------------------------------------ a = b */

/* The initial equation p = expr for a parameter p(fixed = false) without binding, expr known
 * now, is p's binding (Modelica 3.6 section 8.6: such a parameter is computed at
 * initialization; from parameters alone that is now). 1 when it was taken as one. */
static int fold_initial_parameter(st_fl *fl, const st_fexpr *l, st_fexpr *r) {
  if (!fl->initial_section || l->kind != FX_VAR || l->index < 0 || l->index >= fl->nvars ||
      fl->vars[l->index].variability != ST_V_PARAMETER)
    return 0;
  st_varinfo *vi = &fl->info[l->index];
  if (vi->attr[LZ_BINDING].expr || vi->attr[LZ_BINDING].value) return 0;
  st_fexpr *fx = st_fl_var_attr(fl, l->index, LZ_FIXED);
  vi = &fl->info[l->index];
  double v;
  if (!fx || st_fl_eval(fl, fx, &v) || v != 0) return 0;
  if (!st_fx_is_parametric(r, fl->vars) || st_fl_eval(fl, r, &v)) return 0;
  vi->attr[LZ_BINDING].value = r;
  vi->attr[LZ_BINDING].state = 2;
  vi->attr[LZ_FIXED].value = NULL; /* a bound parameter */
  vi->attr[LZ_FIXED].state = 2;
  return 1;
}

static void emit_equal(st_fl *fl, st_fexpr *l, st_fexpr *r, st_loc loc, st_env env,
                       st_eqbuf *out) {
  int la = l->kind == FX_ARRAY, ra = r->kind == FX_ARRAY;
  if (la || ra) {
    if (la != ra || l->nargs != r->nargs) {
      st_fl_error(fl, loc, env.inst, "size mismatch in equation: %d and %d elements",
                  la ? l->nargs : 1, ra ? r->nargs : 1);
      return;
    }
    for (int i = 0; i < l->nargs; i++) emit_equal(fl, l->args[i], r->args[i], loc, env, out);
    return;
  }
  if (fold_initial_parameter(fl, l, r)) return;
  st_ftype lt = st_fl_type(fl, l), rt = st_fl_type(fl, r);
  int ln = lt == ST_T_REAL || lt == ST_T_INTEGER, rn = rt == ST_T_REAL || rt == ST_T_INTEGER;
  if (ln != rn || (!ln && lt != rt)) {
    st_fl_error(fl, loc, env.inst, "type mismatch: the two sides of the equation have "
                "different types");
    return;
  }
  st_feq *q = st_feq_new(fl, FE_EQUAL, loc, origin_of(&env));
  if (!q) return;
  q->lhs = l;
  q->rhs = r;
  st_fl_add_eq(fl, out, q);
}

/* An initial (a, b) = f(x) whose arguments are known now: each output evaluated, then
 * equated element by element (which makes parameters with fixed = false bound, see
 * fold_initial_parameter). 0 when an output cannot be evaluated. */
static int tuple_now(st_fl *fl, const st_feq *q, st_env env, st_eqbuf *out) {
  st_fexpr **vals = st_arena_alloc(fl->tmp, (size_t)(q->ntuple + 1) * sizeof *vals);
  if (!vals) return 0;
  for (int i = 0; i < q->ntuple; i++) {
    vals[i] = NULL;
    if (!q->tuple[i]) continue;
    st_fexpr c = *q->rhs;
    c.op = i;
    if (st_fl_call(fl, &c, &vals[i])) return 0;
  }
  for (int i = 0; i < q->ntuple; i++)
    if (vals[i]) emit_equal(fl, q->tuple[i], vals[i], q->loc, env, out);
  return 1;
}

/* (a, b) = f(x) */
static void tuple_equation(st_fl *fl, const st_ast_equation *eq, st_env env, st_eqbuf *out) {
  const st_ast_expr *t = eq->lhs;
  fl->raw_call = 1;
  st_fexpr *rhs = st_translate(fl, eq->rhs, env);
  fl->raw_call = 0;
  if (!rhs) return;
  const st_fexpr *call = st_fn_call_of(rhs);
  if (!call) {
    st_fl_error(fl, eq->loc, env.inst, "a tuple equation needs a function call on the right");
    return;
  }
  st_feq *q = st_feq_new(fl, FE_TUPLE, eq->loc, origin_of(&env));
  if (!q) return;
  q->rhs = (st_fexpr *)call;
  int n = t->u.tuple.nelems;
  st_fexpr **targets = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof *targets);
  int i = 0;
  for (const st_ast_expr *x = t->u.tuple.elems; x && targets; x = x->next, i++) {
    targets[i] = NULL;
    if (x->kind != AX_EMPTY && !(targets[i] = st_translate(fl, x, env))) return;
  }
  if (!targets || (q->ntuple = st_fn_tuple_targets(fl, &fl->functions[call->index], targets, n,
                                                   &q->tuple, eq->loc)) < 0)
    return;
  if (fl->initial_section && tuple_now(fl, q, env, out)) return;
  st_fl_add_eq(fl, out, q);
}

/* ------------------------------------------------------------------ calls */

static const st_ast_expr *nth_arg(const st_ast_expr *call, int n, const char *name) {
  int i = 0;
  for (const st_ast_fnarg *a = call->u.call.args; a; a = a->next) {
    if (a->name && name && strcmp(a->name, name) == 0) return a->value;
    if (!a->name && i++ == n) return a->value;
  }
  return NULL;
}

/* An assert/terminate message: an FX_STRING of its text (a constant folded); a message built
 * from values keeps its source text there and the expression that builds it in args[0]
 * (String() of variables: FB_STRING), evaluated when the assert fails. */
static st_fexpr *message(st_fl *fl, const st_ast_expr *m, st_env env) {
  st_fexpr *e = st_fx_new(fl->arena, FX_STRING, 0, 0, m ? m->loc : (st_loc){0});
  if (!e) return NULL;
  e->str = !m ? "" : m->kind == AX_STRING ? st_arena_strdup(fl->arena, m->u.string)
                                          : st_ast_expr_text(fl->arena, m);
  if (!m || m->kind == AX_STRING) return e;
  /* a message the front end cannot build (yet) keeps its text, without an error */
  st_diag *diag = fl->diag, *quiet = st_diag_new(NULL);
  if (!quiet) return NULL;
  int saved = fl->string_exprs, errors = fl->errors;
  fl->diag = quiet;
  fl->string_exprs = 1;
  st_fexpr *v = st_translate(fl, m, env);
  fl->string_exprs = saved;
  fl->diag = diag;
  st_diag_free(quiet);
  if (!v || fl->errors > errors || st_fl_type(fl, v) != ST_T_STRING) {
    fl->errors = errors;
    return e;
  }
  if (v->kind == FX_STRING) return v;
  e->args = st_arena_alloc(fl->arena, sizeof *e->args);
  if (!e->args) return NULL;
  e->args[0] = v;
  e->nargs = 1;
  return e;
}

static int assert_level(const st_ast_expr *lv) {
  if (!lv || lv->kind != AX_CREF) return 0;
  const st_ast_cref_part *p = lv->u.cref->parts;
  while (p->next) p = p->next;
  return strcmp(p->name, "warning") == 0;
}

static st_fstmt *call_stmt(st_fl *fl, const st_ast_stmt *s, st_env env);
static void add_algorithm(st_fl *fl, st_fstmt_list l, int initial);

/* A function called as an equation for its effects (section 8.3.6: asserts in
 * Fluid's checkBoundary, print), or an assert among initial equations (Fluid's
 * NominalTurbulentPipeFlow): one statement of an algorithm section, of the initial one when
 * its arguments are parameters (it does the same at every evaluation). */
static int call_statement(st_fl *fl, const st_ast_expr *call, st_loc loc, st_env env,
                          int initial) {
  st_ast_stmt s = {.kind = AS_CALL, .loc = loc, .call = (st_ast_expr *)call};
  st_fstmt *t = call_stmt(fl, &s, env);
  st_fstmt **items = st_arena_alloc(fl->arena, sizeof *items);
  if (!t || !items) return -1;
  items[0] = t;
  int parametric = t->kind == FS_CALL && st_fx_is_parametric(t->value, fl->vars);
  add_algorithm(fl, (st_fstmt_list){items, 1}, initial || parametric);
  return 0;
}

static void call_equation(st_fl *fl, const st_ast_expr *call, st_loc loc, st_env env,
                          st_eqbuf *out) {
  const char *name = call->u.call.fn->nparts == 1 ? call->u.call.fn->parts->name : "";
  st_feq *q;
  int sm;
  if (st_fl_connections_statement(fl, call, env)) return;
  st_fexpr *smr = st_fl_state_equation(fl, call, name, env, &sm);
  if (sm) {
    if (smr && (q = st_feq_new(fl, FE_CALL, loc, origin_of(&env)))) {
      q->rhs = smr;
      st_fl_add_eq(fl, out, q);
    }
    return;
  }
  if (strcmp(name, "assert") == 0) {
    const st_ast_expr *c = nth_arg(call, 0, "condition");
    if (!c) {
      st_fl_error(fl, loc, env.inst, "assert() needs a condition");
      return;
    }
    q = st_feq_new(fl, FE_ASSERT, loc, origin_of(&env));
    if (!q || !(q->rhs = st_translate(fl, c, env))) return;
    q->message = message(fl, nth_arg(call, 1, "message"), env);
    q->level = assert_level(nth_arg(call, 2, "level"));
    if (out == &fl->initial_equations) {
      /* among initial equations (Fluid's NominalTurbulentPipeFlow): checked once the initial
       * values are known, as `assert(not initial() or c)` among the equations */
      st_fexpr *init = st_fx_new(fl->arena, FX_BUILTIN, FB_INITIAL, 0, loc);
      st_fexpr *after = init ? st_fx_unary(fl->arena, FOP_NOT, init, loc) : NULL;
      if (!after || !(q->rhs = st_fx_binary(fl->arena, FOP_OR, after, q->rhs, loc))) return;
      out = &fl->equations;
    }
  } else if (strcmp(name, "terminate") == 0) {
    q = st_feq_new(fl, FE_TERMINATE, loc, origin_of(&env));
    if (!q) return;
    q->message = message(fl, nth_arg(call, 0, "message"), env);
  } else if (strcmp(name, "reinit") == 0) {
    const st_ast_expr *x = nth_arg(call, 0, NULL), *v = nth_arg(call, 1, NULL);
    q = st_feq_new(fl, FE_REINIT, loc, origin_of(&env));
    if (!q || !x || !v || !(q->lhs = st_translate(fl, x, env)) ||
        !(q->rhs = st_translate(fl, v, env)))
      return;
    if (q->lhs->kind != FX_VAR) {
      st_fl_error(fl, loc, env.inst, "reinit() needs a scalar variable");
      return;
    }
  } else if (out == &fl->equations || out == &fl->initial_equations) {
    call_statement(fl, call, loc, env, out == &fl->initial_equations);
    return;
  } else {
    q = st_feq_new(fl, FE_CALL, loc, origin_of(&env));
    if (!q || !(q->rhs = st_translate(fl, call, env))) return;
  }
  st_fl_add_eq(fl, out, q);
}

/* ------------------------------------------------------------------ structured */

static st_feq_list to_list(st_fl *fl, st_eqbuf *b) {
  st_feq_list l = {NULL, 0};
  if (b->n) {
    l.items = st_arena_alloc(fl->arena, (size_t)b->n * sizeof *l.items);
    if (l.items) {
      memcpy(l.items, b->items, (size_t)b->n * sizeof *l.items);
      l.n = b->n;
    }
  }
  free(b->items);
  return l;
}

static int count_branches(const st_ast_branch *b) {
  int n = 0;
  for (; b; b = b->next) n++;
  return n;
}

/* if c1 then ... elseif c2 ... else ... end if; Branches whose conditions evaluate (from
 * parameters) are decided here; the rest stays an FE_IF. */
static void if_equation(st_fl *fl, const st_ast_equation *eq, st_env env, st_eqbuf *out) {
  int n = count_branches(eq->branches);
  st_feq *q = st_feq_new(fl, FE_IF, eq->loc, origin_of(&env));
  if (!q) return;
  q->conds = st_arena_alloc(fl->arena, (size_t)n * sizeof *q->conds);
  q->branches = st_arena_alloc(fl->arena, (size_t)(n + 1) * sizeof *q->branches);
  if (!q->conds || !q->branches) return;
  for (const st_ast_branch *b = eq->branches; b; b = b->next) {
    if (b->cond) {
      st_fexpr *c = st_translate(fl, b->cond, env);
      double v;
      if (!c) return;
      if (st_fl_type(fl, c) != ST_T_BOOLEAN) {
        st_fl_error(fl, b->cond->loc, env.inst, "if-condition is not a Boolean expression");
        return;
      }
      if (st_fx_is_parametric(c, fl->vars) && st_fl_eval(fl, c, &v) == 0) {
        if (v == 0) continue;         /* a false branch drops out */
        if (q->nconds == 0) {         /* the first true branch is all that is left */
          translate_eqs(fl, b->eqs, env, out);
          return;
        }
      } else {
        st_eqbuf buf = {0};
        translate_eqs(fl, b->eqs, env, &buf);
        q->conds[q->nconds] = c;
        q->branches[q->nconds++] = to_list(fl, &buf);
        continue;
      }
    }
    if (q->nconds == 0) {             /* else after only false branches */
      translate_eqs(fl, b->eqs, env, out);
      return;
    }
    st_eqbuf buf = {0};
    translate_eqs(fl, b->eqs, env, &buf);
    q->branches[q->nconds] = to_list(fl, &buf);
    break;
  }
  if (q->nconds > 0 && fl->connect_pass != 1) st_fl_add_eq(fl, out, q);
}

/* The conditions of a when's branches, translated into conds (n of them, in arena). A vector
 * condition `when {a, b} then S` fires when any element becomes true, once: the same as
 * `when a then S elsewhen b then S` (a later branch fires only when no earlier one did),
 * so each element becomes a branch of its own; *of[i] is the AST branch of conds[i]. */
static int when_conditions(st_fl *fl, const st_ast_branch *branches, st_env env,
                           st_fexpr ***conds, const st_ast_branch ***of) {
  int n = 0, cap = 0;
  st_fexpr **c = NULL;
  const st_ast_branch **o = NULL;
  for (const st_ast_branch *b = branches; b && b->cond; b = b->next) {
    st_fexpr *v = st_translate(fl, b->cond, env);
    if (!v) return -1;
    int k = v->kind == FX_ARRAY ? v->nargs : 1;
    if (n + k > cap) {
      cap = 2 * (n + k);
      st_fexpr **c2 = st_arena_alloc(fl->arena, (size_t)cap * sizeof *c2);
      const st_ast_branch **o2 = st_arena_alloc(fl->tmp, (size_t)cap * sizeof *o2);
      if (!c2 || !o2) return -1;
      if (n) {
        memcpy(c2, c, (size_t)n * sizeof *c2);
        memcpy(o2, o, (size_t)n * sizeof *o2);
      }
      c = c2;
      o = o2;
    }
    for (int j = 0; j < k; j++) {
      c[n] = v->kind == FX_ARRAY ? v->args[j] : v;
      o[n++] = b;
    }
  }
  *conds = c;
  *of = o;
  return n;
}

static void when_equation(st_fl *fl, const st_ast_equation *eq, st_env env, st_eqbuf *out) {
  st_feq *q = st_feq_new(fl, FE_WHEN, eq->loc, origin_of(&env));
  const st_ast_branch **of;
  int n = q ? when_conditions(fl, eq->branches, env, &q->conds, &of) : -1;
  if (n < 0) return;
  q->branches = st_arena_alloc(fl->arena, (size_t)(n + 1) * sizeof *q->branches);
  if (!q->branches) return;
  for (int i = 0; i < n; i++) {
    st_eqbuf buf = {0};
    translate_eqs(fl, of[i]->eqs, env, &buf);
    q->branches[q->nconds++] = to_list(fl, &buf);
  }
  st_fl_add_eq(fl, out, q);
}

static void for_equation(st_fl *fl, const st_ast_iter *it, const st_ast_equation *body,
                         st_env env, st_eqbuf *out) {
  if (!it) {
    translate_eqs(fl, body, env, out);
    return;
  }
  if (!it->range) {
    st_fl_error(fl, it->loc, env.inst, "for-equation without a range is not supported");
    return;
  }
  st_fexpr *vals = st_range_values(fl, it->range, env);
  if (!vals) return;
  if (vals->kind != FX_ARRAY) {
    st_fl_error(fl, it->loc, env.inst, "for-range is not an array");
    return;
  }
  if (push_iter(fl, it->name, it->range, env)) return;
  for (int i = 0; i < vals->nargs; i++) {
    double v;
    if (st_fl_eval(fl, vals->args[i], &v)) {
      st_fl_error(fl, it->loc, env.inst, "for-range values must be constant");
      break;
    }
    fl->iters[fl->niters - 1].value = v;
    for_equation(fl, it->next, body, env, out);
  }
  fl->niters--;
}

static void connect_equation(st_fl *fl, const st_ast_equation *eq, st_env env) {
  st_fl_connect(fl, eq, env, origin_of(&env));
}

static int has_connect(const st_ast_equation *eq);

/* Whether one equation is or holds a connect-equation (inside for and if). */
static int is_connect(const st_ast_equation *eq) {
  if (eq->kind == AE_CONNECT || (eq->kind == AE_FOR && has_connect(eq->body))) return 1;
  if (eq->kind == AE_CALL && st_fl_is_connections_statement(eq->call)) return 1;
  for (const st_ast_branch *b = eq->kind == AE_IF ? eq->branches : NULL; b; b = b->next)
    if (has_connect(b->eqs)) return 1;
  return 0;
}

static int has_connect(const st_ast_equation *eq) {
  for (; eq; eq = eq->next)
    if (is_connect(eq)) return 1;
  return 0;
}

static void translate_eqs(st_fl *fl, const st_ast_equation *eq, st_env env, st_eqbuf *out) {
  for (; eq; eq = eq->next) {
    if (fl->connect_pass == 1 && !is_connect(eq)) continue;
    if (fl->connect_pass == 2 && eq->kind == AE_CONNECT) continue;
    switch (eq->kind) {
    case AE_EQUAL:
      if (eq->lhs->kind == AX_TUPLE) tuple_equation(fl, eq, env, out);
      else {
        st_fexpr *l = st_translate(fl, eq->lhs, env);
        st_fexpr *r = l ? st_translate(fl, eq->rhs, env) : NULL;
        if (r) emit_equal(fl, l, r, eq->loc, env, out);
      }
      break;
    case AE_IF: if_equation(fl, eq, env, out); break;
    case AE_FOR: for_equation(fl, eq->iters, eq->body, env, out); break;
    case AE_CONNECT: connect_equation(fl, eq, env); break;
    case AE_WHEN: when_equation(fl, eq, env, out); break;
    case AE_CALL: call_equation(fl, eq->call, eq->loc, env, out); break;
    }
  }
}

/* ------------------------------------------------------------------ algorithms */

static st_fstmt *stmt_new(st_fl *fl, st_fstmt_kind kind, st_loc loc) {
  st_fstmt *s = st_arena_alloc(fl->arena, sizeof *s);
  if (s) {
    s->kind = kind;
    s->loc = loc;
  }
  return s;
}

typedef struct stmt_buf {
  st_fstmt **items;
  int n, cap;
} stmt_buf;

static void push_stmt(stmt_buf *b, st_fstmt *s) {
  if (!s) return;
  if (b->n == b->cap) {
    int cap = b->cap ? 2 * b->cap : 16;
    st_fstmt **p = realloc(b->items, (size_t)cap * sizeof *p);
    if (!p) return;
    b->items = p;
    b->cap = cap;
  }
  b->items[b->n++] = s;
}

static void translate_stmts(st_fl *fl, const st_ast_stmt *s, st_env env, stmt_buf *out);

static st_fstmt_list stmt_list(st_fl *fl, const st_ast_stmt *s, st_env env) {
  stmt_buf b = {0};
  translate_stmts(fl, s, env, &b);
  st_fstmt_list l = {NULL, 0};
  if (b.n && (l.items = st_arena_alloc(fl->arena, (size_t)b.n * sizeof *l.items))) {
    memcpy(l.items, b.items, (size_t)b.n * sizeof *l.items);
    l.n = b.n;
  }
  free(b.items);
  return l;
}

st_fstmt_list st_translate_stmts(st_fl *fl, const st_ast_stmt *s, st_env env) {
  return stmt_list(fl, s, env);
}

/* r := value for a record r: one tuple assignment when the value is a call's record result
 * (the function runs once), else one assignment per leaf, in a branch-less if-statement that
 * holds them (FS_IF without conditions runs its else branch). */
static st_fstmt *record_assign(st_fl *fl, st_fstmt *a, const st_ast_stmt *s, st_env env) {
  st_fexpr *t = a->target, *v = a->value;
  if (!st_fx_is_record(v) && st_rec_field_array(fl, v, 0, t->nargs)) {
    /* an array of records into an array of records: field by field (func_translate.c) */
    st_fexpr *f = st_fx_new(fl->arena, FX_ARRAY, 0, t->nargs, v->loc);
    for (int j = 0; f && j < t->nargs; j++)
      if (!(f->args[j] = st_rec_field_array(fl, v, j, t->nargs))) return NULL;
    if (!f) return NULL;
    f->str = t->str && *t->str ? t->str : "record";
    v = f;
  }
  const st_fexpr *call = st_fn_call_of(v);
  if (!st_fx_is_record(v) || v->nargs != t->nargs) {
    st_fl_error(fl, s->loc, env.inst, "the value assigned to a record of %d fields is not such "
                "a record", t->nargs);
    return NULL;
  }
  if (call && call == v->args[0]) {
    st_fstmt *tu = stmt_new(fl, FS_TUPLE, s->loc);
    if (!tu) return NULL;
    tu->value = (st_fexpr *)call;
    if ((tu->ntargets = st_fn_tuple_targets(fl, &fl->functions[call->index], &t, 1,
                                            &tu->targets, s->loc)) < 0)
      return NULL;
    return tu;
  }
  st_fstmt *blk = stmt_new(fl, FS_IF, s->loc);
  if (!blk || !(blk->branches = st_arena_alloc(fl->arena, sizeof *blk->branches)) ||
      !(blk->branches[0].items = st_arena_alloc(fl->arena, (size_t)t->nargs * sizeof(st_fstmt *))))
    return NULL;
  for (int i = 0; i < t->nargs; i++) {
    st_fstmt *x = stmt_new(fl, FS_ASSIGN, s->loc);
    if (!x) return NULL;
    x->target = t->args[i];
    x->value = v->args[i];
    blk->branches[0].items[blk->branches[0].n++] = x;
  }
  return blk;
}

static int count_leaves(const st_fexpr *e) {
  if (e->kind != FX_ARRAY) return 1;
  int n = 0;
  for (int i = 0; i < e->nargs; i++) n += count_leaves(e->args[i]);
  return n;
}

static void put_leaves(st_fexpr *e, st_fexpr **out, int *n) {
  if (e->kind != FX_ARRAY) out[(*n)++] = e;
  else
    for (int i = 0; i < e->nargs; i++) put_leaves(e->args[i], out, n);
}

/* Whether e reads variable var. */
static int reads_var(const st_fexpr *e, int var) {
  if (!e) return 0;
  if (e->kind == FX_VAR && e->index == var) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (reads_var(e->args[i], var)) return 1;
  return 0;
}

/* x := v with x an array, in a model algorithm: one assignment per element, in a
 * branch-less if-statement (see record_assign). The elements are assigned one after the
 * other, so a value that reads another element of x (x := x[{2, 1}]) is refused. */
static st_fstmt *chosen_assign(st_fl *fl, const st_fexpr *target, st_fexpr *value, st_loc loc);

static st_fstmt *array_assign(st_fl *fl, st_fstmt *a, const st_ast_stmt *s, st_env env) {
  st_fexpr *t = a->target, *v = a->value;
  int n = count_leaves(t);
  if (v->kind != FX_ARRAY || count_leaves(v) != n) {
    st_fl_error(fl, s->loc, env.inst, "the value assigned to an array of %d elements is not "
                "such an array (array-valued calls in model algorithms are not supported)", n);
    return NULL;
  }
  st_fexpr **lt = st_arena_alloc(fl->tmp, (size_t)n * sizeof *lt);
  st_fexpr **lv = st_arena_alloc(fl->tmp, (size_t)n * sizeof *lv);
  st_fstmt *blk = stmt_new(fl, FS_IF, s->loc);
  if (!lt || !lv || !blk || !(blk->branches = st_arena_alloc(fl->arena, sizeof *blk->branches)) ||
      !(blk->branches[0].items = st_arena_alloc(fl->arena, (size_t)n * sizeof(st_fstmt *))))
    return NULL;
  int k = 0;
  put_leaves(t, lt, &k);
  k = 0;
  put_leaves(v, lv, &k);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      if (j != i && lt[j]->kind == FX_VAR && reads_var(lv[i], lt[j]->index)) {
        st_fl_error(fl, s->loc, env.inst, "an array assignment in a model algorithm whose "
                    "value reads other elements of the array is not supported");
        return NULL;
      }
  for (int i = 0; i < n; i++) {
    st_fstmt *x = chosen_assign(fl, lt[i], lv[i], s->loc); /* mem[i, 1:n] := word */
    if (!x) return NULL;
    blk->branches[0].items[blk->branches[0].n++] = x;
  }
  return blk;
}

/* buf[i] := u with a variable i in a model: the target is the choice `if i == 1 then buf[1]
 * else ...` (translate.c's index_choice); the statement becomes that choice of assignments
 * (Blocks.Math.RealFFT's buffer). */
static st_fstmt *chosen_assign(st_fl *fl, const st_fexpr *target, st_fexpr *value, st_loc loc) {
  if (target->kind != FX_IF) {
    st_fstmt *a = stmt_new(fl, FS_ASSIGN, loc);
    if (a) {
      a->target = (st_fexpr *)target;
      a->value = value;
    }
    return a;
  }
  st_fstmt *t = stmt_new(fl, FS_IF, loc);
  if (!t || !(t->conds = st_arena_alloc(fl->arena, sizeof *t->conds)) ||
      !(t->branches = st_arena_alloc(fl->arena, 2 * sizeof *t->branches)))
    return NULL;
  t->nconds = 1;
  t->conds[0] = target->args[0];
  for (int b = 0; b < 2; b++) {
    st_fstmt **items = st_arena_alloc(fl->arena, sizeof *items);
    if (!items || !(items[0] = chosen_assign(fl, target->args[1 + b], value, loc))) return NULL;
    t->branches[b] = (st_fstmt_list){items, 1};
  }
  return t;
}

static st_fstmt *assign_stmt(st_fl *fl, const st_ast_stmt *s, st_env env) {
  if (s->lhs->kind == AX_TUPLE) {
    st_fstmt *t = stmt_new(fl, FS_TUPLE, s->loc);
    fl->raw_call = 1;
    st_fexpr *v = t ? st_translate(fl, s->rhs, env) : NULL;
    fl->raw_call = 0;
    const st_fexpr *call = st_fn_call_of(v);
    if (!call) {
      if (v) st_fl_error(fl, s->loc, env.inst, "a tuple assignment needs a function call on "
                         "the right");
      return NULL;
    }
    t->value = (st_fexpr *)call;
    int n = s->lhs->u.tuple.nelems;
    st_fexpr **targets = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof *targets);
    int i = 0;
    for (const st_ast_expr *x = s->lhs->u.tuple.elems; x && targets; x = x->next, i++) {
      targets[i] = NULL;
      if (x->kind != AX_EMPTY && !(targets[i] = st_translate(fl, x, env))) return NULL;
    }
    if (!targets || (t->ntargets = st_fn_tuple_targets(fl, &fl->functions[call->index], targets,
                                                       n, &t->targets, s->loc)) < 0)
      return NULL;
    return t;
  }
  st_fstmt *a = stmt_new(fl, FS_ASSIGN, s->loc);
  if (!a || !(a->target = st_translate(fl, s->lhs, env)) ||
      !(a->value = st_translate(fl, s->rhs, env)))
    return NULL;
  if (st_fx_is_record(a->target)) return record_assign(fl, a, s, env);
  if ((a->target->kind == FX_ARRAY || a->value->kind == FX_ARRAY) && !fl->fnctx) {
    if (a->target->kind != FX_ARRAY) {
      st_fl_error(fl, s->loc, env.inst, "an array value assigned to a scalar");
      return NULL;
    }
    return array_assign(fl, a, s, env);
  }
  if (a->target->kind == FX_IF && !fl->fnctx) return chosen_assign(fl, a->target, a->value, s->loc);
  return a;
}

static st_fstmt *call_stmt(st_fl *fl, const st_ast_stmt *s, st_env env) {
  const st_ast_expr *call = s->call;
  const char *name = call->u.call.fn->nparts == 1 ? call->u.call.fn->parts->name : "";
  st_fstmt *t;
  if (strcmp(name, "assert") == 0) {
    t = stmt_new(fl, FS_ASSERT, s->loc);
    const st_ast_expr *c = nth_arg(call, 0, "condition");
    if (!t || !c || !(t->value = st_translate(fl, c, env))) return NULL;
    t->message = message(fl, nth_arg(call, 1, "message"), env);
    t->level = assert_level(nth_arg(call, 2, "level"));
    return t;
  }
  if (strcmp(name, "terminate") == 0) {
    t = stmt_new(fl, FS_TERMINATE, s->loc);
    if (t) t->message = message(fl, nth_arg(call, 0, "message"), env);
    return t;
  }
  if (strcmp(name, "reinit") == 0) {
    t = stmt_new(fl, FS_REINIT, s->loc);
    const st_ast_expr *x = nth_arg(call, 0, NULL), *v = nth_arg(call, 1, NULL);
    if (!t || !x || !v || !(t->target = st_translate(fl, x, env)) ||
        !(t->value = st_translate(fl, v, env)))
      return NULL;
    return t;
  }
  t = stmt_new(fl, FS_CALL, s->loc);
  if (!t || !(t->value = st_translate(fl, call, env))) return NULL;
  return t;
}

static st_fstmt *branch_stmt(st_fl *fl, const st_ast_stmt *s, st_env env) {
  st_fstmt *t = stmt_new(fl, s->kind == AS_IF ? FS_IF : FS_WHEN, s->loc);
  int n = count_branches(s->branches);
  if (!t) return NULL;
  if (s->kind == AS_WHEN) {
    const st_ast_branch **of;
    n = when_conditions(fl, s->branches, env, &t->conds, &of);
    t->branches = n < 0 ? NULL : st_arena_alloc(fl->arena, (size_t)(n + 1) * sizeof *t->branches);
    if (!t->branches) return NULL;
    for (int i = 0; i < n; i++) t->branches[t->nconds++] = stmt_list(fl, of[i]->stmts, env);
    return t;
  }
  t->conds = st_arena_alloc(fl->arena, (size_t)n * sizeof *t->conds);
  t->branches = st_arena_alloc(fl->arena, (size_t)(n + 1) * sizeof *t->branches);
  if (!t->conds || !t->branches) return NULL;
  for (const st_ast_branch *b = s->branches; b; b = b->next) {
    if (!b->cond) {
      t->branches[t->nconds] = stmt_list(fl, b->stmts, env);
      break;
    }
    if (!(t->conds[t->nconds] = st_translate(fl, b->cond, env))) return NULL;
    t->branches[t->nconds++] = stmt_list(fl, b->stmts, env);
  }
  return t;
}

/* Whether a break in these statements leaves the loop they are the body of (one inside a
 * nested for or while leaves that one). */
static int breaks_loop(const st_ast_stmt *s) {
  for (; s; s = s->next) {
    if (s->kind == AS_BREAK) return 1;
    if (s->kind == AS_IF || s->kind == AS_WHEN)
      for (const st_ast_branch *b = s->branches; b; b = b->next)
        if (breaks_loop(b->stmts)) return 1;
  }
  return 0;
}

/* The unrolled iterations of a for-loop whose body has a break, as `while true loop
 * <iterations> break; end while`: the break of an iteration leaves the loop, and with it the
 * iterations after it, not the rest of the algorithm (Digital's DLATR stops updating its bits
 * at the first that is not enabled). */
static st_fstmt *breakable(st_fl *fl, stmt_buf *body, st_loc loc) {
  st_fstmt *w = stmt_new(fl, FS_WHILE, loc), *brk = stmt_new(fl, FS_BREAK, loc);
  if (!w || !brk) return NULL;
  push_stmt(body, brk);
  w->nconds = 1;
  w->conds = st_arena_alloc(fl->arena, sizeof *w->conds);
  w->branches = st_arena_alloc(fl->arena, sizeof *w->branches);
  w->branches[0].items = st_arena_alloc(fl->arena, (size_t)body->n * sizeof *body->items);
  if (!w->conds || !w->branches || !w->branches[0].items || !(w->conds[0] = st_fx_bool(fl->arena, 1, loc)))
    return NULL;
  memcpy(w->branches[0].items, body->items, (size_t)body->n * sizeof *body->items);
  w->branches[0].n = body->n;
  return w;
}

/* A for-statement in a function keeps its loop (the iterator becomes a local); in a model
 * algorithm it is unrolled. */
static void for_stmt(st_fl *fl, const st_ast_stmt *s, st_env env, stmt_buf *out) {
  const st_ast_iter *it = s->iters;
  if (!it || it->next || !it->range) {
    st_fl_error(fl, s->loc, env.inst, "only for-loops with one iterator and range are supported");
    return;
  }
  if (fl->fnctx) {
    st_fstmt *t = stmt_new(fl, FS_FOR, s->loc);
    if (!t) return;
    t->loop_local = st_fn_iterator_local(fl, it->name, it->loc);
    if (t->loop_local < 0 || !(t->range = st_translate(fl, it->range, env))) return;
    t->branches = st_arena_alloc(fl->arena, sizeof *t->branches);
    if (!t->branches) return;
    t->branches[0] = stmt_list(fl, s->body, env);
    push_stmt(out, t);
    return;
  }
  st_fexpr *vals = st_range_values(fl, it->range, env);
  if (!vals || vals->kind != FX_ARRAY || push_iter(fl, it->name, it->range, env)) return;
  int brk = breaks_loop(s->body);
  stmt_buf body = {0}, *to = brk ? &body : out;
  for (int i = 0; i < vals->nargs; i++) {
    if (st_fl_eval(fl, vals->args[i], &fl->iters[fl->niters - 1].value)) break;
    translate_stmts(fl, s->body, env, to);
  }
  fl->niters--;
  if (brk) push_stmt(out, breakable(fl, &body, s->loc));
  free(body.items);
}

static void translate_stmts(st_fl *fl, const st_ast_stmt *s, st_env env, stmt_buf *out) {
  for (; s; s = s->next) {
    st_fstmt *t = NULL;
    switch (s->kind) {
    case AS_ASSIGN: t = assign_stmt(fl, s, env); break;
    case AS_CALL: t = call_stmt(fl, s, env); break;
    case AS_IF: case AS_WHEN: t = branch_stmt(fl, s, env); break;
    case AS_FOR: for_stmt(fl, s, env, out); break;
    case AS_WHILE:
      t = stmt_new(fl, FS_WHILE, s->loc);
      if (!t) break;
      t->nconds = 1;
      t->conds = st_arena_alloc(fl->arena, sizeof *t->conds);
      t->branches = st_arena_alloc(fl->arena, sizeof *t->branches);
      if (!t->conds || !t->branches || !(t->conds[0] = st_translate(fl, s->cond, env))) t = NULL;
      else t->branches[0] = stmt_list(fl, s->body, env);
      break;
    case AS_BREAK: t = stmt_new(fl, FS_BREAK, s->loc); break;
    case AS_RETURN: t = stmt_new(fl, FS_RETURN, s->loc); break;
    }
    push_stmt(out, t);
  }
}

/* ------------------------------------------------------------------ sections */

static void add_algorithm(st_fl *fl, st_fstmt_list l, int initial) {
  st_fstmt_list **arr = initial ? &fl->initial_algorithms : &fl->algorithms;
  int *n = initial ? &fl->ninitial_algorithms : &fl->nalgorithms;
  st_fstmt_list *grown = st_arena_alloc(fl->arena, (size_t)(*n + 1) * sizeof *grown);
  if (!grown) return;
  if (*n) memcpy(grown, *arr, (size_t)*n * sizeof *grown);
  grown[(*n)++] = l;
  *arr = grown;
}

static void translate_instance(st_fl *fl, st_inst *in) {
  if (in->disabled) return;
  for (st_section_ref *r = in->sections; r; r = r->next) {
    const st_ast_section *s = r->sec;
    fl->initial_section = s->initial;
    if (s->kind == ASEC_EQUATION)
      translate_eqs(fl, s->eqs, r->env, s->initial ? &fl->initial_equations : &fl->equations);
    else if (fl->connect_pass != 1)
      add_algorithm(fl, stmt_list(fl, s->stmts, r->env), s->initial);
    fl->initial_section = 0;
  }
  for (int i = 0; i < in->nkids; i++) translate_instance(fl, in->kids[i]);
}

/* Connections first: cardinality() (Modelica 3.6 section 3.7.2.3) counts them all, and the
 * equations of a component may ask before the connections that concern it are reached. */
void st_translate_sections(st_fl *fl) {
  fl->connect_pass = 1;
  translate_instance(fl, fl->top);
  st_fl_expandable_connections(fl);
  st_fl_build_connection_graph(fl);
  fl->connect_pass = 2;
  translate_instance(fl, fl->top);
}

int st_fl_cardinality(const st_fl *fl, const st_inst *c) {
  int n = 0;
  for (int i = 0; i < fl->nconnections; i++) {
    const st_connection *k = &fl->connections[i];
    n += k->a == c || (c->parent && c->parent->ndims && k->a == c->parent);
    n += k->b == c || (c->parent && c->parent->ndims && k->b == c->parent);
  }
  return n;
}
