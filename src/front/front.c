/* st_front_flatten: find the class, instantiate it, translate equations and connections,
 * and hand out the flat model (front.h). */
#include "front/inst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "A.B.C" to a class, loading libraries as needed. */
st_cls *st_front_class_by_name(st_front *fe, const char *name) {
  const char *parts[64];
  int n = 0;
  char *copy = st_arena_strdup(fe->arena, name);
  for (char *p = copy, *save = NULL; n < 64 && (p = strtok_r(p, ".", &save)); p = NULL)
    parts[n++] = p;
  return n ? st_lookup_class_path(fe, fe->root, parts, n, 1) : NULL;
}

static void fl_free(st_fl *fl) {
  free(fl->vars);
  free(fl->info);
  free(fl->equations.items);
  free(fl->initial_equations.items);
  free(fl->connections);
  free(fl->deferred);
  free(fl->instreams);
  st_fl_free_connection_sets(fl);
  st_arena_free(fl->tmp);
  st_arena_free(fl->arena); /* NULL once the model owns it */
}

/* The modification of `model M = B(mods...);` parsed from text: one argument per line after
 * the first, so that a location's line tells which argument it is in. The text lives as long
 * as the front end, not the flattening: diag quotes it for errors found later (an assert at
 * run time read it after it was freed). */
static st_mod *top_modifier(st_fl *fl, const char *const *mods, int nmods, const char *source,
                            st_cls *cls) {
  size_t len = 64;
  for (int i = 0; i < nmods; i++) len += strlen(mods[i]) + 2;
  char *text = st_arena_alloc(fl->fe->arena, len);
  if (!text) return NULL;
  char *p = text + sprintf(text, "model stiction_top = stiction_base(");
  for (int i = 0; i < nmods; i++) p += sprintf(p, "%s\n%s", i ? "," : "", mods[i]);
  strcpy(p, ");\n");
  st_ast_stored_def *def = st_parse_string(fl->fe->arena, fl->diag, source, text);
  if (!def || !def->classes || !def->classes->base_mod) {
    fl->errors++;
    return NULL;
  }
  st_env env = {NULL, cls->parent};
  return st_mod_from_ast(fl, def->classes->base_mod, env, 0, 0, "", def->classes->loc);
}

st_flat_model *st_front_flatten(st_front *fe, const char *class_name) {
  return st_front_flatten_modified(fe, class_name, NULL, 0, NULL);
}

st_flat_model *st_front_flatten_modified(st_front *fe, const char *class_name,
                                         const char *const *mods, int nmods,
                                         const char *source) {
  return st_front_flatten_substituted(fe, class_name, mods, nmods, source, NULL, 0);
}

/* Every substitution must have met its component during instantiation. */
static void check_substitutions(st_fl *fl, const char *class_name) {
  for (int i = 0; i < fl->nsubst; i++)
    if (!fl->subst_used[i]) {
      st_error(fl->diag, (st_loc){0}, "no component '%s' in '%s' to substitute by '%s'",
               fl->subst[i].component, class_name, fl->subst[i].class_name);
      fl->errors++;
    }
}

st_flat_model *st_front_flatten_substituted(st_front *fe, const char *class_name,
                                            const char *const *mods, int nmods,
                                            const char *source, const st_front_subst *subst,
                                            int nsubst) {
  st_loc none = {0};
  if (!class_name) {
    st_error(fe->diag, none, "no class to flatten");
    return NULL;
  }
  st_cls *cls = st_front_class_by_name(fe, class_name);
  if (!cls) {
    st_error(fe->diag, none, "class '%s' not found", class_name);
    return NULL;
  }
  if (cls->ast && (cls->ast->kind == ACK_PACKAGE || cls->ast->kind == ACK_FUNCTION ||
                   cls->ast->kind == ACK_TYPE)) {
    st_error(fe->diag, cls->ast->name_loc, "'%s' is a %s, not a model", class_name,
             st_ast_class_kind_name(cls->ast->kind));
    return NULL;
  }
  int errors_before = st_diag_errors(fe->diag);
  st_fl fl = {0};
  fl.fe = fe;
  fl.diag = fe->diag;
  fl.arena = st_arena_new();
  fl.tmp = st_arena_new();
  st_flat_model *m = NULL;
  st_mod *top = NULL;
  fl.subst = subst;
  fl.nsubst = nsubst;
  if (fl.tmp && nsubst > 0 && !(fl.subst_used = st_arena_alloc(fl.tmp, (size_t)nsubst)))
    fl.errors++;
  if (fl.subst_used) memset(fl.subst_used, 0, (size_t)nsubst);
  if (fl.arena && fl.tmp && nmods > 0)
    top = top_modifier(&fl, mods, nmods, source ? source : "modification", cls);
  if (fl.arena && fl.tmp && !fl.errors && st_instantiate(&fl, cls, top) && !fl.errors)
    check_substitutions(&fl, class_name);
  if (fl.arena && fl.tmp && !fl.errors && fl.top) {
    st_fl_record_bindings(&fl);
    st_translate_sections(&fl);
    st_connections_to_equations(&fl);
    if (!fl.errors) m = st_fl_finish(&fl, cls->full);
  }
  /* A failed allocation may have been dropped on the way (an equation lost), or have ended
   * flattening without a message: either way the model is not the user's. (fl.arena is
   * NULL once the model owns it.) */
  int nomem = !fl.tmp || (!m && !fl.arena) || fl.out_of_memory || st_arena_failed(fl.tmp) ||
              st_arena_failed(m ? m->arena : fl.arena);
  st_loc at = cls->ast ? cls->ast->name_loc : none;
  if (nomem) {
    st_error(fe->diag, at, "out of memory while flattening '%s'", class_name);
    st_flat_free(m);
    m = NULL;
  } else if (!m && st_diag_errors(fe->diag) == errors_before) {
    st_error(fe->diag, at, "flattening '%s' failed without a message (internal error)",
             class_name);
  }
  fe->scratch_used = st_arena_used(fl.tmp);
  fl_free(&fl);
  return m;
}

size_t st_front_scratch_used(const st_front *fe) { return fe->scratch_used; }

const char *st_front_component_class(st_front *fe, const char *class_name,
                                     const char *component) {
  st_cls *c = class_name ? st_front_class_by_name(fe, class_name) : NULL;
  char *copy = st_arena_strdup(fe->arena, component);
  for (char *p = copy, *save = NULL; c && copy && (p = strtok_r(p, ".", &save)); p = NULL) {
    st_elem e;
    if (st_lookup_member(fe, st_cls_resolve_short(fe, c), p, &e) || !e.comp) return NULL;
    c = st_cls_resolve_short(fe, st_lookup_class(fe, e.owner, e.comp->u.comp.type));
  }
  return c && copy ? c->full : NULL;
}
