/* Inlining a call of a user function whose body is a chain of scalar assignments, so that
 * index reduction can differentiate through it (index.c). y := a*u; z := y + sin(u) becomes
 * the expression a*u + sin(u) of the call's arguments; an array input given as a literal
 * array is read by constant subscripts (u[2]). Anything else (loops, ifs, other arrays,
 * several assignments of an output that depend on control flow) is not inlined. */
#include <string.h>

#include "compile/model_impl.h"

typedef struct inl {
  st_compiled *cm;
  const st_ffunction *fn;
  st_fexpr **env;    /* per local: its current value as an expression of the arguments */
} inl;

static st_fexpr *element(inl *c, const st_fexpr *e);

/* A copy of e with every local replaced by its value; NULL when a local has none. */
static st_fexpr *subst(inl *c, const st_fexpr *e) {
  if (!e) return NULL;
  if (e->kind == FX_LOCAL)
    return e->index >= 0 && e->index < c->fn->nlocals ? c->env[e->index] : NULL;
  if (e->kind == FX_INDEX) return element(c, e);
  if (e->kind == FX_ARRAY || e->kind == FX_RANGE || e->kind == FX_END ||
      (e->kind == FX_BUILTIN && e->op == FB_SIZE))
    return NULL;
  if (e->nargs == 0) return (st_fexpr *)e;
  st_fexpr *n = st_sym_node(c->cm->arena, e->kind, e->op, e->nargs);
  if (!n) return NULL;
  n->index = e->index;
  n->value = e->value;
  n->str = e->str;
  n->loc = e->loc;
  for (int i = 0; i < e->nargs; i++)
    if (!(n->args[i] = subst(c, e->args[i]))) return NULL;
  return n;
}

/* u[2] of an array input given as a literal array {p, u1} at the call: that element
 * (Blocks.Interfaces.Adaptors.Functions.state1der1). */
static st_fexpr *element(inl *c, const st_fexpr *e) {
  if (e->args[0]->kind != FX_LOCAL || e->args[0]->index < 0 || e->args[0]->index >= c->fn->nlocals)
    return NULL;
  st_fexpr *a = c->env[e->args[0]->index];
  for (int d = 1; a && d < e->nargs; d++) {
    const st_fexpr *s = e->args[d];
    if (a->kind != FX_ARRAY || s->kind != FX_REAL || s->value != (int)s->value ||
        s->value < 1 || s->value > a->nargs)
      return NULL;
    a = a->args[(int)s->value - 1];
  }
  return a && a->kind != FX_ARRAY ? a : NULL;
}

static int scalar_local(const inl *c, const st_fexpr *t) {
  return t && t->kind == FX_LOCAL && t->index >= 0 && t->index < c->fn->nlocals &&
         c->fn->locals[t->index].ndims == 0;
}

/* Inputs take the arguments, protected variables their bindings, then the assignments run. */
static int bind(inl *c, const st_fexpr *call) {
  int in = 0;
  for (int i = 0; i < c->fn->nlocals; i++) {
    const st_flocal *l = &c->fn->locals[i];
    if (l->causality == ST_C_INPUT) {
      /* an array input is only read element by element (element()) */
      if (in >= call->nargs || (l->ndims != 0) != (call->args[in]->kind == FX_ARRAY)) return -1;
      c->env[i] = call->args[in++];
    } else if (l->ndims != 0) {
      return -1;
    } else if (l->binding && !(c->env[i] = subst(c, l->binding))) {
      return -1;
    }
  }
  for (int k = 0; k < c->fn->body.n; k++) {
    const st_fstmt *s = c->fn->body.items[k];
    if (s->kind != FS_ASSIGN || !scalar_local(c, s->target)) return -1;
    st_fexpr *v = subst(c, s->value);
    if (!v) return -1;
    c->env[s->target->index] = v;
  }
  return 0;
}

st_fexpr *st_inline_call(st_compiled *cm, const st_fexpr *call) {
  if (call->kind != FX_CALL || call->index < 0 || call->index >= cm->flat->nfunctions)
    return NULL;
  inl c = {cm, &cm->flat->functions[call->index], NULL};
  if (c.fn->external_name || c.fn->nlocals <= 0) return NULL;
  c.env = st_arena_alloc(cm->arena, (size_t)c.fn->nlocals * sizeof *c.env);
  if (!c.env || bind(&c, call)) return NULL;
  for (int i = 0, o = 0; i < c.fn->nlocals; i++)
    if (c.fn->locals[i].causality == ST_C_OUTPUT && o++ == call->op) return c.env[i];
  return NULL;
}
