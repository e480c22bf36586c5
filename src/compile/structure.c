/* Structural analysis: incidence, matching of equations to unknowns (augmenting paths,
 * Duff's MC21), structural error reports, and the block lower triangular order (Tarjan's
 * strongly connected components). */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

typedef struct graph {
  int neq, nslots;
  int *start, *adj;    /* incidence of equation e: adj[start[e] .. start[e+1]) */
  int *match_eq;       /* equation -> slot */
  int *match_var;      /* slot -> equation */
  int *visited;
  int stamp;
} graph;

typedef struct inc_ctx {
  int *list, n, cap;
  const st_compiled *cm;
  int failed;
} inc_ctx;

static void add_inc(void *p, int slot) {
  inc_ctx *c = p;
  for (int i = 0; i < c->n; i++)
    if (c->list[i] == slot) return;
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 64;
    int *l = realloc(c->list, (size_t)cap * sizeof *l);
    if (!l) { c->failed = 1; return; }
    c->list = l;
    c->cap = cap;
  }
  c->list[c->n++] = slot;
}

static int build_incidence(const st_compiled *cm, graph *g) {
  inc_ctx c = {NULL, 0, 0, cm, 0};
  int *adj = NULL, nadj = 0, capadj = 0;
  g->start = calloc((size_t)g->neq + 1, sizeof(int));
  if (!g->start) return -1;
  for (int e = 0; e < g->neq; e++) {
    c.n = 0;
    if (cm->eqs[e].target >= 0) add_inc(&c, cm->eqs[e].target);
    st_expr_unknowns(cm, cm->eqs[e].lhs, add_inc, &c);
    st_expr_unknowns(cm, cm->eqs[e].rhs, add_inc, &c);
    if (c.failed) break;
    if (nadj + c.n > capadj) {
      capadj = 2 * (nadj + c.n) + 64;
      int *a = realloc(adj, (size_t)capadj * sizeof *a);
      if (!a) { c.failed = 1; break; }
      adj = a;
    }
    /* an equation without unknowns (e.g. x*x = -1 with x a String) leaves adj NULL:
     * memcpy to NULL is undefined even for 0 bytes */
    if (c.n > 0) memcpy(adj + nadj, c.list, (size_t)c.n * sizeof(int));
    nadj += c.n;
    g->start[e + 1] = nadj;
  }
  free(c.list);
  g->adj = adj;
  return c.failed ? -1 : 0;
}

/* The other side of a discrete assignment d1 = d2 between two discrete variables (a
 * connection of Boolean or Integer signals): it may assign either; -1 otherwise. */
static int discrete_other(const st_compiled *cm, int e) {
  const st_ceq *q = &cm->eqs[e];
  if (q->algorithm || q->rhs->kind != FX_VAR) return -1;
  int s = st_ref_slot(cm, q->rhs);
  return s >= 0 && s != q->target && q->rhs->index == s && cm->slots[s].kind == K_DISCRETE ? s : -1;
}

/* An equation d1 = d2 matched to d2 assigns d2 := d1. */
static void orient_discrete(st_compiled *cm, const graph *g) {
  for (int e = 0; e < g->neq; e++) {
    st_ceq *q = &cm->eqs[e];
    if (q->target < 0 || g->match_eq[e] < 0 || g->match_eq[e] == q->target) continue;
    st_fexpr *l = q->lhs;
    q->lhs = q->rhs;
    q->rhs = l;
    q->target = g->match_eq[e];
  }
}

/* May equation e be solved for slot s? A discrete assignment only for its target; a
 * residual equation only for continuous unknowns (Newton cannot solve for a Boolean). */
static int may_match(const st_compiled *cm, int e, int s) {
  if (cm->eqs[e].target >= 0) return s == cm->eqs[e].target || s == discrete_other(cm, e);
  return cm->slots[s].kind != K_DISCRETE;
}

static int augment(const st_compiled *cm, graph *g, int e) {
  for (int k = g->start[e]; k < g->start[e + 1]; k++) {
    int s = g->adj[k];
    if (g->match_var[s] < 0 && may_match(cm, e, s)) {
      g->match_var[s] = e;
      g->match_eq[e] = s;
      return 1;
    }
  }
  for (int k = g->start[e]; k < g->start[e + 1]; k++) {
    int s = g->adj[k];
    if (g->visited[s] == g->stamp || !may_match(cm, e, s)) continue;
    g->visited[s] = g->stamp;
    if (augment(cm, g, g->match_var[s])) {
      g->match_var[s] = e;
      g->match_eq[e] = s;
      return 1;
    }
  }
  return 0;
}

static int is_unknown(const st_compiled *cm, int s) {
  st_kind k = cm->slots[s].kind;
  return k == K_DER || k == K_ALG || k == K_DISCRETE;
}

/* Names the equations and variables left over by a maximum matching. */
static void report_structure(st_compiled *cm, const graph *g, int nunk) {
  int free_eq = 0, free_var = 0;
  for (int e = 0; e < g->neq; e++) free_eq += g->match_eq[e] < 0;
  for (int s = 0; s < cm->nslots; s++) free_var += is_unknown(cm, s) && g->match_var[s] < 0;
  const char *what = g->neq > nunk ? "over-determined" : g->neq < nunk ? "under-determined"
                                                                       : "structurally singular";
  /* counted as written: every equation alias elimination removed took one unknown with it */
  st_error(cm->diag, cm->flat->loc, "the model is %s: %d equations for %d unknowns; "
           "%d equations and %d variables cannot be matched", what, g->neq + cm->n_alias_eqs,
           nunk + cm->n_alias_eqs, free_eq, free_var);
  for (int e = 0; e < g->neq; e++)
    if (g->match_eq[e] < 0)
      st_note(cm->diag, cm->eqs[e].loc, "this equation is not needed to determine any unknown "
              "(redundant or conflicting)");
  for (int s = 0; s < cm->nslots; s++)
    if (is_unknown(cm, s) && g->match_var[s] < 0)
      st_note(cm->diag, cm->slots[s].loc, "no equation determines '%s'", cm->slots[s].name);
}

/* Tarjan's algorithm, iterative over equations; an equation depends on the equations that
 * determine the unknowns it uses. Components come out dependencies first: that is the
 * evaluation order. */
typedef struct tarjan {
  const graph *g;
  int *index, *low, *stack, *onstack, *order, *comp_start;
  int counter, sp, norder, ncomp;
} tarjan;

static void strongconnect(tarjan *t, int v0, int *cstack, int *cpos) {
  int top = 0;
  cstack[top] = v0;
  cpos[top] = t->g->start[v0];
  t->index[v0] = t->low[v0] = t->counter++;
  t->stack[t->sp++] = v0;
  t->onstack[v0] = 1;
  while (top >= 0) {
    int v = cstack[top];
    if (cpos[top] < t->g->start[v + 1]) {
      int s = t->g->adj[cpos[top]++];
      int w = t->g->match_var[s];
      if (w < 0 || w == v) continue;
      if (t->index[w] < 0) {
        t->index[w] = t->low[w] = t->counter++;
        t->stack[t->sp++] = w;
        t->onstack[w] = 1;
        cstack[++top] = w;
        cpos[top] = t->g->start[w];
      } else if (t->onstack[w] && t->index[w] < t->low[v]) {
        t->low[v] = t->index[w];
      }
      continue;
    }
    if (t->low[v] == t->index[v]) {
      t->comp_start[t->ncomp++] = t->norder;
      int w;
      do {
        w = t->stack[--t->sp];
        t->onstack[w] = 0;
        t->order[t->norder++] = w;
      } while (w != v);
    }
    top--;
    if (top >= 0 && t->low[v] < t->low[cstack[top]]) t->low[cstack[top]] = t->low[v];
  }
}

static int blt(st_compiled *cm, graph *g) {
  int n = g->neq;
  tarjan t = {g, malloc(sizeof(int) * (size_t)(n + 1)), malloc(sizeof(int) * (size_t)(n + 1)),
              malloc(sizeof(int) * (size_t)(n + 1)), calloc((size_t)n + 1, sizeof(int)),
              malloc(sizeof(int) * (size_t)(n + 1)), malloc(sizeof(int) * (size_t)(n + 2)),
              0, 0, 0, 0};
  int *cstack = malloc(sizeof(int) * (size_t)(n + 1)), *cpos = malloc(sizeof(int) * (size_t)(n + 1));
  int rc = -1;
  if (t.index && t.low && t.stack && t.onstack && t.order && t.comp_start && cstack && cpos) {
    for (int e = 0; e < n; e++) t.index[e] = -1;
    for (int e = 0; e < n; e++)
      if (t.index[e] < 0) strongconnect(&t, e, cstack, cpos);
    t.comp_start[t.ncomp] = t.norder;
    rc = st_build_blocks(cm, t.order, t.comp_start, t.ncomp, g->match_eq);
  }
  free(t.index); free(t.low); free(t.stack); free(t.onstack); free(t.order);
  free(t.comp_start); free(cstack); free(cpos);
  return rc;
}

static int match_all(st_compiled *cm, graph *g) {
  int ok = 1;
  /* discrete assignments first: each can only take its own target */
  for (int pass = 0; pass < 2; pass++)
    for (int e = 0; e < g->neq; e++) {
      if ((cm->eqs[e].target >= 0) != (pass == 0) || g->match_eq[e] >= 0) continue;
      g->stamp++;
      if (!augment(cm, g, e)) ok = 0;
    }
  return ok;
}

int st_structure(st_compiled *cm) {
  graph g = {cm->neqs, cm->nslots, NULL, NULL, NULL, NULL, NULL, 0};
  int nunk = 0, rc = -1;
  for (int s = 0; s < cm->nslots; s++) nunk += is_unknown(cm, s);
  g.match_eq = malloc(sizeof(int) * (size_t)(g.neq + 1));
  g.match_var = malloc(sizeof(int) * (size_t)(g.nslots + 1));
  g.visited = calloc((size_t)g.nslots + 1, sizeof(int));
  if (g.match_eq && g.match_var && g.visited && !build_incidence(cm, &g)) {
    for (int e = 0; e < g.neq; e++) g.match_eq[e] = -1;
    for (int s = 0; s < g.nslots; s++) g.match_var[s] = -1;
    if (match_all(cm, &g) && g.neq == nunk) {
      orient_discrete(cm, &g);
      rc = blt(cm, &g);
    }
    else report_structure(cm, &g, nunk);
  }
  free(g.start); free(g.adj); free(g.match_eq); free(g.match_var); free(g.visited);
  return rc;
}
