/* Phase 2 for expressions: AST expressions become flat expressions against the instance
 * tree. Component references resolve to flat variables (arrays to FX_ARRAY of their
 * elements), package constants to their values, enumeration literals to FX_ENUM; function
 * calls to built-ins or to translated user functions. Array arithmetic is expanded
 * element by element. */
#include "front/inst.h"

#include "front/fexpr.h"

#include <string.h>

static st_fexpr *translate_list_array(st_fl *fl, const st_ast_expr *elems, st_env env, st_loc loc);

/* ----------------------------------------------------------------- helpers */

static st_fexpr *array_of(st_fl *fl, int n, st_loc loc) {
  return st_fx_new(fl->arena, FX_ARRAY, 0, n, loc);
}

st_fexpr *st_fx_index_value(st_fl *fl, st_fexpr *v, const int *index, int nindex, st_loc loc) {
  for (int i = 0; v && i < nindex; i++) {
    if (v->kind != FX_ARRAY) return v; /* a scalar applies to every element */
    if (index[i] < 1 || index[i] > v->nargs) {
      st_fl_error(fl, loc, NULL, "value has %d elements, element %d requested", v->nargs,
                  index[i]);
      return NULL;
    }
    v = v->args[index[i] - 1];
  }
  return v;
}

static st_fexpr *string_value(st_fl *fl, const char *s, st_loc loc) {
  st_fexpr *e = st_fx_new(fl->arena, FX_STRING, 0, 0, loc);
  if (e) e->str = st_arena_strdup(fl->arena, s);
  return e;
}

/* ----------------------------------------------------------------- references */

static st_fexpr *cref_part(st_fl *fl, st_inst *node, const st_ast_cref_part *part,
                           st_env env, const st_ast_cref *cr);

/* After the subscripts of `part` are applied to node: the next part, or the value. */
static st_fexpr *cref_next(st_fl *fl, st_inst *node, const st_ast_cref_part *next,
                           st_env env, const st_ast_cref *cr) {
  if (!next) {
    if (node->var >= 0) return st_fx_var(fl->arena, node->var, cr->loc);
    st_fl_error(fl, cr->loc, env.inst, "'%s' is not a scalar variable (records and "
                "connectors cannot be used in expressions)", node->path);
    return NULL;
  }
  st_inst *kid = st_inst_kid(node, next->name);
  if (!kid) {
    st_fl_error(fl, next->loc, env.inst, "'%s' has no element '%s'", node->path, next->name);
    return NULL;
  }
  return cref_part(fl, kid, next, env, cr);
}

static int eval_subscript(st_fl *fl, const st_ast_expr *s, int size, st_env env, int *out) {
  double v;
  int saved = fl->end_size;
  fl->end_size = size;
  int rc = st_fl_eval_ast(fl, s, env, &v);
  fl->end_size = saved;
  if (rc == -2) return -1;
  if (rc || v != (int)v) {
    st_fl_error(fl, s->loc, env.inst, "subscript must be an integer constant, parameter or "
                "for-loop index");
    return -1;
  }
  if (v < 1 || v > size) {
    st_fl_error(fl, s->loc, env.inst, "subscript %d out of range 1..%d", (int)v, size);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* Selects elements of array node by subscripts (-1 = ':'), dimension d onwards, starting
 * at flat offset. Whole dimensions become FX_ARRAY. */
static st_fexpr *select(st_fl *fl, st_inst *node, const int *sub, int d, int offset,
                        const st_ast_cref_part *part, st_env env, const st_ast_cref *cr) {
  if (d == node->ndims) return cref_next(fl, node->kids[offset], part->next, env, cr);
  int stride = 1;
  for (int k = d + 1; k < node->ndims; k++) stride *= node->dims[k];
  if (sub[d] > 0) return select(fl, node, sub, d + 1, offset + (sub[d] - 1) * stride, part, env, cr);
  st_fexpr *a = array_of(fl, node->dims[d], cr->loc);
  for (int i = 0; a && i < node->dims[d]; i++) {
    a->args[i] = select(fl, node, sub, d + 1, offset + i * stride, part, env, cr);
    if (!a->args[i]) return NULL;
  }
  return a;
}

static st_fexpr *cref_part(st_fl *fl, st_inst *node, const st_ast_cref_part *part,
                           st_env env, const st_ast_cref *cr) {
  if (node->disabled) {
    st_fl_error(fl, part->loc, env.inst, "conditional component '%s' is not present",
                node->path);
    return NULL;
  }
  if (node->ndims == 0) {
    if (part->nsubs) {
      st_fl_error(fl, part->loc, env.inst, "'%s' is not an array", node->path);
      return NULL;
    }
    return cref_next(fl, node, part->next, env, cr);
  }
  int sub[4] = {-1, -1, -1, -1};
  if (part->nsubs > node->ndims) {
    st_fl_error(fl, part->loc, env.inst, "too many subscripts for '%s'", node->path);
    return NULL;
  }
  int d = 0;
  for (const st_ast_expr *s = part->subs; s; s = s->next, d++)
    if (s->kind != AX_COLON && eval_subscript(fl, s, node->dims[d], env, &sub[d])) return NULL;
  return select(fl, node, sub, 0, 0, part, env, cr);
}

static st_fexpr *constant_value(st_fl *fl, const st_elem *el, const st_ast_cref *cr, st_env env);

/* An enumeration literal Type.lit, or a constant reached through packages. */
static st_fexpr *class_member(st_fl *fl, st_cls *cls, const st_ast_cref_part *part,
                              const st_ast_cref *cr, st_env env) {
  for (; part; part = part->next) {
    st_cls *c = st_cls_resolve_short(fl->fe, cls);
    if (c && c->ast && c->ast->form == ACF_ENUMERATION && !part->next) {
      int ord = 1;
      for (const st_ast_enum_literal *l = c->ast->literals; l; l = l->next, ord++)
        if (strcmp(l->name, part->name) == 0) {
          st_fexpr *e = st_fx_new(fl->arena, FX_ENUM, 0, 0, cr->loc);
          if (e) {
            e->value = ord;
            e->str = st_arena_concat(fl->arena, c->name, ".", l->name);
          }
          return e;
        }
    }
    st_elem el;
    if (!c || st_lookup_member(fl->fe, c, part->name, &el)) {
      st_fl_error(fl, part->loc, env.inst, "'%s' not found in '%s'", part->name, cls->full);
      return NULL;
    }
    if (el.comp) {
      if (part->next || part->nsubs) break;
      return constant_value(fl, &el, cr, env);
    }
    cls = el.cls;
  }
  st_fl_error(fl, cr->loc, env.inst, "'%s' does not name a value",
              st_ast_cref_text(fl->tmp, cr));
  return NULL;
}

/* A constant of a package (Modelica.Constants.pi): its binding, translated where it was
 * declared. */
static st_fexpr *constant_value(st_fl *fl, const st_elem *el, const st_ast_cref *cr, st_env env) {
  const st_ast_element *c = el->comp;
  if (c->u.comp.prefix.variability < AV_PARAMETER || !c->u.comp.mod || !c->u.comp.mod->value) {
    st_fl_error(fl, cr->loc, env.inst, "'%s' is not a constant with a value",
                st_ast_cref_text(fl->tmp, cr));
    return NULL;
  }
  if (fl->depth > 400) {
    st_fl_error(fl, cr->loc, env.inst, "constant '%s' depends on itself", c->u.comp.name);
    return NULL;
  }
  fl->depth++;
  st_fnctx *fn = fl->fnctx;
  fl->fnctx = NULL;
  st_fexpr *v = st_translate(fl, c->u.comp.mod->value, (st_env){NULL, el->owner});
  fl->fnctx = fn;
  fl->depth--;
  return v;
}

static int find_iter(const st_fl *fl, const char *name, double *value) {
  for (int i = fl->niters - 1; i >= fl->iter_base; i--)
    if (strcmp(fl->iters[i].name, name) == 0) {
      *value = fl->iters[i].value;
      return 1;
    }
  return 0;
}

static st_fexpr *local_ref(st_fl *fl, const st_ast_cref *cr, st_env env);

static st_fexpr *translate_cref(st_fl *fl, const st_ast_cref *cr, st_env env) {
  const st_ast_cref_part *p0 = cr->parts;
  double v;
  if (fl->fnctx) {
    st_fexpr *l = local_ref(fl, cr, env);
    if (l) return l;
  }
  if (!cr->global && cr->nparts == 1 && !p0->nsubs && find_iter(fl, p0->name, &v))
    return st_fx_real(fl->arena, v, cr->loc);
  st_inst *kid = cr->global ? NULL : st_inst_kid(env.inst, p0->name);
  if (kid) return cref_part(fl, kid, p0, env, cr);
  if (!cr->global && cr->nparts == 1 && strcmp(p0->name, "time") == 0)
    return st_fx_new(fl->arena, FX_TIME, 0, 0, cr->loc);
  st_elem el;
  int rc = cr->global ? -1 : st_lookup_simple(fl->fe, env.cls, p0->name, &el);
  if (cr->global) {
    st_cls *top = st_cls_kid(fl->fe, fl->fe->root, p0->name);
    if (!top) top = st_front_load_top(fl->fe, p0->name);
    if (top) {
      el = (st_elem){top, NULL, NULL};
      rc = 0;
    }
  }
  if (rc) {
    st_fl_error(fl, cr->loc, env.inst, "undefined name '%s'", p0->name);
    return NULL;
  }
  if (el.cls) return class_member(fl, el.cls, p0->next, cr, env);
  st_elem mine;
  if (env.inst && st_lookup_member(fl->fe, env.cls, p0->name, &mine) == 0 && mine.comp) {
    st_fl_error(fl, cr->loc, env.inst, "'%s' is used before its declaration", p0->name);
    return NULL;
  }
  if (p0->next || p0->nsubs) {
    st_fl_error(fl, cr->loc, env.inst, "access into the constant '%s' is not supported",
                p0->name);
    return NULL;
  }
  return constant_value(fl, &el, cr, env);
}

/* Inside a function body: inputs, outputs and protected variables. */
static st_fexpr *local_ref(st_fl *fl, const st_ast_cref *cr, st_env env) {
  const st_ast_cref_part *p0 = cr->parts;
  const st_ffunction *fn = fl->fnctx->fn;
  int k = -1;
  for (int i = 0; i < fn->nlocals && k < 0; i++)
    if (strcmp(fn->locals[i].name, p0->name) == 0) k = i;
  if (k < 0 || cr->global) return NULL;
  st_fexpr *l = st_fx_new(fl->arena, FX_LOCAL, 0, 0, cr->loc);
  if (l) l->index = k;
  if (!l || !p0->nsubs) return l;
  st_fexpr *ix = st_fx_new(fl->arena, FX_INDEX, 0, p0->nsubs + 1, cr->loc);
  if (!ix) return NULL;
  ix->args[0] = l;
  int i = 1;
  for (const st_ast_expr *s = p0->subs; s; s = s->next, i++) {
    ix->args[i] = s->kind == AX_COLON ? st_fx_new(fl->arena, FX_RANGE, 0, 0, s->loc)
                                      : st_translate(fl, s, env);
    if (!ix->args[i]) return NULL;
  }
  return ix;
}

/* ----------------------------------------------------------------- operators */

static const st_fop binop_map[] = {
    [AOP_ADD] = FOP_ADD, [AOP_SUB] = FOP_SUB, [AOP_MUL] = FOP_MUL, [AOP_DIV] = FOP_DIV,
    [AOP_POW] = FOP_POW, [AOP_EADD] = FOP_ADD, [AOP_ESUB] = FOP_SUB, [AOP_EMUL] = FOP_MUL,
    [AOP_EDIV] = FOP_DIV, [AOP_EPOW] = FOP_POW, [AOP_LT] = FOP_LT, [AOP_LE] = FOP_LE,
    [AOP_GT] = FOP_GT, [AOP_GE] = FOP_GE, [AOP_EQ] = FOP_EQ, [AOP_NE] = FOP_NE,
    [AOP_AND] = FOP_AND, [AOP_OR] = FOP_OR};

static int is_array(const st_fexpr *e) { return e && e->kind == FX_ARRAY; }

/* Up to FOLD_RUN operands are joined left to right, as written; longer runs (sum() of a
 * large array) are split in halves, so that the tree stays shallow enough for the recursive
 * passes over it (a run of 10^5 was a stack overflow). */
enum { FOLD_RUN = 1024 };

/* x[0] op x[1] op ... op x[n-1], n >= 1, op a binary operator (kind FX_BINARY) or a
 * two-argument built-in (FX_BUILTIN: min, max). NULL when out of memory. */
static st_fexpr *fold(st_fl *fl, st_fexpr_kind kind, int op, st_fexpr *const *x, int n,
                      st_loc loc) {
  st_fexpr *halves[2];
  if (n > FOLD_RUN) {
    halves[0] = fold(fl, kind, op, x, n / 2, loc);
    halves[1] = fold(fl, kind, op, x + n / 2, n - n / 2, loc);
    if (!halves[0] || !halves[1]) return NULL;
    x = halves;
    n = 2;
  }
  st_fexpr *s = x[0];
  for (int i = 1; s && i < n; i++) {
    st_fexpr *j = st_fx_new(fl->arena, kind, op, 2, loc);
    if (j) {
      j->args[0] = s;
      j->args[1] = x[i];
    }
    s = j;
  }
  return s;
}

/* Scalar product of two vectors (a*b with both vectors, Modelica 3.5 section 10.6.4). */
static st_fexpr *dot(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc) {
  if (a->nargs != b->nargs || a->nargs == 0 || is_array(a->args[0]) || is_array(b->args[0])) {
    st_fl_error(fl, loc, NULL, "only vector*vector products are supported between arrays");
    return NULL;
  }
  st_fexpr **p = st_arena_alloc(fl->arena, (size_t)a->nargs * sizeof *p);
  if (!p) return NULL;
  for (int i = 0; i < a->nargs; i++)
    if (!(p[i] = st_fx_binary(fl->arena, FOP_MUL, a->args[i], b->args[i], loc))) return NULL;
  return fold(fl, FX_BINARY, FOP_ADD, p, a->nargs, loc);
}

/* Element-wise a op b for arrays (or array with scalar). */
static st_fexpr *elementwise(st_fl *fl, st_fop op, st_fexpr *a, st_fexpr *b, st_loc loc) {
  if (!is_array(a) && !is_array(b)) return st_fx_binary(fl->arena, op, a, b, loc);
  if (is_array(a) && is_array(b) && a->nargs != b->nargs) {
    st_fl_error(fl, loc, NULL, "size mismatch: arrays of %d and %d elements", a->nargs,
                b->nargs);
    return NULL;
  }
  int n = is_array(a) ? a->nargs : b->nargs;
  st_fexpr *r = array_of(fl, n, loc);
  for (int i = 0; r && i < n; i++) {
    r->args[i] = elementwise(fl, op, is_array(a) ? a->args[i] : a,
                             is_array(b) ? b->args[i] : b, loc);
    if (!r->args[i]) return NULL;
  }
  return r;
}

static st_fexpr *translate_binary(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *a = st_translate(fl, e->u.binary.lhs, env);
  st_fexpr *b = a ? st_translate(fl, e->u.binary.rhs, env) : NULL;
  if (!b) return NULL;
  st_ast_op op = e->u.binary.op;
  if (a->kind == FX_STRING && b->kind == FX_STRING && op == AOP_ADD)
    return string_value(fl, st_arena_concat(fl->tmp, a->str, "", b->str), e->loc);
  if (op == AOP_MUL && is_array(a) && is_array(b)) return dot(fl, a, b, e->loc);
  if ((op == AOP_ADD || op == AOP_SUB) && is_array(a) != is_array(b)) {
    st_fl_error(fl, e->loc, env.inst, "size mismatch: array %s scalar",
                op == AOP_ADD ? "+" : "-");
    return NULL;
  }
  return elementwise(fl, binop_map[op], a, b, e->loc);
}

static st_fexpr *negate(st_fl *fl, st_fexpr *a, st_fop op, st_loc loc) {
  if (!is_array(a)) return st_fx_unary(fl->arena, op, a, loc);
  st_fexpr *r = array_of(fl, a->nargs, loc);
  for (int i = 0; r && i < a->nargs; i++)
    if (!(r->args[i] = negate(fl, a->args[i], op, loc))) return NULL;
  return r;
}

static st_fexpr *translate_unary(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *a = st_translate(fl, e->u.unary.arg, env);
  if (!a) return NULL;
  switch (e->u.unary.op) {
  case AOP_PLUS: case AOP_EPLUS: return a;
  case AOP_NOT: return negate(fl, a, FOP_NOT, e->loc);
  default:
    if (a->kind == FX_REAL) return st_fx_real(fl->arena, -a->value, e->loc);
    return negate(fl, a, FOP_NEG, e->loc);
  }
}

static st_fexpr *translate_if(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *c = st_translate(fl, e->u.ifexp.cond, env);
  st_fexpr *t = c ? st_translate(fl, e->u.ifexp.then, env) : NULL;
  st_fexpr *f = t ? st_translate(fl, e->u.ifexp.els, env) : NULL;
  if (!f) return NULL;
  st_fexpr *r = st_fx_new(fl->arena, FX_IF, 0, 3, e->loc);
  if (!r) return NULL;
  r->args[0] = c;
  r->args[1] = t;
  r->args[2] = f;
  return r;
}

/* ----------------------------------------------------------------- ranges, arrays */

/* The values of a for-range or range expression: a:b or a:s:b, or an array. */
st_fexpr *st_range_values(st_fl *fl, const st_ast_expr *e, st_env env) {
  double a, s = 1, b;
  if (e->kind != AX_RANGE) return st_translate(fl, e, env);
  if (st_fl_eval_ast(fl, e->u.range.start, env, &a) ||
      (e->u.range.step && st_fl_eval_ast(fl, e->u.range.step, env, &s)) ||
      st_fl_eval_ast(fl, e->u.range.stop, env, &b)) {
    st_fl_error(fl, e->loc, env.inst, "range bounds must be constant or parameter expressions");
    return NULL;
  }
  if (s == 0) {
    st_fl_error(fl, e->loc, env.inst, "range step is zero");
    return NULL;
  }
  double count = (b - a) / s + 1 + 1e-9;
  if (!(count < 100001)) { /* checked as a double: casting 1e300 to int is undefined */
    st_fl_error(fl, e->loc, env.inst, "range of %.3g elements is too long (limit 100000)",
                count);
    return NULL;
  }
  int n = count < 1 ? 0 : (int)count;
  st_fexpr *r = array_of(fl, n, e->loc);
  for (int i = 0; r && i < n; i++) r->args[i] = st_fx_real(fl->arena, a + i * s, e->loc);
  return r;
}

static st_fexpr *function_range(st_fl *fl, const st_ast_expr *e, st_env env) {
  int n = e->u.range.step ? 3 : 2;
  st_fexpr *r = st_fx_new(fl->arena, FX_RANGE, 0, n, e->loc);
  const st_ast_expr *parts[3] = {e->u.range.start, e->u.range.step, e->u.range.stop};
  for (int i = 0, k = 0; r && i < 3; i++)
    if (parts[i] && !(r->args[k++] = st_translate(fl, parts[i], env))) return NULL;
  return r;
}

/* {e for i in r}: the expression for each value of the iterator. */
static st_fexpr *comprehension(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_iter *it = e->u.array.iters;
  st_fexpr *vals = it->range ? st_range_values(fl, it->range, env) : NULL;
  if (!vals || vals->kind != FX_ARRAY || it->next || fl->niters == 32) {
    if (vals) st_fl_error(fl, e->loc, env.inst, "unsupported array comprehension");
    return NULL;
  }
  st_fexpr *r = array_of(fl, vals->nargs, e->loc);
  fl->iters[fl->niters].name = it->name;
  fl->niters++;
  for (int i = 0; r && i < vals->nargs; i++) {
    fl->iters[fl->niters - 1].value = vals->args[i]->value;
    if (!(r->args[i] = st_translate(fl, e->u.array.elems, env))) r = NULL;
  }
  fl->niters--;
  return r;
}

static st_fexpr *translate_list_array(st_fl *fl, const st_ast_expr *elems, st_env env,
                                      st_loc loc) {
  int n = 0;
  for (const st_ast_expr *x = elems; x; x = x->next) n++;
  st_fexpr *a = array_of(fl, n, loc);
  int i = 0;
  for (const st_ast_expr *x = elems; a && x; x = x->next, i++)
    if (!(a->args[i] = st_translate(fl, x, env))) return NULL;
  return a;
}

/* ----------------------------------------------------------------- calls */

static const struct {
  const char *name;
  st_builtin b;
  int nargs; /* -1: any */
} builtins[] = {
    {"der", FB_DER, 1}, {"pre", FB_PRE, 1}, {"edge", FB_EDGE, 1}, {"change", FB_CHANGE, 1},
    {"initial", FB_INITIAL, 0}, {"terminal", FB_TERMINAL, 0}, {"noEvent", FB_NOEVENT, 1},
    {"smooth", FB_SMOOTH, 2}, {"sample", FB_SAMPLE, 2}, {"abs", FB_ABS, 1},
    {"sign", FB_SIGN, 1}, {"sqrt", FB_SQRT, 1}, {"min", FB_MIN, 2}, {"max", FB_MAX, 2},
    {"sin", FB_SIN, 1}, {"cos", FB_COS, 1}, {"tan", FB_TAN, 1}, {"asin", FB_ASIN, 1},
    {"acos", FB_ACOS, 1}, {"atan", FB_ATAN, 1}, {"atan2", FB_ATAN2, 2}, {"sinh", FB_SINH, 1},
    {"cosh", FB_COSH, 1}, {"tanh", FB_TANH, 1}, {"exp", FB_EXP, 1}, {"log", FB_LOG, 1},
    {"log10", FB_LOG10, 1}, {"floor", FB_FLOOR, 1}, {"ceil", FB_CEIL, 1},
    {"integer", FB_INTEGER, 1}, {"Integer", FB_INTEGER, 1}, {"mod", FB_MOD, 2},
    {"rem", FB_REM, 2}, {"div", FB_DIV, 2}, {"homotopy", FB_HOMOTOPY, 2},
    {"semiLinear", FB_SEMILINEAR, 3}, {"delay", FB_DELAY, -1},
    {"cardinality", FB_CARDINALITY, 1}, {"size", FB_SIZE, 2},
};

static int find_builtin(const char *name) {
  for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
    if (strcmp(builtins[i].name, name) == 0) return (int)i;
  return -1;
}

static int count_args(const st_ast_fnarg *a) {
  int n = 0;
  for (; a; a = a->next) n++;
  return n;
}

/* homotopy(actual = a, simplified = s) takes named arguments too. */
static const st_ast_expr *builtin_arg(const st_ast_fnarg *args, int pos, const char *name) {
  int i = 0;
  for (const st_ast_fnarg *a = args; a; a = a->next) {
    if (a->name && name && strcmp(a->name, name) == 0) return a->value;
    if (!a->name && i++ == pos) return a->value;
  }
  return NULL;
}

static st_fexpr *call_builtin(st_fl *fl, const st_ast_expr *e, int k, st_env env) {
  static const char *const homotopy_names[] = {"actual", "simplified"};
  const st_ast_fnarg *args = e->u.call.args;
  int n = count_args(args);
  if (builtins[k].nargs >= 0 && n != builtins[k].nargs) {
    st_fl_error(fl, e->loc, env.inst, "%s() takes %d argument%s, %d given", builtins[k].name,
                builtins[k].nargs, builtins[k].nargs == 1 ? "" : "s", n);
    return NULL;
  }
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, (int)builtins[k].b, n, e->loc);
  for (int i = 0; r && i < n; i++) {
    const st_ast_expr *a = builtin_arg(args, i, builtins[k].b == FB_HOMOTOPY ? homotopy_names[i] : NULL);
    if (!a || !(r->args[i] = st_translate(fl, a, env))) {
      if (!a) st_fl_error(fl, e->loc, env.inst, "missing argument %d of %s()", i + 1, builtins[k].name);
      return NULL;
    }
  }
  return r;
}

static int array_size(const st_fexpr *a, int dim) {
  for (int d = 1; a && d < dim; d++) a = a->kind == FX_ARRAY && a->nargs ? a->args[0] : NULL;
  return a && a->kind == FX_ARRAY ? a->nargs : -1;
}

/* size(a, d), sum(a), product(a), zeros/ones/fill, min/max of one array. */
static st_fexpr *call_array_fn(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                               int *handled) {
  const st_ast_fnarg *args = e->u.call.args;
  int n = count_args(args);
  *handled = 1;
  if (strcmp(name, "size") == 0 && n == 2 && !fl->fnctx) {
    st_fexpr *a = st_translate(fl, args->value, env);
    double d;
    if (!a || st_fl_eval_ast(fl, args->next->value, env, &d)) return NULL;
    int s = array_size(a, (int)d);
    if (s < 0) st_fl_error(fl, e->loc, env.inst, "size(): dimension %g does not exist", d);
    return s < 0 ? NULL : st_fx_real(fl->arena, s, e->loc);
  }
  if ((strcmp(name, "sum") == 0 || strcmp(name, "product") == 0 ||
       ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0) && n == 1)) && !fl->fnctx &&
      !e->u.call.iters) {
    st_fexpr *a = n == 1 ? st_translate(fl, args->value, env) : NULL;
    if (!a) return NULL;
    if (a->kind != FX_ARRAY || a->nargs == 0) return a->kind == FX_ARRAY ? st_fx_real(fl->arena, name[0] == 'p', e->loc) : a;
    if (name[1] == 'i' || name[1] == 'a')
      return fold(fl, FX_BUILTIN, name[1] == 'i' ? FB_MIN : FB_MAX, a->args, a->nargs, e->loc);
    return fold(fl, FX_BINARY, name[0] == 's' ? FOP_ADD : FOP_MUL, a->args, a->nargs, e->loc);
  }
  if ((strcmp(name, "zeros") == 0 || strcmp(name, "ones") == 0 || strcmp(name, "fill") == 0) &&
      n >= 1 && !fl->fnctx) {
    const st_ast_fnarg *dims = args;
    st_fexpr *v;
    if (name[0] == 'f') {
      v = st_translate(fl, args->value, env);
      dims = args->next;
    } else {
      v = st_fx_real(fl->arena, name[0] == 'o', e->loc);
    }
    double size;
    if (!v || !dims || dims->next || st_fl_eval_ast(fl, dims->value, env, &size) || size < 0) {
      if (v) st_fl_error(fl, e->loc, env.inst, "%s(): one constant size is supported", name);
      return NULL;
    }
    st_fexpr *r = array_of(fl, (int)size, e->loc);
    for (int i = 0; r && i < (int)size; i++) r->args[i] = v;
    return r;
  }
  *handled = 0;
  return NULL;
}

/* Arguments of a user function call in the order of its inputs. */
static st_fexpr *call_user(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env) {
  int k = st_fl_function(fl, cls, e->loc);
  if (k < 0) return NULL;
  const st_ffunction *fn = &fl->functions[k];
  int ninputs = 0;
  for (int i = 0; i < fn->nlocals; i++) ninputs += fn->locals[i].causality == ST_C_INPUT;
  st_fexpr *r = st_fx_new(fl->arena, FX_CALL, 0, ninputs, e->loc);
  if (!r) return NULL;
  r->index = k;
  int pos = 0, slot = 0;
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    int target = -1;
    for (int i = 0, in = 0; i < fn->nlocals && target < 0; i++) {
      if (fn->locals[i].causality != ST_C_INPUT) continue;
      if (a->name ? strcmp(fn->locals[i].name, a->name) == 0 : in == pos) target = in;
      in++;
    }
    if (!a->name) pos++;
    if (target < 0) {
      st_fl_error(fl, a->loc, env.inst, "%s(): no input %s%s", fn->name,
                  a->name ? a->name : "at this position", "");
      return NULL;
    }
    if (!(r->args[target] = st_translate(fl, a->value, env))) return NULL;
    slot++;
  }
  for (int i = 0, in = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    if (!r->args[in]) r->args[in] = fn->locals[i].binding;
    if (!r->args[in]) {
      st_fl_error(fl, e->loc, env.inst, "%s(): missing input '%s'", fn->name, fn->locals[i].name);
      return NULL;
    }
    in++;
  }
  (void)slot;
  return r;
}

static st_fexpr *translate_call(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_cref *fn = e->u.call.fn;
  const char *name = fn->parts->name;
  if (fn->nparts == 1 && !fn->global) {
    int handled;
    st_fexpr *r = call_array_fn(fl, e, name, env, &handled);
    if (handled) return r;
    int k = find_builtin(name);
    if (k >= 0) return call_builtin(fl, e, k, env);
    if (strcmp(name, "String") == 0) return string_value(fl, st_ast_expr_text(fl->tmp, e), e->loc);
  }
  const char *parts[16];
  int n = 0;
  for (const st_ast_cref_part *p = fn->parts; p && n < 16; p = p->next) parts[n++] = p->name;
  st_cls *cls = st_lookup_class_path(fl->fe, env.cls, parts, n, fn->global ? 1 : 0);
  if (cls) cls = st_cls_resolve_short(fl->fe, cls);
  if (!cls) {
    st_fl_error(fl, e->loc, env.inst, "undefined function '%s'", st_ast_cref_text(fl->tmp, fn));
    return NULL;
  }
  if (!st_cls_is(cls, ACK_FUNCTION)) {
    st_fl_error(fl, e->loc, env.inst, "'%s' is not a function", cls->full);
    return NULL;
  }
  return call_user(fl, e, cls, env);
}

/* ----------------------------------------------------------------- entry */

static st_fexpr *translate_matrix(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *m = array_of(fl, e->u.matrix.nrows, e->loc);
  int i = 0;
  for (const st_ast_expr *row = e->u.matrix.rows; m && row; row = row->next, i++)
    if (!(m->args[i] = translate_list_array(fl, row->u.array.elems, env, row->loc))) return NULL;
  return m;
}

st_fexpr *st_translate(st_fl *fl, const st_ast_expr *e, st_env env) {
  if (!e) return NULL;
  switch (e->kind) {
  case AX_INTEGER: case AX_REAL: return st_fx_real(fl->arena, e->u.num.real, e->loc);
  case AX_STRING: return string_value(fl, e->u.string, e->loc);
  case AX_BOOL: return st_fx_bool(fl->arena, e->u.boolean, e->loc);
  case AX_CREF: return translate_cref(fl, e->u.cref, env);
  case AX_CALL: return translate_call(fl, e, env);
  case AX_BINARY: return translate_binary(fl, e, env);
  case AX_UNARY: return translate_unary(fl, e, env);
  case AX_IF: return translate_if(fl, e, env);
  case AX_RANGE: return fl->fnctx ? function_range(fl, e, env) : st_range_values(fl, e, env);
  case AX_ARRAY:
    if (e->u.array.iters) return comprehension(fl, e, env);
    return translate_list_array(fl, e->u.array.elems, env, e->loc);
  case AX_MATRIX: return translate_matrix(fl, e, env);
  case AX_END:
    if (fl->fnctx) return st_fx_new(fl->arena, FX_END, 0, 0, e->loc);
    if (fl->end_size > 0) return st_fx_real(fl->arena, fl->end_size, e->loc);
    break;
  default: break;
  }
  st_fl_error(fl, e->loc, env.inst, "unsupported expression '%s'", st_ast_expr_text(fl->tmp, e));
  return NULL;
}
