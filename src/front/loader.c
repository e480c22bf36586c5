/* The class tree of loaded Modelica code: files, directory packages read lazily (one
 * directory when one of its classes is first looked up), `within`, and the library path
 * (Modelica 3.5 chapter 13). */
#include "front/inst.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* `redeclare model extends X(mod) ... end X` (Modelica 3.5 section 7.3.1) extends the X
 * inherited by the enclosing class: given a first element `extends X(mod)`, found in the
 * enclosing class's bases by st_lookup_extends (lookup.c). The AST itself is not changed. */
static const st_ast_class *with_inherited_base(st_front *fe, const st_ast_class *ast) {
  st_ast_class *a = st_arena_alloc(fe->arena, sizeof *a);
  st_ast_element *e = st_arena_alloc(fe->arena, sizeof *e);
  st_ast_name *n = st_arena_alloc(fe->arena, sizeof *n);
  const char **parts = st_arena_alloc(fe->arena, sizeof *parts);
  if (!a || !e || !n || !parts) return ast;
  *a = *ast;
  parts[0] = ast->name;
  *n = (st_ast_name){.loc = ast->name_loc, .nparts = 1, .parts = parts, .text = ast->name};
  e->kind = AEL_EXTENDS;
  e->loc = ast->name_loc;
  e->u.extends.name = n;
  e->u.extends.mod = ast->extends_mod;
  e->next = ast->elements;
  a->elements = e;
  return a;
}

st_cls *st_cls_new(st_front *fe, st_cls *parent, const char *name, const st_ast_class *ast) {
  st_cls *c = st_arena_alloc(fe->arena, sizeof *c);
  if (!c) return NULL;
  if (ast && ast->form == ACF_EXTENDS) ast = with_inherited_base(fe, ast);
  c->name = name;
  c->full = parent && parent->full[0] ? st_arena_concat(fe->arena, parent->full, ".", name)
                                      : name;
  c->parent = parent;
  c->ast = ast;
  c->prim = -1;
  return c;
}

static const char *cls_name_of(const void *kids, int i) {
  return ((st_cls *const *)kids)[i]->name;
}

static int kid_position(const st_cls *c, const char *name) {
  return st_name_index_find(&c->index, c->kids, c->nkids, cls_name_of, name);
}

static st_cls *find_kid(const st_cls *c, const char *name) {
  int i = kid_position(c, name);
  return i < 0 ? NULL : c->kids[i];
}

void st_cls_add(st_front *fe, st_cls *parent, st_cls *kid) {
  int i = kid_position(parent, kid->name);
  if (i >= 0) {
    parent->kids[i] = kid; /* a later definition replaces the library's */
    st_front_forget_lookups(fe);
    return;
  }
  if (parent->nkids == parent->capkids) {
    int cap = parent->capkids ? 2 * parent->capkids : 8;
    st_cls **k = st_arena_alloc(fe->arena, (size_t)cap * sizeof *k);
    if (!k) return;
    if (parent->nkids) memcpy(k, parent->kids, (size_t)parent->nkids * sizeof *k);
    parent->kids = k;
    parent->capkids = cap;
  }
  parent->kids[parent->nkids++] = kid;
  st_name_index_added(&parent->index, fe->arena, parent->kids, parent->nkids, parent->capkids,
                      cls_name_of);
}

/* Nested class definitions written inside the class text. */
static void add_nested(st_front *fe, st_cls *c) {
  if (!c->ast) return;
  for (const st_ast_element *e = c->ast->elements; e; e = e->next)
    if (e->kind == AEL_CLASS) {
      st_cls *kid = st_cls_new(fe, c, e->u.cls->name, e->u.cls);
      if (!kid) return;
      add_nested(fe, kid);
      st_cls_add(fe, c, kid);
    }
}

st_cls *st_cls_make(st_front *fe, st_cls *parent, const st_ast_class *ast) {
  st_cls *c = st_cls_new(fe, parent, ast->name, ast);
  if (c) add_nested(fe, c);
  return c;
}

/* Reads DIR/package.mo: the class of a directory package, its files read later. */
static st_cls *load_package_dir(st_front *fe, st_cls *parent, const char *dir) {
  char *file = malloc(strlen(dir) + 16);
  if (!file) return NULL;
  sprintf(file, "%s/package.mo", dir);
  st_ast_stored_def *sd = st_parse_file(fe->arena, fe->diag, file);
  free(file);
  if (!sd || !sd->classes) return NULL;
  st_cls *c = st_cls_make(fe, parent, sd->classes);
  if (c) c->dir = strdup(dir);
  return c;
}

static st_cls *load_class_file(st_front *fe, st_cls *parent, const char *path) {
  st_ast_stored_def *sd = st_parse_file(fe->arena, fe->diag, path);
  if (!sd || !sd->classes) return NULL;
  st_cls *first = NULL;
  for (const st_ast_class *a = sd->classes; a; a = a->next) {
    st_cls *c = st_cls_make(fe, parent, a);
    if (!c) return NULL;
    st_cls_add(fe, parent, c);
    if (!first) first = c;
  }
  return first;
}

static int is_missing(const char *const *names, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0) return 1;
  return 0;
}

static void add_missing(st_front *fe, const char ***names, int *n, int *cap, const char *name) {
  if (*n == *cap) {
    int c = *cap ? 2 * *cap : 16;
    const char **m = st_arena_alloc(fe->arena, (size_t)c * sizeof *m);
    if (!m) return;
    if (*n) memcpy(m, *names, (size_t)*n * sizeof *m);
    *names = m;
    *cap = c;
  }
  (*names)[(*n)++] = st_arena_strdup(fe->arena, name);
}

/* Loads one class of a directory package, NAME.mo or NAME/package.mo, without reading the
 * rest: a model pays only for the library classes it uses. Misses are remembered, because
 * lookups pass through every enclosing package. */
static st_cls *load_entry(st_front *fe, st_cls *c, const char *name) {
  char *path;
  int sub;
  if (is_missing(c->missing, c->nmissing, name)) return NULL;
  st_cls *k = NULL;
  if (st_dircache_entry_find(&fe->listings, c->dir, name, &path, &sub) == 0) {
    if (sub) {
      k = load_package_dir(fe, c, path);
      if (k) st_cls_add(fe, c, k);
    } else {
      load_class_file(fe, c, path);
      k = find_kid(c, name);
    }
    free(path);
  }
  if (!k) add_missing(fe, &c->missing, &c->nmissing, &c->capmissing, name);
  return k;
}

/* Reads every class of a directory package, recursively, in the order of package.order
 * (a package directory named on the command line: all its files are checked). */
static void read_all(st_front *fe, st_cls *c) {
  st_pkg_entry *entries;
  int n = c->dir ? st_pkg_entries(c->dir, &entries) : -1;
  for (int i = 0; i < n; i++) {
    st_cls *k = st_cls_kid(fe, c, entries[i].name);
    if (k && k->dir) read_all(fe, k);
  }
  if (n >= 0) st_pkg_entries_free(entries, n);
}

st_cls *st_cls_copy(st_front *fe, st_cls *origin, st_cls *parent, const char *full) {
  st_cls *k = st_arena_alloc(fe->arena, sizeof *k);
  if (!k) return NULL;
  *k = *origin;
  k->full = full;
  k->parent = parent;
  k->origin = origin;
  k->kids = NULL;
  k->nkids = k->capkids = 0;
  k->index = (st_name_index){0};
  k->dir = NULL;
  k->missing = NULL;
  k->nmissing = k->capmissing = 0;
  k->visiting = k->busy = 0;
  k->redecls = NULL;
  k->nredecls = 0;
  k->mods = NULL;
  k->nmods = 0;
  k->clones = k->next_clone = NULL;
  return k;
}

/* A nested class of a specialization is the origin's, specialized with this parent. */
static st_cls *specialized_kid(st_front *fe, st_cls *c, st_cls *kid) {
  st_cls *k = st_cls_copy(fe, kid, c, st_arena_concat(fe->arena, c->full, ".", kid->name));
  if (k) st_cls_add(fe, c, k);
  return k;
}

st_cls *st_cls_kid(st_front *fe, st_cls *c, const char *name) {
  st_cls *k = find_kid(c, name);
  if (k || !c->origin) return !k && c->dir ? load_entry(fe, c, name) : k;
  k = st_cls_kid(fe, c->origin, name);
  return k ? specialized_kid(fe, c, k) : NULL;
}

int st_front_is_missing(const st_front *fe, const char *name) {
  return is_missing(fe->missing, fe->nmissing, name);
}

st_cls *st_front_load_top(st_front *fe, const char *name) {
  int is_dir = 0;
  char *path = st_dircache_libpath_find(&fe->listings, &fe->path, name, &is_dir);
  if (!path) {
    add_missing(fe, &fe->missing, &fe->nmissing, &fe->capmissing, name);
    return NULL;
  }
  st_cls *c = NULL;
  if (is_dir) {
    c = load_package_dir(fe, fe->root, path);
    if (c) st_cls_add(fe, fe->root, c);
  } else {
    load_class_file(fe, fe->root, path);
  }
  free(path);
  return c ? c : find_kid(fe->root, name);
}

/* The predefined enumerations, written as Modelica (Modelica 3.5 section 4.9.5). */
static const char predefined_text[] =
    "type StateSelect = enumeration(never, avoid, default, prefer, always);\n"
    "type AssertionLevel = enumeration(error, warning);\n"
    "type Init = enumeration(NoInit, SteadyState, InitialState, InitialOutput);\n";

int st_front_add_predefined(st_front *fe) {
  static const char *const names[] = {"Real", "Integer", "Boolean", "String"};
  fe->predefined = st_cls_new(fe, NULL, "", NULL);
  if (!fe->predefined) return -1;
  for (int t = 0; t < 4; t++) {
    st_cls *c = st_cls_new(fe, fe->predefined, names[t], NULL);
    if (!c) return -1;
    c->prim = t; /* ST_T_REAL, ST_T_INTEGER, ST_T_BOOLEAN, ST_T_STRING in this order */
    st_cls_add(fe, fe->predefined, c);
  }
  st_cls *clock = st_cls_new(fe, fe->predefined, "Clock", NULL); /* Modelica 3.6 section 16.3 */
  if (!clock) return -1;
  clock->prim = ST_T_CLOCK;
  st_cls_add(fe, fe->predefined, clock);
  st_ast_stored_def *sd = st_parse_string(fe->arena, fe->diag, "<predefined>", predefined_text);
  for (const st_ast_class *a = sd ? sd->classes : NULL; a; a = a->next)
    st_cls_add(fe, fe->predefined, st_cls_make(fe, fe->predefined, a));
  return sd ? 0 : -1;
}

/* ------------------------------------------------------------------- public API */

st_front *st_front_new(st_diag *diag) {
  st_front *fe = calloc(1, sizeof *fe);
  if (!fe) return NULL;
  fe->diag = diag;
  fe->arena = st_arena_new();
  fe->root = fe->arena ? st_cls_new(fe, NULL, "", NULL) : NULL;
  if (!fe->root || st_front_add_predefined(fe)) {
    st_front_free(fe);
    return NULL;
  }
  return fe;
}

void st_front_set_externals(st_front *fe, const st_front_externals *externals) {
  fe->externals = externals;
}

static void free_dirs(st_cls *c) {
  free(c->dir);
  c->dir = NULL;
  for (int i = 0; i < c->nkids; i++) free_dirs(c->kids[i]);
}

void st_front_free(st_front *fe) {
  if (!fe) return;
  if (fe->root) free_dirs(fe->root);
  free(fe->memo);
  st_libpath_free(&fe->path);
  st_dircache_free(&fe->listings);
  st_arena_free(fe->arena);
  free(fe);
}

int st_front_add_library_path(st_front *fe, const char *dir) {
  st_front_forget_lookups(fe);
  return st_libpath_add(&fe->path, dir);
}

int st_front_add_default_paths(st_front *fe) {
  const char *mp = getenv("MODELICAPATH");
  if (mp && st_libpath_add_list(&fe->path, mp)) return -1;
  return st_libpath_add(&fe->path, st_libpath_models_dir());
}

/* The package a `within A.B;` clause names, loading it from the library path. */
static st_cls *within_package(st_front *fe, const st_ast_stored_def *sd) {
  if (!sd->within) return fe->root;
  st_cls *c = st_lookup_class_path(fe, fe->root, sd->within->parts, sd->within->nparts, 1);
  if (!c) st_error(fe->diag, sd->within->loc, "package '%s' of the within clause not found",
                   sd->within->text);
  return c;
}

static int is_dir_path(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Remembers the class to flatten by default: the only, else the last, non-package class. */
static void set_default(st_front *fe, st_cls *pkg, const st_ast_stored_def *sd) {
  const st_ast_class *pick = NULL;
  for (const st_ast_class *a = sd->classes; a; a = a->next)
    if (a->kind != ACK_PACKAGE && a->kind != ACK_FUNCTION && a->kind != ACK_TYPE) pick = a;
  if (!pick && sd->nclasses == 1) pick = sd->classes;
  fe->default_class = !pick ? NULL
                      : pkg->full[0] ? st_arena_concat(fe->arena, pkg->full, ".", pick->name)
                                     : pick->name;
}

/* Classes given on the command line may hide (not only replace) library classes that
 * lookups found before. */
int st_front_load_file(st_front *fe, const char *path) {
  if (is_dir_path(path)) {
    st_cls *c = load_package_dir(fe, fe->root, path);
    if (!c) return -1;
    st_cls_add(fe, fe->root, c);
    st_front_forget_lookups(fe);
    int before = st_diag_errors(fe->diag);
    read_all(fe, c);
    fe->default_class = NULL;
    return st_diag_errors(fe->diag) > before ? -1 : 0;
  }
  int before = st_diag_errors(fe->diag);
  st_ast_stored_def *sd = st_parse_file(fe->arena, fe->diag, path);
  if (!sd) {
    st_loc at = {path, 0, 0};
    if (st_diag_errors(fe->diag) == before) st_error(fe->diag, at, "cannot read '%s'", path);
    return -1;
  }
  st_cls *pkg = within_package(fe, sd);
  if (!pkg) return -1;
  for (const st_ast_class *a = sd->classes; a; a = a->next) {
    st_cls *c = st_cls_make(fe, pkg, a);
    if (!c) return -1;
    st_cls_add(fe, pkg, c);
  }
  st_front_forget_lookups(fe);
  set_default(fe, pkg, sd);
  return 0;
}

const char *st_front_default_class(const st_front *fe) { return fe->default_class; }
