/* Calls of functions with annotation(Inline = true) (Modelica 3.5 section 18.3) whose body is
 * a sequence of assignments, `R2 := Orientation(T = R_rel.T*R1.T, w = ...)`, are replaced in
 * models by the value of the body: the inputs stand for the arguments, each assignment binds
 * its target, and the output's value is the call's. The array operations then expand element
 * by element like the model's own (arrays.c), so index reduction differentiates MultiBody's
 * Frames functions, whose bodies are array expressions, as ordinary expressions. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <string.h>

#define MAX_INLINE_NAMES 64

struct st_inline_frame {
  const char *names[MAX_INLINE_NAMES];
  st_fexpr *values[MAX_INLINE_NAMES];
  int n;
};

static int annotated_inline(const st_cls *cls) {
  const st_ast_mod *a = cls->ast ? cls->ast->annotation : NULL;
  for (const st_ast_arg *g = a ? a->args : NULL; g; g = g->next)
    if (g->kind == AA_MODIFY && g->name &&
        (!strcmp(g->name->text, "Inline") || !strcmp(g->name->text, "InlineAfterIndexReduction")) &&
        g->mod &&
        g->mod->value && g->mod->value->kind == AX_BOOL)
      return g->mod->value->u.boolean;
  return 0;
}

/* Only `name := expr` statements, at least one; with empty_ok also none at all (the output
 * bound by its modifiers: output_by_modifiers). */
static int simple_body(const st_cls *cls, int empty_ok) {
  int n = 0;
  for (const st_ast_section *s = cls->ast->sections; s; s = s->next) {
    if (s->kind != ASEC_ALGORITHM || s->initial) return 0;
    for (const st_ast_stmt *x = s->stmts; x; x = x->next, n++)
      if (x->kind != AS_ASSIGN || x->lhs->kind != AX_CREF || x->lhs->u.cref->nparts != 1 ||
          x->lhs->u.cref->parts->nsubs)
        return 0;
  }
  return n > 0 || empty_ok;
}

/* The output of a function with an empty body bound by the modifiers of its fields,
 * `output Complex result(re = re, im = im)` (Complex's constructor): the record value of
 * those bindings, NULL unless every field has one. */
static st_fexpr *output_by_modifiers(st_fl *fl, st_cls *cls, const st_fn_group *out) {
  const st_ast_element *e = cls->ast->elements;
  while (e && !(e->kind == AEL_COMPONENT && !strcmp(e->u.comp.name, out->name))) e = e->next;
  st_cls *rec = e ? st_lookup_class(fl->fe, cls, e->u.comp.type) : NULL;
  rec = rec ? st_cls_resolve_short(fl->fe, rec) : NULL;
  st_rec_leaf *lv;
  int n = rec && st_cls_is_record(rec) && e->u.comp.mod && !e->u.comp.subs
              ? st_rec_leaves(fl, rec, NULL, &lv) : -1;
  if (n != out->count) return NULL;
  st_fexpr *v = st_fx_new(fl->arena, FX_ARRAY, 0, n, e->loc);
  if (!v) return NULL;
  v->str = rec->full;
  for (int i = 0; i < n; i++) {
    const st_ast_arg *a = e->u.comp.mod->args;
    while (a && !(a->kind == AA_MODIFY && a->name && a->name->nparts == 1 &&
                  !strcmp(a->name->parts[0], lv[i].name) && a->mod && a->mod->value))
      a = a->next;
    if (!a || !(v->args[i] = st_translate(fl, a->mod->value, (st_env){NULL, cls}))) return NULL;
  }
  return v;
}

static int bind(st_inline_frame *f, const char *name, st_fexpr *v) {
  for (int i = 0; i < f->n; i++)
    if (strcmp(f->names[i], name) == 0) {
      f->values[i] = v;
      return 0;
    }
  if (f->n == MAX_INLINE_NAMES) return -1;
  f->names[f->n] = name;
  f->values[f->n++] = v;
  return 0;
}

st_fexpr *st_fl_inline_value(const st_fl *fl, const char *name) {
  const st_inline_frame *f = fl->inl;
  for (int i = 0; f && i < f->n; i++)
    if (strcmp(f->names[i], name) == 0) return f->values[i];
  return NULL;
}

/* The value of input group g of call r: a record's leaves as a record value of its class. */
static st_fexpr *input_value(st_fl *fl, st_cls *cls, const st_fexpr *r, const st_fn_group *g) {
  if (!g->record) return r->args[g->first];
  st_elem el;
  st_cls *rec = NULL;
  if (st_lookup_member(fl->fe, cls, g->name, &el) == 0 && el.comp)
    rec = st_cls_resolve_short(fl->fe, st_lookup_class(fl->fe, el.owner, el.comp->u.comp.type));
  st_fexpr *v = rec ? st_fx_new(fl->arena, FX_ARRAY, 0, g->count, r->loc) : NULL;
  if (!v) return NULL;
  v->str = rec->full;
  memcpy(v->args, r->args + g->first, (size_t)g->count * sizeof *v->args);
  return v;
}

st_fexpr *st_fl_translate_bound(st_fl *fl, const st_ast_expr *x, st_cls *cls,
                                const char *const *names, st_fexpr *const *values, int n) {
  st_inline_frame f = {.n = 0};
  for (int i = 0; i < n; i++)
    if (values[i] && bind(&f, names[i], values[i])) break; /* full: the rest by lookup */
  st_inline_frame *outer = fl->inl;
  int base = fl->iter_base;
  fl->inl = &f;
  fl->iter_base = fl->niters; /* the caller's for-iterators are not visible in a class */
  st_fexpr *v = st_translate(fl, x, (st_env){NULL, cls});
  fl->inl = outer;
  fl->iter_base = base;
  return v;
}

/* Protected variables with a binding (`Real e_x[3] = normalize(n_x)`), in declaration order. */
static int protected_bindings(st_fl *fl, st_cls *cls, st_inline_frame *f) {
  for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
    if (e->kind != AEL_COMPONENT || !e->is_protected || !e->u.comp.mod || !e->u.comp.mod->value)
      continue;
    st_fexpr *v = st_translate(fl, e->u.comp.mod->value, (st_env){NULL, cls});
    if (!v || bind(f, e->u.comp.name, v)) return -1;
  }
  return 0;
}

st_fexpr *st_fl_inline_call(st_fl *fl, st_cls *cls, const st_ffunction *fn, const st_fexpr *r) {
  if (fl->fnctx || fl->depth > 100 || !annotated_inline(cls) || !simple_body(cls, 1) ||
      st_fx_uses_local(r))
    return NULL;
  st_fn_group *in, *out;
  int nin = st_fn_groups(fl, fn, ST_C_INPUT, &in);
  int nout = st_fn_groups(fl, fn, ST_C_OUTPUT, &out);
  if (nin < 0 || nout != 1) return NULL;
  int empty = !simple_body(cls, 0);
  st_inline_frame f = {.n = 0};
  for (int i = 0; i < nin; i++) {
    st_fexpr *v = input_value(fl, cls, r, &in[i]);
    if (!v || bind(&f, in[i].name, v)) return NULL;
  }
  st_inline_frame *outer = fl->inl;
  int base = fl->iter_base, errors = fl->errors;
  /* Inlining is a choice, not a requirement: a body that is no expression of the inputs
   * (`state := g(seed, size(state, 1))` reads its own output) is left a call, without a
   * message; the function itself is translated and reported as any other. */
  st_diag *diag = fl->diag, *quiet = st_diag_new(NULL);
  if (!quiet) return NULL;
  fl->diag = quiet;
  fl->inl = &f;
  fl->iter_base = fl->niters; /* the caller's for-iterators are not visible in the body */
  fl->depth++;
  st_fexpr *result = NULL;
  if (protected_bindings(fl, cls, &f) == 0) {
    int ok = 1;
    for (const st_ast_section *s = cls->ast->sections; s && ok; s = s->next)
      for (const st_ast_stmt *x = s->stmts; x && ok; x = x->next) {
        st_fexpr *v = st_translate(fl, x->rhs, (st_env){NULL, cls});
        ok = v && bind(&f, x->lhs->u.cref->parts->name, v) == 0;
      }
    if (ok) result = empty ? output_by_modifiers(fl, cls, &out[0])
                           : st_fl_inline_value(fl, out[0].name);
  }
  fl->depth--;
  fl->iter_base = base;
  fl->inl = outer;
  fl->diag = diag;
  st_diag_free(quiet);
  if (fl->errors > errors) {
    fl->errors = errors;
    return NULL;
  }
  /* a record result: its leaves in order, as a call's would be */
  if (result && out[0].record && (!st_fx_is_record(result) || result->nargs != out[0].count))
    return NULL;
  return result;
}
