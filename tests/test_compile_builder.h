/* Building flat models by hand for the compiler tests (before and beside the front end).
 * Every equation gets a distinct line in the pseudo-file "test.mo" so that located errors
 * can be checked. */
#ifndef ST_TESTS_COMPILE_BUILDER_H
#define ST_TESTS_COMPILE_BUILDER_H

#include <string.h>

#include "front/flat.h"

typedef struct fb {
  st_arena *a;
  st_flat_model *m;
  int capvars, capeqs, capinit;
  int line;
} fb;

static st_fexpr *fb_node(fb *b, st_fexpr_kind kind, int op, int nargs) {
  st_fexpr *e = st_arena_alloc(b->a, sizeof *e);
  e->kind = kind;
  e->op = op;
  e->nargs = nargs;
  e->args = nargs ? st_arena_alloc(b->a, (size_t)nargs * sizeof *e->args) : NULL;
  e->loc = (st_loc){"test.mo", b->line, 3};
  return e;
}

static inline fb fb_new(const char *name) {
  fb b = {0};
  b.a = st_arena_new();
  b.m = st_arena_alloc(b.a, sizeof *b.m);
  b.m->arena = b.a;
  b.m->name = name;
  b.m->loc = (st_loc){"test.mo", 1, 1};
  b.line = 2;
  return b;
}

static inline int fb_var(fb *b, const char *name, st_variability var, st_ftype type) {
  if (b->m->nvars == b->capvars) {
    int cap = b->capvars ? 2 * b->capvars : 16;
    st_fvar *v = st_arena_alloc(b->a, (size_t)cap * sizeof *v);
    if (b->m->nvars) memcpy(v, b->m->vars, (size_t)b->m->nvars * sizeof *v);
    b->m->vars = v;
    b->capvars = cap;
  }
  st_fvar *v = &b->m->vars[b->m->nvars];
  v->name = st_arena_strdup(b->a, name);
  v->variability = var;
  v->type = type;
  v->fixed = -1;
  v->state_select = ST_SS_DEFAULT;
  v->loc = (st_loc){"test.mo", b->line++, 3};
  return b->m->nvars++;
}

static inline st_fexpr *N(fb *b, double v) {
  st_fexpr *e = fb_node(b, FX_REAL, 0, 0);
  e->value = v;
  return e;
}
static inline st_fexpr *V(fb *b, int i) {
  st_fexpr *e = fb_node(b, FX_VAR, 0, 0);
  e->index = i;
  return e;
}
static inline st_fexpr *TIME(fb *b) { return fb_node(b, FX_TIME, 0, 0); }
static inline st_fexpr *BIN(fb *b, st_fop op, st_fexpr *l, st_fexpr *r) {
  st_fexpr *e = fb_node(b, FX_BINARY, op, 2);
  e->args[0] = l;
  e->args[1] = r;
  return e;
}
static inline st_fexpr *UN(fb *b, st_fop op, st_fexpr *x) {
  st_fexpr *e = fb_node(b, FX_UNARY, op, 1);
  e->args[0] = x;
  return e;
}
static inline st_fexpr *F1(fb *b, st_builtin f, st_fexpr *x) {
  st_fexpr *e = fb_node(b, FX_BUILTIN, f, 1);
  e->args[0] = x;
  return e;
}
static inline st_fexpr *F0(fb *b, st_builtin f) { return fb_node(b, FX_BUILTIN, f, 0); }
static inline st_fexpr *DER(fb *b, int i) { return F1(b, FB_DER, V(b, i)); }
static inline st_fexpr *PRE(fb *b, int i) { return F1(b, FB_PRE, V(b, i)); }
static inline st_fexpr *IF(fb *b, st_fexpr *c, st_fexpr *t, st_fexpr *f) {
  st_fexpr *e = fb_node(b, FX_IF, 0, 3);
  e->args[0] = c;
  e->args[1] = t;
  e->args[2] = f;
  return e;
}

/* Parameter with a binding; returns its index. */
static inline int fb_param(fb *b, const char *name, st_fexpr *value) {
  int i = fb_var(b, name, ST_V_PARAMETER, ST_T_REAL);
  b->m->vars[i].binding = value;
  return i;
}

static inline void fb_start(fb *b, int i, double start, int fixed) {
  b->m->vars[i].start = N(b, start);
  b->m->vars[i].fixed = fixed;
}

static st_feq *fb_mk(fb *b, st_feq_kind kind, st_fexpr *l, st_fexpr *r) {
  st_feq *q = st_arena_alloc(b->a, sizeof *q);
  q->kind = kind;
  q->lhs = l;
  q->rhs = r;
  q->origin = "";
  q->loc = (st_loc){"test.mo", b->line++, 3};
  return q;
}

static void fb_push(fb *b, st_feq_list *l, int *cap, st_feq *q) {
  if (l->n == *cap) {
    int c = *cap ? 2 * *cap : 16;
    st_feq **items = st_arena_alloc(b->a, (size_t)c * sizeof *items);
    if (l->n) memcpy(items, l->items, (size_t)l->n * sizeof *items);
    l->items = items;
    *cap = c;
  }
  l->items[l->n++] = q;
}

/* lhs = rhs; returns its line. */
static inline int fb_eq(fb *b, st_fexpr *l, st_fexpr *r) {
  st_feq *q = fb_mk(b, FE_EQUAL, l, r);
  fb_push(b, &b->m->equations, &b->capeqs, q);
  return q->loc.line;
}

static inline int fb_initial(fb *b, st_fexpr *l, st_fexpr *r) {
  st_feq *q = fb_mk(b, FE_EQUAL, l, r);
  fb_push(b, &b->m->initial_equations, &b->capinit, q);
  return q->loc.line;
}

/* when cond then <items> end when; items are made with fb_item_*. */
static inline st_feq *fb_when(fb *b, st_fexpr *cond, int n, st_feq **items) {
  st_feq *q = fb_mk(b, FE_WHEN, NULL, NULL);
  q->nconds = 1;
  q->conds = st_arena_alloc(b->a, sizeof *q->conds);
  q->conds[0] = cond;
  q->branches = st_arena_alloc(b->a, sizeof *q->branches);
  q->branches[0].n = n;
  q->branches[0].items = st_arena_alloc(b->a, (size_t)n * sizeof(st_feq *));
  for (int i = 0; i < n; i++) q->branches[0].items[i] = items[i];
  int cap = b->capeqs;
  fb_push(b, &b->m->equations, &cap, q);
  b->capeqs = cap;
  return q;
}

static inline st_feq *fb_reinit(fb *b, int i, st_fexpr *value) {
  return fb_mk(b, FE_REINIT, V(b, i), value);
}
static inline st_feq *fb_assign(fb *b, int i, st_fexpr *value) {
  return fb_mk(b, FE_EQUAL, V(b, i), value);
}

#endif
