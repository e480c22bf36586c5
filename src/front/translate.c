/* Phase 2 for expressions: AST expressions become flat expressions against the instance
 * tree. Component references resolve to flat variables (arrays to FX_ARRAY of their
 * elements), package constants to their values, enumeration literals to FX_ENUM; function
 * calls to built-ins or to translated user functions. Array arithmetic is expanded
 * element by element. */
#include "front/inst.h"

#include "front/flat_expr.h"
#include "util/strfmt.h"

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

st_fexpr *st_fx_part_value(st_fl *fl, st_fexpr *v, const int *index, int nindex,
                           const char *field, int field_nindex, st_loc loc) {
  if (!field) return st_fx_index_value(fl, v, index, nindex, loc);
  v = st_fx_index_value(fl, v, index, field_nindex, loc);
  if (v && !st_fx_is_record(v)) {
    st_fl_error(fl, loc, NULL, "the binding of a record must be a record value");
    return NULL;
  }
  if (v) v = st_rec_field(fl, v, field, loc);
  /* no subscripts: index may be NULL, and NULL + 0 is undefined in C */
  const int *rest = nindex > field_nindex ? index + field_nindex : NULL;
  return v ? st_fx_index_value(fl, v, rest, nindex - field_nindex, loc) : NULL;
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
    if (node->pending == 2) {
      st_fl_error(fl, cr->loc, env.inst, "the declaration of '%s' depends on itself",
                  node->path);
      return NULL;
    }
    return st_rec_of_inst(fl, node, cr->loc); /* a record or connector as a value */
  }
  st_inst *kid = st_inst_member(fl, node, next->name);
  if (!kid) {
    st_fl_error(fl, next->loc, env.inst, "'%s' has no element '%s'", node->path, next->name);
    return NULL;
  }
  return cref_part(fl, kid, next, env, cr);
}

/* One subscript of an array component: a scalar index (nidx 1, vector 0), a vector of
 * indices (a range, an array, ':'), or a variable index (*var set: the equations choose the
 * element at run time). Indices are 1-based and checked against size. */
typedef struct subscript {
  int vector;       /* keeps the dimension */
  int nidx;
  int *idx;
  st_fexpr *var;    /* a discrete index expression, or NULL */
} subscript;

static int index_value(st_fl *fl, const st_fexpr *x, int size, st_loc loc, st_env env, int *out) {
  double v;
  if (st_fl_eval(fl, x, &v) || v != (int)v) {
    st_fl_error(fl, loc, env.inst, "subscript must be an integer constant, parameter or "
                "for-loop index");
    return -1;
  }
  if (v < 1 || v > size) {
    st_fl_error(fl, loc, env.inst, "subscript %d out of range 1..%d", (int)v, size);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* The indices of range x (start:stop or start:step:stop) when its bounds are known while
 * translating: 0, -1 on an error (reported), 1 when a bound is not known. */
static int range_subscript(st_fl *fl, const st_fexpr *x, int size, st_loc loc, st_env env,
                           subscript *out) {
  double b[3], step = 1;
  for (int i = 0; i < x->nargs; i++)
    if (!st_fx_is_parametric(x->args[i], fl->vars) || st_fl_eval(fl, x->args[i], &b[i])) return 1;
  if (x->nargs == 3) step = b[1];
  double stop = b[x->nargs - 1], count = step ? (stop - b[0]) / step + 1 + 1e-9 : -1;
  if (!(count < size + 1.0)) {
    st_fl_error(fl, loc, env.inst, "subscript range selects more than the %d elements", size);
    return -1;
  }
  out->vector = 1;
  out->nidx = count < 1 ? 0 : (int)count;
  out->idx = st_arena_alloc(fl->tmp, (size_t)(out->nidx + 1) * sizeof *out->idx);
  for (int i = 0; out->idx && i < out->nidx; i++) {
    double v = b[0] + i * step;
    if (v != (int)v || v < 1 || v > size) {
      st_fl_error(fl, loc, env.inst, "subscript %g out of range 1..%d", v, size);
      return -1;
    }
    out->idx[i] = (int)v;
  }
  return out->idx ? 0 : -1;
}

static int eval_subscript(st_fl *fl, const st_ast_expr *s, int size, st_env env, subscript *out) {
  memset(out, 0, sizeof *out);
  if (s->kind == AX_COLON) {
    out->vector = 1;
    out->nidx = size;
    out->idx = st_arena_alloc(fl->tmp, (size_t)(size + 1) * sizeof *out->idx);
    for (int i = 0; out->idx && i < size; i++) out->idx[i] = i + 1;
    return out->idx ? 0 : -1;
  }
  int saved = fl->end_size;
  fl->end_size = size;
  int errors = fl->errors;
  st_fexpr *x = st_translate(fl, s, env);
  fl->end_size = saved;
  if (!x) {
    if (fl->errors == errors)
      st_fl_error(fl, s->loc, env.inst, "subscript must be an integer constant, parameter or "
                  "for-loop index");
    return -1;
  }
  if (x->kind == FX_ARRAY) {
    out->vector = 1;
    out->nidx = x->nargs;
    out->idx = st_arena_alloc(fl->tmp, (size_t)(x->nargs + 1) * sizeof *out->idx);
    for (int i = 0; out->idx && i < x->nargs; i++)
      if (index_value(fl, x->args[i], size, s->loc, env, &out->idx[i])) return -1;
    return out->idx ? 0 : -1;
  }
  if (x->kind == FX_RANGE && x->nargs >= 2) { /* a range in a function body */
    int rc = range_subscript(fl, x, size, s->loc, env, out);
    if (rc <= 0) return rc;
  }
  out->nidx = 1;
  out->idx = st_arena_alloc(fl->tmp, sizeof *out->idx);
  if (!out->idx) return -1;
  double v;
  if (!st_fx_is_parametric(x, fl->vars) || st_fl_eval(fl, x, &v)) {
    st_ftype t = st_fl_type(fl, x);
    /* Integer literals are numbers here: a Real-typed index is accepted as well; a
     * parameter known only at initialization (Fluid's `parameter Integer ind(fixed =
     * false)` found by an initial algorithm) chooses at run time as a variable does */
    if (t == ST_T_BOOLEAN || t == ST_T_STRING) {
      st_fl_error(fl, s->loc, env.inst, "subscript must be an integer constant, parameter, "
                  "for-loop index or Integer variable");
      return -1;
    }
    out->var = x;
    return 0;
  }
  return index_value(fl, x, size, s->loc, env, &out->idx[0]);
}

/* if i == 1 then c[0] elseif i == 2 ... else c[n-1], element by element for arrays. */
static st_fexpr *index_choice(st_fl *fl, st_fexpr *var, st_fexpr **c, int n, st_loc loc) {
  if (c[0]->kind == FX_ARRAY) {
    st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, c[0]->nargs, loc);
    st_fexpr **part = st_arena_alloc(fl->tmp, (size_t)n * sizeof *part);
    for (int i = 0; r && part && i < c[0]->nargs; i++) {
      for (int k = 0; k < n; k++) part[k] = c[k]->args[i];
      if (!(r->args[i] = index_choice(fl, var, part, n, loc))) return NULL;
    }
    return part ? r : NULL;
  }
  st_fexpr *r = c[n - 1];
  for (int k = n - 2; r && k >= 0; k--) {
    st_fexpr *f = st_fx_new(fl->arena, FX_IF, 0, 3, loc);
    if (!f) return NULL;
    f->args[0] = st_fx_binary(fl->arena, FOP_EQ, var, st_fx_real(fl->arena, k + 1, loc), loc);
    f->args[1] = c[k];
    f->args[2] = r;
    r = f;
  }
  return r;
}

/* Selects elements of array node by subscripts, dimension d onwards, starting at flat
 * offset. Vector subscripts keep their dimension (FX_ARRAY). */
static st_fexpr *select(st_fl *fl, st_inst *node, subscript *sub, int d, int offset,
                        const st_ast_cref_part *part, st_env env, const st_ast_cref *cr) {
  if (d == node->ndims) return cref_next(fl, node->kids[offset], part->next, env, cr);
  int stride = 1;
  for (int k = d + 1; k < node->ndims; k++) stride *= node->dims[k];
  if (sub[d].var) {
    int n = node->dims[d];
    st_fexpr **c = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof *c);
    for (int i = 0; c && i < n; i++)
      if (!(c[i] = select(fl, node, sub, d + 1, offset + i * stride, part, env, cr))) return NULL;
    return c && n > 0 ? index_choice(fl, sub[d].var, c, n, cr->loc) : NULL;
  }
  if (!sub[d].vector)
    return select(fl, node, sub, d + 1, offset + (sub[d].idx[0] - 1) * stride, part, env, cr);
  st_fexpr *a = array_of(fl, sub[d].nidx, cr->loc);
  for (int i = 0; a && i < sub[d].nidx; i++) {
    a->args[i] = select(fl, node, sub, d + 1, offset + (sub[d].idx[i] - 1) * stride, part, env, cr);
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
  subscript sub[4];
  if (part->nsubs > node->ndims) {
    st_fl_error(fl, part->loc, env.inst, "too many subscripts for '%s'", node->path);
    return NULL;
  }
  int d = 0;
  for (const st_ast_expr *s = part->subs; s; s = s->next, d++)
    if (eval_subscript(fl, s, node->dims[d], env, &sub[d])) return NULL;
  for (; d < node->ndims; d++) {
    static const st_ast_expr colon = {.kind = AX_COLON};
    if (eval_subscript(fl, &colon, node->dims[d], env, &sub[d])) return NULL;
  }
  return select(fl, node, sub, 0, 0, part, env, cr);
}

static st_fexpr *constant_value(st_fl *fl, const st_elem *el, const st_ast_cref *cr, st_env env);

/* The elements of an array value v (a constant's) that subscripts select, the same way as
 * for arrays of variables: `Tables.AndTable[a, b]` with a, b variables chooses at run time. */
static st_fexpr *subscript_value(st_fl *fl, st_fexpr *v, const st_ast_expr *s, st_env env,
                                 st_loc loc) {
  if (!s) return v;
  if (v->kind != FX_ARRAY) {
    st_fl_error(fl, s->loc, env.inst, "too many subscripts");
    return NULL;
  }
  subscript sub;
  if (eval_subscript(fl, s, v->nargs, env, &sub)) return NULL;
  if (sub.var) {
    st_fexpr **r = st_arena_alloc(fl->tmp, (size_t)(v->nargs + 1) * sizeof *r);
    if (!r || v->nargs == 0) return NULL;
    for (int i = 0; i < v->nargs; i++)
      if (!(r[i] = subscript_value(fl, v->args[i], s->next, env, loc))) return NULL;
    return index_choice(fl, sub.var, r, v->nargs, loc);
  }
  if (!sub.vector) return subscript_value(fl, v->args[sub.idx[0] - 1], s->next, env, loc);
  st_fexpr *a = array_of(fl, sub.nidx, loc);
  for (int i = 0; a && i < sub.nidx; i++)
    if (!(a->args[i] = subscript_value(fl, v->args[sub.idx[i] - 1], s->next, env, loc)))
      return NULL;
  return a;
}

static int subscripts_use_locals(st_fl *fl, const st_ast_cref_part *part, st_env env) {
  for (const st_ast_expr *s = part->subs; s; s = s->next)
    if (s->kind != AX_INTEGER && s->kind != AX_COLON && st_fx_uses_local(st_translate(fl, s, env)))
      return 1;
  return 0;
}

/* v[subscripts of part] inside a function, indexed when the body runs: a local array, or a
 * constant array c[i] where i is a local. */
static st_fexpr *index_in_function(st_fl *fl, st_fexpr *v, const st_ast_cref_part *part,
                                   st_env env, const st_ast_cref *cr) {
  st_fexpr *ix = st_fx_new(fl->arena, FX_INDEX, 0, part->nsubs + 1, cr->loc);
  if (!ix) return NULL;
  ix->args[0] = v;
  int i = 1;
  for (const st_ast_expr *s = part->subs; s; s = s->next, i++) {
    ix->args[i] = s->kind == AX_COLON ? st_fx_new(fl->arena, FX_RANGE, 0, 0, s->loc)
                                      : st_translate(fl, s, env);
    if (!ix->args[i]) return NULL;
  }
  return ix;
}

/* Field `name` of a record value, or of every element of an array of records (`data.MM` of
 * a constant array of records is the array of their MM); NULL when v is neither. */
static st_fexpr *field_of_elements(st_fl *fl, st_fexpr *v, const char *name, st_loc loc) {
  if (st_fx_is_record(v)) return st_rec_field(fl, v, name, loc);
  if (v->kind != FX_ARRAY || v->nargs == 0) return NULL;
  st_fexpr *a = array_of(fl, v->nargs, loc);
  for (int i = 0; a && i < v->nargs; i++)
    if (!(a->args[i] = field_of_elements(fl, v->args[i], name, loc))) return NULL;
  return a;
}

/* f[subs] for an array value f with more dimensions than subscripts: the array of its
 * elements f[subs, k, ..] (an array field of an element of a constant array of records,
 * data.c[i] of Data c[2]), each indexed when the body runs. */
static st_fexpr *index_rows(st_fl *fl, st_fexpr *f, st_fexpr **subs, int nsubs, st_loc loc) {
  const st_fexpr *inner = f;
  for (int d = 0; d < nsubs && inner->kind == FX_ARRAY && inner->nargs > 0; d++)
    inner = inner->args[0];
  if (inner->kind != FX_ARRAY || st_fx_is_record(inner) || nsubs >= 4) {
    st_fexpr *ix = st_fx_new(fl->arena, FX_INDEX, 0, nsubs + 1, loc);
    if (!ix) return NULL;
    ix->args[0] = f;
    memcpy(ix->args + 1, subs, (size_t)nsubs * sizeof *subs);
    return ix;
  }
  st_fexpr *a = array_of(fl, inner->nargs, loc);
  st_fexpr *more[5];
  memcpy(more, subs, (size_t)nsubs * sizeof *subs);
  for (int k = 0; a && k < inner->nargs; k++) {
    if (!(more[nsubs] = st_fx_real(fl->arena, k + 1, loc)) ||
        !(a->args[k] = index_rows(fl, f, more, nsubs + 1, loc)))
      return NULL;
  }
  return a;
}

/* v[subscripts of part] inside a function, where v is a constant array of records: the
 * record whose every field is indexed when the body runs (`h_T(data[i], T)` for i a local:
 * {data.MM[i], data.alow[i], ..}); any other v is indexed itself. */
static st_fexpr *record_in_function(st_fl *fl, st_fexpr *v, const st_ast_cref_part *part,
                                    st_env env, const st_ast_cref *cr) {
  const st_fexpr *e = v;
  while (e->kind == FX_ARRAY && !st_fx_is_record(e) && e->nargs > 0) e = e->args[0];
  if (!st_fx_is_record(e) || e == v) return index_in_function(fl, v, part, env, cr);
  st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, e->nargs, cr->loc);
  if (!r) return NULL;
  r->str = e->str;
  st_fexpr *ix = index_in_function(fl, v, part, env, cr); /* the subscripts, translated once */
  if (!ix) return NULL;
  for (int j = 0; j < e->nargs; j++) {
    st_fexpr *f = st_rec_field_array(fl, v, j, e->nargs);
    if (!f || !(r->args[j] = index_rows(fl, f, ix->args + 1, ix->nargs - 1, cr->loc)))
      return NULL;
  }
  return r;
}

/* part (a constant whose value is v) with its subscripts, then the fields and subscripts
 * of the parts after it: `fluidConstants[1].molarMass` of a constant array of records. */
static st_fexpr *constant_access(st_fl *fl, st_fexpr *v, const st_ast_cref_part *part,
                                 const st_ast_cref *cr, st_env env) {
  for (; v; part = part->next) {
    if (part->nsubs && fl->fnctx && subscripts_use_locals(fl, part, env)) {
      /* data[j].MM with j known when the body runs: (the MM of every element)[j] */
      for (const st_ast_cref_part *p = part->next; v && p; p = p->next)
        v = p->nsubs ? NULL : field_of_elements(fl, v, p->name, cr->loc);
      if (v && part->next) return index_in_function(fl, v, part, env, cr);
      if (v) return record_in_function(fl, v, part, env, cr);
      st_fl_error(fl, cr->loc, env.inst, "'%s': a field of an element chosen when the "
                  "function runs must be a field without subscripts",
                  st_ast_cref_text(fl->tmp, cr));
      return NULL;
    }
    if (part->nsubs) v = subscript_value(fl, v, part->subs, env, cr->loc);
    if (!v || !part->next) return v;
    if (!st_fx_is_record(v) && v->kind == FX_ARRAY) {
      st_fexpr *f = field_of_elements(fl, v, part->next->name, cr->loc);
      if (f) {
        v = f;
        continue;
      }
    }
    if (!st_fx_is_record(v)) {
      st_fl_error(fl, cr->loc, env.inst, "'%s': '%s' is not a record",
                  st_ast_cref_text(fl->tmp, cr), part->name);
      return NULL;
    }
    v = st_rec_field(fl, v, part->next->name, cr->loc);
  }
  return NULL;
}

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
    if (el.comp) return constant_access(fl, constant_value(fl, &el, cr, env), part, cr, env);
    cls = el.cls;
  }
  st_fl_error(fl, cr->loc, env.inst, "'%s' does not name a value",
              st_ast_cref_text(fl->tmp, cr));
  return NULL;
}

/* A record constant given by a modifier, `constant R c(a = 1)`, or a vector of them whose
 * modifiers are all `each`: `constant R[1] c(each a = 1)`. */
static st_fexpr *record_constant(st_fl *fl, const st_ast_element *c, st_cls *rec, st_cls *owner,
                                 const st_ast_cref *cr) {
  st_env env = {NULL, owner};
  const st_ast_expr *dims = c->u.comp.subs ? c->u.comp.subs : c->u.comp.type_subs;
  if (!dims) return st_rec_from_mod(fl, c->u.comp.mod, rec, env, cr->loc);
  double n;
  for (const st_ast_arg *a = c->u.comp.mod ? c->u.comp.mod->args : NULL; a; a = a->next)
    if (!a->each) {
      st_fl_error(fl, a->loc, NULL, "the modifiers of an array of record constants must be "
                  "'each' modifiers");
      return NULL;
    }
  if ((c->u.comp.subs && c->u.comp.type_subs) || dims->next ||
      st_fl_eval_ast(fl, dims, env, &n) || n < 0 || n > 1e5) {
    st_fl_error(fl, dims->loc, NULL, "an array of record constants must have one constant "
                "size");
    return NULL;
  }
  st_fexpr *a = array_of(fl, (int)n, cr->loc);
  for (int i = 0; a && i < (int)n; i++)
    if (!(a->args[i] = st_rec_from_mod(fl, c->u.comp.mod, rec, env, cr->loc))) return NULL;
  return a;
}

/* A constant of a package (Modelica.Constants.pi): its binding, translated where it was
 * declared. */
static st_fexpr *constant_value(st_fl *fl, const st_elem *el, const st_ast_cref *cr, st_env env) {
  const st_ast_element *c = el->comp;
  st_cls *scope = el->owner;
  const st_ast_expr *value = st_cls_constant_mod(el->owner, c->u.comp.name, &scope);
  if (!value && c->u.comp.mod) value = c->u.comp.mod->value;
  st_cls *rec = NULL;
  if (!value && c->u.comp.prefix.variability >= AV_PARAMETER) {
    rec = st_lookup_class(fl->fe, el->owner, c->u.comp.type);
    rec = rec ? st_cls_resolve_short(fl->fe, rec) : NULL;
    if (!st_cls_is_record(rec)) rec = NULL;
  }
  if (c->u.comp.prefix.variability < AV_PARAMETER || (!value && !rec)) {
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
  st_fexpr *v = value ? st_translate(fl, value, (st_env){NULL, scope})
                     : record_constant(fl, c, rec, el->owner, cr);
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
  st_fexpr *bound = fl->inl && !cr->global ? st_fl_inline_value(fl, p0->name) : NULL;
  if (bound) return constant_access(fl, bound, p0, cr, env);
  if (!cr->global && cr->nparts == 1 && !p0->nsubs && find_iter(fl, p0->name, &v))
    return st_fx_real(fl->arena, v, cr->loc);
  st_inst *kid = cr->global ? NULL : st_inst_member(fl, env.inst, p0->name);
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
  return constant_access(fl, constant_value(fl, &el, cr, env), p0, cr, env);
}

/* The locals path.* of a function as a record value (records.c), NULL when there are none. */
static st_fexpr *local_record(st_fl *fl, const st_ffunction *fn, const char *path, st_loc loc) {
  size_t len = strlen(path);
  int first = -1, n = 0;
  for (int i = 0; i < fn->nlocals; i++)
    if (!strncmp(fn->locals[i].name, path, len) && fn->locals[i].name[len] == '.') {
      if (first < 0) first = i;
      n++;
    }
  if (first < 0) return NULL;
  st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, n, loc);
  if (!r) return NULL;
  /* the record class is known for a whole record component */
  r->str = fn->locals[first].record && !strchr(path, '.') ? fn->locals[first].record : "";
  for (int i = 0; i < n; i++)
    if ((r->args[i] = st_fx_new(fl->arena, FX_LOCAL, 0, 0, loc))) r->args[i]->index = first + i;
  return r;
}

/* Inside a function body: inputs, outputs and protected variables. */
static st_fexpr *local_ref(st_fl *fl, const st_ast_cref *cr, st_env env) {
  const st_ast_cref_part *p0 = cr->parts;
  const st_ffunction *fn = fl->fnctx->fn;
  int k = -1;
  if (cr->global) return NULL;
  /* a record local's leaves are named by their path: r.s.x */
  const char *path = p0->name;
  /* u[k].re of an array of records: the leaf local "u.re" indexed by u's subscripts */
  const st_ast_cref_part *indexed = NULL;
  for (const st_ast_cref_part *p = p0; p->next; p = p->next) {
    if (p->nsubs && (indexed || p != cr->parts)) return NULL;
    if (p->nsubs) indexed = p;
    path = st_arena_concat(fl->tmp, path, ".", p->next->name);
    p0 = p->next;
  }
  if (indexed && p0->nsubs) return NULL;
  if (!indexed && p0->nsubs && p0 == cr->parts) indexed = p0; /* u[k]: a record value */
  for (int i = 0; i < fn->nlocals && k < 0; i++)
    if (strcmp(fn->locals[i].name, path) == 0) k = i;
  if (k < 0) {
    st_fexpr *r = local_record(fl, fn, path, cr->loc);
    if (!r || !indexed) return p0->nsubs && !indexed ? NULL : r;
    for (int i = 0; i < r->nargs; i++)
      if (!(r->args[i] = index_in_function(fl, r->args[i], indexed, env, cr))) return NULL;
    return r;
  }
  st_fexpr *l = st_fx_new(fl->arena, FX_LOCAL, 0, 0, cr->loc);
  if (l) l->index = k;
  if (!l || (!p0->nsubs && !indexed)) return l;
  return index_in_function(fl, l, indexed ? indexed : p0, env, cr);
}

/* ----------------------------------------------------------------- operators */

static const st_fop binop_map[] = {
    [AOP_ADD] = FOP_ADD, [AOP_SUB] = FOP_SUB, [AOP_MUL] = FOP_MUL, [AOP_DIV] = FOP_DIV,
    [AOP_POW] = FOP_POW, [AOP_EADD] = FOP_ADD, [AOP_ESUB] = FOP_SUB, [AOP_EMUL] = FOP_MUL,
    [AOP_EDIV] = FOP_DIV, [AOP_EPOW] = FOP_POW, [AOP_LT] = FOP_LT, [AOP_LE] = FOP_LE,
    [AOP_GT] = FOP_GT, [AOP_GE] = FOP_GE, [AOP_EQ] = FOP_EQ, [AOP_NE] = FOP_NE,
    [AOP_AND] = FOP_AND, [AOP_OR] = FOP_OR};

static int is_array(const st_fexpr *e) { return e && e->kind == FX_ARRAY; }

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

/* Modelica.Utilities.Strings.substring(s, start, end) of constant arguments (TransformerData:
 * C1 = substring(VectorGroup, 1, 1)), else NULL. */
static const char *substring_const(st_fl *fl, const st_fexpr *e) {
  const st_ffunction *fn = &fl->functions[e->index];
  if (e->nargs != 3 || !fn->external_name || strcmp(fn->external_name, "ModelicaStrings_substring"))
    return NULL;
  const char *s = st_fl_string_const(fl, e->args[0]);
  double from, to;
  if (!s || st_fl_eval(fl, e->args[1], &from) || st_fl_eval(fl, e->args[2], &to)) return NULL;
  size_t len = strlen(s);
  if (from < 1 || to < from - 1 || to > (double)len) return NULL; /* the library's error */
  return st_arena_strndup(fl->arena, s + (size_t)from - 1, (size_t)(to - from + 1));
}

/* The text of a String literal or of a String constant or parameter (following their
 * bindings), else NULL. */
const char *st_fl_string_const(st_fl *fl, const st_fexpr *e) {
  for (int hops = 0; e && hops < 64; hops++) {
    if (e->kind == FX_STRING) return e->str;
    if (e->kind == FX_CALL) return substring_const(fl, e);
    if (e->kind != FX_VAR || fl->vars[e->index].type != ST_T_STRING) return NULL;
    e = st_fl_binding(fl, e->index);
  }
  return NULL;
}

/* A comparison of two String parameters is decided while flattening (the compiler has no
 * strings): `star if terminalConnection <> "D"`. */
static st_fexpr *compare_strings(st_fl *fl, st_ast_op op, const char *a, const char *b,
                                 st_loc loc) {
  int c = strcmp(a, b);
  int r = op == AOP_LT ? c < 0 : op == AOP_LE ? c <= 0 : op == AOP_GT ? c > 0
          : op == AOP_GE ? c >= 0 : op == AOP_EQ ? c == 0 : c != 0;
  return st_fx_bool(fl->arena, r, loc);
}

/* The text of a string literal or of a String constant or parameter with a literal value. */
static const char *string_of(st_fl *fl, const st_fexpr *e) {
  if (e->kind == FX_STRING) return e->str;
  if (e->kind != FX_VAR || fl->vars[e->index].type != ST_T_STRING) return NULL;
  const st_fexpr *b = st_fl_binding(fl, e->index);
  return b && b->kind == FX_STRING ? b->str : NULL;
}

static st_fexpr *translate_binary(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *a = st_translate(fl, e->u.binary.lhs, env);
  st_fexpr *b = a ? st_translate(fl, e->u.binary.rhs, env) : NULL;
  if (!b) return NULL;
  st_ast_op op = e->u.binary.op;
  if (op >= AOP_LT && op <= AOP_NE) {
    const char *sa = st_fl_string_const(fl, a), *sb = sa ? st_fl_string_const(fl, b) : NULL;
    if (sb) return compare_strings(fl, op, sa, sb, e->loc);
  }
  int records = st_fx_is_record(a) || st_fx_is_record(b);
  if (records || is_array(a) || is_array(b)) {
    static const char *const names[] = {
        [AOP_ADD] = "'+'", [AOP_SUB] = "'-'", [AOP_MUL] = "'*'", [AOP_DIV] = "'/'",
        [AOP_POW] = "'^'", [AOP_LT] = "'<'", [AOP_LE] = "'<='", [AOP_GT] = "'>'",
        [AOP_GE] = "'>='", [AOP_EQ] = "'=='", [AOP_NE] = "'<>'", [AOP_AND] = "'and'",
        [AOP_OR] = "'or'", [AOP_EADD] = "'+'", [AOP_ESUB] = "'-'", [AOP_EMUL] = "'*'",
        [AOP_EDIV] = "'/'", [AOP_EPOW] = "'^'"};
    const char *name = (size_t)op < sizeof names / sizeof names[0] ? names[op] : NULL;
    int errors, elementwise = op >= AOP_EADD && op <= AOP_EPOW;
    errors = fl->errors;
    /* an array of operator records, or a record with one (operators.c) */
    st_fexpr *r = name && !fl->fnctx ? st_op_array(fl, name, elementwise, a, b, e->loc, env) : NULL;
    if (r || fl->errors > errors) return r;
    if (records && !name) {
      st_fl_error(fl, e->loc, env.inst, "element-wise operators on records are not supported");
      return NULL;
    }
    if (records) return st_op_apply(fl, name, a, b, e->loc, env);
  }
  const char *sa = string_of(fl, a), *sb = string_of(fl, b);
  if (sa && sb && (op == AOP_EQ || op == AOP_NE)) /* TransformerData: C1 == "D" */
    return st_fx_bool(fl->arena, (strcmp(sa, sb) == 0) == (op == AOP_EQ), e->loc);
  const char *ta = op == AOP_ADD && !fl->fnctx ? st_fl_string_const(fl, a) : NULL;
  const char *tb = ta ? st_fl_string_const(fl, b) : NULL;
  if (a->kind == FX_STRING && b->kind == FX_STRING && op == AOP_ADD)
    return string_value(fl, st_arena_concat(fl->tmp, a->str, "", b->str), e->loc);
  if (ta && tb) /* String parameters: their texts (strings have no values at run time) */
    return string_value(fl, st_arena_concat(fl->tmp, ta, "", tb), e->loc);
  if (fl->fnctx) { /* shapes are known when the body is compiled (src/func): no expansion here */
    st_fexpr *r = st_fx_binary(fl->arena, binop_map[op], a, b, e->loc);
    /* mark .* ./ .^ so that the evaluator does not take them for * between arrays */
    if (r && (op == AOP_EMUL || op == AOP_EDIV || op == AOP_EPOW)) r->value = 1;
    return r;
  }
  if (op == AOP_MUL || op == AOP_EMUL) {
    st_fl_stream_product(fl, a, b);
    st_fl_stream_product(fl, b, a);
  }
  if (op == AOP_MUL && is_array(a) && is_array(b)) return st_fl_array_product(fl, a, b, e->loc);
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

/* -a and .-a of an array of operator records: the record's '-' on each element (negating
 * the leaves would lose the elements' record class). */
static st_fexpr *negate_records(st_fl *fl, st_fexpr *a, st_loc loc, st_env env) {
  if (st_fx_is_record(a)) return st_op_apply(fl, "'-'", a, NULL, loc, env);
  st_fexpr *r = array_of(fl, a->nargs, loc);
  for (int i = 0; r && i < a->nargs; i++)
    if (!(r->args[i] = negate_records(fl, a->args[i], loc, env))) return NULL;
  return r;
}

static st_fexpr *translate_unary(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *a = st_translate(fl, e->u.unary.arg, env);
  if (!a) return NULL;
  st_ast_op op = e->u.unary.op;
  if (st_fx_is_record(a) && (op == AOP_NEG || op == AOP_ENEG))
    return st_op_apply(fl, "'-'", a, NULL, e->loc, env);
  if (!fl->fnctx && st_op_record_array(a) && (op == AOP_NEG || op == AOP_ENEG))
    return negate_records(fl, a, e->loc, env);
  switch (e->u.unary.op) {
  case AOP_PLUS: case AOP_EPLUS: return a;
  case AOP_NOT: return negate(fl, a, FOP_NOT, e->loc);
  default:
    if (a->kind == FX_REAL) return st_fx_real(fl->arena, -a->value, e->loc);
    return negate(fl, a, FOP_NEG, e->loc);
  }
}

static int refers_to_vars(const st_fexpr *e) {
  if (e->kind == FX_VAR || e->kind == FX_TIME || e->kind == FX_CALL || e->kind == FX_LOCAL) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (refers_to_vars(e->args[i])) return 1;
  return 0;
}

static int same_shape(const st_fexpr *a, const st_fexpr *b) {
  if (!is_array(a) || !is_array(b)) return is_array(a) == is_array(b);
  if (a->nargs != b->nargs) return 0;
  for (int i = 0; i < a->nargs; i++)
    if (!same_shape(a->args[i], b->args[i])) return 0;
  return 1;
}

static int has_der(const st_fexpr *e) {
  if (e->kind == FX_BUILTIN && e->op == FB_DER) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i] && has_der(e->args[i])) return 1;
  return 0;
}

/* if c then t else f, element by element when t and f are arrays of one shape. */
static st_fexpr *if_elements(st_fl *fl, st_fexpr *c, st_fexpr *t, st_fexpr *f, st_loc loc) {
  if (is_array(t)) {
    st_fexpr *r = array_of(fl, t->nargs, loc);
    if (r && st_fx_is_record(t)) r->str = t->str[0] || !f->str ? t->str : f->str; /* records */
    for (int i = 0; r && i < t->nargs; i++)
      if (!(r->args[i] = if_elements(fl, c, t->args[i], f->args[i], loc))) return NULL;
    return r;
  }
  st_fexpr *r = st_fx_new(fl->arena, FX_IF, 0, 3, loc);
  if (!r) return NULL;
  r->args[0] = c;
  r->args[1] = t;
  r->args[2] = f;
  return r;
}

/* if c then t else f in a function, with branches of shapes known only when the body runs:
 * an array value chosen then; records field by field (`if size(X, 1) == 0 then
 * State(X = reference_X) else State(X = X)`). */
static st_fexpr *if_in_function(st_fl *fl, st_fexpr *c, st_fexpr *t, st_fexpr *f, st_loc loc) {
  if (st_fx_is_record(t) && st_fx_is_record(f) && t->nargs == f->nargs) {
    st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, t->nargs, loc);
    if (!r) return NULL;
    r->str = *t->str ? t->str : f->str;
    for (int j = 0; j < t->nargs; j++)
      if (!(r->args[j] = if_in_function(fl, c, t->args[j], f->args[j], loc))) return NULL;
    return r;
  }
  if ((is_array(t) || is_array(f)) && same_shape(t, f)) return if_elements(fl, c, t, f, loc);
  if (!is_array(t) && !is_array(f)) return if_elements(fl, c, t, f, loc);
  st_fexpr *r = st_fx_new(fl->arena, FX_IF, 0, 3, loc);
  if (r) r->args[0] = c, r->args[1] = t, r->args[2] = f;
  return r;
}

static st_fexpr *translate_if(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr *c = st_translate(fl, e->u.ifexp.cond, env);
  double v;
  /* a condition of literals and for-indices picks its branch: the other may index out of
   * range (x[i - 1] for i = 1), as tools accept; parameters stay (they may be changed later) */
  if (c && !refers_to_vars(c) && st_fl_eval(fl, c, &v) == 0)
    return st_translate(fl, v != 0 ? e->u.ifexp.then : e->u.ifexp.els, env);
  st_fexpr *t, *f;
  if (c && st_fx_is_parametric(c, fl->vars) && st_fl_eval(fl, c, &v) == 0) {
    /* the branch a parameter condition does not take may be invalid for its value
     * (`if n > 1 then linspace(a, b, n) else {a}` of Fluid's ps_start): translated quietly,
     * and left out when it fails */
    st_fexpr *taken = st_translate(fl, v != 0 ? e->u.ifexp.then : e->u.ifexp.els, env);
    if (!taken) return NULL;
    st_diag *diag = fl->diag, *quiet = st_diag_new(NULL);
    if (!quiet) return NULL;
    int errors = fl->errors;
    fl->diag = quiet;
    st_fexpr *other = st_translate(fl, v != 0 ? e->u.ifexp.els : e->u.ifexp.then, env);
    fl->diag = diag;
    st_diag_free(quiet);
    if (!other || fl->errors > errors) {
      fl->errors = errors;
      return taken;
    }
    t = v != 0 ? taken : other;
    f = v != 0 ? other : taken;
  } else {
    t = c ? st_translate(fl, e->u.ifexp.then, env) : NULL;
    f = t ? st_translate(fl, e->u.ifexp.els, env) : NULL;
  }
  if (!f) return NULL;
  /* a branch with der() under a parameter condition decides which variables are states
   * (InductorDC's v = if quasiStatic then 0 else L*der(i)): structural, so evaluated now, as
   * parametric if-equations are (sections.c) */
  if ((has_der(t) || has_der(f)) && st_fx_is_parametric(c, fl->vars) && st_fl_eval(fl, c, &v) == 0)
    return v != 0 ? t : f;
  if (is_array(t) || is_array(f)) {
    /* array branches of different sizes: a parameter condition decides the size */
    if (!same_shape(t, f)) {
      if (st_fl_eval(fl, c, &v) == 0) return v != 0 ? t : f;
      if (fl->fnctx) return if_in_function(fl, c, t, f, e->loc);
      st_fl_error(fl, e->loc, env.inst, "the branches of an if-expression have different "
                  "sizes and the condition is not a parameter expression");
      return NULL;
    }
  }
  st_fexpr *r = if_elements(fl, c, t, f, e->loc);
  if (r && st_fx_is_record(t) && st_fx_is_record(f)) r->str = *t->str ? t->str : f->str;
  return r;
}

/* ----------------------------------------------------------------- ranges, arrays */

/* The enumeration type of a literal written E.lit (also through packages), else NULL. */
static st_cls *enumeration_of(st_fl *fl, const st_ast_expr *e, st_env env) {
  if (e->kind != AX_CREF || e->u.cref->nparts < 2 || e->u.cref->nparts > 16) return NULL;
  const char *parts[16];
  int n = 0;
  for (const st_ast_cref_part *p = e->u.cref->parts; p->next; p = p->next) parts[n++] = p->name;
  st_cls *c = st_lookup_class_path(fl->fe, env.cls, parts, n, e->u.cref->global ? 1 : 0);
  c = c ? st_cls_resolve_short(fl->fe, c) : NULL;
  return c && c->ast && c->ast->form == ACF_ENUMERATION ? c : NULL;
}

/* E.a:E.c, a range of enumeration literals (Modelica 3.5 section 10.4.3). */
static st_fexpr *enumeration_range(st_fl *fl, st_cls *c, int from, int to, st_loc loc) {
  st_fexpr *r = array_of(fl, to >= from ? to - from + 1 : 0, loc);
  int ord = 1;
  for (const st_ast_enum_literal *l = c->ast->literals; r && l; l = l->next, ord++) {
    if (ord < from || ord > to) continue;
    st_fexpr *x = st_fx_new(fl->arena, FX_ENUM, 0, 0, loc);
    if (!x) return NULL;
    x->value = ord;
    x->str = st_arena_concat(fl->arena, c->name, ".", l->name);
    r->args[ord - from] = x;
  }
  return r;
}

/* The values of a for-range or range expression: a:b or a:s:b, or an array. */
st_fexpr *st_range_values(st_fl *fl, const st_ast_expr *e, st_env env) {
  double a, s = 1, b;
  if (e->kind != AX_RANGE) return st_translate(fl, e, env);
  st_cls *en = e->u.range.step ? NULL : enumeration_of(fl, e->u.range.start, env);
  if (en && !st_fl_eval_ast(fl, e->u.range.start, env, &a) &&
      !st_fl_eval_ast(fl, e->u.range.stop, env, &b))
    return enumeration_range(fl, en, (int)a, (int)b, e->loc);
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
  if (!(count < ST_MAX_ELEMS + 1)) { /* checked as a double: casting 1e300 to int is undefined */
    st_fl_error(fl, e->loc, env.inst, "range of %.3g elements is too long (limit %d)", count,
                ST_MAX_ELEMS);
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
  if (fl->fnctx && it->range && !it->next) {
    /* in a function the range is known when the body is compiled or runs (src/func) */
    st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, FB_COMPREHENSION, 2, e->loc);
    if (!r || (r->index = st_fn_iterator_local(fl, it->name, it->loc)) < 0 ||
        !(r->args[1] = st_translate(fl, it->range, env)) ||
        !(r->args[0] = st_translate(fl, e->u.array.elems, env)))
      return NULL;
    return r;
  }
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

/* cardinality(c): the number of connect-equations naming connector c, a constant once the
 * connections are known (sections.c translates them before the other equations). */
static st_fexpr *cardinality(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_expr *a = e->u.call.args->value;
  int outside;
  if (a->kind != AX_CREF || fl->fnctx) {
    st_fl_error(fl, e->loc, env.inst, "cardinality() needs a connector");
    return NULL;
  }
  if (fl->connect_pass != 2) {
    st_fl_error(fl, e->loc, env.inst, "cardinality() is only supported in equations and "
                "algorithms (the connections are not known yet)");
    return NULL;
  }
  st_inst *c = st_resolve_inst(fl, a->u.cref, env, &outside);
  return c ? st_fx_real(fl->arena, st_fl_cardinality(fl, c), e->loc) : NULL;
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
  if (builtins[k].b == FB_CARDINALITY) return cardinality(fl, e, env);
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, (int)builtins[k].b, n, e->loc);
  for (int i = 0; r && i < n; i++) {
    const st_ast_expr *a = builtin_arg(args, i, builtins[k].b == FB_HOMOTOPY ? homotopy_names[i] : NULL);
    if (!a || !(r->args[i] = st_translate(fl, a, env))) {
      if (!a) st_fl_error(fl, e->loc, env.inst, "missing argument %d of %s()", i + 1, builtins[k].name);
      return NULL;
    }
  }
  /* size() of an array of records in a function (one array local per leaf): its first leaf */
  if (r && fl->fnctx && builtins[k].b == FB_SIZE && st_fx_is_record(r->args[0]) &&
      r->args[0]->nargs > 0 && r->args[0]->args[0]->kind == FX_LOCAL)
    r->args[0] = r->args[0]->args[0];
  return r && !fl->fnctx ? st_fl_map_builtin(fl, r) : r;
}

/* String(x, ...) (Modelica 3.6 section 3.7.4.9): the text when every argument is a constant;
 * else, in a function body or where strings are built at run time (fl->string_exprs: assert
 * messages), FB_STRING with every argument given; elsewhere in a model (no String values at
 * run time) the call's source text. */
static st_fexpr *translate_string(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_fnarg *args = e->u.call.args;
  const st_ast_expr *ax = builtin_arg(args, 0, NULL);
  st_fexpr *x = ax ? st_translate(fl, ax, env) : NULL;
  if (!x) {
    if (!ax) st_fl_error(fl, e->loc, env.inst, "String() needs a value to convert");
    return NULL;
  }
  st_ftype t = st_fl_type(fl, x);
  if (t == ST_T_STRING) return x;
  st_strfmt_kind kind = t == ST_T_BOOLEAN ? ST_SF_BOOLEAN
                        : t == ST_T_INTEGER || t == ST_T_ENUM ? ST_SF_INTEGER : ST_SF_REAL;
  int real = kind == ST_SF_REAL;
  static const char *const names[] = {"significantDigits", "minimumLength", "leftJustified",
                                      "format"};
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, FB_STRING, 5, e->loc);
  if (!r) return NULL;
  r->index = (int)kind;
  r->args[0] = x;
  double defaults[] = {6, 0, 1};
  for (int i = 0; i < 4; i++) {
    /* positional: a Real's second argument is significantDigits, the others' minimumLength */
    int pos = real ? i + 1 : i == 0 ? -1 : i;
    const st_ast_expr *a = builtin_arg(args, i < 3 ? pos : -1, names[i]);
    if (a && !(r->args[i + 1] = st_translate(fl, a, env))) return NULL;
    if (!a) r->args[i + 1] = i < 3 ? st_fx_real(fl->arena, defaults[i], e->loc)
                                   : string_value(fl, "", e->loc);
    if (!r->args[i + 1]) return NULL;
  }
  /* a constant: its text now */
  double v[4];
  const char *format = st_fl_string_const(fl, r->args[4]);
  int constant = format && !st_fx_uses_local(r);
  for (int i = 0; constant && i < 4; i++) constant = !st_fl_eval(fl, r->args[i], &v[i]);
  if (constant) {
    if (x->kind == FX_ENUM && x->str) return string_value(fl, x->str, e->loc);
    const st_fvar *var = x->kind == FX_VAR ? &fl->vars[x->index] : NULL;
    if (t == ST_T_ENUM && var && v[0] >= 1 && v[0] <= var->n_enum_literals)
      return string_value(fl, var->enum_literals[(int)v[0] - 1], e->loc);
    st_strfmt spec = {kind, (int)v[1], (int)v[2], v[3] != 0, format};
    char buf[256];
    int n = st_strfmt_write(buf, sizeof buf, v[0], &spec);
    char *text = n >= 0 ? st_arena_alloc(fl->tmp, (size_t)n + 1) : NULL;
    if (n < 0) {
      st_fl_error(fl, e->loc, env.inst, "String(): format \"%s\" is not a conversion of "
                  "printf without '%%' (e.g. \"8.3f\", \"d\")", format);
      return NULL;
    }
    if (!text) return NULL;
    st_strfmt_write(text, (size_t)n + 1, v[0], &spec);
    return string_value(fl, text, e->loc);
  }
  if (fl->fnctx || fl->string_exprs) return r;
  return string_value(fl, st_ast_expr_text(fl->tmp, e), e->loc);
}

/* A call's value: the FX_CALL, or, when the first output is a record, the record value of
 * one call per leaf (op = the output it returns). */
/* An array result that varies: one call per element (value = the element, 1-based
 * row-major; the compiler's call sites return it), shaped like the output. */
static st_fexpr *element_calls(st_fl *fl, const st_fexpr *r, const int *dims, int nd, int *next) {
  if (nd == 0) {
    st_fexpr *c = st_fx_new(fl->arena, FX_CALL, r->op, r->nargs, r->loc);
    if (!c) return NULL;
    c->index = r->index;
    c->value = ++*next;
    if (r->nargs) memcpy(c->args, r->args, (size_t)r->nargs * sizeof *r->args);
    return c;
  }
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, dims[0], r->loc);
  for (int i = 0; a && i < dims[0]; i++)
    if (!(a->args[i] = element_calls(fl, r, dims + 1, nd - 1, next))) return NULL;
  return a;
}

/* A size expression of a function's locals with its scalar inputs replaced by the call's
 * arguments (output Real p[n + 1] for input Integer n); NULL when it reads anything else. */
static st_fexpr *size_of_call(st_fl *fl, const st_fexpr *e, const st_ffunction *fn,
                              const st_fexpr *r) {
  if (!e) return NULL;
  if (e->kind == FX_LOCAL) {
    if (e->index < 0 || e->index >= fn->nlocals || fn->locals[e->index].causality != ST_C_INPUT ||
        fn->locals[e->index].ndims)
      return NULL;
    int in = 0; /* the argument of that input */
    for (int i = 0; i < e->index; i++) in += fn->locals[i].causality == ST_C_INPUT;
    return in < r->nargs ? r->args[in] : NULL;
  }
  if (e->kind == FX_END || e->kind == FX_INDEX || e->kind == FX_ARRAY) return NULL;
  st_fexpr *c = st_fx_new(fl->tmp, e->kind, e->op, e->nargs, e->loc);
  if (!c) return NULL;
  c->index = e->index;
  c->value = e->value;
  c->str = e->str;
  for (int i = 0; i < e->nargs; i++)
    if (!(c->args[i] = size_of_call(fl, e->args[i], fn, r))) return NULL;
  return c;
}

/* The sizes of output `out` of call r into dims; -1 when one is not known while translating. */
static int output_dims(st_fl *fl, const st_fexpr *r, const st_ffunction *fn,
                       const st_flocal *out, int *dims) {
  for (int d = 0; d < out->ndims; d++) {
    double v;
    /* a size given by inputs (output Real y[n + 1] for input Integer n): from the arguments */
    dims[d] = out->dims[d];
    st_fexpr *size = dims[d] < 0 ? size_of_call(fl, out->size[d], fn, r) : NULL;
    fl->sizing++;
    if (size && st_fl_eval(fl, size, &v) == 0) dims[d] = (int)v;
    fl->sizing--;
    if (dims[d] < 0) return -1;
  }
  return 0;
}

static st_fexpr *array_call(st_fl *fl, st_fexpr *r, const st_ffunction *fn, const st_flocal *out) {
  int dims[4];
  if (output_dims(fl, r, fn, out, dims)) {
    st_fl_error(fl, r->loc, NULL, "'%s' returns an array whose size is not known while "
                "translating (make its arguments parameters)", fn->name);
    return NULL;
  }
  int next = 0;
  return element_calls(fl, r, dims, out->ndims, &next);
}

/* The full name of the record class of the first output of function f, else "": its
 * leaves know it, also when the output is inherited (`function extends setState_phX` of a
 * medium, declared in PartialMedium). */
static const char *output_record(const st_ffunction *f) {
  for (int i = 0; i < f->nlocals; i++)
    if (f->locals[i].causality == ST_C_OUTPUT)
      return f->locals[i].record && strchr(f->locals[i].name, '.') ? f->locals[i].record : "";
  return "";
}

/* The array of records whose field k is fields[k] (arrays of ndims dimensions). */
static st_fexpr *records_of_fields(st_fl *fl, const char *cls, st_fexpr **fields, int n,
                                   int ndims, st_loc loc) {
  if (ndims == 0) {
    st_fexpr *v = st_fx_new(fl->arena, FX_ARRAY, 0, n, loc);
    if (!v) return NULL;
    v->str = cls;
    memcpy(v->args, fields, (size_t)n * sizeof *fields);
    return v;
  }
  int len = fields[0]->kind == FX_ARRAY ? fields[0]->nargs : -1;
  for (int k = 0; k < n; k++)
    if (fields[k]->kind != FX_ARRAY || fields[k]->nargs != len) return NULL;
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, len, loc);
  st_fexpr **sub = st_arena_alloc(fl->tmp, (size_t)n * sizeof *sub);
  for (int i = 0; a && sub && i < len; i++) {
    for (int k = 0; k < n; k++) sub[k] = fields[k]->args[i];
    if (!(a->args[i] = records_of_fields(fl, cls, sub, n, ndims - 1, loc))) return NULL;
  }
  return a;
}

static st_fexpr *call_value(st_fl *fl, st_fexpr *r, const st_ffunction *fn, int raw) {
  st_fn_group *g;
  int ng = st_fn_groups(fl, fn, ST_C_OUTPUT, &g);
  if (ng < 0) return NULL;
  const st_flocal *out = NULL;
  for (int i = 0; i < fn->nlocals && !out; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT) out = &fn->locals[i];
  if (!fl->fnctx && out && out->ndims > 0 && !g[0].record && !raw) {
    /* an array result in a model: the equations are scalar, so the call is evaluated now
     * (filter coefficients from the order: Blocks.Continuous.Filter) */
    st_fexpr *v;
    if (st_fx_is_parametric(r, fl->vars) && st_fl_call(fl, r, &v) == 0) return v;
    return array_call(fl, r, fn, out);
  }
  if (ng == 0 || !g[0].record) return r;
  int n = g[0].count;
  st_fexpr *v = st_fx_new(fl->arena, FX_ARRAY, 0, n, r->loc);
  if (!v) return NULL;
  v->str = output_record(fn);
  for (int k = 0, o = 0; k < n; k++) {
    st_fexpr *c = st_fx_new(fl->arena, FX_CALL, k, r->nargs, r->loc);
    if (!c) return NULL;
    c->index = r->index;
    if (r->nargs) memcpy(c->args, r->args, (size_t)r->nargs * sizeof *r->args);
    v->args[k] = c;
    /* an array field in a model: its elements, as for an array result */
    const st_flocal *leaf = NULL;
    for (; o < fn->nlocals && !leaf; o++)
      if (fn->locals[o].causality == ST_C_OUTPUT) leaf = &fn->locals[o];
    if (leaf && leaf->ndims > 0 && !fl->fnctx && !raw && !(v->args[k] = array_call(fl, c, fn, leaf)))
      return NULL;
  }
  /* an array of records in a model: the array of the element records */
  if (out->record_ndims > 0 && !fl->fnctx && !raw) {
    st_fexpr *a = records_of_fields(fl, v->str, v->args, n, out->record_ndims, r->loc);
    if (!a) st_fl_error(fl, r->loc, NULL, "'%s' returns an array of records of fields of "
                        "different sizes", fn->name);
    return a;
  }
  return v;
}

/* Input number k of fn. */
static const st_flocal *input_local(const st_ffunction *fn, int k) {
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_INPUT && k-- == 0) return &fn->locals[i];
  return NULL;
}

/* v, an array given to the scalar (or scalar record) input t, vectorizes the call (Modelica
 * 3.5 section 12.4.6; in equations: inside a function an array of records is an array per
 * field, func_translate.c). */
static int vectorized(st_fl *fl, const st_ffunction *fn, const st_fn_group *t,
                      const st_fexpr *v) {
  return !fl->fnctx && !st_fx_is_record(v) && v->kind == FX_ARRAY && v->nargs > 0 &&
         input_local(fn, t->first)->ndims == 0 &&
         (!t->record || st_fx_is_record(v->args[0]) || v->args[0]->kind == FX_ARRAY);
}

/* The value v of input group t of call r. */
static int set_input(st_fl *fl, st_fexpr *r, const st_ffunction *fn, const st_fn_group *t,
                     st_fexpr *v, st_loc loc, st_env env) {
  if (!t->record) {
    r->args[t->first] = v;
  } else if (st_fx_is_record(v) && v->nargs == t->count) {
    memcpy(r->args + t->first, v->args, (size_t)t->count * sizeof *v->args);
  } else if (input_local(fn, t->first)->ndims > 0 && st_rec_field_array(fl, v, 0, t->count)) {
    for (int j = 0; j < t->count; j++)
      if (!(r->args[t->first + j] = st_rec_field_array(fl, v, j, t->count))) return -1;
  } else {
    st_fl_error(fl, loc, env.inst, "%s(): input '%s' needs a record value with %d fields",
                fn->name, t->name, t->count);
    return -1;
  }
  return 0;
}

/* An input's default as an argument: translated with the function, a call returning an
 * array is there the array value; in a model an array is its elements, so such a call
 * becomes the array of its element calls as if written in the model (Quaternions.from_T's
 * Q_guess = nullRotation(): the bare call gave NaN, and every MultiBody body's Q_start). */
static st_fexpr *default_argument(st_fl *fl, st_fexpr *b) {
  if (!fl->fnctx && b && b->kind == FX_BUILTIN) return st_fl_filled_value(fl, b);
  if (fl->fnctx || !b || b->kind != FX_CALL || b->op != 0 || b->index < 0 ||
      b->index >= fl->nfunctions || st_fx_uses_local(b))
    return b;
  const st_ffunction *g = &fl->functions[b->index];
  const st_flocal *out = NULL;
  for (int i = 0; i < g->nlocals && !out; i++)
    if (g->locals[i].causality == ST_C_OUTPUT) out = &g->locals[i];
  if (!out || out->ndims == 0) return b;
  st_fexpr *c = st_fx_new(fl->arena, FX_CALL, 0, b->nargs, b->loc);
  if (!c) return NULL;
  c->index = b->index;
  if (b->nargs) memcpy(c->args, b->args, (size_t)b->nargs * sizeof *b->args); /* nullRotation(): none */
  return call_value(fl, c, g, 0);
}

/* Whether v is the array element_calls() made of call c: the elements of c's array output
 * in its shape, in row-major order, each with c's arguments (*next counts them). */
static int elements_of(const st_fexpr *v, const st_fexpr *c, const int *dims, int nd, int *next) {
  if (nd == 0)
    return v->kind == FX_CALL && v->index == c->index && v->op == 0 && v->value == ++*next &&
           v->nargs == c->nargs &&
           (!c->nargs || !memcmp(v->args, c->args, (size_t)c->nargs * sizeof *c->args));
  if (v->kind != FX_ARRAY || st_fx_is_record(v) || v->nargs != dims[0]) return 0;
  for (int i = 0; i < v->nargs; i++)
    if (!elements_of(v->args[i], c, dims + 1, nd - 1, next)) return 0;
  return 1;
}

/* An argument that is all of the array output of a call, as the call itself (value 0: the
 * whole output), else v. Each element call holds the call's arguments: shared, but a tree to
 * every pass that walks them, n^depth nodes for array calls nested depth deep (f(f(f(x))));
 * the whole call is one node whose elements the compiler pushes from one evaluation. */
static st_fexpr *whole_call(st_fl *fl, st_fexpr *v) {
  const st_fexpr *c = v;
  while (c->kind == FX_ARRAY && !st_fx_is_record(c) && c->nargs > 0) c = c->args[0];
  if (c == v || c->kind != FX_CALL || c->op != 0 || c->value != 1 || c->index < 0 ||
      c->index >= fl->nfunctions)
    return v;
  const st_ffunction *fn = &fl->functions[c->index];
  const st_flocal *out = NULL;
  for (int i = 0; i < fn->nlocals && !out; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT) out = &fn->locals[i];
  int dims[4], next = 0;
  if (!out || out->record || out->ndims < 1 || out->ndims > 4 ||
      output_dims(fl, c, fn, out, dims) || !elements_of(v, c, dims, out->ndims, &next))
    return v;
  st_fexpr *w = st_fx_new(fl->arena, FX_CALL, 0, c->nargs, v->loc);
  if (!w) return v;
  w->index = c->index;
  w->value = 0;
  if (c->nargs) memcpy(w->args, c->args, (size_t)c->nargs * sizeof *c->args);
  return w;
}

/* The inputs left out take their defaults; the call's value: the body of a function to
 * be inlined (inline.c), else the call. */
static st_fexpr *finish_call(st_fl *fl, st_fexpr *r, const st_ffunction *fn, int raw, st_loc loc,
                             st_env env) {
  for (int i = 0, in = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    if (!r->args[in]) r->args[in] = default_argument(fl, fn->locals[i].binding);
    if (!r->args[in]) {
      st_fl_error(fl, loc, env.inst, "%s(): missing input '%s'", fn->name, fn->locals[i].name);
      return NULL;
    }
    in++;
  }
  st_fexpr *body = raw ? NULL : st_fl_inline_call(fl, (st_cls *)fl->function_cls[r->index], fn, r);
  /* an inlined record result (PartialSimpleMedium's setState_phX) names its class, as the
   * call's value would, so that its fields can be taken */
  if (body && st_fx_is_record(body) && !*body->str)
    body->str = output_record(fn);
  if (body) return body;
  for (int i = 0; !fl->fnctx && i < r->nargs; i++) r->args[i] = whole_call(fl, r->args[i]);
  return call_value(fl, r, fn, raw);
}

/* A function given as a short class with a modifier, `function g = f(k = 2)` (as World's
 * gravityAcceleration): the modifier's values are defaults of those inputs, translated
 * where the short class is written. */
typedef struct bound_args {
  const st_ast_mod *mod;
  st_env env;
  const st_fn_arg *given; /* a call f(u) of a functional input: the arguments its binding
                             gave, as the locals "f.a" of the function being translated */
} bound_args;

/* The locals "f.a" that hold the arguments the functional input f was bound with. */
static int given_locals(st_fl *fl, const st_fn_arg *arg, st_fexpr **out, st_loc loc) {
  const st_ffunction *fn = fl->fnctx->fn;
  for (int j = 0; j < arg->nbound; j++) {
    const char *name = st_arena_concat(fl->tmp, arg->name, ".", arg->bound[j]);
    out[j] = NULL;
    for (int i = 0; i < fn->nlocals && !out[j]; i++)
      if (!strcmp(fn->locals[i].name, name) && (out[j] = st_fx_new(fl->arena, FX_LOCAL, 0, 0, loc)))
        out[j]->index = i;
    if (!out[j] && !(out[j] = local_record(fl, fn, name, loc))) return -1;
  }
  return 0;
}

static int place_bound(st_fl *fl, st_fexpr *r, const st_ffunction *fn, st_fn_group *g, int ng,
                       const bound_args *b) {
  for (int j = 0; b && b->given && j < b->given->nbound; j++) {
    st_fexpr *v[1];
    int i = 0;
    while (i < ng && strcmp(g[i].name, b->given->bound[j])) i++;
    st_fn_arg one = *b->given;
    one.bound += j;
    one.nbound = 1;
    if (i == ng || given_locals(fl, &one, v, r->loc)) {
      st_fl_error(fl, r->loc, NULL, "%s(): cannot bind input '%s'", fn->name,
                  b->given->bound[j]);
      return -1;
    }
    if (!r->args[g[i].first] && set_input(fl, r, fn, &g[i], v[0], r->loc, b->env)) return -1;
  }
  for (const st_ast_arg *a = b && b->mod ? b->mod->args : NULL; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || a->name->nparts != 1 || !a->mod || !a->mod->value)
      continue;
    for (int i = 0; i < ng; i++) {
      if (strcmp(g[i].name, a->name->parts[0]) || r->args[g[i].first]) continue;
      st_fexpr *v = st_translate(fl, a->mod->value, b->env);
      if (!v || set_input(fl, r, fn, &g[i], v, a->loc, b->env)) return -1;
    }
  }
  return 0;
}

static st_fexpr *call_user_bound(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env,
                                 const bound_args *bound);

/* The instance whose scope class scope is, from inst up: a function redeclared in the
 * modifier of component `world` (`redeclare function g = f(phi = lat)`) reads `lat` in the
 * model holding world, not in world. inst itself when none is (the redeclaration is
 * written in a base class of inst's class). */
static st_inst *scope_instance(st_inst *inst, const st_cls *scope) {
  for (st_inst *i = inst; i; i = i->parent)
    if (i->cls == scope) return i;
  return inst;
}

/* f(.., {x(k) for k in r}, ..) with a scalar input there is {f(.., x(k), ..) for k in r}
 * (section 12.4.6; also inside function bodies, where the size is known only when it runs:
 * `real({v[k] * conj(i[k]) for k in 1:size(v, 1)})`). */
static st_fexpr *comprehension_of_calls(st_fl *fl, const st_ast_expr *e, const st_ast_fnarg *arg,
                                        st_env env) {
  st_ast_fnarg *args = NULL, **tail = &args;
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    st_ast_fnarg *c = st_arena_alloc(fl->arena, sizeof *c);
    if (!c) return NULL;
    *c = *a;
    c->next = NULL;
    if (a == arg) c->value = a->value->u.array.elems;
    *tail = c;
    tail = &c->next;
  }
  st_ast_expr *call = st_arena_alloc(fl->arena, sizeof *call);
  st_ast_expr *arr = st_arena_alloc(fl->arena, sizeof *arr);
  if (!call || !arr) return NULL;
  *call = *e;
  call->next = NULL;
  call->u.call.args = args;
  *arr = *arg->value;
  arr->next = NULL;
  arr->u.array.elems = call;
  arr->u.array.nelems = 1;
  return st_translate(fl, arr, env);
}

/* Call r with the arrays vec[t] (NULL: not vectorized) given to scalar inputs: the array of
 * the calls of their elements, dimension by dimension; the arrays must agree in size. */
static st_fexpr *vectorized_call(st_fl *fl, const st_fexpr *r, const st_ffunction *fn,
                                 const st_fn_group *g, int ng, st_fexpr **vec, int raw,
                                 st_loc loc, st_env env) {
  int n = -1;
  for (int t = 0; t < ng; t++) {
    if (!vec[t]) continue;
    if (n >= 0 && vec[t]->nargs != n) {
      st_fl_error(fl, loc, env.inst, "%s(): the arrays of a vectorized call differ in size "
                  "(%d and %d)", fn->name, n, vec[t]->nargs);
      return NULL;
    }
    n = vec[t]->nargs;
  }
  st_fexpr **sub = st_arena_alloc(fl->tmp, (size_t)(ng + 1) * sizeof *sub);
  st_fexpr *arr = sub ? st_fx_new(fl->arena, FX_ARRAY, 0, n, loc) : NULL;
  for (int i = 0; arr && i < n; i++) {
    st_fexpr *c = st_fx_new(fl->arena, FX_CALL, 0, r->nargs, loc);
    if (!c) return NULL;
    c->index = r->index;
    if (r->nargs) memcpy(c->args, r->args, (size_t)r->nargs * sizeof *r->args);
    int deeper = 0;
    for (int t = 0; t < ng; t++) {
      sub[t] = NULL;
      if (!vec[t]) continue;
      st_fexpr *el = vec[t]->args[i];
      if (vectorized(fl, fn, &g[t], el)) {
        sub[t] = el;
        deeper = 1;
      } else if (set_input(fl, c, fn, &g[t], el, loc, env)) {
        return NULL;
      }
    }
    arr->args[i] = deeper ? vectorized_call(fl, c, fn, g, ng, sub, raw, loc, env)
                          : finish_call(fl, c, fn, raw, loc, env);
    if (!arr->args[i]) return NULL;
  }
  return arr;
}

/* loadResource("modelica://Lib/file") (Modelica.Utilities.Files and the tool's own
 * ModelicaServices.ExternalReferences; the library's default implementation knows no URIs)
 * is the file's absolute path, which must exist; other names keep the call (fullPathName). */
static st_fexpr *load_resource(st_fl *fl, const st_ffunction *fn, const st_fexpr *r,
                               st_loc loc, st_env env) {
  if ((strcmp(fn->name, "Modelica.Utilities.Files.loadResource") &&
       strcmp(fn->name, "ModelicaServices.ExternalReferences.loadResource")) ||
      r->nargs != 1 || !r->args[0] || r->args[0]->kind != FX_STRING ||
      strncmp(r->args[0]->str, "modelica://", 11))
    return NULL;
  const char *path = st_fl_resolve_uri(fl, r->args[0]->str, ".");
  const char *abs = path ? st_fl_existing_path(fl, path) : NULL;
  if (!abs) {
    st_fl_error(fl, loc, env.inst, "loadResource(\"%s\"): %s%s does not exist",
                r->args[0]->str, path && path != r->args[0]->str ? path : "the library",
                path && path != r->args[0]->str ? "" : " it names");
    return NULL;
  }
  return string_value(fl, abs, loc);
}

static st_fexpr *call_user(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env) {
  return call_user_bound(fl, e, cls, env, NULL);
}

/* The inputs of function class cls in declaration order (bases first where they are
 * extended), each once; *functional set for those whose type is a function. */
static int ast_inputs(st_fl *fl, st_cls *cls, const char **names, unsigned char *functional,
                      int n, int cap, int depth) {
  for (const st_ast_element *e = cls->ast && depth < 32 ? cls->ast->elements : NULL; e;
       e = e->next) {
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, cls, e);
      if (base) n = ast_inputs(fl, base, names, functional, n, cap, depth + 1);
      continue;
    }
    if (e->kind != AEL_COMPONENT || e->is_protected || e->u.comp.prefix.causality != AC_INPUT)
      continue;
    int seen = 0;
    for (int i = 0; i < n && !seen; i++) seen = !strcmp(names[i], e->u.comp.name);
    if (seen || n == cap) continue;
    st_cls *t = st_lookup_class(fl->fe, cls, e->u.comp.type);
    t = t ? st_cls_resolve_short(fl->fe, t) : NULL;
    functional[n] = t && st_cls_is(t, ACK_FUNCTION);
    names[n++] = e->u.comp.name;
  }
  return n;
}

/* The function given for functional input `name`: `function g(a = x)`, a function name g,
 * or the caller's own functional input passed on. */
static int function_argument(st_fl *fl, const st_ast_expr *v, const char *name, st_env env,
                             st_fn_arg *out) {
  *out = (st_fn_arg){name, NULL, 0, NULL, NULL};
  const st_fn_spec *mine = fl->fnctx ? fl->fnctx->spec : NULL;
  if (v->kind == AX_CREF && v->u.cref->nparts == 1 && !v->u.cref->global && mine)
    for (int i = 0; i < mine->n; i++)
      if (!strcmp(mine->args[i].name, v->u.cref->parts->name)) {
        *out = mine->args[i];
        out->name = name;
        out->values = st_arena_alloc(fl->arena, (size_t)(out->nbound + 1) * sizeof *out->values);
        return out->values ? given_locals(fl, &mine->args[i], out->values, v->loc) : -1;
      }
  const char *parts[16];
  int n = 0, global = 0;
  if (v->kind == AX_PARTIAL) {
    for (int i = 0; i < v->u.partial.fn->nparts && n < 16; i++) parts[n++] = v->u.partial.fn->parts[i];
    global = v->u.partial.fn->global;
  } else if (v->kind == AX_CREF) {
    for (const st_ast_cref_part *p = v->u.cref->parts; p && n < 16; p = p->next)
      if (!p->nsubs) parts[n++] = p->name;
    global = v->u.cref->global;
    if (n != v->u.cref->nparts) n = 0;
  }
  st_cls *c = n ? st_lookup_class_path(fl->fe, env.cls, parts, n, global) : NULL;
  c = c ? st_cls_resolve_short(fl->fe, c) : NULL;
  if (!c || !st_cls_is(c, ACK_FUNCTION)) {
    st_fl_error(fl, v->loc, env.inst, "the argument of functional input '%s' must name a "
                "function (g or `function g(a = ...)`)", name);
    return -1;
  }
  out->target = c;
  if (v->kind != AX_PARTIAL) return 0;
  for (const st_ast_fnarg *a = v->u.partial.args; a; a = a->next) out->nbound++;
  out->bound = st_arena_alloc(fl->arena, (size_t)(out->nbound + 1) * sizeof *out->bound);
  out->values = st_arena_alloc(fl->arena, (size_t)(out->nbound + 1) * sizeof *out->values);
  if (!out->bound || !out->values) return -1;
  int j = 0;
  for (const st_ast_fnarg *a = v->u.partial.args; a; a = a->next, j++) {
    out->bound[j] = a->name;
    if (!a->name || !(out->values[j] = st_translate(fl, a->value, env))) return -1;
  }
  return 0;
}

/* A call of a function with functional inputs (section 12.4.2): their arguments make the
 * specialization spec; the call *rest keeps the other arguments, all named. 0 when cls has
 * no functional input, 1 when specialized, -1 on error. */
static int functional_call(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env,
                           st_fn_spec *spec, const st_ast_expr **rest) {
  const char *names[64];
  unsigned char functional[64];
  int n = ast_inputs(fl, cls, names, functional, 0, 64, 0), any = 0;
  for (int i = 0; i < n; i++) any |= functional[i];
  if (!any) return 0;
  spec->n = 0;
  spec->args = st_arena_alloc(fl->tmp, (size_t)n * sizeof *spec->args);
  st_ast_expr *call = st_arena_alloc(fl->tmp, sizeof *call);
  if (!spec->args || !call) return -1;
  *call = *e;
  call->u.call.args = NULL;
  st_ast_fnarg **tail = &call->u.call.args;
  int pos = 0;
  const char *key = "";
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    int target = -1;
    for (int i = 0; i < n && target < 0; i++)
      if (a->name ? !strcmp(names[i], a->name) : i == pos) target = i;
    if (!a->name) pos++;
    if (target < 0) {
      st_fl_error(fl, a->loc, env.inst, "%s(): no input %s", cls->full,
                  a->name ? a->name : "at this position");
      return -1;
    }
    if (!functional[target]) {
      st_ast_fnarg *c = st_arena_alloc(fl->tmp, sizeof *c);
      if (!c) return -1;
      *c = *a;
      c->name = names[target];
      c->next = NULL;
      *tail = c;
      tail = &c->next;
      continue;
    }
    st_fn_arg *f = &spec->args[spec->n++];
    if (function_argument(fl, a->value, names[target], env, f)) return -1;
    key = st_arena_printf(fl->tmp, "%s%s%s = %s", key, *key ? ", " : "", f->name, f->target->full);
    for (int j = 0; j < f->nbound; j++)
      key = st_arena_printf(fl->tmp, "%s%s%s%s", key, j ? ", " : "(", f->bound[j],
                            j == f->nbound - 1 ? ")" : "");
  }
  spec->key = st_arena_strdup(fl->arena, key);
  *rest = call;
  return spec->key ? 1 : -1;
}

/* The values the call gives to the bound arguments "f.a" of its functional inputs. */
static int place_functional(st_fl *fl, st_fexpr *r, const st_fn_spec *spec,
                            const st_fn_group *g, int ng) {
  for (int k = 0; k < spec->n; k++) {
    const st_fn_arg *f = &spec->args[k];
    if (!f->nbound) continue;
    int i = 0;
    while (i < ng && strcmp(g[i].name, f->name)) i++;
    if (i == ng) return -1;
    int n = 0; /* a record value gives its fields */
    for (int j = 0; j < f->nbound; j++) {
      const st_fexpr *v = f->values[j];
      int nf = st_fx_is_record(v) ? v->nargs : 1;
      for (int m = 0; m < nf; m++, n++)
        if (n < g[i].count) r->args[g[i].first + n] = st_fx_is_record(v) ? v->args[m] : f->values[j];
    }
    if (n != g[i].count) return -1;
  }
  (void)fl;
  return 0;
}

/* f(u) in a function whose functional input f is bound to `function g(a = x)`: g(u, a = x). */
static st_fexpr *call_functional(st_fl *fl, const st_ast_expr *e, const st_fn_arg *f,
                                 st_env env) {
  bound_args b = {NULL, env, f};
  return call_user_bound(fl, e, f->target, env, &b);
}

/* Arguments of a user function call in the order of its inputs. */
static st_fexpr *call_user_bound(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env,
                                 const bound_args *bound) {
  int raw = fl->raw_call;
  fl->raw_call = 0; /* calls in the arguments are values */
  st_fn_spec spec;
  int special = functional_call(fl, e, cls, env, &spec, &e);
  if (special < 0) return NULL;
  int k = st_fl_function_spec(fl, cls, special ? &spec : NULL, e->loc);
  if (k < 0) return NULL;
  const st_ffunction *fn = &fl->functions[k];
  int ninputs = 0;
  for (int i = 0; i < fn->nlocals; i++) ninputs += fn->locals[i].causality == ST_C_INPUT;
  st_fexpr *r = st_fx_new(fl->arena, FX_CALL, 0, ninputs, e->loc);
  st_fn_group *g;
  int ng = st_fn_groups(fl, fn, ST_C_INPUT, &g);
  if (!r || ng < 0) return NULL;
  r->index = k;
  int pos = 0;
  st_fexpr **vec = st_arena_alloc(fl->tmp, (size_t)(ng + 1) * sizeof *vec);
  int nvec = 0;
  if (!vec) return NULL;
  memset(vec, 0, (size_t)(ng + 1) * sizeof *vec);
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    int target = -1;
    for (int i = 0; i < ng && target < 0; i++)
      if (a->name ? strcmp(g[i].name, a->name) == 0 : i == pos) target = i;
    if (!a->name) pos++;
    if (target < 0) {
      st_fl_error(fl, a->loc, env.inst, "%s(): no input %s", fn->name,
                  a->name ? a->name : "at this position");
      return NULL;
    }
    if (a->value->kind == AX_ARRAY && a->value->u.array.iters &&
        input_local(fn, g[target].first)->ndims == 0)
      return comprehension_of_calls(fl, e, a, env);
    st_fexpr *v = st_translate(fl, a->value, env);
    if (!v) return NULL;
    if (vectorized(fl, fn, &g[target], v)) {
      vec[target] = v;
      nvec++;
      continue;
    }
    if (set_input(fl, r, fn, &g[target], v, a->loc, env)) return NULL;
  }
  if (place_bound(fl, r, fn, g, ng, bound)) return NULL;
  if (special && place_functional(fl, r, &spec, g, ng)) {
    st_fl_error(fl, e->loc, env.inst, "%s(): the bound arguments of its functional inputs "
                "do not fit", fn->name);
    return NULL;
  }
  int errors = fl->errors;
  st_fexpr *resource = !nvec ? load_resource(fl, fn, r, e->loc, env) : NULL;
  if (resource || fl->errors > errors) return resource;
  if (!nvec) return finish_call(fl, r, fn, raw, e->loc, env);
  return vectorized_call(fl, r, fn, g, ng, vec, raw, e->loc, env);
}

st_fexpr *st_fl_call_values(st_fl *fl, st_cls *cls, st_fexpr **args, int nargs, st_loc loc,
                            st_env env) {
  int k = st_fl_function(fl, cls, loc);
  if (k < 0) return NULL;
  const st_ffunction *fn = &fl->functions[k];
  int ninputs = 0;
  for (int i = 0; i < fn->nlocals; i++) ninputs += fn->locals[i].causality == ST_C_INPUT;
  st_fexpr *r = st_fx_new(fl->arena, FX_CALL, 0, ninputs, loc);
  st_fn_group *g;
  int ng = st_fn_groups(fl, fn, ST_C_INPUT, &g);
  if (!r || ng < 0) return NULL;
  r->index = k;
  for (int i = 0; i < nargs; i++) {
    if (i >= ng) {
      st_fl_error(fl, loc, env.inst, "%s(): too many arguments", fn->name);
      return NULL;
    }
    if (set_input(fl, r, fn, &g[i], args[i], loc, env)) return NULL;
  }
  return finish_call(fl, r, fn, 0, loc, env);
}

static st_fexpr *builtin_of_call(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env,
                                 st_fexpr *call, int k, int n);

/* A function declared `external "builtin"` (Modelica 3.6 section 12.9: Modelica.Math.sin
 * and friends) is the built-in of its external name: the call becomes FX_BUILTIN over the
 * arguments the external clause passes, so index reduction and the Jacobian see sin() itself. */
static st_fexpr *call_external_builtin(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env) {
  const st_ast_external *x = cls->ast->external;
  const char *name = x->fn ? x->fn : cls->name;
  int k = find_builtin(name);
  int n = 0;
  for (const st_ast_expr *a = x->args; a; a = a->next) n++;
  if (k < 0 || builtins[k].b == FB_SIZE) {
    st_fl_error(fl, x->loc, env.inst, "external \"builtin\" function '%s' of '%s' is not a "
                "built-in function of stiction", name, cls->full);
    return NULL;
  }
  st_fexpr *call = call_user(fl, e, cls, env);
  return call ? builtin_of_call(fl, e, cls, env, call, k, n) : NULL;
}

/* The built-in k over the arguments of call (with n of them), element by element for a
 * vectorized call. */
static st_fexpr *builtin_of_call(st_fl *fl, const st_ast_expr *e, st_cls *cls, st_env env,
                                 st_fexpr *call, int k, int n) {
  const st_ast_external *x = cls->ast->external;
  const char *name = x->fn ? x->fn : cls->name;
  if (call->kind == FX_ARRAY && !st_fx_is_record(call)) {
    st_fexpr *arr = st_fx_new(fl->arena, FX_ARRAY, 0, call->nargs, call->loc);
    for (int i = 0; arr && i < call->nargs; i++)
      if (!(arr->args[i] = builtin_of_call(fl, e, cls, env, call->args[i], k, n))) return NULL;
    return arr;
  }
  if (call->kind != FX_CALL) {
    st_fl_error(fl, x->loc, env.inst, "external \"builtin\" function '%s' of '%s' cannot be "
                "inlined", name, cls->full);
    return NULL;
  }
  const st_ffunction *fn = &fl->functions[call->index];
  if (!x->fn) n = call->nargs;
  if (builtins[k].nargs >= 0 && n != builtins[k].nargs) {
    st_fl_error(fl, x->loc, env.inst, "external \"builtin\" function '%s' of '%s' takes %d "
                "arguments, %d given", name, cls->full, builtins[k].nargs, n);
    return NULL;
  }
  st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, (int)builtins[k].b, n, e->loc);
  const st_ast_expr *a = x->args;
  for (int i = 0; r && i < n; i++, a = a ? a->next : NULL) {
    int in = x->fn ? -1 : i;
    for (int j = 0, ord = 0; in < 0 && j < fn->nlocals; j++) {
      if (fn->locals[j].causality != ST_C_INPUT) continue;
      if (a->kind == AX_CREF && a->u.cref->nparts == 1 && !a->u.cref->parts->nsubs &&
          strcmp(a->u.cref->parts->name, fn->locals[j].name) == 0)
        in = ord;
      ord++;
    }
    if (in < 0) {
      st_fl_error(fl, a->loc, env.inst, "external \"builtin\" function '%s': every argument "
                  "must name an input", cls->full);
      return NULL;
    }
    r->args[i] = call->args[in];
  }
  return r;
}

/* The array functions inside function bodies: FX_BUILTIN for the function machine (src/func). */
static st_fexpr *function_array_builtin(st_fl *fl, const st_ast_expr *e, const char *name,
                                        st_env env) {
  static const struct {
    const char *name;
    st_builtin b;
    int nargs; /* -1: one or more */
  } fns[] = {
      {"zeros", FB_ZEROS, -1}, {"ones", FB_ONES, -1}, {"fill", FB_FILL, -1},
      {"sum", FB_SUM, 1}, {"product", FB_PRODUCT, 1}, {"min", FB_AMIN, 1}, {"max", FB_AMAX, 1},
      {"ndims", FB_NDIMS, 1}, {"size", FB_SIZES, 1}, {"transpose", FB_TRANSPOSE, 1},
      {"identity", FB_IDENTITY, 1}, {"diagonal", FB_DIAGONAL, 1}, {"linspace", FB_LINSPACE, 3},
      {"vector", FB_VECTOR, 1}, {"scalar", FB_SCALAR, 1}, {"matrix", FB_MATRIX, 1},
      {"cross", FB_CROSS, 2}, {"cat", FB_CAT, -1},
  };
  int n = count_args(e->u.call.args);
  if (!strcmp(name, "skew") && n == 1 && !e->u.call.iters) {
    /* skew(x) = [0, -x[3], x[2]; x[3], 0, -x[1]; -x[2], x[1], 0] */
    static const int at[3][3] = {{0, -3, 2}, {3, 0, -1}, {-2, 1, 0}};
    st_fexpr *x = st_translate(fl, e->u.call.args->value, env);
    st_fexpr *m = x ? array_of(fl, 3, e->loc) : NULL;
    for (int i = 0; m && i < 3; i++) {
      if (!(m->args[i] = array_of(fl, 3, e->loc))) return NULL;
      for (int j = 0; j < 3; j++) {
        int k = at[i][j] < 0 ? -at[i][j] : at[i][j];
        st_fexpr *el = st_fx_real(fl->arena, 0, e->loc);
        if (k) {
          st_fexpr *ix = st_fx_new(fl->arena, FX_INDEX, 0, 2, e->loc);
          if (!ix) return NULL;
          ix->args[0] = x;
          ix->args[1] = st_fx_real(fl->arena, k, e->loc);
          el = at[i][j] < 0 ? st_fx_unary(fl->arena, FOP_NEG, ix, e->loc) : ix;
        }
        if (!(m->args[i]->args[j] = el)) return NULL;
      }
    }
    return m;
  }
  if (!strcmp(name, "outerProduct") && n == 2 && !e->u.call.iters) {
    /* outerProduct(x, y) = matrix(x)*transpose(matrix(y)) */
    st_fexpr *x = st_translate(fl, e->u.call.args->value, env);
    st_fexpr *y = x ? st_translate(fl, e->u.call.args->next->value, env) : NULL;
    st_fexpr *mx = st_fx_new(fl->arena, FX_BUILTIN, FB_MATRIX, 1, e->loc);
    st_fexpr *my = st_fx_new(fl->arena, FX_BUILTIN, FB_MATRIX, 1, e->loc);
    st_fexpr *ty = st_fx_new(fl->arena, FX_BUILTIN, FB_TRANSPOSE, 1, e->loc);
    if (!y || !mx || !my || !ty) return NULL;
    mx->args[0] = x;
    my->args[0] = y;
    ty->args[0] = my;
    return st_fx_binary(fl->arena, FOP_MUL, mx, ty, e->loc);
  }
  for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
    if (strcmp(fns[k].name, name) || (fns[k].nargs >= 0 && n != fns[k].nargs) || n == 0 ||
        e->u.call.iters)
      continue;
    st_fexpr *r = st_fx_new(fl->arena, FX_BUILTIN, (int)fns[k].b, n, e->loc);
    int i = 0;
    for (const st_ast_fnarg *a = e->u.call.args; r && a; a = a->next, i++)
      if (a->name || !(r->args[i] = st_translate(fl, a->value, env))) {
        if (a->name) st_fl_error(fl, a->loc, env.inst, "%s(): named arguments are not supported", name);
        return NULL;
      }
    return r;
  }
  return NULL;
}

static st_fexpr *translate_call(st_fl *fl, const st_ast_expr *e, st_env env);

/* world.gravityAcceleration(r): a function class of a component (a replaceable function
 * redeclared in its modifier), looked up in the component's class; *owner the component.
 * NULL when fn does not start with a component. */
static st_cls *function_of_component(st_fl *fl, const st_ast_cref *fn, st_env env,
                                     st_inst **owner) {
  if (fn->global || fn->nparts < 2 || !env.inst) return NULL;
  st_inst *in = st_inst_member(fl, env.inst, fn->parts->name);
  const st_ast_cref_part *p = fn->parts->next;
  for (; in && p->next; p = p->next) in = p->nsubs ? NULL : st_inst_member(fl, in, p->name);
  st_elem el;
  if (!in || in->var >= 0 || !in->cls || st_lookup_member(fl->fe, in->cls, p->name, &el) ||
      !el.cls)
    return NULL;
  *owner = in;
  return el.cls;
}

/* Reductions sum(e for i in r), product, min, max (Modelica 3.5 section 10.3.4) are the
 * function of the array {e for i in r}; array(a, b) is {a, b} and array(e for i in r) the
 * comprehension. */
static st_fexpr *reduction(st_fl *fl, const st_ast_expr *e, const char *name, st_env env) {
  const st_ast_fnarg *args = e->u.call.args;
  if (!e->u.call.iters) {
    int n = count_args(args), i = 0;
    st_fexpr *a = array_of(fl, n, e->loc);
    for (const st_ast_fnarg *g = args; a && g; g = g->next)
      if (g->name || !(a->args[i++] = st_translate(fl, g->value, env))) return NULL;
    return a;
  }
  if (!args || args->next || args->name) {
    st_fl_error(fl, e->loc, env.inst, "%s(... for ...) takes one expression", name);
    return NULL;
  }
  st_ast_expr *arr = st_arena_alloc(fl->tmp, sizeof *arr);
  if (!arr) return NULL;
  *arr = (st_ast_expr){.kind = AX_ARRAY, .loc = e->loc, .height = e->height};
  arr->u.array.elems = args->value;
  arr->u.array.nelems = 1;
  arr->u.array.iters = e->u.call.iters;
  if (!strcmp(name, "array")) return st_translate(fl, arr, env);
  st_ast_fnarg *a = st_arena_alloc(fl->tmp, sizeof *a);
  st_ast_expr *call = st_arena_alloc(fl->tmp, sizeof *call);
  if (!a || !call) return NULL;
  *a = (st_ast_fnarg){.loc = args->loc, .value = arr};
  *call = *e;
  call->u.call.args = a;
  call->u.call.iters = NULL;
  return translate_call(fl, call, env);
}

/* The last identifier of a dotted class name (a quoted identifier may hold dots). */
static const char *last_identifier(const char *name) {
  const char *last = name;
  int quoted = 0;
  for (const char *p = name; *p; p++) {
    if (*p == '\\' && quoted && p[1]) p++;
    else if (*p == '\'') quoted = !quoted;
    else if (*p == '.' && !quoted) last = p + 1;
  }
  return last;
}

static st_fexpr *translate_call(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_cref *fn = e->u.call.fn;
  const char *name = fn->parts->name;
  /* `.sum(v)`: the built-ins are in the global scope unless a top-level class takes the name
   * (ComplexMath.sum calls .sum of the arrays of parts) */
  int global = fn->global && !(fn->nparts == 1 && !st_cls_kid(fl->fe, fl->fe->root, name) &&
                               !st_front_load_top(fl->fe, name));
  if (fn->nparts == 2 && !global && !strcmp(name, "Connections")) {
    int errors = fl->errors;
    st_fexpr *q = st_fl_connections_query(fl, e, env);
    if (q || fl->errors > errors) return q;
  }
  for (int i = 0; fn->nparts == 1 && !fn->global && fl->fnctx && fl->fnctx->spec &&
                  i < fl->fnctx->spec->n; i++)
    if (!strcmp(fl->fnctx->spec->args[i].name, name))
      return call_functional(fl, e, &fl->fnctx->spec->args[i], env);
  if (fn->nparts == 1 && !global &&
      ((e->u.call.iters && (!strcmp(name, "sum") || !strcmp(name, "product") ||
                            !strcmp(name, "min") || !strcmp(name, "max"))) ||
       !strcmp(name, "array")))
    return reduction(fl, e, name, env);
  /* a function of that name in scope (`import Modelica.ComplexMath.abs`) hides the
   * built-in (Modelica 3.5 section 5.3) */
  int shadowed = 0;
  if (fn->nparts == 1 && !fn->global && env.cls) {
    st_cls *c = st_lookup_class_path(fl->fe, env.cls, &name, 1, 0);
    shadowed = c && st_cls_is(st_cls_resolve_short(fl->fe, c), ACK_FUNCTION);
  }
  if (fn->nparts == 1 && !global && fl->fnctx && !shadowed) {
    int errors = fl->errors;
    st_fexpr *r = function_array_builtin(fl, e, name, env);
    if (r || fl->errors > errors) return r;
  }
  if (fn->nparts == 1 && !global && !shadowed) {
    int handled;
    st_fexpr *r = st_fl_array_builtin(fl, e, name, env, &handled);
    if (handled) return r;
    r = st_fl_clock_call(fl, e, name, env, &handled);
    if (handled) return r;
    r = st_fl_stream_call(fl, e, name, env, &handled);
    if (handled) return r;
    int k = find_builtin(name);
    if (k >= 0) return call_builtin(fl, e, k, env);
    if (strcmp(name, "String") == 0) return translate_string(fl, e, env);
    if (strcmp(name, "getInstanceName") == 0 && !e->u.call.args) {
      /* section 3.7.4.6: the simulated class's own name (MyLib.Vehicle gives
       * "Vehicle.engine.controller"); the MSL's noise blocks hash it into their seeds */
      const char *top = fl->top && fl->top->cls ? fl->top->cls->full : "";
      top = last_identifier(top);
      const char *path = env.inst ? env.inst->path : "";
      return string_value(fl, *path ? st_arena_printf(fl->tmp, "%s.%s", top, path) : top, e->loc);
    }
  }
  const char *parts[16];
  int n = 0;
  for (const st_ast_cref_part *p = fn->parts; p && n < 16; p = p->next) parts[n++] = p->name;
  st_inst *owner = NULL;
  st_cls *cls = function_of_component(fl, fn, env, &owner);
  if (!cls) cls = st_lookup_class_path(fl->fe, env.cls, parts, n, fn->global ? 1 : 0);
  bound_args bound = {NULL, {owner, cls ? cls->parent : NULL}, NULL};
  if (owner && cls) bound.env.inst = scope_instance(owner, cls->parent);
  /* a function class of the instance's own class (ControlledPump's `redeclare function
   * flowCharacteristic = quadraticFlow(V_flow_nominal = {0, V_flow_op, ...})`): its
   * modifiers read the instance's parameters */
  st_elem mine;
  if (cls && !owner && env.inst && env.inst->cls && n == 1 && !fn->global &&
      st_lookup_member(fl->fe, env.inst->cls, parts[0], &mine) == 0 && mine.cls)
    bound.env.inst = scope_instance(env.inst, cls->parent);
  if (cls && cls->ast && cls->ast->form == ACF_SHORT) bound.mod = cls->ast->base_mod;
  if (cls) cls = st_cls_resolve_short(fl->fe, cls);
  if (!cls) {
    st_fl_error(fl, e->loc, env.inst, "undefined function '%s'", st_ast_cref_text(fl->tmp, fn));
    return NULL;
  }
  if (st_cls_is_external_object(cls)) { /* Table(...): its constructor */
    st_cls *ctor = st_cls_kid(fl->fe, cls, "constructor");
    if (!ctor) {
      st_fl_error(fl, e->loc, env.inst, "external object '%s' has no constructor", cls->full);
      return NULL;
    }
    cls = st_cls_resolve_short(fl->fe, ctor);
  }
  if (!st_cls_is(cls, ACK_FUNCTION) && !st_cls_is_record(cls)) {
    st_fl_error(fl, e->loc, env.inst, "'%s' is not a function", cls->full);
    return NULL;
  }
  if (st_cls_is(cls, ACK_OPERATOR_RECORD)) {
    st_cls *ctor = st_op_constructor(fl, cls, e);
    if (ctor) return call_user(fl, e, ctor, env);
  }
  if (st_cls_is_record(cls)) return st_rec_construct(fl, e, cls, env);
  const st_ast_external *x = cls->ast->external;
  if (x && x->language && strcmp(x->language, "builtin") == 0)
    return call_external_builtin(fl, e, cls, env);
  return call_user_bound(fl, e, cls, env, &bound);
}

/* ----------------------------------------------------------------- entry */

/* An element of [a, b; c, d] as a matrix (Modelica 3.5 section 10.4.2): a scalar is 1x1, a
 * vector a column; arrays of two or more dimensions stay. */
static st_fexpr *promote_to_matrix(st_fl *fl, st_fexpr *x) {
  if (x->kind == FX_ARRAY && x->nargs > 0 && x->args[0]->kind == FX_ARRAY) return x;
  int n = x->kind == FX_ARRAY ? x->nargs : 1;
  st_fexpr *m = array_of(fl, n, x->loc);
  for (int i = 0; m && i < n; i++) {
    st_fexpr *row = array_of(fl, 1, x->loc);
    if (!row) return NULL;
    row->args[0] = x->kind == FX_ARRAY ? x->args[i] : x;
    m->args[i] = row;
  }
  return m;
}

/* Whether x's shape is known only when a function body runs (not a literal). */
static int shape_unknown(const st_fexpr *x) {
  return x->kind != FX_ARRAY && x->kind != FX_REAL && x->kind != FX_BOOL && x->kind != FX_ENUM;
}

/* cat(k, parts[0..n)) as a built-in call, each part promoted by matrix() when promote. */
static st_fexpr *cat_call(st_fl *fl, int k, st_fexpr **parts, int n, int promote, st_loc loc) {
  st_fexpr *c = st_fx_new(fl->arena, FX_BUILTIN, FB_CAT, n + 1, loc);
  if (!c || !(c->args[0] = st_fx_real(fl->arena, k, loc))) return NULL;
  for (int i = 0; i < n; i++) {
    st_fexpr *m = promote ? st_fx_new(fl->arena, FX_BUILTIN, FB_MATRIX, 1, loc) : parts[i];
    if (!m) return NULL;
    if (promote) m->args[0] = parts[i];
    c->args[i + 1] = m;
  }
  return c;
}

/* [a, b; c, d] in a function body of elements whose shapes are known only there (zeros(n),
 * v): cat(1, cat(2, matrix(a), matrix(b)), ...) for the function machine, which promotes a
 * vector to a column (Modelica 3.5 section 10.4.2). */
static st_fexpr *function_matrix(st_fl *fl, const st_ast_expr *e, st_env env) {
  st_fexpr **rows = st_arena_alloc(fl->tmp, (size_t)(e->u.matrix.nrows + 1) * sizeof *rows);
  int i = 0;
  for (const st_ast_expr *row = e->u.matrix.rows; rows && row; row = row->next, i++) {
    st_fexpr *elems = translate_list_array(fl, row->u.array.elems, env, row->loc);
    if (!elems || !(rows[i] = cat_call(fl, 2, elems->args, elems->nargs, 1, row->loc)))
      return NULL;
  }
  return rows ? cat_call(fl, 1, rows, i, 0, e->loc) : NULL;
}

/* Whether some element of matrix e has a shape known only when a function body runs. */
static int matrix_of_unknown_shapes(st_fl *fl, const st_ast_expr *e, st_env env) {
  if (!fl->fnctx) return 0;
  for (const st_ast_expr *row = e->u.matrix.rows; row; row = row->next) {
    int errors = fl->errors;
    st_fexpr *elems = translate_list_array(fl, row->u.array.elems, env, row->loc);
    fl->errors = errors; /* translated again by the caller, which reports */
    for (int j = 0; elems && j < elems->nargs; j++)
      if (shape_unknown(elems->args[j])) return 1;
  }
  return 0;
}

/* [a, b; c, d] is cat(1, cat(2, a, b), cat(2, c, d)) of the promoted elements. */
static st_fexpr *translate_matrix(st_fl *fl, const st_ast_expr *e, st_env env) {
  if (matrix_of_unknown_shapes(fl, e, env)) return function_matrix(fl, e, env);
  st_fexpr **rows = st_arena_alloc(fl->tmp, (size_t)(e->u.matrix.nrows + 1) * sizeof *rows);
  int i = 0;
  for (const st_ast_expr *row = e->u.matrix.rows; rows && row; row = row->next, i++) {
    st_fexpr *elems = translate_list_array(fl, row->u.array.elems, env, row->loc);
    if (!elems) return NULL;
    for (int j = 0; j < elems->nargs; j++)
      if (!(elems->args[j] = promote_to_matrix(fl, elems->args[j]))) return NULL;
    if (!(rows[i] = st_fl_cat(fl, 2, elems->args, elems->nargs, row->loc, env.inst)))
      return NULL;
  }
  return rows ? st_fl_cat(fl, 1, rows, i, e->loc, env.inst) : NULL;
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
