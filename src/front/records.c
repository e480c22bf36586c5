/* Records in expressions (Modelica 3.6 section 12.6). A record value is an FX_ARRAY whose
 * str is the record class's full name and whose elements are the record's leaves: its scalar
 * and array fields in declaration order, nested records spliced in (a record R(a, S s(x, y))
 * is {a, s.x, s.y}). The same flat order names the locals of a record input or output of a
 * function ("r.a", "r.s.x"), so equations and assignments between record values pair leaf
 * by leaf, and a call's record result is its outputs in order. The compiler never sees a
 * record: everything becomes scalars here. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LEAVES 256

int st_cls_is_record(const st_cls *c) {
  return st_cls_is(c, ACK_RECORD) || st_cls_is(c, ACK_OPERATOR_RECORD);
}

int st_fx_is_record(const st_fexpr *e) { return e && e->kind == FX_ARRAY && e->str; }

typedef struct leaf_buf {
  st_rec_leaf *items;
  int n, cap;        /* grown on demand: most records have a few leaves, and a full
                        MAX_LEAVES buffer per call was most of the front end's memory */
  int ntop;          /* top-level fields so far */
} leaf_buf;

/* The modifiers of the extends clauses that lead to the class being collected, innermost
 * first: their `redeclare` elements replace the type of a component (TransientData.StackData's
 * `extends BaseStackData(redeclare TransientData.CellData cellDataOriginal)`). */
typedef struct redeclares {
  const st_ast_mod *mod;
  st_cls *where; /* the class that wrote the extends clause */
  const struct redeclares *outer;
} redeclares;

static int collect(st_fl *fl, st_cls *rec, const char *prefix, int top, leaf_buf *b, int depth,
                   const redeclares *rd);

/* The size subscript s gives, -1 when it is not a constant of the record's class (`[:]`,
 * `[Ns, Np]` of the record's own parameters: known per value, not per class). Quiet: a
 * size unknown here is no error. */
static int leaf_dim(st_fl *fl, const st_ast_expr *s, st_cls *owner) {
  if (s->kind == AX_COLON) return -1;
  st_diag *diag = fl->diag, *quiet = st_diag_new(NULL);
  if (!quiet) return -1;
  int errors = fl->errors;
  double v;
  fl->diag = quiet;
  int rc = st_fl_eval_ast(fl, s, (st_env){NULL, owner}, &v);
  fl->diag = diag;
  fl->errors = errors;
  st_diag_free(quiet);
  return rc == 0 ? (int)v : -1;
}

/* Modifier args of `extends Base(a = 4)` or of a record field `Sub s(x = 2)` (written in
 * class where) override the defaults of leaves first..b->n-1 below prefix; applied after
 * the inner ones, so the outermost wins as in instantiation. */
static void override_defaults(leaf_buf *b, int first, const char *prefix, const st_ast_mod *m,
                              st_cls *where, st_fl *fl) {
  for (const st_ast_arg *a = m ? m->args : NULL; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || !a->mod) continue;
    const char *path = a->name->text;
    if (prefix) path = st_arena_concat(fl->tmp, prefix, ".", path);
    size_t len = strlen(path);
    if (a->mod->value)
      for (int i = first; i < b->n; i++)
        if (!strcmp(b->items[i].name, path)) {
          b->items[i].dflt = a->mod->value;
          b->items[i].dflt_cls = where;
        }
    /* `s(x = 2)`: the sub-modifiers of a record field */
    int below = 0;
    for (int i = first; i < b->n && !below; i++)
      below = !strncmp(b->items[i].name, path, len) && b->items[i].name[len] == '.';
    if (below) override_defaults(b, first, path, a->mod, where, fl);
  }
}

/* The outermost redeclaration of component name in rd, and the class that wrote it; NULL. */
static const st_ast_element *redeclared(const redeclares *rd, const char *name, st_cls **where) {
  const st_ast_element *found = NULL;
  for (; rd; rd = rd->outer)
    for (const st_ast_arg *a = rd->mod ? rd->mod->args : NULL; a; a = a->next)
      if (a->kind == AA_REDECLARE && a->element && a->element->kind == AEL_COMPONENT &&
          !strcmp(a->element->u.comp.name, name)) {
        found = a->element;
        *where = rd->where;
      }
  return found;
}

static int add_component(st_fl *fl, st_cls *owner, const st_ast_element *e, const char *prefix,
                         int top, leaf_buf *b, int depth, const redeclares *rd) {
  st_cls *re_where = NULL;
  const st_ast_element *re = redeclared(rd, e->u.comp.name, &re_where);
  st_cls *t = re ? st_lookup_class(fl->fe, re_where, re->u.comp.type)
                 : st_lookup_class(fl->fe, owner, e->u.comp.type);
  t = t ? st_cls_resolve_short(fl->fe, t) : NULL;
  if (!t) return -1;
  const char *name = prefix ? st_arena_concat(fl->arena, prefix, ".", e->u.comp.name)
                            : st_arena_strdup(fl->arena, e->u.comp.name);
  if (st_cls_is_record(t)) {
    int first = b->n;
    if (collect(fl, t, name, top, b, depth + 1, NULL)) return -1;
    override_defaults(b, first, name, e->u.comp.mod, owner, fl);
    if (re) override_defaults(b, first, name, re->u.comp.mod, re_where, fl);
    /* an array of records is one array per field (rcData.R[nRC]): the component's dimensions
     * come first, its binding is the whole group's */
    for (int i = first; e->u.comp.subs && i < b->n; i++) {
      st_rec_leaf *l = &b->items[i];
      int nsubs = 0;
      for (const st_ast_expr *s = e->u.comp.subs; s; s = s->next) nsubs++;
      if (l->ndims + nsubs > 4) {
        st_fl_error(fl, e->loc, NULL, "record field '%s' has more than 4 dimensions", l->name);
        return -1;
      }
      memmove(l->dims + nsubs, l->dims, (size_t)l->ndims * sizeof *l->dims);
      memmove(l->size + nsubs, l->size, (size_t)l->ndims * sizeof *l->size);
      int d = 0;
      for (const st_ast_expr *s = e->u.comp.subs; s; s = s->next, d++) {
        l->size[d] = s->kind != AX_COLON ? s : NULL;
        l->dims[d] = leaf_dim(fl, s, owner);
      }
      l->ndims += nsubs;
      l->dflt = NULL; /* the group's binding gives it (fill_record) */
      l->array_of_records = 1;
    }
    return 0;
  }
  if (t->prim < 0 && !(t->ast && t->ast->form == ACF_ENUMERATION)) {
    st_fl_error(fl, e->loc, NULL, "record field '%s' must be of a predefined type or a record",
                e->u.comp.name);
    return -1;
  }
  /* one element inherited twice (two icons declaring CellType) is one field (Modelica 3.6
   * section 7.1.2: identical duplicates are merged) */
  for (int i = 0; i < b->n; i++)
    if (!strcmp(b->items[i].name, name)) return 0;
  if (b->n == MAX_LEAVES) {
    st_fl_error(fl, e->loc, NULL, "record with more than %d fields", MAX_LEAVES);
    return -1;
  }
  if (st_arena_grow(fl->tmp, (void **)&b->items, &b->cap, b->n, sizeof *b->items)) return -1;
  st_rec_leaf *l = &b->items[b->n++];
  memset(l, 0, sizeof *l);
  l->name = name;
  l->decl = e;
  l->owner = owner;
  l->type = t->prim >= 0 ? (st_ftype)t->prim : ST_T_ENUM;
  l->top = top;
  l->dflt = e->u.comp.mod ? e->u.comp.mod->value : NULL;
  l->dflt_cls = owner;
  for (const st_ast_expr *s = e->u.comp.subs; s && l->ndims < 4; s = s->next) {
    l->size[l->ndims] = s->kind != AX_COLON ? s : NULL;
    l->dims[l->ndims++] = leaf_dim(fl, s, owner);
  }
  return 0;
}

static int collect(st_fl *fl, st_cls *rec, const char *prefix, int top, leaf_buf *b, int depth,
                   const redeclares *rd) {
  if (depth > 16 || !rec->ast) return depth > 16 ? -1 : 0;
  for (const st_ast_element *e = rec->ast->elements; e; e = e->next) {
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, rec, e);
      int first = b->n;
      redeclares inner = {e->u.extends.mod, rec, rd};
      if (!base || collect(fl, st_cls_resolve_short(fl->fe, base), prefix, top, b, depth + 1, &inner))
        return -1;
      override_defaults(b, first, prefix, e->u.extends.mod, rec, fl);
      continue;
    }
    if (e->kind != AEL_COMPONENT || e->is_protected) continue;
    int before = b->n;
    if (add_component(fl, rec, e, prefix, prefix ? top : b->ntop, b, depth, rd)) return -1;
    if (!prefix && b->n > before) b->ntop++;
  }
  return 0;
}

/* The leaves of each record class asked for without a prefix: an open-addressed table in
 * fl->tmp. They depend on the class alone (sizes are evaluated in the class, defaults are
 * its own), so every caller shares one array and none writes to it. */
typedef struct st_rec_memo {
  const st_cls *cls;
  st_rec_leaf *items;
  int n;
} st_rec_memo;

static size_t memo_start(const st_fl *fl, const st_cls *cls) {
  size_t h = (size_t)(uintptr_t)cls * 0x9E3779B97F4A7C15u;
  return (h ^ (h >> 29)) & (size_t)(fl->caprec_memos - 1);
}

static const st_rec_memo *memo_find(const st_fl *fl, const st_cls *cls) {
  if (!fl->nrec_memos) return NULL;
  for (size_t i = memo_start(fl, cls);; i = (i + 1) & (size_t)(fl->caprec_memos - 1)) {
    const st_rec_memo *m = &fl->rec_memos[i];
    if (!m->cls || m->cls == cls) return m->cls ? m : NULL;
  }
}

/* Out of memory only means the leaves are collected again next time. */
static void memo_put(st_fl *fl, st_rec_memo memo) {
  if (2 * (fl->nrec_memos + 1) > fl->caprec_memos) {
    int cap = fl->caprec_memos ? 2 * fl->caprec_memos : 32, oldcap = fl->caprec_memos;
    st_rec_memo *old = fl->rec_memos, *t = st_arena_alloc(fl->tmp, (size_t)cap * sizeof *t);
    if (!t) return;
    fl->rec_memos = t;
    fl->caprec_memos = cap;
    fl->nrec_memos = 0;
    for (int i = 0; i < oldcap; i++)
      if (old[i].cls) memo_put(fl, old[i]);
  }
  size_t i = memo_start(fl, memo.cls);
  while (fl->rec_memos[i].cls) i = (i + 1) & (size_t)(fl->caprec_memos - 1);
  fl->rec_memos[i] = memo;
  fl->nrec_memos++;
}

int st_rec_leaves(st_fl *fl, st_cls *rec, const char *prefix, st_rec_leaf **out) {
  const st_rec_memo *known = prefix ? NULL : memo_find(fl, rec);
  if (known) {
    *out = known->items;
    return known->n;
  }
  leaf_buf b = {0};
  if (collect(fl, st_cls_resolve_short(fl->fe, rec), prefix, 0, &b, 0, NULL)) return -1;
  if (!prefix) memo_put(fl, (st_rec_memo){rec, b.items, b.n});
  *out = b.items;
  return b.n;
}

/* ------------------------------------------------------------ values */

/* Field j of every element of v, an array of records with n fields: the array of that field
 * (an array-of-records input is one array per leaf, func_translate.c); NULL if v is not one. */
st_fexpr *st_rec_field_array(st_fl *fl, const st_fexpr *v, int j, int n) {
  if (st_fx_is_record(v)) return v->nargs == n ? v->args[j] : NULL;
  if (v->kind != FX_ARRAY || v->nargs == 0) return NULL;
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, v->nargs, v->loc);
  for (int i = 0; a && i < v->nargs; i++)
    if (!(a->args[i] = st_rec_field_array(fl, v->args[i], j, n))) return NULL;
  return a;
}

static st_fexpr *record_value(st_fl *fl, const char *cls, int n, st_loc loc) {
  st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, n, loc);
  if (r) r->str = cls;
  return r;
}

/* vals[0..dims product) row-major as nested arrays of shape dims[0..nd). */
static st_fexpr *nest(st_fl *fl, st_fexpr **vals, const int *dims, int nd, st_loc loc) {
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, dims[0], loc);
  int stride = 1;
  for (int d = 1; d < nd; d++) stride *= dims[d];
  for (int i = 0; a && i < dims[0]; i++)
    if (!(a->args[i] = nd == 1 ? vals[i] : nest(fl, vals + i * stride, dims + 1, nd - 1, loc)))
      return NULL;
  return a;
}

static int inst_leaves(st_fl *fl, st_inst *node, st_fexpr **b, int *n, st_loc loc,
                       st_fexpr *(*value)(st_fl *, st_inst *, st_loc));

/* An array of records (its elements record nodes): one array per field, shaped as the
 * array (rcData.R[nRC]), in the order st_rec_leaves gives. */
static int record_array_leaves(st_fl *fl, st_inst *k, st_fexpr **b, int *n, st_loc loc,
                               st_fexpr *(*value)(st_fl *, st_inst *, st_loc)) {
  int ne = k->nkids, nf = -1;
  st_fexpr **all = ne ? st_arena_alloc(fl->tmp, (size_t)ne * MAX_LEAVES * sizeof *all) : NULL;
  if (!all) return -1;
  for (int e = 0; e < ne; e++) {
    int m = 0;
    if (inst_leaves(fl, k->kids[e], all + (size_t)e * MAX_LEAVES, &m, loc, value)) return -1;
    if (nf >= 0 && m != nf) return -1;
    nf = m;
  }
  st_fexpr **col = st_arena_alloc(fl->tmp, (size_t)ne * sizeof *col);
  if (!col || *n + nf > MAX_LEAVES) return -1;
  for (int f = 0; f < nf; f++) {
    for (int e = 0; e < ne; e++) col[e] = all[(size_t)e * MAX_LEAVES + f];
    if (!(b[(*n)++] = nest(fl, col, k->dims, k->ndims, loc))) return -1;
  }
  return 0;
}

static int is_record_array(const st_inst *k) {
  return k->ndims > 0 && k->nkids > 0 && k->kids[0]->var < 0 && k->kids[0]->ndims == 0 &&
         k->kids[0]->nkids > 0;
}

/* The leaves of instance node (a record or connector component) into b. */
static int inst_leaves(st_fl *fl, st_inst *node, st_fexpr **b, int *n, st_loc loc,
                       st_fexpr *(*value)(st_fl *, st_inst *, st_loc)) {
  for (int i = 0; i < node->nkids; i++) {
    st_inst *k = node->kids[i];
    if (k->disabled) continue;
    if (is_record_array(k)) {
      if (record_array_leaves(fl, k, b, n, loc, value)) return -1;
    } else if (k->var >= 0 || k->ndims > 0) {
      if (*n == MAX_LEAVES) return -1;
      if (!(b[(*n)++] = value(fl, k, loc))) return -1;
    } else if (inst_leaves(fl, k, b, n, loc, value)) {
      return -1;
    }
  }
  return 0;
}

/* A scalar variable, or an array of them (nested FX_ARRAY). */
static st_fexpr *var_value(st_fl *fl, st_inst *k, st_loc loc) {
  if (k->var >= 0) return st_fx_var(fl->arena, k->var, loc);
  if (k->ndims == 0) return NULL;
  /* the kids of an array node are its elements, row-major */
  int stride = k->nkids / (k->dims[0] ? k->dims[0] : 1);
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, k->dims[0], loc);
  for (int i = 0; a && i < k->dims[0]; i++) {
    st_inst sub = *k;
    if (k->ndims == 1) {
      if (!(a->args[i] = var_value(fl, k->kids[i], loc))) return NULL;
      continue;
    }
    sub.ndims = k->ndims - 1;
    memmove(sub.dims, k->dims + 1, sizeof sub.dims - sizeof sub.dims[0]);
    sub.kids = k->kids + i * stride;
    sub.nkids = stride;
    if (!(a->args[i] = var_value(fl, &sub, loc))) return NULL;
  }
  return a;
}

st_fexpr *st_rec_of_inst(st_fl *fl, st_inst *node, st_loc loc) {
  st_fexpr *buf[MAX_LEAVES];
  int n = 0;
  if (inst_leaves(fl, node, buf, &n, loc, var_value) || n == 0) {
    st_fl_error(fl, loc, NULL, "'%s' cannot be used as a value (a record or connector of "
                "scalar and array variables is needed)", node->path);
    return NULL;
  }
  st_fexpr *r = record_value(fl, node->cls ? node->cls->full : "", n, loc);
  if (r) memcpy(r->args, buf, (size_t)n * sizeof *buf);
  return r;
}

/* The fields computed so far as names for the defaults that read them (`final c = a*b`, as
 * the constructor's protected part would): the top-level fields of r, and when leaf k is
 * inside a record field, its siblings by their names within it (looked up first). */
static int bound_fields(st_fl *fl, const st_fexpr *r, const st_rec_leaf *lv, int k,
                        const char **names, st_fexpr **values) {
  int n = 0, i = 0;
  const char *dot = strrchr(lv[k].name, '.');
  size_t plen = dot ? (size_t)(dot - lv[k].name) + 1 : 0;
  for (int s = 0; plen && s < k; s++)
    if (!strncmp(lv[s].name, lv[k].name, plen) && !strchr(lv[s].name + plen, '.')) {
      names[n] = lv[s].name + plen;
      values[n++] = r->args[s];
    }
  while (i < k) {
    int j = i;
    while (j < k && lv[j].top == lv[i].top) j++;
    if (lv[j - 1].top == lv[k].top) break; /* k's own group: not complete */
    if (j == i + 1 && !strchr(lv[i].name, '.')) {
      names[n] = lv[i].name;
      values[n++] = r->args[i];
    } else {
      st_fexpr *v = record_value(fl, "", j - i, r->loc);
      if (!v) return -1;
      memcpy(v->args, r->args + i, (size_t)(j - i) * sizeof *v->args);
      const char *d = strchr(lv[i].name, '.');
      names[n] = d ? st_arena_strndup(fl->tmp, lv[i].name, (size_t)(d - lv[i].name)) : lv[i].name;
      values[n++] = v;
    }
    i = j;
  }
  return n;
}

/* The default of leaf k (declared, or from an extends or field modifier) into r. */
static int leaf_default(st_fl *fl, st_loc loc, const char *rec, const st_rec_leaf *lv, int k,
                        st_fexpr *r, st_env env) {
  if (!lv[k].dflt) {
    st_fl_error(fl, loc, env.inst, "%s(): missing value of field '%s'", rec, lv[k].name);
    return -1;
  }
  const char **names = st_arena_alloc(fl->tmp, 2 * (size_t)(k + 1) * sizeof *names);
  st_fexpr **values = st_arena_alloc(fl->tmp, 2 * (size_t)(k + 1) * sizeof *values);
  int n = names && values ? bound_fields(fl, r, lv, k, names, values) : -1;
  if (n < 0) return -1;
  r->args[k] = st_fl_translate_bound(fl, lv[k].dflt, lv[k].dflt_cls, names, values, n);
  return r->args[k] ? 0 : -1;
}

static st_fexpr *fill_record(st_fl *fl, st_fexpr *r, const st_rec_leaf *lv, int n,
                             const st_ast_expr **given, st_env env, st_loc loc);

/* R(a, b = 2, ...): the fields in order from the arguments (positional, then named), else
 * their declared defaults; a record argument fills the leaves of a record field. */
st_fexpr *st_rec_construct(st_fl *fl, const st_ast_expr *e, st_cls *rec, st_env env) {
  st_rec_leaf *lv;
  int n = st_rec_leaves(fl, rec, NULL, &lv);
  if (n < 0) return NULL;
  st_fexpr *r = record_value(fl, rec->full, n, e->loc);
  if (!r) return NULL;
  int ntop = n ? lv[n - 1].top + 1 : 0;
  const st_ast_expr **given = st_arena_alloc(fl->tmp, (size_t)(ntop + 1) * sizeof *given);
  if (!given) return NULL;
  memset(given, 0, (size_t)(ntop + 1) * sizeof *given);
  int pos = 0;
  for (const st_ast_fnarg *a = e->u.call.args; a; a = a->next) {
    int t = -1;
    if (!a->name) t = pos++;
    size_t len = a->name ? strlen(a->name) : 0;
    for (int i = 0; a->name && i < n && t < 0; i++) /* the first segment names the field */
      if (!strncmp(lv[i].name, a->name, len) && (lv[i].name[len] == 0 || lv[i].name[len] == '.'))
        t = lv[i].top;
    if (t < 0 || t >= ntop) {
      st_fl_error(fl, a->loc, env.inst, "%s(): no field %s", rec->full,
                  a->name ? a->name : "at this position");
      return NULL;
    }
    given[t] = a->value;
  }
  return fill_record(fl, r, lv, n, given, env, e->loc);
}

/* The value of a record constant declared with a modifier, `constant R c(a = 1, b = 2)`:
 * the fields it gives, the declared defaults for the others. */
st_fexpr *st_rec_from_mod(st_fl *fl, const st_ast_mod *m, st_cls *rec, st_env env, st_loc loc) {
  st_rec_leaf *lv;
  int n = st_rec_leaves(fl, rec, NULL, &lv);
  if (n < 0) return NULL;
  st_fexpr *r = record_value(fl, rec->full, n, loc);
  int ntop = n ? lv[n - 1].top + 1 : 0;
  const st_ast_expr **given = st_arena_alloc(fl->tmp, (size_t)(ntop + 1) * sizeof *given);
  if (!r || !given) return NULL;
  memset(given, 0, (size_t)(ntop + 1) * sizeof *given);
  for (const st_ast_arg *a = m ? m->args : NULL; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || a->name->nparts != 1 || !a->mod || !a->mod->value)
      continue;
    for (int i = 0; i < n; i++)
      if (!strcmp(lv[i].name, a->name->parts[0]) ||
          (!strncmp(lv[i].name, a->name->parts[0], strlen(a->name->parts[0])) &&
           lv[i].name[strlen(a->name->parts[0])] == '.')) {
        given[lv[i].top] = a->mod->value;
        break;
      }
  }
  return fill_record(fl, r, lv, n, given, env, loc);
}

static st_fexpr *fill_record(st_fl *fl, st_fexpr *r, const st_rec_leaf *lv, int n,
                             const st_ast_expr **given, st_env env, st_loc loc) {
  const char *rec = r->str;
  for (int i = 0; i < n;) {
    int j = i;
    while (j < n && lv[j].top == lv[i].top) j++;
    const st_ast_expr *x = given[lv[i].top];
    if (!x) { /* the defaults of a scalar field or of the leaves of a record field */
      for (int k = i; k < j; k++)
        if (leaf_default(fl, loc, rec, lv, k, r, env)) return NULL;
      i = j;
      continue;
    }
    st_fexpr *v = st_translate(fl, x, env);
    if (!v) return NULL;
    if (j == i + 1 && !st_fx_is_record(v)) {
      r->args[i] = v;
    } else if (st_fx_is_record(v) && v->nargs == j - i) {
      memcpy(r->args + i, v->args, (size_t)(j - i) * sizeof *v->args);
    } else {
      st_fl_error(fl, x->loc, env.inst, "%s(): the value of field '%s' does not fit it",
                  rec, lv[i].name);
      return NULL;
    }
    i = j;
  }
  return r;
}

/* The leaf named `field` (a dotted path) of a record value of class rec: the element, or a
 * record value of the leaves below it. */
st_fexpr *st_rec_field(st_fl *fl, st_fexpr *value, const char *field, st_loc loc) {
  st_cls *rec = value->str ? st_front_class_by_name(fl->fe, value->str) : NULL;
  st_rec_leaf *lv;
  int n = rec ? st_rec_leaves(fl, rec, NULL, &lv) : -1;
  if (n != value->nargs) {
    st_fl_error(fl, loc, NULL, "cannot take field '%s' of this record value", field);
    return NULL;
  }
  size_t len = strlen(field);
  int first = -1, count = 0;
  for (int i = 0; i < n; i++)
    if (!strncmp(lv[i].name, field, len) && (lv[i].name[len] == 0 || lv[i].name[len] == '.')) {
      if (first < 0) first = i;
      count++;
      if (lv[i].name[len] == 0) return value->args[i];
    }
  if (first < 0) {
    st_fl_error(fl, loc, NULL, "record '%s' has no field '%s'", value->str, field);
    return NULL;
  }
  st_fexpr *r = record_value(fl, "", count, loc);
  if (r) memcpy(r->args, value->args + first, (size_t)count * sizeof *r->args);
  return r;
}

/* ------------------------------------------------------------ functions */

static int first_segment_is(const char *local, const char *name, size_t len) {
  return !strncmp(local, name, len) && (local[len] == 0 || local[len] == '.');
}

int st_fn_groups(st_fl *fl, const st_ffunction *fn, st_causality causality, st_fn_group **out) {
  st_fn_group *g = st_arena_alloc(fl->tmp, (size_t)(fn->nlocals + 1) * sizeof *g);
  int n = 0, ord = 0;
  if (!g) return -1;
  for (int i = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != causality) continue;
    const char *name = fn->locals[i].name, *dot = strchr(name, '.');
    size_t len = dot ? (size_t)(dot - name) : strlen(name);
    if (n && g[n - 1].record && dot && strlen(g[n - 1].name) == len &&
        first_segment_is(name, g[n - 1].name, len)) {
      g[n - 1].count++;
    } else {
      g[n++] = (st_fn_group){dot ? st_arena_strndup(fl->tmp, name, len) : name, ord, 1, dot != NULL};
    }
    ord++;
  }
  *out = g;
  return n;
}

/* The call of a value: an FX_CALL, or the first of the calls of a record result. */
const st_fexpr *st_fn_call_of(const st_fexpr *v) {
  if (st_fx_is_record(v) && v->nargs > 0 && v->args[0]->kind == FX_CALL) {
    /* a call's record result is output k of the call in field k; a record constructor
     * whose fields are calls, R(p = f(x), T = f(y)), is not one call */
    for (int i = 0; i < v->nargs; i++)
      if (v->args[i]->kind != FX_CALL || v->args[i]->index != v->args[0]->index ||
          v->args[i]->op != i || v->args[i]->nargs != v->args[0]->nargs)
        return NULL;
    v = v->args[0];
  }
  return v && v->kind == FX_CALL ? v : NULL;
}

int st_fn_tuple_targets(st_fl *fl, const st_ffunction *fn, st_fexpr **targets, int ntargets,
                        st_fexpr ***out, st_loc loc) {
  st_fn_group *g;
  int ng = st_fn_groups(fl, fn, ST_C_OUTPUT, &g);
  if (ng < 0) return -1;
  if (ntargets > ng) {
    st_fl_error(fl, loc, NULL, "'%s' has %d outputs, %d given", fn->name, ng, ntargets);
    return -1;
  }
  int total = ng ? g[ng - 1].first + g[ng - 1].count : 0;
  st_fexpr **t = st_arena_alloc(fl->arena, (size_t)(total + 1) * sizeof *t);
  if (!t) return -1;
  memset(t, 0, (size_t)(total + 1) * sizeof *t);
  for (int j = 0; j < ntargets; j++) {
    if (!targets[j]) continue;
    if (!g[j].record) {
      t[g[j].first] = targets[j];
    } else if (st_fx_is_record(targets[j]) && targets[j]->nargs == g[j].count) {
      memcpy(t + g[j].first, targets[j]->args, (size_t)g[j].count * sizeof *t);
    } else {
      st_fl_error(fl, loc, NULL, "output '%s' of '%s' is a record of %d fields: the target "
                  "must be such a record", g[j].name, fn->name, g[j].count);
      return -1;
    }
  }
  *out = t;
  return total;
}

/* Leaf l (a variable or an array of them) of a bound record takes x as its binding. */
static int bind_leaf(st_fl *fl, const st_fexpr *l, st_fexpr *x) {
  if (l->kind == FX_ARRAY) {
    if (!x || x->kind != FX_ARRAY || x->nargs != l->nargs) return -1;
    for (int i = 0; i < l->nargs; i++)
      if (bind_leaf(fl, l->args[i], x->args[i])) return -1;
    return 0;
  }
  if (l->kind != FX_VAR || !x || x->kind == FX_ARRAY) return -1;
  st_lazy *lz = st_fl_var_lazy(fl, l->index, LZ_BINDING);
  if (!lz) return -1;
  lz->value = x;
  lz->state = 2;
  return 0;
}

void st_fl_record_bindings(st_fl *fl) {
  for (int k = 0; k < fl->nrecord_bound; k++) {
    st_inst *in = fl->record_bound[k];
    const st_mod *m = in->binding;
    st_fexpr *v = st_translate(fl, m->value, m->env);
    if (v && m->nindex) v = st_fx_index_value(fl, v, m->index, m->nindex, m->value->loc);
    st_fexpr *lhs = v ? st_rec_of_inst(fl, in, m->value->loc) : NULL;
    if (!lhs) continue;
    int ok = st_fx_is_record(v) && v->nargs == lhs->nargs;
    for (int i = 0; ok && i < lhs->nargs; i++) ok = bind_leaf(fl, lhs->args[i], v->args[i]) == 0;
    if (!ok)
      st_fl_error(fl, m->value->loc, in, "the binding of record '%s' is not a value of its "
                  "class '%s'", in->path, in->cls ? in->cls->full : "?");
  }
}
