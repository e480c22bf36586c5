/* Overconstrained connectors (Modelica 3.5 section 9.4): a record in a connector that has a
 * function equalityConstraint (MultiBody's Frames.Orientation R) carries more variables than
 * it has degrees of freedom, so a loop of connections would over-determine it. The
 * connections of such records and Connections.branch() form a graph; a spanning forest of it
 * keeps all branches (they stand for equations inside components) and as many connections
 * as fit; a connection that closes a loop gives equalityConstraint(R1, R2) = 0 instead of
 * R1 = R2. Each tree has one root: a Connections.root(), else the Connections.potentialRoot()
 * of the lowest priority. Connections.isRoot(R) and Connections.rooted(R) are then known
 * while the equations are translated. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <string.h>

typedef struct oc_edge {
  int a, b;
  int branch;                 /* Connections.branch(); else a connection */
  const st_connection *conn;
  int broken;                 /* a connection that closes a loop */
} oc_edge;

struct st_ocgraph {
  st_inst **nodes;
  int *rootkind;              /* 0 none, 1 potential root, 2 root */
  int *priority;
  int *up;                    /* union-find */
  int *depth;                 /* distance from the root of its tree, -1 unknown */
  int *is_root;
  int n, cap;
  oc_edge *edges;
  int ne, cape;
  int built;
};

/* Grows an arena array of `size`-byte items to hold n + 1. */
static void *grow(st_fl *fl, void *items, int n, int *cap, size_t size) {
  if (n < *cap) return items;
  int c = *cap ? 2 * *cap : 32;
  void *p = st_arena_alloc(fl->tmp, (size_t)c * size);
  if (!p) return NULL;
  if (n) memcpy(p, items, (size_t)n * size);
  *cap = c;
  return p;
}

static st_ocgraph *graph(st_fl *fl) {
  if (!fl->oc) fl->oc = st_arena_alloc(fl->tmp, sizeof *fl->oc);
  return fl->oc;
}

static int node_of(st_fl *fl, st_inst *x) {
  st_ocgraph *g = graph(fl);
  if (!g) return -1;
  for (int i = 0; i < g->n; i++)
    if (g->nodes[i] == x) return i;
  int cap = g->cap;
  st_inst **nodes = grow(fl, g->nodes, g->n, &cap, sizeof *nodes);
  int c2 = g->cap, c3 = g->cap;
  int *kind = grow(fl, g->rootkind, g->n, &c2, sizeof *kind);
  int *prio = grow(fl, g->priority, g->n, &c3, sizeof *prio);
  if (!nodes || !kind || !prio) return -1;
  g->nodes = nodes;
  g->rootkind = kind;
  g->priority = prio;
  g->cap = cap;
  g->nodes[g->n] = x;
  g->rootkind[g->n] = 0;
  g->priority[g->n] = 0;
  return g->n++;
}

static void add_edge(st_fl *fl, int a, int b, int branch, const st_connection *conn) {
  st_ocgraph *g = graph(fl);
  if (!g || a < 0 || b < 0) return;
  oc_edge *e = grow(fl, g->edges, g->ne, &g->cape, sizeof *e);
  if (!e) return;
  g->edges = e;
  g->edges[g->ne++] = (oc_edge){a, b, branch, conn, 0};
}

/* The function equalityConstraint of the record class of node x, NULL when x is not an
 * overconstrained record. */
static st_cls *constraint_function(st_fl *fl, const st_inst *x) {
  st_elem e;
  if (x->var >= 0 || x->ndims > 0 || !x->cls || !st_cls_is_record(x->cls) ||
      st_lookup_member(fl->fe, x->cls, "equalityConstraint", &e) || !e.cls)
    return NULL;
  st_cls *f = st_cls_resolve_short(fl->fe, e.cls);
  return st_cls_is(f, ACK_FUNCTION) ? f : NULL;
}

/* The instance node a Connections.* argument names. */
static st_inst *argument_node(st_fl *fl, const st_ast_expr *call, int k, st_env env) {
  const st_ast_fnarg *a = call->u.call.args;
  for (int i = 0; a && i < k; i++) a = a->next;
  if (!a || a->value->kind != AX_CREF) {
    st_fl_error(fl, call->loc, env.inst, "%s(): argument %d must name an overconstrained "
                "record of a connector", st_ast_cref_text(fl->tmp, call->u.call.fn), k + 1);
    return NULL;
  }
  int outside;
  st_inst *x = st_resolve_node(fl, a->value->u.cref, env, &outside, 0);
  if (x && !constraint_function(fl, x)) {
    st_fl_error(fl, a->loc, env.inst, "%s(): '%s' is not a record with an equalityConstraint "
                "function", st_ast_cref_text(fl->tmp, call->u.call.fn), x->path);
    return NULL;
  }
  return x;
}

static const char *connections_name(const st_ast_expr *call) {
  const st_ast_cref *fn = call->u.call.fn;
  return fn->nparts == 2 && !fn->global && !strcmp(fn->parts->name, "Connections")
             ? fn->parts->next->name
             : NULL;
}

int st_fl_is_connections_statement(const st_ast_expr *call) {
  const char *n = call && call->kind == AX_CALL ? connections_name(call) : NULL;
  return n && (!strcmp(n, "branch") || !strcmp(n, "root") || !strcmp(n, "potentialRoot"));
}

int st_fl_connections_statement(st_fl *fl, const st_ast_expr *call, st_env env) {
  if (!st_fl_is_connections_statement(call)) return 0;
  if (fl->connect_pass != 1) return 1; /* recorded in the first pass */
  const char *n = connections_name(call);
  st_inst *a = argument_node(fl, call, 0, env);
  if (!a) return 1;
  int ia = node_of(fl, a);
  if (ia < 0) return 1;
  st_ocgraph *g = fl->oc;
  if (!strcmp(n, "branch")) {
    st_inst *b = argument_node(fl, call, 1, env);
    if (b) add_edge(fl, ia, node_of(fl, b), 1, NULL);
  } else if (!strcmp(n, "root")) {
    g->rootkind[ia] = 2;
  } else {
    const st_ast_fnarg *p = call->u.call.args->next;
    double v = 0;
    if (p && st_fl_eval_ast(fl, p->value, env, &v)) {
      st_fl_error(fl, p->value->loc, env.inst, "Connections.potentialRoot(): the priority "
                  "must be a parameter expression");
      return 1;
    }
    if (g->rootkind[ia] == 0 || (g->rootkind[ia] == 1 && v < g->priority[ia])) {
      g->rootkind[ia] = 1;
      g->priority[ia] = (int)v;
    }
  }
  return 1;
}

/* The overconstrained records that connection c pairs, as edges. */
static void connection_edges(st_fl *fl, const st_inst *a, const st_inst *b,
                             const st_connection *c) {
  if (a->ndims > 0) {
    for (int i = 0; i < a->nkids && i < b->nkids; i++)
      connection_edges(fl, a->kids[i], b->kids[i], c);
    return;
  }
  if (a->var >= 0 || b->var >= 0 || a->disabled || b->disabled) return;
  if (constraint_function(fl, a) && constraint_function(fl, b)) {
    add_edge(fl, node_of(fl, (st_inst *)a), node_of(fl, (st_inst *)b), 0, c);
    return;
  }
  for (int i = 0; i < a->nkids; i++) {
    const st_inst *kb = st_inst_kid(b, a->kids[i]->name);
    if (kb) connection_edges(fl, a->kids[i], kb, c);
  }
}

static int find(int *up, int x) {
  while (up[x] != x) x = up[x] = up[up[x]];
  return x;
}

/* Distances from the roots along the tree. */
static void depths(st_ocgraph *g) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < g->ne; i++) {
      const oc_edge *e = &g->edges[i];
      if (e->broken) continue;
      if (g->depth[e->a] >= 0 && g->depth[e->b] < 0) g->depth[e->b] = g->depth[e->a] + 1;
      else if (g->depth[e->b] >= 0 && g->depth[e->a] < 0) g->depth[e->a] = g->depth[e->b] + 1;
      else continue;
      changed = 1;
    }
  }
}

void st_fl_build_connection_graph(st_fl *fl) {
  for (int i = 0; i < fl->nconnections; i++)
    connection_edges(fl, fl->connections[i].a, fl->connections[i].b, &fl->connections[i]);
  st_ocgraph *g = fl->oc;
  if (!g || !g->n) return;
  g->up = st_arena_alloc(fl->tmp, (size_t)g->n * sizeof *g->up);
  g->depth = st_arena_alloc(fl->tmp, (size_t)g->n * sizeof *g->depth);
  g->is_root = st_arena_alloc(fl->tmp, (size_t)g->n * sizeof *g->is_root);
  int *best = st_arena_alloc(fl->tmp, (size_t)g->n * sizeof *best);
  if (!g->up || !g->depth || !g->is_root || !best) return;
  for (int i = 0; i < g->n; i++) {
    g->up[i] = i;
    g->depth[i] = -1;
    g->is_root[i] = 0;
    best[i] = -1;
  }
  /* branches first: they must all be in the tree; a connection that would close a loop or
   * join two trees that each hold a Connections.root() is broken (section 9.4.2: one root
   * per tree; QuasiStatic's two sources on the sides of an ideal transformer) */
  for (int i = 0; i < g->n; i++) best[i] = g->rootkind[i] == 2;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < g->ne; i++) {
      oc_edge *e = &g->edges[i];
      if (e->branch != (pass == 0)) continue;
      int ra = find(g->up, e->a), rb = find(g->up, e->b);
      if (ra != rb && (e->branch || !(best[ra] && best[rb]))) {
        g->up[ra] = rb;
        best[rb] |= best[ra];
      } else if (!e->branch) {
        e->broken = 1;
      }
    }
  for (int i = 0; i < g->n; i++) best[i] = -1;
  /* per tree: the first root, else the first potential root of the lowest priority */
  for (int i = 0; i < g->n; i++) {
    int t = find(g->up, i), b = best[t];
    if (!g->rootkind[i]) continue;
    if (b < 0 || g->rootkind[i] > g->rootkind[b] ||
        (g->rootkind[i] == 1 && g->rootkind[b] == 1 && g->priority[i] < g->priority[b]))
      best[t] = i;
  }
  for (int i = 0; i < g->n; i++) {
    int t = find(g->up, i);
    if (best[t] < 0) {
      st_fl_error(fl, g->nodes[i]->loc, NULL, "the connections of the overconstrained record "
                  "'%s' have no root (Connections.root or Connections.potentialRoot)",
                  g->nodes[i]->path);
      best[t] = i; /* reported once per tree */
      continue;
    }
    if (best[t] == i) {
      g->is_root[i] = 1;
      g->depth[i] = 0;
    }
  }
  depths(g);
  g->built = 1;
}

int st_fl_connection_broken(st_fl *fl, const st_inst *a, const st_inst *b,
                            const st_connection *c) {
  st_ocgraph *g = fl->oc;
  for (int i = 0; g && i < g->ne; i++) {
    const oc_edge *e = &g->edges[i];
    if (e->conn == c && ((g->nodes[e->a] == a && g->nodes[e->b] == b) ||
                         (g->nodes[e->a] == b && g->nodes[e->b] == a)))
      return e->broken;
  }
  return 0;
}

/* The function is inlined when annotated so (index reduction differentiates these
 * equations: Orientation's uses arrays). */
void st_fl_equality_constraint(st_fl *fl, st_inst *a, st_inst *b, st_loc loc,
                               const char *origin) {
  st_cls *f = constraint_function(fl, a);
  st_fexpr *args[2] = {st_rec_of_inst(fl, a, loc), st_rec_of_inst(fl, b, loc)};
  if (!f || !args[0] || !args[1]) return;
  st_fexpr *r = st_fl_call_values(fl, f, args, 2, loc, (st_env){NULL, f});
  if (!r) return;
  int n = r->kind == FX_ARRAY ? r->nargs : 1;
  for (int i = 0; i < n; i++) {
    st_feq *q = st_feq_new(fl, FE_EQUAL, loc, origin);
    if (!q) return;
    q->lhs = st_fx_real(fl->arena, 0, loc);
    q->rhs = r->kind == FX_ARRAY ? r->args[i] : r;
    st_fl_add_eq(fl, &fl->equations, q);
  }
}

st_fexpr *st_fl_connections_query(st_fl *fl, const st_ast_expr *call, st_env env) {
  const char *n = connections_name(call);
  if (!n || (strcmp(n, "isRoot") && strcmp(n, "rooted"))) return NULL;
  st_inst *x = argument_node(fl, call, 0, env);
  if (!x) return NULL;
  st_ocgraph *g = fl->oc;
  int i = -1;
  for (int k = 0; g && g->built && k < g->n && i < 0; k++)
    if (g->nodes[k] == x) i = k;
  int value = 0;
  if (i >= 0 && !strcmp(n, "isRoot")) {
    value = g->is_root[i];
  } else if (i >= 0) {
    /* closer to the root than the other end of its branch */
    value = g->depth[i] == 0;
    for (int k = 0; k < g->ne; k++) {
      const oc_edge *e = &g->edges[k];
      if (!e->branch || (e->a != i && e->b != i)) continue;
      int other = e->a == i ? e->b : e->a;
      value = g->depth[i] >= 0 && g->depth[i] < g->depth[other];
      break;
    }
  }
  return st_fx_bool(fl->arena, value, call->loc);
}
