/* Name lookup in the class tree (Modelica 3.5 section 5.3): members including inherited
 * ones, imports, enclosing scopes up to an encapsulated class, the top level (loading
 * libraries on demand), and qualified descent for the rest of a dotted name. */
#include "front/inst.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- remembered lookups */

/* What a name written at one place denotes from one scope does not change while the
 * class tree only grows by loading the library on demand (those classes were there all
 * along); st_front_forget_lookups() drops everything when that does not hold. Only
 * classes found are remembered: a miss may still be a name loaded later. */
typedef struct st_lookup_memo {
  const st_cls *scope;
  const void *name;  /* an st_ast_name, or the st_ast_element of an extends clause */
  st_cls *cls;       /* NULL: a free slot */
} st_lookup_memo;

static size_t memo_start(const st_front *fe, const st_cls *scope, const void *name) {
  uintptr_t h = ((uintptr_t)scope >> 4) * 0x9E3779B1u ^ ((uintptr_t)name >> 4) * 0x85EBCA77u;
  return (size_t)(h ^ (h >> 15)) & (size_t)(fe->capmemo - 1);
}

static st_cls *memo_get(const st_front *fe, const st_cls *scope, const void *name) {
  if (!fe->nmemo) return NULL;
  for (size_t i = memo_start(fe, scope, name);; i = (i + 1) & (size_t)(fe->capmemo - 1)) {
    const st_lookup_memo *m = &fe->memo[i];
    if (!m->cls) return NULL;
    if (m->scope == scope && m->name == name) return m->cls;
  }
}

static void memo_insert(st_front *fe, const st_cls *scope, const void *name, st_cls *cls) {
  size_t i = memo_start(fe, scope, name);
  while (fe->memo[i].cls) i = (i + 1) & (size_t)(fe->capmemo - 1);
  fe->memo[i] = (st_lookup_memo){scope, name, cls};
  fe->nmemo++;
}

/* Grows at half load; out of memory only means the lookup is not remembered. */
static void memo_put(st_front *fe, const st_cls *scope, const void *name, st_cls *cls) {
  if (2 * (fe->nmemo + 1) > fe->capmemo) {
    int cap = fe->capmemo ? 2 * fe->capmemo : 256;
    st_lookup_memo *old = fe->memo, *m = calloc((size_t)cap, sizeof *m);
    if (!m) return;
    int oldcap = fe->capmemo;
    fe->memo = m;
    fe->capmemo = cap;
    fe->nmemo = 0;
    for (int i = 0; i < oldcap; i++)
      if (old[i].cls) memo_insert(fe, old[i].scope, old[i].name, old[i].cls);
    free(old);
  }
  memo_insert(fe, scope, name, cls);
}

void st_front_forget_lookups(st_front *fe) {
  if (!fe->nmemo) return;
  memset(fe->memo, 0, (size_t)fe->capmemo * sizeof *fe->memo);
  fe->nmemo = 0;
}

/* ------------------------------------------------------------------------ lookup */

static int find_component(st_cls *c, const char *name, st_elem *out) {
  for (const st_ast_element *e = c->ast ? c->ast->elements : NULL; e; e = e->next)
    if (e->kind == AEL_COMPONENT && strcmp(e->u.comp.name, name) == 0) {
      *out = (st_elem){NULL, e, c};
      return 0;
    }
  return -1;
}

/* Local members only: nested classes (also from the package directory) and components. */
static int find_local(st_front *fe, st_cls *c, const char *name, st_elem *out) {
  st_cls *k = st_cls_kid(fe, c, name);
  if (k) {
    *out = (st_elem){k, NULL, NULL};
    return 0;
  }
  return find_component(c, name, out);
}

st_cls *st_cls_resolve_short(st_front *fe, st_cls *c) {
  for (int hops = 0; c && c->ast && c->ast->form == ACF_SHORT && hops < 64; hops++) {
    st_cls *base = st_lookup_class(fe, c->parent, c->ast->base);
    if (!base) return NULL;
    c = base;
  }
  return c;
}

static int lookup_global(st_front *fe, const char *name, st_elem *out);

/* `import` clauses of c (not inherited, Modelica 3.5 section 13.2.1). */
static int find_import(st_front *fe, st_cls *c, const char *name, st_elem *out) {
  for (const st_ast_element *e = c->ast ? c->ast->elements : NULL; e; e = e->next) {
    if (e->kind != AEL_IMPORT) continue;
    const st_ast_name *n = e->u.import.name;
    st_cls *pkg;
    switch (e->u.import.kind) {
    case AI_QUALIFIED: case AI_RENAMING: {
      const char *alias = e->u.import.alias ? e->u.import.alias : n->parts[n->nparts - 1];
      if (strcmp(alias, name) != 0) break;
      if (n->nparts == 1) return lookup_global(fe, n->parts[0], out);
      pkg = st_lookup_class_path(fe, fe->root, n->parts, n->nparts - 1, 1);
      return pkg ? st_lookup_member(fe, pkg, n->parts[n->nparts - 1], out) : -1;
    }
    case AI_WILDCARD:
      pkg = st_lookup_class_path(fe, fe->root, n->parts, n->nparts, 1);
      if (pkg && st_lookup_member(fe, pkg, name, out) == 0) return 0;
      break;
    case AI_MULTIPLE:
      for (const st_ast_ident_list *id = e->u.import.idents; id; id = id->next)
        if (strcmp(id->name, name) == 0) {
          pkg = st_lookup_class_path(fe, fe->root, n->parts, n->nparts, 1);
          return pkg ? st_lookup_member(fe, pkg, name, out) : -1;
        }
      break;
    }
  }
  return -1;
}

static st_cls *lookup_base(st_front *fe, st_cls *c, const st_ast_element *ext) {
  /* The base name is not looked up among the inherited elements of c itself (that would
   * recurse); its local classes and the enclosing scopes are visible. */
  const st_ast_name *n = ext->u.extends.name;
  st_elem first;
  if (n->global ||
      ((find_local(fe, c, n->parts[0], &first) || !first.cls) &&
       (find_import(fe, c, n->parts[0], &first) || !first.cls)))
    return st_lookup_class(fe, c->parent ? c->parent : fe->root, n);
  return n->nparts == 1 ? first.cls
                        : st_lookup_class_path(fe, first.cls, n->parts + 1, n->nparts - 1, 2);
}

/* Remembered under the extends clause itself (not its name: st_lookup_class(c, name)
 * would be another lookup, through c's inherited members). */
st_cls *st_lookup_extends(st_front *fe, st_cls *c, const st_ast_element *ext) {
  st_cls *base = memo_get(fe, c, ext);
  if (base) return base;
  base = lookup_base(fe, c, ext);
  if (base) memo_put(fe, c, ext, base);
  return base;
}

int st_lookup_member(st_front *fe, st_cls *c, const char *name, st_elem *out) {
  if (!c) return -1;
  if (find_local(fe, c, name, out) == 0) return 0;
  if (c->visiting) return -1; /* cyclic extends: reported by the instantiator */
  int rc = -1;
  c->visiting = 1;
  if (c->ast && c->ast->form == ACF_SHORT) {
    st_cls *base = st_lookup_class(fe, c->parent, c->ast->base);
    rc = st_lookup_member(fe, base, name, out);
  }
  for (const st_ast_element *e = c->ast ? c->ast->elements : NULL; e && rc; e = e->next)
    if (e->kind == AEL_EXTENDS) rc = st_lookup_member(fe, st_lookup_extends(fe, c, e), name, out);
  c->visiting = 0;
  return rc;
}

static int find_predefined(st_front *fe, const char *name, st_elem *out) {
  st_cls *k = st_cls_kid(fe, fe->predefined, name);
  if (!k) return -1;
  *out = (st_elem){k, NULL, NULL};
  return 0;
}

/* Top-level classes, then the library path; the predefined types first, since no library
 * can define Real, and a name missing from the path is not searched again. */
static int lookup_global(st_front *fe, const char *name, st_elem *out) {
  if (find_predefined(fe, name, out) == 0) return 0;
  st_cls *k = st_cls_kid(fe, fe->root, name);
  if (!k && !st_front_is_missing(fe, name)) k = st_front_load_top(fe, name);
  if (!k) return -1;
  *out = (st_elem){k, NULL, NULL};
  return 0;
}

int st_lookup_simple(st_front *fe, st_cls *scope, const char *name, st_elem *out) {
  for (st_cls *c = scope; c && c != fe->root; c = c->parent) {
    if (st_lookup_member(fe, c, name, out) == 0) return 0;
    if (find_import(fe, c, name, out) == 0) return 0;
    if (c->ast && c->ast->encapsulated) return find_predefined(fe, name, out);
  }
  return lookup_global(fe, name, out);
}

/* mode: 0 first part lexically from scope, 1 first part global, 2 all parts are members
 * of scope. */
st_cls *st_lookup_class_path(st_front *fe, st_cls *scope, const char *const *parts, int n,
                             int mode) {
  st_elem e;
  st_cls *c = scope;
  for (int i = 0; i < n; i++) {
    int rc = i == 0 && mode == 0   ? st_lookup_simple(fe, scope, parts[0], &e)
             : i == 0 && mode == 1 ? lookup_global(fe, parts[0], &e)
                                   : st_lookup_member(fe, c, parts[i], &e);
    if (rc || !e.cls) return NULL;
    c = e.cls;
  }
  return c;
}

st_cls *st_lookup_class(st_front *fe, st_cls *scope, const st_ast_name *name) {
  if (!name) return NULL;
  if (!scope) scope = fe->root;
  st_cls *c = memo_get(fe, scope, name);
  if (c) return c;
  c = st_lookup_class_path(fe, scope, name->parts, name->nparts, name->global ? 1 : 0);
  if (c) memo_put(fe, scope, name, c);
  return c;
}
