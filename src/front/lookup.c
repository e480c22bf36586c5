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

/* A specialization's redeclared class `name`, NULL when not redeclared. */
static st_cls *redeclared(const st_cls *c, const char *name) {
  for (int i = 0; i < c->nredecls; i++)
    if (strcmp(c->redecls[i].name, name) == 0) return c->redecls[i].cls;
  return NULL;
}

static const char *comp_name_of(const void *comps, int i) {
  return ((const st_ast_element *const *)comps)[i]->u.comp.name;
}

static int is_clause(const st_ast_element *e) {
  return e->kind == AEL_EXTENDS || e->kind == AEL_IMPORT;
}

/* c->comps with its index and c->clauses from c's elements, once; out of memory leaves them
 * NULL, and the lookups scan the elements. */
static void index_elements(st_front *fe, st_cls *c) {
  if (c->comps || !c->ast) return;
  int n = 0, nc = 0;
  for (const st_ast_element *e = c->ast->elements; e; e = e->next) {
    n += e->kind == AEL_COMPONENT;
    nc += is_clause(e);
  }
  const st_ast_element **comps = st_arena_alloc(fe->arena, (size_t)(n + 1) * sizeof *comps);
  const st_ast_element **clauses = st_arena_alloc(fe->arena, (size_t)(nc + 1) * sizeof *clauses);
  if (!comps || !clauses) return;
  n = nc = 0;
  for (const st_ast_element *e = c->ast->elements; e; e = e->next)
    if (e->kind == AEL_COMPONENT) comps[n++] = e;
    else if (is_clause(e)) clauses[nc++] = e;
  st_name_index_added(&c->comp_index, fe->arena, comps, n, n, comp_name_of);
  c->ncomps = n;
  c->nclauses = nc;
  c->clauses = clauses;
  c->comps = comps;
}

/* Clause i of c (extends or import), e the element after clause i - 1 (or the first): for
 * e = clause_at(c, first, 0); e; e = clause_at(c, e->next, ++i). */
static const st_ast_element *clause_at(const st_cls *c, const st_ast_element *e, int i) {
  if (c->comps) return i < c->nclauses ? c->clauses[i] : NULL;
  while (e && !is_clause(e)) e = e->next;
  return e;
}

static int find_component(st_front *fe, st_cls *c, const char *name, st_elem *out) {
  index_elements(fe, c);
  if (!c->comps) { /* out of memory: scan */
    for (const st_ast_element *e = c->ast ? c->ast->elements : NULL; e; e = e->next)
      if (e->kind == AEL_COMPONENT && strcmp(e->u.comp.name, name) == 0) {
        *out = (st_elem){NULL, e, c};
        return 0;
      }
    return -1;
  }
  int i = st_name_index_find(&c->comp_index, c->comps, c->ncomps, comp_name_of, name);
  if (i < 0) return -1;
  *out = (st_elem){NULL, c->comps[i], c};
  return 0;
}

/* Local members only: redeclared classes (unless the class inherited by a class-extends
 * is looked for), nested classes (also from the package directory) and components. */
static int find_local(st_front *fe, st_cls *c, const char *name, st_elem *out, int redecl) {
  st_cls *k = redecl ? redeclared(c, name) : NULL;
  if (!k) k = st_cls_kid(fe, c, name);
  if (k) {
    *out = (st_elem){k, NULL, NULL};
    return 0;
  }
  return find_component(fe, c, name, out);
}

static st_cls *specialization(st_front *fe, st_cls *c, st_cls *parent, const char *full,
                              const st_cls_redecl *r, int nr, const st_cls_mod *m, int nm);

/* Whether modifier m sets values (`names = {"CO2"}`), not only redeclares. */
static int sets_values(const st_ast_mod *m) {
  for (const st_ast_arg *a = m ? m->args : NULL; a; a = a->next)
    if (a->kind == AA_MODIFY && a->mod && a->mod->value) return 1;
  return 0;
}

st_cls *st_cls_resolve_short(st_front *fe, st_cls *c) {
  for (int hops = 0; c && c->ast && c->ast->form == ACF_SHORT && hops < 64; hops++) {
    st_cls *base = st_lookup_class(fe, c->parent, c->ast->base);
    if (!base) return NULL;
    /* `package Medium = MoistAir(extraPropertiesNames = {"CO2"})`: the package with those
     * constants (as `extends MoistAir(...)` would give, specialize_base) */
    if (sets_values(c->ast->base_mod)) {
      st_cls *b = st_cls_resolve_short(fe, base);
      if (b && st_cls_is(b, ACK_PACKAGE)) {
        st_cls_mod m = {c->ast->base_mod, c->parent};
        return specialization(fe, b, b->parent, b->full, NULL, 0, &m, 1);
      }
    }
    c = base;
  }
  return c;
}

static int lookup_global(st_front *fe, const char *name, st_elem *out);

/* `import` clauses of c (not inherited, Modelica 3.5 section 13.2.1). */
static int find_import(st_front *fe, st_cls *c, const char *name, st_elem *out) {
  index_elements(fe, c);
  int i = 0;
  for (const st_ast_element *e = clause_at(c, c->ast ? c->ast->elements : NULL, 0); e;
       e = clause_at(c, e->next, ++i)) {
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

static int lookup_member(st_front *fe, st_cls *c, const char *name, st_elem *out, int redecl);

/* The base of `redeclare model extends X`: the X that the enclosing class inherits, not
 * the one it redeclares (which is this class itself). */
static st_cls *inherited_class(st_front *fe, st_cls *c) {
  st_cls *p = c->parent;
  st_elem out;
  for (const st_ast_element *e = p && p->ast ? p->ast->elements : NULL; e; e = e->next)
    if (e->kind == AEL_EXTENDS &&
        lookup_member(fe, st_lookup_extends(fe, p, e), c->name, &out, 0) == 0 && out.cls)
      return out.cls;
  return NULL;
}

static st_cls *lookup_base(st_front *fe, st_cls *c, const st_ast_element *ext) {
  /* The base name is not looked up among the inherited elements of c itself (that would
   * recurse); its local classes and the enclosing scopes are visible. */
  const st_ast_name *n = ext->u.extends.name;
  st_elem first;
  if (c->ast && c->ast->form == ACF_EXTENDS && ext == c->ast->elements)
    return inherited_class(fe, c);
  if (n->global ||
      ((find_local(fe, c, n->parts[0], &first, 1) || !first.cls) &&
       (find_import(fe, c, n->parts[0], &first) || !first.cls)))
    return st_lookup_class(fe, c->parent ? c->parent : fe->root, n);
  return n->nparts == 1 ? first.cls
                        : st_lookup_class_path(fe, first.cls, n->parts + 1, n->nparts - 1, 2);
}

/* ------------------------------------------------------------- specializations */

static int same_specialization(const st_cls *k, const st_cls *parent, const st_cls_redecl *r,
                               int nr, const st_cls_mod *m, int nm) {
  if (k->parent != parent || k->nredecls != nr || k->nmods != nm) return 0;
  for (int i = 0; i < nr; i++)
    if (k->redecls[i].cls != r[i].cls || strcmp(k->redecls[i].name, r[i].name) != 0) return 0;
  for (int i = 0; i < nm; i++)
    if (k->mods[i].mod != m[i].mod || k->mods[i].scope != m[i].scope) return 0;
  return 1;
}

/* c (perhaps a specialization) with redeclarations r and modifiers m outside its own: one
 * specialization of c's origin, shared with an equal one made before. */
static st_cls *specialization(st_front *fe, st_cls *c, st_cls *parent, const char *full,
                              const st_cls_redecl *r, int nr, const st_cls_mod *m, int nm) {
  if (!nr && !nm && parent == c->parent) return c;
  st_cls *o = c->origin ? c->origin : c;
  st_cls_redecl *rs = st_arena_alloc(fe->arena, (size_t)(nr + c->nredecls + 1) * sizeof *rs);
  st_cls_mod *ms = st_arena_alloc(fe->arena, (size_t)(nm + c->nmods + 1) * sizeof *ms);
  if (!rs || !ms) return c;
  int n = 0;
  for (int i = 0; i < nr + c->nredecls; i++) {
    const st_cls_redecl *x = i < nr ? &r[i] : &c->redecls[i - nr];
    int seen = 0;
    for (int j = 0; j < n && !seen; j++) seen = strcmp(rs[j].name, x->name) == 0;
    if (!seen) rs[n++] = *x;
  }
  if (nm) memcpy(ms, m, (size_t)nm * sizeof *ms);
  if (c->nmods) memcpy(ms + nm, c->mods, (size_t)c->nmods * sizeof *ms);
  nm += c->nmods;
  for (st_cls *k = o->clones; k; k = k->next_clone)
    if (same_specialization(k, parent, rs, n, ms, nm)) return k;
  st_cls *k = st_cls_copy(fe, o, parent, full);
  if (!k) return c;
  k->redecls = rs;
  k->nredecls = n;
  k->mods = ms;
  k->nmods = nm;
  k->next_clone = o->clones;
  o->clones = k;
  return k;
}

st_cls *st_cls_specialize(st_front *fe, st_cls *c, const st_cls_redecl *redecls, int nredecls) {
  return nredecls ? specialization(fe, c, c->parent, c->full, redecls, nredecls, NULL, 0) : c;
}

st_cls *st_cls_redeclared(st_front *fe, st_cls *scope, const st_ast_element *el) {
  if (!scope) scope = fe->root;
  st_cls *c = memo_get(fe, scope, el);
  if (c) return c;
  c = st_cls_make(fe, scope, el->u.cls);
  if (c) memo_put(fe, scope, el, c);
  return c;
}

const st_ast_expr *st_cls_constant_mod(const st_cls *c, const char *name, st_cls **scope) {
  for (int i = 0; c && i < c->nmods; i++)
    for (const st_ast_arg *a = c->mods[i].mod->args; a; a = a->next)
      if (a->kind == AA_MODIFY && a->name && a->name->nparts == 1 && a->mod && a->mod->value &&
          strcmp(a->name->parts[0], name) == 0) {
        *scope = c->mods[i].scope;
        return a->mod->value;
      }
  return NULL;
}

#define MAX_REDECLS 64

/* The base class of extends clause ext of c, seen from c: with the classes c redeclares
 * (those redeclared in c itself, its own `redeclare package Medium = ...` elements and
 * those of the extends clause's modifier; Modelica 3.5 section 7.3) and, for a package,
 * the constants the extends clause modifies. */
static st_cls *specialize_base(st_front *fe, st_cls *c, const st_ast_element *ext,
                               st_cls *base) {
  st_cls_redecl r[MAX_REDECLS];
  int nr = 0;
  for (int i = 0; i < c->nredecls && nr < MAX_REDECLS; i++) r[nr++] = c->redecls[i];
  for (const st_ast_element *e = c->ast ? c->ast->elements : NULL; e; e = e->next)
    if (e->kind == AEL_CLASS && e->redeclare && nr < MAX_REDECLS) {
      st_cls *k = st_cls_kid(fe, c, e->u.cls->name);
      if (k) r[nr++] = (st_cls_redecl){k->name, k};
    }
  const st_ast_mod *m = ext->u.extends.mod;
  for (const st_ast_arg *a = m ? m->args : NULL; a; a = a->next)
    if ((a->kind == AA_REDECLARE || a->kind == AA_REPLACEABLE) && a->element &&
        a->element->kind == AEL_CLASS && nr < MAX_REDECLS) {
      st_cls *k = st_cls_redeclared(fe, c, a->element);
      if (k) r[nr++] = (st_cls_redecl){k->name, k};
    }
  int package = 0;
  if (c->nmods || (m && m->args)) {
    st_cls *b = st_cls_resolve_short(fe, base);
    package = st_cls_is(b, ACK_PACKAGE);
  }
  if (!nr && !package) return base;
  base = st_cls_resolve_short(fe, base);
  if (!base) return NULL;
  st_cls_mod ms[MAX_REDECLS];
  int nm = 0;
  for (int i = 0; package && i < c->nmods && nm < MAX_REDECLS - 1; i++) ms[nm++] = c->mods[i];
  if (package && m) ms[nm++] = (st_cls_mod){m, c};
  return specialization(fe, base, base->parent, c->full, r, nr, ms, nm);
}

/* Remembered under the extends clause itself (not its name: st_lookup_class(c, name)
 * would be another lookup, through c's inherited members). */
st_cls *st_lookup_extends(st_front *fe, st_cls *c, const st_ast_element *ext) {
  st_cls *base = memo_get(fe, c, ext);
  if (base) return base;
  base = lookup_base(fe, c, ext);
  if (base) base = specialize_base(fe, c, ext, base);
  if (base) memo_put(fe, c, ext, base);
  return base;
}

static int lookup_member(st_front *fe, st_cls *c, const char *name, st_elem *out, int redecl) {
  if (!c) return -1;
  if (find_local(fe, c, name, out, redecl) == 0) return 0;
  if (c->visiting) return -1; /* cyclic extends: reported by the instantiator */
  int rc = -1;
  c->visiting = 1;
  if (c->ast && c->ast->form == ACF_SHORT) {
    st_cls *base = st_lookup_class(fe, c->parent, c->ast->base);
    rc = lookup_member(fe, base, name, out, redecl);
  }
  index_elements(fe, c);
  int i = 0;
  for (const st_ast_element *e = clause_at(c, c->ast ? c->ast->elements : NULL, 0); e && rc;
       e = clause_at(c, e->next, ++i))
    if (e->kind == AEL_EXTENDS)
      rc = lookup_member(fe, st_lookup_extends(fe, c, e), name, out, redecl);
  c->visiting = 0;
  return rc;
}

int st_lookup_member(st_front *fe, st_cls *c, const char *name, st_elem *out) {
  return lookup_member(fe, c, name, out, 1);
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
