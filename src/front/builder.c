/* The flat model under construction: variables with their untranslated bindings and
 * attributes (translated on demand, so that phase 1 can evaluate parameters), equation
 * buffers, and the final copy into an st_flat_model. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void st_fl_error(st_fl *fl, st_loc loc, const st_inst *in, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fl->errors++;
  if (in && in->path[0]) st_error(fl->diag, loc, "%s (in '%s')", msg, in->path);
  else st_error(fl->diag, loc, "%s", msg);
}

static int grow(void **items, int *cap, int n, size_t size) {
  if (n < *cap) return 0;
  int c = *cap ? 2 * *cap : 64;
  void *p = realloc(*items, (size_t)c * size);
  if (!p) return -1;
  *items = p;
  *cap = c;
  return 0;
}

int st_fl_add_var(st_fl *fl, st_inst *in, st_ftype type) {
  int cap = fl->capvars;
  if (grow((void **)&fl->vars, &cap, fl->nvars, sizeof *fl->vars)) {
    fl->out_of_memory = 1;
    return -1;
  }
  if (cap != fl->capvars) {
    st_varinfo *vi = realloc(fl->info, (size_t)cap * sizeof *vi);
    if (!vi) {
      fl->out_of_memory = 1;
      return -1;
    }
    fl->info = vi;
    fl->capvars = cap;
  }
  int k = fl->nvars++;
  memset(&fl->vars[k], 0, sizeof fl->vars[k]);
  memset(&fl->info[k], 0, sizeof fl->info[k]);
  fl->vars[k].name = st_arena_strdup(fl->arena, in->path);
  fl->vars[k].type = type;
  fl->vars[k].fixed = -1;
  fl->vars[k].state_select = ST_SS_DEFAULT;
  fl->info[k].inst = in;
  return k;
}

void st_fl_add_eq(st_fl *fl, st_eqbuf *buf, st_feq *eq) {
  if (!eq) return;
  if (grow((void **)&buf->items, &buf->cap, buf->n, sizeof *buf->items)) {
    fl->out_of_memory = 1;
    return;
  }
  buf->items[buf->n++] = eq;
}

st_feq *st_feq_new(st_fl *fl, st_feq_kind kind, st_loc loc, const char *origin) {
  st_feq *q = st_arena_alloc(fl->arena, sizeof *q);
  if (!q) return NULL;
  q->kind = kind;
  q->loc = loc;
  q->origin = origin ? st_arena_strdup(fl->arena, origin) : "";
  return q;
}

/* A node of its own over the shared arguments: the elements (fields) of one array (record)
 * binding take their parts of one shared value. A deep copy per element cost 45 000 copies
 * of a 100-argument call in the four-bit adder (a record parameter's fields each bound to
 * the record call). Below the top node the flat model shares nodes, as a call's record
 * result shares its arguments among its fields' calls (translate.c element_calls); no pass
 * changes a flat expression in place. */
static st_fexpr *shallow_copy(st_arena *a, const st_fexpr *e) {
  if (!e) return NULL;
  st_fexpr *c = st_fx_new(a, e->kind, e->op, e->nargs, e->loc);
  if (!c) return NULL;
  c->index = e->index;
  c->value = e->value;
  c->str = e->str;
  if (e->nargs) memcpy(c->args, e->args, (size_t)e->nargs * sizeof *e->args);
  return c;
}

static int same_env(st_env a, st_env b) { return a.inst == b.inst && a.cls == b.cls; }

/* The whole value of an array binding: translated once for all its elements (an array of N
 * bindings `x[N](start = {f(i) for i in 1:N})` would otherwise cost N^2). */
static st_fexpr *whole_value(st_fl *fl, st_lazy *lz) {
  if (lz->expr == fl->memo_expr && same_env(lz->env, fl->memo_env)) return fl->memo_value;
  st_fexpr *v = st_translate(fl, lz->expr, lz->env);
  st_fexpr *folded;
  /* an element of an array-valued call: table[i, j] of table = f(...) */
  if (v && v->kind == FX_CALL && st_fl_call(fl, v, &folded) == 0) v = folded;
  fl->memo_expr = v ? lz->expr : NULL;
  fl->memo_env = lz->env;
  fl->memo_value = v;
  return v;
}

/* Translates a binding or attribute once. Iterators of an enclosing for-equation are not
 * visible inside it, and a binding that refers back to itself is reported. */
st_fexpr *st_fl_lazy(st_fl *fl, st_lazy *lz) {
  if (!lz->expr || lz->state == 2) return lz->value;
  if (lz->state == 1) {
    st_fl_error(fl, lz->expr->loc, lz->env.inst, "binding depends on itself");
    lz->state = 2;
    return NULL;
  }
  lz->state = 1;
  int base = fl->iter_base;
  st_fnctx *fn = fl->fnctx;
  fl->iter_base = fl->niters;
  fl->fnctx = NULL;
  st_fexpr *v;
  if (lz->nindex || lz->field) {
    v = whole_value(fl, lz);
    if (v)
      v = st_fx_part_value(fl, v, lz->index, lz->nindex, lz->field, lz->field_nindex,
                           lz->expr->loc);
    v = shallow_copy(fl->arena, v);
  } else {
    v = st_translate(fl, lz->expr, lz->env);
  }
  fl->iter_base = base;
  fl->fnctx = fn;
  lz->value = v;
  lz->state = 2;
  return v;
}

/* st_fl_lazy of attribute attr of variable var. Translating may instantiate components
 * whose variables grow fl->info (a record field's binding names a pending component), so
 * the work is done on a copy, the entry marked as under way meanwhile. */
st_fexpr *st_fl_var_attr(st_fl *fl, int var, int attr) {
  st_lazy *entry = fl->info[var].attr[attr];
  if (!entry) return NULL;
  st_lazy lz = *entry;
  if (!lz.expr || lz.state == 2) return lz.value;
  if (lz.state == 0) entry->state = 1;
  st_fexpr *v = st_fl_lazy(fl, &lz);
  *entry = lz;
  return v;
}

st_lazy *st_fl_var_lazy(st_fl *fl, int var, int attr) {
  st_lazy **entry = &fl->info[var].attr[attr];
  if (!*entry) *entry = st_arena_alloc(fl->tmp, sizeof **entry);
  return *entry;
}

/* The value of a constant or parameter for the evaluator. */
st_fexpr *st_fl_binding(void *ctx, int var) {
  st_fl *fl = ctx;
  if (var < 0 || var >= fl->nvars || fl->vars[var].variability > ST_V_PARAMETER) return NULL;
  st_fexpr *b = st_fl_var_attr(fl, var, LZ_BINDING);
  /* A parameter without binding but with a start value takes the start value (MSL style
   * `parameter Real x(start = 1)`, Modelica 3.5 section 8.6). */
  return b ? b : st_fl_var_attr(fl, var, LZ_START);
}

/* A call of a user function inside a parameter expression, run by the interpreter. */
static int call_scalar(void *ctx, const st_fexpr *call, double *out) {
  st_fexpr *r;
  if (st_fl_call(ctx, call, &r) || (r->kind != FX_REAL && r->kind != FX_BOOL)) return -1;
  *out = r->value;
  return 0;
}

int st_fl_eval(st_fl *fl, const st_fexpr *e, double *out) {
  return st_fx_eval_ex(e, st_fl_binding, call_scalar, fl, out);
}

st_ftype st_fl_type(st_fl *fl, const st_fexpr *e) {
  if (e && e->kind == FX_CALL && e->index >= 0 && e->index < fl->nfunctions) {
    const st_ffunction *fn = &fl->functions[e->index];
    /* op: the output the call returns (a leaf of a record result, translate.c) */
    for (int i = 0, k = 0; i < fn->nlocals; i++)
      if (fn->locals[i].causality == ST_C_OUTPUT && k++ == e->op) return fn->locals[i].type;
  }
  if (e && e->kind == FX_IF) return st_fl_type(fl, e->args[1]);
  if (e && e->kind == FX_LOCAL && fl->fnctx && e->index >= 0 && e->index < fl->fnctx->fn->nlocals)
    return fl->fnctx->fn->locals[e->index].type;
  if (e && e->kind == FX_BINARY && e->op == FOP_ADD && st_fl_type(fl, e->args[0]) == ST_T_STRING)
    return ST_T_STRING;
  return st_fx_type(e, fl->vars);
}

int st_fl_eval_ast(st_fl *fl, const st_ast_expr *e, st_env env, double *out) {
  int errors = fl->errors;
  st_fexpr *v = st_translate(fl, e, env);
  if (!v) return fl->errors > errors ? -2 : -1;
  return st_fl_eval(fl, v, out);
}

/* stateSelect = StateSelect.prefer, or a parameter holding such a literal (MSL Inertia). */
static void set_state_select(st_fl *fl, st_fvar *v, st_fexpr *e) {
  double x = 0;
  if (e && st_fx_type(e, fl->vars) == ST_T_ENUM && st_fl_eval(fl, e, &x) == 0 && x >= 1 && x <= 5)
    v->state_select = (st_state_select)(x - 1);
  else if (e)
    st_fl_error(fl, e->loc, fl->info[v - fl->vars].inst, "stateSelect must be a StateSelect literal");
}

static void set_fixed(st_fl *fl, st_fvar *v, st_fexpr *e) {
  double x;
  if (!e) return;
  if (e->kind == FX_BOOL || st_fl_eval(fl, e, &x) == 0) v->fixed = (e->kind == FX_BOOL ? e->value : x) != 0;
  else v->fixed_expr = e;
}

/* Scalar type check of a binding: a Boolean cannot bind a Real and so on. */
static void check_binding_type(st_fl *fl, st_fvar *v, st_fexpr *b, const st_inst *in) {
  if (!b) return;
  if (b->kind == FX_ARRAY) {
    st_fl_error(fl, b->loc, in, "array value bound to the scalar '%s'", v->name);
    return;
  }
  st_ftype t = st_fl_type(fl, b);
  int numeric = v->type == ST_T_REAL || v->type == ST_T_INTEGER;
  int ok = numeric ? (t == ST_T_REAL || t == ST_T_INTEGER) : t == v->type;
  if (!ok)
    st_fl_error(fl, b->loc, in, "type mismatch: %s value bound to '%s' of type %s",
                t == ST_T_BOOLEAN ? "Boolean" : t == ST_T_STRING ? "String"
                : t == ST_T_ENUM ? "enumeration" : "Real",
                v->name, v->type == ST_T_BOOLEAN ? "Boolean" : v->type == ST_T_STRING ? "String"
                         : v->type == ST_T_ENUM ? "enumeration" : "Real");
}

/* Translates every binding and attribute (phase 2 for variables). */
static void translate_vars(st_fl *fl) {
  for (int k = 0; k < fl->nvars; k++) {
    /* each attribute first, then the variable: translating one may move fl->vars */
    st_fexpr *a[LZ_COUNT];
    for (int i = 0; i < LZ_COUNT; i++) a[i] = st_fl_var_attr(fl, k, i);
    st_fvar *v = &fl->vars[k];
    v->binding = a[LZ_BINDING];
    check_binding_type(fl, v, v->binding, fl->info[k].inst);
    v->start = a[LZ_START];
    set_fixed(fl, v, a[LZ_FIXED]);
    v->nominal = a[LZ_NOMINAL];
    v->min = a[LZ_MIN];
    v->max = a[LZ_MAX];
    set_state_select(fl, v, a[LZ_STATESELECT]);
  }
}

static st_feq_list copy_eqs(st_fl *fl, const st_eqbuf *b) {
  st_feq_list l = {NULL, b->n};
  if (b->n) {
    l.items = st_arena_alloc(fl->arena, (size_t)b->n * sizeof *l.items);
    if (l.items) memcpy(l.items, b->items, (size_t)b->n * sizeof *l.items);
    else l.n = 0;
  }
  return l;
}

static double attr_number(st_fl *fl, const st_ast_mod *m, const char *name, int *has) {
  for (const st_ast_arg *a = m->args; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || strcmp(a->name->text, name) || !a->mod ||
        !a->mod->value)
      continue;
    const st_ast_expr *e = a->mod->value;
    double sign = 1;
    if (e->kind == AX_UNARY && e->u.unary.op == AOP_NEG) {
      sign = -1;
      e = e->u.unary.arg;
    }
    if (e->kind == AX_INTEGER || e->kind == AX_REAL) {
      *has = 1;
      return sign * e->u.num.real;
    }
    st_fl_error(fl, e->loc, NULL, "experiment %s must be a number", name);
  }
  return 0;
}

/* annotation(experiment(StartTime=..., StopTime=..., Interval=..., Tolerance=...)) */
static void read_experiment(st_fl *fl, const st_cls *cls, st_experiment *x) {
  const st_ast_mod *an = cls->ast ? cls->ast->annotation : NULL;
  for (const st_ast_arg *a = an ? an->args : NULL; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || strcmp(a->name->text, "experiment") || !a->mod)
      continue;
    x->start_time = attr_number(fl, a->mod, "StartTime", &x->has_start);
    x->stop_time = attr_number(fl, a->mod, "StopTime", &x->has_stop);
    x->interval = attr_number(fl, a->mod, "Interval", &x->has_interval);
    x->tolerance = attr_number(fl, a->mod, "Tolerance", &x->has_tolerance);
  }
}

st_flat_model *st_fl_finish(st_fl *fl, const char *name) {
  translate_vars(fl);
  if (fl->errors) return NULL;
  st_flat_model *m = st_arena_alloc(fl->arena, sizeof *m);
  if (!m) return NULL;
  m->arena = fl->arena;
  m->name = st_arena_strdup(fl->arena, name);
  m->nvars = fl->nvars;
  m->equations = copy_eqs(fl, &fl->equations);
  m->initial_equations = copy_eqs(fl, &fl->initial_equations);
  m->algorithms = fl->algorithms;
  m->nalgorithms = fl->nalgorithms;
  m->initial_algorithms = fl->initial_algorithms;
  m->ninitial_algorithms = fl->ninitial_algorithms;
  m->functions = fl->functions;
  m->nfunctions = fl->nfunctions;
  read_experiment(fl, fl->top->cls, &m->experiment);
  m->loc = fl->top->loc;
  if (fl->errors) return NULL;
  /* the flattener's array itself, not a copy: at its largest, with the scratch arena still
   * held, a copy was a tenth of the flattening's peak (doc/perf-log.md, issue 18) */
  m->vars = fl->vars ? realloc(fl->vars, (size_t)(fl->nvars + 1) * sizeof *m->vars) : NULL;
  if (m->vars) {
    m->heap_vars = m->vars;
    fl->vars = NULL;
  } else if (!(m->vars = st_arena_alloc(fl->arena, (size_t)(fl->nvars + 1) * sizeof *m->vars))) {
    return NULL;
  } else if (fl->nvars) {
    memcpy(m->vars, fl->vars, (size_t)fl->nvars * sizeof *m->vars);
  }
  fl->arena = NULL; /* now owned by the model */
  return m;
}
