/* Name lookup in the class tree (Modelica 3.5 section 5.3): members including inherited
 * ones, imports, enclosing scopes up to an encapsulated class, the top level (loading
 * libraries on demand), and qualified descent for the rest of a dotted name. */
#include "front/inst.h"

#include <string.h>

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

st_cls *st_lookup_extends(st_front *fe, st_cls *c, const st_ast_element *ext) {
  /* The base name is not looked up among the inherited elements of c itself (that would
   * recurse); its local classes and the enclosing scopes are visible. */
  const st_ast_name *n = ext->u.extends.name;
  st_elem first;
  if (n->global || find_local(fe, c, n->parts[0], &first) || !first.cls)
    return st_lookup_class(fe, c->parent ? c->parent : fe->root, n);
  return n->nparts == 1 ? first.cls
                        : st_lookup_class_path(fe, first.cls, n->parts + 1, n->nparts - 1, 2);
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
  return st_lookup_class_path(fe, scope ? scope : fe->root, name->parts, name->nparts,
                              name->global ? 1 : 0);
}
