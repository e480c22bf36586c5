/* User functions (Modelica 3.5 chapter 12): each function class that a model calls becomes
 * one st_ffunction with its inputs, outputs and protected variables as locals and its
 * algorithm as the body (or the name of its external C function). Translated once, on
 * first call; calls refer to it by index. */
#include "front/inst.h"

#include <string.h>

#define MAX_FUNCTIONS 256

static int find_function(const st_fl *fl, const st_cls *cls) {
  for (int i = 0; i < fl->nfunctions; i++)
    if (fl->function_cls[i] == cls) return i;
  return -1;
}

static st_ftype local_type(st_fl *fl, st_cls *owner, const st_ast_element *e) {
  st_cls *t = st_lookup_class(fl->fe, owner, e->u.comp.type);
  t = t ? st_cls_resolve_short(fl->fe, t) : NULL;
  if (!t) return (st_ftype)-1;
  if (t->prim >= 0) return (st_ftype)t->prim;
  if (t->ast && t->ast->form == ACF_ENUMERATION) return ST_T_ENUM;
  return (st_ftype)-1;
}

/* Sizes of a local: constants where known now (-1 otherwise); the expressions are kept for
 * the interpreter, which sizes outputs such as table[nTable, 2] from the inputs. */
static void local_dims(st_fl *fl, st_flocal *l, const st_ast_element *e, st_env env,
                       st_fexpr **keep) {
  for (const st_ast_expr *s = e->u.comp.subs; s && l->ndims < 4; s = s->next) {
    double v;
    int errors = fl->errors;
    st_fexpr *x = s->kind != AX_COLON ? st_translate(fl, s, env) : NULL;
    fl->errors = errors; /* a size given by another input is known only at the call */
    keep[l->ndims] = x;
    l->dims[l->ndims++] = x && st_fl_eval(fl, x, &v) == 0 ? (int)v : -1;
  }
}

/* Components of the function class and of its base classes (Modelica.Icons.Function...). */
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
    if (fn->nlocals == ctx->caplocals) {
      st_fl_error(fl, e->loc, NULL, "function '%s' has too many variables", fn->name);
      return -1;
    }
    st_flocal *l = &fn->locals[fn->nlocals];
    l->name = st_arena_strdup(fl->arena, e->u.comp.name);
    l->type = local_type(fl, cls, e);
    if ((int)l->type < 0) {
      st_fl_error(fl, e->loc, NULL, "function variable '%s' must be of a predefined type",
                  e->u.comp.name);
      return -1;
    }
    l->causality = e->is_protected ? ST_C_NONE
                   : e->u.comp.prefix.causality == AC_INPUT ? ST_C_INPUT
                   : e->u.comp.prefix.causality == AC_OUTPUT ? ST_C_OUTPUT : ST_C_NONE;
    l->loc = e->loc;
    local_dims(fl, l, e, (st_env){NULL, cls}, &fl->fn_dims[fn - fl->functions][4 * fn->nlocals]);
    fn->nlocals++;
  }
  return 0;
}

static int count_components(st_fl *fl, st_cls *cls, int depth) {
  int n = 0;
  for (const st_ast_element *e = cls->ast && depth < 32 ? cls->ast->elements : NULL; e; e = e->next) {
    if (e->kind == AEL_COMPONENT) n++;
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, cls, e);
      if (base) n += count_components(fl, base, depth + 1);
    }
  }
  return n;
}

/* Default values of inputs and bindings of protected variables, in the function's scope. */
static void local_bindings(st_fl *fl, st_cls *cls, st_fnctx *ctx, int depth) {
  if (depth > 32 || !cls->ast) return;
  for (const st_ast_element *e = cls->ast->elements; e; e = e->next) {
    if (e->kind == AEL_EXTENDS) {
      st_cls *base = st_lookup_extends(fl->fe, cls, e);
      if (base) local_bindings(fl, base, ctx, depth + 1);
    }
    if (e->kind != AEL_COMPONENT || !e->u.comp.mod || !e->u.comp.mod->value) continue;
    for (int i = 0; i < ctx->fn->nlocals; i++)
      if (strcmp(ctx->fn->locals[i].name, e->u.comp.name) == 0)
        ctx->fn->locals[i].binding = st_translate(fl, e->u.comp.mod->value, (st_env){NULL, cls});
  }
}

static void function_body(st_fl *fl, st_cls *cls, st_ffunction *fn) {
  const st_ast_class *a = cls->ast;
  if (a->external) {
    fn->external_name = st_arena_strdup(fl->arena, a->external->fn ? a->external->fn : cls->name);
    return;
  }
  /* All algorithm sections, in order, make one body. */
  int total = 0;
  st_fstmt_list parts[8];
  int nparts = 0;
  for (const st_ast_section *s = a->sections; s; s = s->next)
    if (s->kind == ASEC_ALGORITHM && !s->initial && nparts < 8) {
      parts[nparts] = st_translate_stmts(fl, s->stmts, (st_env){NULL, cls});
      total += parts[nparts++].n;
    }
  fn->body.items = total ? st_arena_alloc(fl->arena, (size_t)total * sizeof *fn->body.items) : NULL;
  for (int i = 0; i < nparts && (fn->body.items || !total); i++) {
    if (parts[i].n)
      memcpy(fn->body.items + fn->body.n, parts[i].items, (size_t)parts[i].n * sizeof *parts[i].items);
    fn->body.n += parts[i].n;
  }
}

int st_fl_function(st_fl *fl, st_cls *cls, st_loc loc) {
  int k = find_function(fl, cls);
  if (k >= 0) return k;
  if (!fl->functions) {
    fl->functions = st_arena_alloc(fl->arena, MAX_FUNCTIONS * sizeof *fl->functions);
    fl->function_cls = st_arena_alloc(fl->tmp, MAX_FUNCTIONS * sizeof *fl->function_cls);
    fl->fn_dims = st_arena_alloc(fl->tmp, MAX_FUNCTIONS * sizeof *fl->fn_dims);
    if (!fl->functions || !fl->function_cls || !fl->fn_dims) return -1;
  }
  if (fl->nfunctions == MAX_FUNCTIONS) {
    st_fl_error(fl, loc, NULL, "too many functions");
    return -1;
  }
  k = fl->nfunctions++;
  st_ffunction *fn = &fl->functions[k];
  fl->function_cls[k] = cls;
  fn->name = st_arena_strdup(fl->arena, cls->full);
  fn->loc = cls->ast->loc;
  fn->is_impure = cls->ast->purity == APURE_IMPURE;
  st_fnctx ctx = {fn, cls, count_components(fl, cls, 0) + 16};
  fn->locals = st_arena_alloc(fl->arena, (size_t)ctx.caplocals * sizeof *fn->locals);
  fl->fn_dims[k] = st_arena_alloc(fl->tmp, (size_t)ctx.caplocals * 4 * sizeof(st_fexpr *));
  if (!fn->locals || !fl->fn_dims[k]) return -1;
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
