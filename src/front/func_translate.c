/* User functions (Modelica 3.5 chapter 12): each function class that a model calls becomes
 * one st_ffunction with its inputs, outputs and protected variables as locals and its
 * algorithm as the body (or the name of its external C function). Translated once, on
 * first call; calls refer to it by index. */
#include "front/inst.h"
#include "front/flat_expr.h"

#include <stdlib.h>
#include <string.h>

#define MAX_FUNCTIONS 256

static int find_function(const st_fl *fl, const st_cls *cls, const char *key) {
  for (int i = 0; i < fl->nfunctions; i++)
    if (fl->function_cls[i] == cls &&
        (key ? fl->function_key[i] && !strcmp(fl->function_key[i], key) : !fl->function_key[i]))
      return i;
  return -1;
}

/* The type of a local through short classes and types that only extend another
 * (`type Orientation extends TransformationMatrix`, `type TransformationMatrix = Real[3,
 * 3]`): their dimensions follow those of the declaration. */
static st_ftype local_type(st_fl *fl, st_cls *owner, const st_ast_element *e, st_flocal *l) {
  st_cls *t = st_lookup_class(fl->fe, owner, e->u.comp.type);
  for (int hops = 0; t && t->ast && hops < 64; hops++) {
    const st_ast_element *ext = st_cls_type_extends(t);
    if (ext) {
      t = st_lookup_extends(fl->fe, t, ext);
      continue;
    }
    if (t->ast->form != ACF_SHORT) break;
    for (const st_ast_expr *s = t->ast->base_subs; s && l->ndims < 4; s = s->next) {
      double v;
      st_fexpr *x = s->kind != AX_COLON ? st_translate(fl, s, (st_env){NULL, t->parent}) : NULL;
      l->size[l->ndims] = x;
      l->dims[l->ndims++] = x && st_fl_eval(fl, x, &v) == 0 ? (int)v : -1;
    }
    t = st_lookup_class(fl->fe, t->parent, t->ast->base);
  }
  if (!t) return (st_ftype)-1;
  if (t->prim >= 0) return (st_ftype)t->prim;
  if (t->ast && t->ast->form == ACF_ENUMERATION) return ST_T_ENUM;
  return (st_ftype)-1;
}

/* Sizes of a local: constants where known now (-1 otherwise); the expressions are kept for
 * the function compiler (src/func), which sizes outputs such as table[nTable, 2] from the
 * inputs. A record field's size that names a field before it (`Real c[nc]`) reads that
 * field's local (names/fields[0..nfields)): its value as modified (`extends R(nc = 21)`). */
static void local_dims(st_fl *fl, st_flocal *l, const st_ast_element *e, st_env env,
                       const char *const *names, st_fexpr *const *fields, int nfields) {
  /* `Integer[n] x[m]` is x[m, n]: the declaration's subscripts, then the type's */
  const st_ast_expr *lists[2] = {e->u.comp.subs, e->u.comp.type_subs};
  for (int k = 0; k < 2; k++)
    for (const st_ast_expr *s = lists[k]; s && l->ndims < 4; s = s->next) {
      double v;
      int errors = fl->errors;
      st_fexpr *x = s->kind == AX_COLON ? NULL
                    : nfields ? st_fl_translate_bound(fl, s, env.cls, names, fields, nfields)
                              : st_translate(fl, s, env);
      fl->errors = errors; /* a size given by another input is known only at the call */
      l->size[l->ndims] = x;
      l->dims[l->ndims++] = x && st_fl_eval(fl, x, &v) == 0 ? (int)v : -1;
    }
}

static st_causality causality_of(const st_ast_element *e) {
  return e->is_protected ? ST_C_NONE
         : e->u.comp.prefix.causality == AC_INPUT ? ST_C_INPUT
         : e->u.comp.prefix.causality == AC_OUTPUT ? ST_C_OUTPUT : ST_C_NONE;
}

/* A record component of a function is one local per leaf of the record ("r.a", "r.s.x",
 * records.c), each with the field's default as binding; a default that reads a field
 * declared before it (`final c = a*b`) reads that field's local. */
static int record_locals(st_fl *fl, st_cls *cls, const st_ast_element *e, st_cls *rec,
                         st_fnctx *ctx) {
  st_ffunction *fn = ctx->fn;
  /* an array of records `Complex u[:]` is one array local per leaf, "u.re[:]", read and
   * assigned element-wise (u[k].re, u[k]) */
  if (e->u.comp.subs && e->u.comp.type_subs) {
    st_fl_error(fl, e->loc, NULL, "arrays of records of an array type are not supported in "
                "functions");
    return -1;
  }
  st_rec_leaf *lv;
  int n = st_rec_leaves(fl, rec, e->u.comp.name, &lv);
  if (n < 0) return -1;
  if (fn->nlocals + n > ctx->caplocals) {
    st_fl_error(fl, e->loc, NULL, "function '%s' has too many variables", fn->name);
    return -1;
  }
  int first = fn->nlocals;
  size_t plen = strlen(e->u.comp.name) + 1;
  const char **names = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof *names);
  st_fexpr **fields = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof *fields);
  if (!names || !fields) return -1;
  int nfields = 0;
  for (int i = 0; i < n; i++) {
    st_flocal *l = &fn->locals[fn->nlocals++];
    memset(l, 0, sizeof *l);
    l->name = lv[i].name;
    l->type = lv[i].type;
    l->causality = causality_of(e);
    l->loc = e->loc;
    l->record = rec->full;
    /* `Complex u[2]` or `Complex[2] u` */
    int array = e->u.comp.subs || e->u.comp.type_subs;
    if (array) local_dims(fl, l, e, (st_env){NULL, cls}, NULL, NULL, 0);
    l->record_ndims = l->ndims;
    local_dims(fl, l, lv[i].decl, (st_env){NULL, lv[i].owner}, names, fields, nfields);
    if (lv[i].dflt && !array)
      l->binding = st_fl_translate_bound(fl, lv[i].dflt, lv[i].dflt_cls, names, fields, nfields);
    if (!strchr(lv[i].name + plen, '.') && !l->ndims &&
        (fields[nfields] = st_fx_new(fl->arena, FX_LOCAL, 0, 0, e->loc))) {
      fields[nfields]->index = first + i;
      names[nfields++] = lv[i].name + plen;
    }
  }
  return 0;
}

/* A functional input f (section 12.4.2): one input local "f.a" per argument a of its
 * function that the call binds, shaped like that input of the function. */
static int functional_locals(st_fl *fl, st_cls *cls, const st_ast_element *e, st_fnctx *ctx) {
  const st_fn_arg *arg = NULL;
  for (int i = 0; ctx->spec && i < ctx->spec->n && !arg; i++)
    if (!strcmp(ctx->spec->args[i].name, e->u.comp.name)) arg = &ctx->spec->args[i];
  if (!arg || e->is_protected || e->u.comp.prefix.causality != AC_INPUT) {
    st_fl_error(fl, e->loc, NULL, arg ? "functional variable '%s' of '%s' must be an input"
                : "functional input '%s' of '%s' needs a function argument at the call "
                "(a function name or `function g(...)`)", e->u.comp.name, cls->full);
    return -1;
  }
  (void)cls;
  int tk = arg->nbound ? st_fl_function(fl, arg->target, e->loc) : 0;
  if (tk < 0) return -1;
  for (int j = 0; j < arg->nbound; j++) {
    const st_ffunction *g = &fl->functions[tk];
    size_t len = strlen(arg->bound[j]);
    int found = 0;
    for (int i = 0; i < g->nlocals; i++) {
      const st_flocal *in = &g->locals[i];
      /* the input itself, or the leaves "a.x" of a record input a */
      if (in->causality != ST_C_INPUT || strncmp(in->name, arg->bound[j], len) ||
          (in->name[len] && in->name[len] != '.'))
        continue;
      if (ctx->fn->nlocals == ctx->caplocals) {
        st_fl_error(fl, e->loc, NULL, "function '%s' has too many variables", ctx->fn->name);
        return -1;
      }
      st_flocal *l = &ctx->fn->locals[ctx->fn->nlocals++];
      *l = *in;
      l->name = st_arena_concat(fl->arena, e->u.comp.name, ".", in->name);
      l->binding = NULL;
      l->loc = e->loc;
      for (int d = 0; d < l->ndims; d++) l->size[d] = NULL; /* in g's locals: known at the call */
      found = 1;
    }
    if (!found) {
      st_fl_error(fl, e->loc, NULL, "'%s' has no input '%s' to bind", g->name, arg->bound[j]);
      return -1;
    }
  }
  return 0;
}

static int has_local(const st_ffunction *fn, const char *name) {
  for (int i = 0; i < fn->nlocals; i++)
    if (strcmp(fn->locals[i].name, name) == 0) return 1;
  return 0;
}

/* Components of the function class and of its base classes (Modelica.Icons.Function...);
 * a component that two bases declare (Files.loadResource extends the interface and
 * ModelicaServices' implementation, both with `input String uri`) is one. */
static int collect_locals(st_fl *fl, st_cls *cls, st_fnctx *ctx, int depth) {
  if (depth > 32 || !cls->ast) return 0;
  for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, cls, e);
      if (base && collect_locals(fl, base, ctx, depth + 1)) return -1;
      continue;
    }
    if (e->kind != AEL_COMPONENT) continue;
    st_ffunction *fn = ctx->fn;
    if (has_local(fn, e->u.comp.name)) continue; /* inherited twice: one element (7.3.1) */
    st_cls *rt = st_lookup_class(fl->fe, cls, e->u.comp.type);
    rt = rt ? st_cls_resolve_short(fl->fe, rt) : NULL;
    if (st_cls_is_record(rt)) {
      if (record_locals(fl, cls, e, rt, ctx)) return -1;
      continue;
    }
    if (rt && st_cls_is(rt, ACK_FUNCTION)) {
      if (functional_locals(fl, cls, e, ctx)) return -1;
      continue;
    }
    if (fn->nlocals == ctx->caplocals) {
      st_fl_error(fl, e->loc, NULL, "function '%s' has too many variables", fn->name);
      return -1;
    }
    st_flocal *l = &fn->locals[fn->nlocals++]; /* its own sizes may name it: A[:, size(A, 1)] */
    l->name = st_arena_strdup(fl->arena, e->u.comp.name);
    l->causality = causality_of(e);
    l->loc = e->loc;
    local_dims(fl, l, e, (st_env){NULL, cls}, NULL, NULL, 0);
    l->is_object = st_cls_is_external_object(rt);
    l->type = l->is_object ? ST_T_INTEGER : local_type(fl, cls, e, l);
    if ((int)l->type < 0) {
      st_fl_error(fl, e->loc, NULL, "function variable '%s' must be of a predefined type",
                  e->u.comp.name);
      return -1;
    }
  }
  return 0;
}

static int count_components(st_fl *fl, st_cls *cls, int depth) {
  int n = 0;
  for (const st_ast_element *e = cls->ast && depth < 32 ? cls->ast->elements : NULL; e; e = e->next) {
    if (e->kind == AEL_COMPONENT) {
      st_cls *t = st_lookup_class(fl->fe, cls, e->u.comp.type);
      t = t ? st_cls_resolve_short(fl->fe, t) : NULL;
      st_rec_leaf *lv;
      int k = st_cls_is_record(t) ? st_rec_leaves(fl, t, NULL, &lv) : 1;
      n += k > 0 ? k : 1;
    }
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, cls, e);
      if (base) n += count_components(fl, base, depth + 1);
    }
  }
  return n;
}

/* `output Complex result(re = re, im = im)`: the modifiers of a record component's fields
 * bind those leaves. */
static void field_bindings(st_fl *fl, st_cls *cls, st_fnctx *ctx, const st_ast_element *e) {
  for (const st_ast_arg *a = e->u.comp.mod->args; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || !a->mod || !a->mod->value) continue;
    const char *path = e->u.comp.name;
    for (int i = 0; i < a->name->nparts; i++)
      path = st_arena_concat(fl->tmp, path, ".", a->name->parts[i]);
    for (int i = 0; i < ctx->fn->nlocals; i++)
      if (strcmp(ctx->fn->locals[i].name, path) == 0)
        ctx->fn->locals[i].binding = st_translate(fl, a->mod->value, (st_env){NULL, cls});
  }
}

/* Default values of inputs and bindings of protected variables, in the function's scope. */
static void local_bindings(st_fl *fl, st_cls *cls, st_fnctx *ctx, int depth) {
  if (depth > 32 || !cls->ast) return;
  for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, cls, e);
      if (base) local_bindings(fl, base, ctx, depth + 1);
    }
    if (e->kind == AEL_COMPONENT && e->u.comp.mod) field_bindings(fl, cls, ctx, e);
    if (e->kind != AEL_COMPONENT || !e->u.comp.mod || !e->u.comp.mod->value) continue;
    int first = -1, n = 0;
    size_t len = strlen(e->u.comp.name);
    for (int i = 0; i < ctx->fn->nlocals; i++) {
      const char *name = ctx->fn->locals[i].name;
      if (strncmp(name, e->u.comp.name, len) || (name[len] && name[len] != '.')) continue;
      if (first < 0) first = i;
      n++;
    }
    if (first < 0) continue;
    st_fexpr *v = st_translate(fl, e->u.comp.mod->value, (st_env){NULL, cls});
    if (!v) continue;
    if (n == 1 && !st_fx_is_record(v)) {
      ctx->fn->locals[first].binding = v;
    } else if (st_fx_is_record(v) && v->nargs == n) {
      for (int i = 0; i < n; i++) ctx->fn->locals[first + i].binding = v->args[i];
    } else if (ctx->fn->locals[first].ndims > 0 && st_rec_field_array(fl, v, 0, n)) {
      /* an array of records, one array local per field: `Complex t[2] = {Complex(..), ..}` */
      for (int i = 0; i < n; i++)
        ctx->fn->locals[first + i].binding = st_rec_field_array(fl, v, i, n);
    } else {
      st_fl_error(fl, e->u.comp.mod->value->loc, NULL, "the binding of '%s' does not fit it",
                  e->u.comp.name);
    }
  }
}

/* The local an external argument names: a scalar input written as a plain identifier; -1
 * for anything else (the binding in src/func/external.c reports it). */
static int external_arg(const st_ffunction *fn, const st_ast_expr *x) {
  if (x->kind != AX_CREF || x->u.cref->nparts != 1 || x->u.cref->parts->nsubs) return -1;
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_INPUT && !fn->locals[i].ndims &&
        !strcmp(fn->locals[i].name, x->u.cref->parts->name))
      return i;
  return -1;
}

/* The directory of the top-level class (library) that holds cls. */
static char *library_root(st_fl *fl, const st_cls *cls) {
  while (cls->parent && cls->parent->parent) cls = cls->parent;
  if (cls->dir) return st_arena_strdup(fl->arena, cls->dir);
  const char *file = cls->ast ? cls->ast->loc.file : NULL;
  const char *slash = file ? strrchr(file, '/') : NULL;
  if (!slash) return st_arena_strdup(fl->arena, ".");
  return st_arena_strndup(fl->arena, file, (size_t)(slash - file));
}

const char *st_fl_resolve_uri(st_fl *fl, const char *uri, const char *root) {
  if (!strncmp(uri, "file://", 7)) return uri + 7;
  if (strncmp(uri, "modelica://", 11)) {
    if (uri[0] == '/') return uri;
    return st_arena_printf(fl->arena, "%s/%s", root, uri);
  }
  const char *name = uri + 11, *rest = strchr(name, '/');
  size_t len = rest ? (size_t)(rest - name) : strlen(name);
  const char *dot = memchr(name, '.', len); /* modelica://Lib.Pkg/...: the library part */
  char *top = st_arena_strndup(fl->tmp, name, dot ? (size_t)(dot - name) : len);
  const char *dir = NULL;
  st_cls *c = top ? st_cls_kid(fl->fe, fl->fe->root, top) : NULL;
  if (c) {
    dir = library_root(fl, c);
  } else if (top) {
    int is_dir = 0;
    char *found = st_libpath_find(&fl->fe->path, top, &is_dir);
    if (found) {
      char *slash = is_dir ? NULL : strrchr(found, '/');
      if (slash) *slash = 0;
      dir = st_arena_strdup(fl->arena, found);
      free(found);
    }
  }
  if (!dir) return uri; /* named in the error when nothing is found there */
  return st_arena_printf(fl->arena, "%s%s", dir, rest ? rest : "");
}

const char *st_fl_existing_path(st_fl *fl, const char *path) {
  char *abs = realpath(path, NULL);
  const char *v = abs ? st_arena_strdup(fl->arena, abs) : NULL;
  free(abs);
  return v;
}

/* The strings of an annotation value: "a" or {"a", "b"}. */
static int annotation_strings(st_fl *fl, const st_ast_expr *v, const char ***out, int *n) {
  int count = v && v->kind == AX_STRING ? 1 : v && v->kind == AX_ARRAY ? v->u.array.nelems : 0;
  const char **list = count ? st_arena_alloc(fl->arena, (size_t)count * sizeof *list) : NULL;
  if (count && !list) return -1;
  int k = 0;
  if (v && v->kind == AX_STRING) list[k++] = v->u.string;
  for (const st_ast_expr *e = v && v->kind == AX_ARRAY ? v->u.array.elems : NULL; e; e = e->next)
    if (e->kind == AX_STRING && k < count) list[k++] = e->u.string;
  *out = list;
  *n = k;
  return 0;
}

/* Include, Library, IncludeDirectory, LibraryDirectory of the external clause (or, as older
 * libraries write them, of the function class). */
static void external_annotations(st_fl *fl, st_cls *cls, st_fexternal *ext) {
  const char *root = library_root(fl, cls), *incdir = NULL, *libdir = NULL;
  const st_ast_mod *mods[2] = {cls->ast->external->annotation, cls->ast->annotation};
  for (int m = 0; m < 2; m++)
    for (const st_ast_arg *a = mods[m] ? mods[m]->args : NULL; a; a = a->next) {
      if (a->kind != AA_MODIFY || !a->name || !a->mod || !a->mod->value) continue;
      const char *key = a->name->text;
      const st_ast_expr *v = a->mod->value;
      if (!strcmp(key, "Include") && !ext->nincludes)
        annotation_strings(fl, v, &ext->includes, &ext->nincludes);
      else if (!strcmp(key, "Library") && !ext->nlibraries)
        annotation_strings(fl, v, &ext->libraries, &ext->nlibraries);
      else if (!strcmp(key, "IncludeDirectory") && v->kind == AX_STRING && !incdir)
        incdir = v->u.string;
      else if (!strcmp(key, "LibraryDirectory") && v->kind == AX_STRING && !libdir)
        libdir = v->u.string;
    }
  ext->include_dir = incdir ? st_fl_resolve_uri(fl, incdir, root)
                            : st_arena_printf(fl->arena, "%s/Resources/Include", root);
  ext->library_dir = libdir ? st_fl_resolve_uri(fl, libdir, root)
                            : st_arena_printf(fl->arena, "%s/Resources/Library", root);
  ext->sources_dir = st_arena_printf(fl->arena, "%s/Resources/C-Sources", root);
}

/* The clause for compile/extlib.c: arguments translated in the function's scope (a failed
 * translation leaves nargs -2: the loader reports the clause as unsupported). */
static void external_clause(st_fl *fl, st_cls *cls, st_ffunction *fn) {
  const st_ast_external *x = cls->ast->external;
  st_fexternal *ext = st_arena_alloc(fl->arena, sizeof *ext);
  if (!ext) return;
  memset(ext, 0, sizeof *ext);
  ext->language = x->language ? x->language : "C";
  ext->loc = x->loc;
  ext->output = -1;
  ext->nargs = -1;
  if (x->fn) {
    int n = 0;
    for (const st_ast_expr *e = x->args; e; e = e->next) n++;
    ext->args = st_arena_alloc(fl->arena, (size_t)(n + 1) * sizeof *ext->args);
    ext->nargs = ext->args ? n : -2;
    int errors = fl->errors;
    n = 0;
    for (const st_ast_expr *e = x->args; e && ext->args; e = e->next)
      if (!(ext->args[n++] = st_translate(fl, e, (st_env){NULL, cls}))) ext->nargs = -2;
    fl->errors = errors;
  }
  if (x->output && x->output->nparts == 1 && !x->output->parts->nsubs)
    for (int i = 0; i < fn->nlocals; i++)
      if (!strcmp(fn->locals[i].name, x->output->parts->name)) ext->output = i;
  if (x->output && ext->output < 0) ext->nargs = -2;
  external_annotations(fl, cls, ext);
  fn->ext = ext;
}

/* The constructor of an external object: its class's destructor, translated now so that the
 * instance can destroy what the constructor made (compile/extcall.c). */
static void object_destructor(st_fl *fl, st_cls *cls, int k) {
  if (!cls->parent || !st_cls_is_external_object(cls->parent) || strcmp(cls->name, "constructor") ||
      !fl->functions[k].ext)
    return;
  st_cls *d = st_cls_kid(fl->fe, cls->parent, "destructor");
  d = d ? st_cls_resolve_short(fl->fe, d) : NULL;
  int dk = d ? st_fl_function(fl, d, cls->ast->loc) : -1;
  if (dk >= 0) ((st_fexternal *)fl->functions[k].ext)->destructor = dk + 1;
}

/* external "C" [out =] f(a, b, ...): the name and which inputs go where. */
static void external_call(st_fl *fl, st_cls *cls, st_ffunction *fn) {
  const st_ast_external *x = cls->ast->external;
  fn->external_name = st_arena_strdup(fl->arena, x->fn ? x->fn : cls->name);
  fn->external_nargs = -1;
  external_clause(fl, cls, fn);
  if (!x->fn) return;
  int n = 0;
  for (const st_ast_expr *e = x->args; e; e = e->next) n++;
  int *map = st_arena_alloc(fl->arena, (size_t)(n + 1) * sizeof *map);
  if (!map) {
    fn->external_nargs = -2; /* unbindable rather than silently in declaration order */
    return;
  }
  n = 0;
  for (const st_ast_expr *e = x->args; e; e = e->next)
    if ((map[n++] = external_arg(fn, e)) < 0) fn->external_nargs = -2;
  if (fn->external_nargs == -1) fn->external_nargs = n;
  fn->external_args = map;
}

/* The statements of l into out from n on (out NULL: only counted), the blocks without a
 * condition (a record assignment r := R(a, b) is one of r.a := a; r.b := b) spliced in:
 * the body stays a chain of assignments that index reduction can differentiate. */
static int spliced(const st_fstmt_list *l, st_fstmt **out, int n) {
  for (int i = 0; i < l->n; i++) {
    st_fstmt *x = l->items[i];
    if (x->kind == FS_IF && x->nconds == 0 && x->branches) n = spliced(&x->branches[0], out, n);
    else if (out) out[n++] = x;
    else n++;
  }
  return n;
}

/* The class whose external clause is the function's: its own, else an inherited one. */
static st_cls *external_class(st_fl *fl, st_cls *cls, int depth) {
  if (!cls->ast || depth > 32) return NULL;
  if (cls->ast->external) return cls;
  for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
    st_cls *base = e->kind == AEL_EXTENDS ? st_lookup_extends(fl->fe, cls, e) : NULL;
    st_cls *x = base ? external_class(fl, base, depth + 1) : NULL;
    if (x) return x;
  }
  return NULL;
}

/* The algorithm sections of the base classes, then the class's own (section 7.1: inherited
 * sections are part of the class), each translated in the scope it is written in. */
static void algorithm_parts(st_fl *fl, st_cls *cls, st_fstmt_list *parts, int *nparts,
                            int depth) {
  if (!cls->ast || depth > 32) return;
  for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
    st_cls *base = e->kind == AEL_EXTENDS ? st_lookup_extends(fl->fe, cls, e) : NULL;
    if (base) algorithm_parts(fl, base, parts, nparts, depth + 1);
  }
  for (const st_ast_section *s = cls->ast->sections; s; s = s->next)
    if (s->kind == ASEC_ALGORITHM && !s->initial && *nparts < 8)
      parts[(*nparts)++] = st_translate_stmts(fl, s->stmts, (st_env){NULL, cls});
}

static void function_body(st_fl *fl, st_cls *cls, st_ffunction *fn) {
  st_cls *x = external_class(fl, cls, 0);
  if (x) {
    external_call(fl, x, fn);
    return;
  }
  /* All algorithm sections, in order, make one body. */
  int total = 0;
  st_fstmt_list parts[8];
  int nparts = 0;
  algorithm_parts(fl, cls, parts, &nparts, 0);
  for (int i = 0; i < nparts; i++) total += spliced(&parts[i], NULL, 0);
  fn->body.items = total ? st_arena_alloc(fl->arena, (size_t)total * sizeof *fn->body.items) : NULL;
  for (int i = 0; i < nparts && (fn->body.items || !total); i++)
    fn->body.n = spliced(&parts[i], fn->body.items, fn->body.n);
}

/* The class named by a cref expression, looked up from the function's scope; NULL (with an
 * error) unless it is a function. */
static st_cls *named_function(st_fl *fl, st_cls *scope, const st_ast_expr *e) {
  const char *parts[16];
  int n = 0;
  if (!e || e->kind != AX_CREF) {
    st_fl_error(fl, e ? e->loc : scope->ast->loc, NULL, "derivative annotation: expected the "
                "name of a function");
    return NULL;
  }
  for (const st_ast_cref_part *p = e->u.cref->parts; p && n < 16; p = p->next) parts[n++] = p->name;
  st_cls *c = st_lookup_class_path(fl->fe, scope, parts, n, e->u.cref->global ? 1 : 0);
  if (c) c = st_cls_resolve_short(fl->fe, c);
  if (!c || !st_cls_is(c, ACK_FUNCTION)) {
    st_fl_error(fl, e->loc, NULL, "derivative annotation: '%s' is not a function",
                st_ast_cref_text(fl->tmp, e->u.cref));
    return NULL;
  }
  return c;
}

/* Marks the inputs that get a derivative argument: Real inputs not named in noDerivative or
 * zeroDerivative. -1 (with an error) for a name that is not an input; *order gets order. */
static int derivative_inputs(st_fl *fl, const st_ffunction *fn, const st_ast_mod *m,
                             unsigned char *has, int *order) {
  for (int i = 0; i < fn->nlocals; i++)
    has[i] = fn->locals[i].causality == ST_C_INPUT && fn->locals[i].type == ST_T_REAL;
  *order = 1;
  for (const st_ast_arg *a = m->args; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || !a->mod || !a->mod->value) continue;
    const st_ast_expr *v = a->mod->value;
    if (!strcmp(a->name->text, "order")) {
      *order = v->kind == AX_INTEGER ? (int)v->u.num.integer : 0;
      continue;
    }
    if (strcmp(a->name->text, "noDerivative") && strcmp(a->name->text, "zeroDerivative")) continue;
    int found = 0;
    /* a record input names all its leaves "aux.x" */
    const char *in = v->kind == AX_CREF && v->u.cref->nparts == 1 ? v->u.cref->parts->name : NULL;
    size_t len = in ? strlen(in) : 0;
    for (int i = 0; in && i < fn->nlocals; i++)
      if (fn->locals[i].causality == ST_C_INPUT && !strncmp(fn->locals[i].name, in, len) &&
          (fn->locals[i].name[len] == 0 || fn->locals[i].name[len] == '.'))
        found = 1, has[i] = 0;
    if (!found) {
      st_fl_error(fl, v->loc, NULL, "derivative annotation: %s must name an input of '%s'",
                  a->name->text, fn->name);
      return -1;
    }
  }
  return 0;
}

static int count_causality(const st_ffunction *fn, st_causality c) {
  int n = 0;
  for (int i = 0; i < fn->nlocals; i++) n += fn->locals[i].causality == c;
  return n;
}

/* The derivative function must take the inputs and their derivatives and give as many
 * outputs: checked here so that a wrong annotation is an error at the annotation, not a
 * wrong Jacobian. */
static int check_derivative(st_fl *fl, const st_ffunction *fn, const unsigned char *has,
                            const st_ffunction *der, st_loc loc) {
  int nd = 0;
  for (int i = 0; i < fn->nlocals; i++) nd += has[i];
  int want = count_causality(fn, ST_C_INPUT) + nd;
  if (count_causality(der, ST_C_INPUT) == want &&
      count_causality(der, ST_C_OUTPUT) == count_causality(fn, ST_C_OUTPUT))
    return 0;
  st_fl_error(fl, loc, NULL, "derivative annotation: '%s' must have %d inputs (the %d of '%s' "
              "and %d derivatives) and %d outputs", der->name, want,
              count_causality(fn, ST_C_INPUT), fn->name, nd, count_causality(fn, ST_C_OUTPUT));
  return -1;
}

/* annotation(derivative(order = 1, noDerivative = u, zeroDerivative = v) = f_der), Modelica
 * 3.6 section 12.7.1. Only first-order derivatives are used (index reduction and Jacobians
 * differentiate once at a time); f_der is translated like any called function. */
static int read_derivative(st_fl *fl, st_cls *cls, int k) {
  const st_ast_mod *an = cls->ast->annotation;
  for (const st_ast_arg *a = an ? an->args : NULL; a; a = a->next) {
    if (a->kind != AA_MODIFY || !a->name || strcmp(a->name->text, "derivative") || !a->mod)
      continue;
    st_ffunction *fn = &fl->functions[k];
    unsigned char *has = st_arena_alloc(fl->arena, (size_t)fn->nlocals + 1);
    int order = 1;
    if (!has || derivative_inputs(fl, fn, a->mod, has, &order)) return -1;
    if (order != 1) continue;
    st_cls *dc = named_function(fl, cls, a->mod->value);
    int d = dc ? st_fl_function(fl, dc, a->loc) : -1;
    if (d < 0) return -1;
    fn = &fl->functions[k];
    if (check_derivative(fl, fn, has, &fl->functions[d], a->loc)) return -1;
    fn->derivative = d + 1;
    fn->has_derivative = has;
    fn->derivative_loc = a->loc;
    return 0;
  }
  return 0;
}

int st_fl_function(st_fl *fl, st_cls *cls, st_loc loc) {
  return st_fl_function_spec(fl, cls, NULL, loc);
}

int st_fl_function_spec(st_fl *fl, st_cls *cls, const st_fn_spec *spec, st_loc loc) {
  int k = find_function(fl, cls, spec ? spec->key : NULL);
  if (k >= 0) return k;
  if (!fl->functions) {
    fl->functions = st_arena_alloc(fl->arena, MAX_FUNCTIONS * sizeof *fl->functions);
    fl->function_cls = st_arena_alloc(fl->tmp, MAX_FUNCTIONS * sizeof *fl->function_cls);
    fl->function_key = st_arena_alloc(fl->tmp, MAX_FUNCTIONS * sizeof *fl->function_key);
    if (!fl->functions || !fl->function_cls || !fl->function_key) return -1;
  }
  if (fl->nfunctions == MAX_FUNCTIONS) {
    st_fl_error(fl, loc, NULL, "too many functions");
    return -1;
  }
  k = fl->nfunctions++;
  st_ffunction *fn = &fl->functions[k];
  fl->function_cls[k] = cls;
  fl->function_key[k] = spec ? spec->key : NULL;
  fn->name = spec ? st_arena_printf(fl->arena, "%s(%s)", cls->full, spec->key)
                  : st_arena_strdup(fl->arena, cls->full);
  fn->loc = cls->ast->loc;
  fn->is_impure = cls->ast->purity == APURE_IMPURE;
  int nbound = 0;
  for (int i = 0; spec && i < spec->n; i++) nbound += spec->args[i].nbound;
  st_fnctx ctx = {fn, cls, count_components(fl, cls, 0) + nbound + 16, spec};
  fn->locals = st_arena_alloc(fl->arena, (size_t)ctx.caplocals * sizeof *fn->locals);
  if (!fn->locals) return -1;
  st_fnctx *outer = fl->fnctx;
  int base = fl->iter_base;
  fl->fnctx = &ctx;
  fl->iter_base = fl->niters; /* the caller's for-iterators are not visible in the body */
  int errors = fl->errors;
  if (collect_locals(fl, cls, &ctx, 0) == 0) {
    local_bindings(fl, cls, &ctx, 0);
    function_body(fl, cls, fn);
  }
  fl->fnctx = outer;
  fl->iter_base = base;
  if (fl->errors == errors) read_derivative(fl, cls, k);
  if (fl->errors == errors) object_destructor(fl, cls, k);
  return fl->errors > errors ? -1 : k;
}

int st_fn_iterator_local(st_fl *fl, const char *name, st_loc loc) {
  st_fnctx *ctx = fl->fnctx;
  st_ffunction *fn = ctx->fn;
  for (int i = 0; i < fn->nlocals; i++)
    if (strcmp(fn->locals[i].name, name) == 0) return i;
  if (fn->nlocals == ctx->caplocals) {
    st_fl_error(fl, loc, NULL, "too many for-loops in function '%s'", fn->name);
    return -1;
  }
  st_flocal *l = &fn->locals[fn->nlocals];
  l->name = st_arena_strdup(fl->arena, name);
  l->type = ST_T_INTEGER;
  l->causality = ST_C_NONE;
  l->loc = loc;
  return fn->nlocals++;
}
