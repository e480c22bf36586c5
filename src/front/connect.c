/* Connections (Modelica 3.5 section 9.2): connect(a, b) pairs up the primitive variables of
 * two compatible connectors; connection sets are built with a union-find over (variable,
 * inside/outside); each set gives equal potentials, or a zero sum of flows with outside
 * connectors counted negative. A flow variable that is not connected as an inside
 * connector anywhere is set to zero. Stream variables (section 15) give no set equations:
 * inStream() reads the mixing of their set, and an outside connector's equals its inner
 * set's mixing. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ references */

/* The indices subscript s selects in a dimension of size n, in *out (fl->tmp, sized to what
 * is selected: one index per connect(a[i], ...) in a loop, not the whole dimension): one
 * (*keep = 0), or a range, vector or ':' (*keep = 1). -1 after an error. */
static int subscript_indices(st_fl *fl, const st_ast_expr *s, int n, st_env env, int **out,
                             int *keep) {
  *keep = 1;
  if (!s || s->kind == AX_COLON) {
    *out = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof **out);
    if (!*out) return -1;
    for (int i = 0; i < n; i++) (*out)[i] = i + 1;
    return n;
  }
  int saved = fl->end_size;
  fl->end_size = n;
  st_fexpr *v = st_translate(fl, s, env);
  fl->end_size = saved;
  if (!v) return -1;
  *keep = v->kind == FX_ARRAY;
  int count = *keep ? v->nargs : 1;
  *out = st_arena_alloc(fl->tmp, (size_t)(count + 1) * sizeof **out);
  if (!*out) return -1;
  for (int i = 0; i < count; i++) {
    double x;
    if (i >= n || st_fl_eval(fl, *keep ? v->args[i] : v, &x) || x < 1 || x > n || x != (int)x) {
      st_fl_error(fl, s->loc, env.inst, "connector subscript must be a constant in range");
      return -1;
    }
    (*out)[i] = (int)x;
  }
  return count;
}

typedef struct cref_walk {
  st_fl *fl;
  st_env env;
  const st_ast_cref *cr;
  int absent; /* a conditional connector that is not present was met */
  const st_inst *expandable; /* an expandable connector the reference goes through */
  const st_inst *like;       /* a member an expandable connector lacks is made like this */
  int missing;               /* it lacked one and there was no `like` */
} cref_walk;

static st_inst *member_like(st_fl *fl, st_inst *parent, const char *name, const st_inst *like);

/* The copy of like's elements below kid (arrays, records, connectors), each primitive a new
 * variable of like's type, flow and stream prefixes and variability (a member of an
 * expandable connector takes the type of what it is connected to; no causality). */
static st_inst *copy_structure(st_fl *fl, st_inst *kid, const st_inst *like) {
  kid->cls = like->cls;
  kid->prim = like->prim;
  kid->ndims = like->ndims;
  memcpy(kid->dims, like->dims, sizeof kid->dims);
  kid->is_connector = like->is_connector;
  if (like->var >= 0) {
    const st_fvar *v = &fl->vars[like->var];
    st_ftype type = v->type;
    int flow = v->is_flow, stream = v->is_stream;
    st_variability var = v->variability;
    int k = st_fl_add_var(fl, kid, type);
    if (k < 0) return NULL;
    kid->var = k;
    fl->vars[k].is_flow = flow;
    fl->vars[k].is_stream = stream;
    fl->vars[k].variability = var;
    fl->vars[k].loc = kid->loc;
    return kid;
  }
  for (int i = 0; i < like->nkids; i++)
    if (!like->kids[i]->disabled && !member_like(fl, kid, like->kids[i]->name, like->kids[i]))
      return NULL;
  return kid;
}

static st_inst *member_like(st_fl *fl, st_inst *parent, const char *name, const st_inst *like) {
  st_inst *kid = st_inst_new_kid(fl, parent, st_arena_strdup(fl->tmp, name), parent->loc);
  return kid ? copy_structure(fl, kid, like) : NULL;
}

/* A connection into an expandable connector (Modelica 3.6 section 9.1.3) that names a
 * member of a member not present (bus.sub.x without bus.sub) is not supported: say so
 * rather than that the element is missing. */
static void undefined_connector(cref_walk *w, st_loc loc) {
  if (w->expandable)
    st_fl_error(w->fl, loc, w->env.inst, "connecting '%s' through the expandable connector "
                "'%s': a member inside a member that no connection makes is not supported",
                st_ast_cref_text(w->fl->tmp, w->cr), w->expandable->path);
  else
    st_fl_error(w->fl, loc, w->env.inst, "undefined connector '%s'",
                st_ast_cref_text(w->fl->tmp, w->cr));
}

static st_inst *resolve_part(cref_walk *w, st_inst *node, const st_ast_cref_part *p);

/* An array of the connectors that a reference through arrays of components selects,
 * `resistor.p` for resistor[m]: dims of the subscripted dimensions kept, then those of the
 * elements; its kids are the elements, row-major, like any array node. */
static st_inst *gather(cref_walk *w, st_inst **parts, int nparts, const int *dims, int ndims) {
  st_inst *arr = st_arena_alloc(w->fl->tmp, sizeof *arr);
  if (!arr) return NULL;
  *arr = (st_inst){0};
  arr->name = arr->path = st_ast_cref_text(w->fl->tmp, w->cr);
  arr->prim = arr->var = -1;
  const st_inst *first = parts[0];
  int inner = first->ndims ? first->nkids : 1;
  if (ndims + first->ndims > 4) {
    st_fl_error(w->fl, w->cr->loc, w->env.inst, "more than 4 array dimensions are not supported");
    return NULL;
  }
  memcpy(arr->dims, dims, (size_t)ndims * sizeof *dims);
  memcpy(arr->dims + ndims, first->dims, (size_t)first->ndims * sizeof *dims);
  arr->ndims = ndims + first->ndims;
  arr->kids = st_arena_alloc(w->fl->tmp, (size_t)(nparts * inner) * sizeof *arr->kids);
  if (!arr->kids) return NULL;
  for (int i = 0; i < nparts; i++) {
    if (parts[i]->ndims != first->ndims ||
        memcmp(parts[i]->dims, first->dims, (size_t)first->ndims * sizeof *dims) != 0) {
      st_fl_error(w->fl, w->cr->loc, w->env.inst, "'%s' selects arrays of different sizes",
                  arr->path);
      return NULL;
    }
    for (int k = 0; k < inner; k++)
      arr->kids[arr->nkids++] = first->ndims ? parts[i]->kids[k] : parts[i];
  }
  arr->is_connector = first->is_connector;
  return arr;
}

/* The rest of the reference after `node` was named by part p: its subscripts, then the
 * next part in each selected element. */
static st_inst *resolve_part(cref_walk *w, st_inst *node, const st_ast_cref_part *p) {
  if (node->disabled) {
    w->absent = 1;
    return NULL;
  }
  if (!w->expandable && st_cls_is(node->cls, ACK_EXPANDABLE_CONNECTOR)) w->expandable = node;
  if (node->ndims == 0) {
    if (p->nsubs) {
      st_fl_error(w->fl, p->loc, w->env.inst, "'%s' is not an array", node->path);
      return NULL;
    }
    if (!p->next) return node;
    st_inst *kid = st_inst_kid(node, p->next->name);
    if (!kid && st_cls_is(node->cls, ACK_EXPANDABLE_CONNECTOR)) {
      /* a member the expandable connector does not have yet (section 9.1.3): made like the
       * other side, or the connection waits for one of them to be made */
      if (!w->like || p->next->next || p->next->nsubs) {
        w->missing = !w->like;
        if (w->like) undefined_connector(w, p->next->loc);
        return NULL;
      }
      kid = member_like(w->fl, node, p->next->name, w->like);
      if (!kid) return NULL;
    }
    if (!kid) {
      undefined_connector(w, p->next->loc);
      return NULL;
    }
    return resolve_part(w, kid, p->next);
  }
  if (p->nsubs > node->ndims) {
    st_fl_error(w->fl, p->loc, w->env.inst, "too many subscripts for '%s'", node->path);
    return NULL;
  }
  /* the indices selected in each dimension; dimensions without a subscript are whole */
  int *sel[4], nsel[4], keep[4], dims[4], nd = 0, total = 1;
  const st_ast_expr *s = p->subs;
  for (int d = 0; d < node->ndims; d++, s = s ? s->next : NULL) {
    nsel[d] = subscript_indices(w->fl, d < p->nsubs ? s : NULL, node->dims[d], w->env, &sel[d],
                                &keep[d]);
    if (nsel[d] < 0) return NULL;
    if (keep[d]) dims[nd++] = nsel[d];
    total *= nsel[d];
  }
  st_inst **parts = st_arena_alloc(w->fl->tmp, (size_t)(total + 1) * sizeof *parts);
  if (!parts) return NULL;
  int ix[4] = {0, 0, 0, 0};
  for (int k = 0; k < total; k++) {
    int offset = 0;
    for (int d = 0; d < node->ndims; d++) offset = offset * node->dims[d] + sel[d][ix[d]] - 1;
    st_inst *el = node->kids[offset];
    if (p->next) {
      st_inst *kid = st_inst_kid(el, p->next->name);
      if (!kid) {
        undefined_connector(w, p->next->loc);
        return NULL;
      }
      el = resolve_part(w, kid, p->next);
    }
    if (!el) return NULL;
    parts[k] = el;
    for (int d = node->ndims - 1; d >= 0 && ++ix[d] == nsel[d]; d--) ix[d] = 0;
  }
  if (nd == 0) return parts[0];
  if (total == 0) {
    w->absent = 1; /* connect(a[1:0], b[1:0]): nothing to connect */
    return NULL;
  }
  /* a whole array named directly is itself */
  if (!p->next && nd == node->ndims && total == node->nkids) {
    int whole = 1;
    for (int d = 0; d < node->ndims; d++) whole &= nsel[d] == node->dims[d] && sel[d][0] == 1;
    if (whole) return node;
  }
  return gather(w, parts, total, dims, nd);
}

static st_inst *resolve_walk(cref_walk *w, int *outside, int connector);

st_inst *st_resolve_inst(st_fl *fl, const st_ast_cref *cr, st_env env, int *outside) {
  return st_resolve_node(fl, cr, env, outside, 1);
}

st_inst *st_resolve_node(st_fl *fl, const st_ast_cref *cr, st_env env, int *outside,
                         int connector) {
  cref_walk w = {fl, env, cr, 0, NULL, NULL, 0};
  return resolve_walk(&w, outside, connector);
}

static st_inst *resolve_walk(cref_walk *w, int *outside, int connector) {
  st_fl *fl = w->fl;
  const st_ast_cref *cr = w->cr;
  st_env env = w->env;
  *outside = 0;
  st_inst *kid = st_inst_kid(env.inst, cr->parts->name);
  if (!kid) {
    st_fl_error(fl, cr->parts->loc, env.inst, "undefined connector '%s'",
                st_ast_cref_text(fl->tmp, cr));
    return NULL;
  }
  *outside = kid->is_connector;
  st_inst *node = resolve_part(w, kid, cr->parts);
  if (!node) return NULL; /* an error, or connections to a removed conditional connector vanish */
  /* a member of an expandable connector need not be a connector itself (a Real signal) */
  if (!node->is_connector && connector && !(w->expandable && node != w->expandable)) {
    if (w->expandable) undefined_connector(w, cr->loc);
    else st_fl_error(fl, cr->loc, env.inst, "'%s' is not a connector", node->path);
    return NULL;
  }
  return node;
}

/* ------------------------------------------------------------------ expandable connectors */

typedef struct st_deferred_connect {
  const st_ast_equation *eq;
  st_env env;
  const char *origin;
} deferred;

/* One side of connect(a, b), made like `like` when it is a missing member of an expandable
 * connector; *missing when it is one and like is NULL. */
static st_inst *connect_side(st_fl *fl, const st_ast_cref *cr, st_env env, int *outside,
                             const st_inst *like, int *missing) {
  cref_walk w = {fl, env, cr, 0, NULL, like, 0};
  st_inst *n = resolve_walk(&w, outside, 1);
  *missing = w.missing;
  return n;
}

/* 1 done (or an error reported), 0 when both sides are members still missing. */
static int try_connect(st_fl *fl, const st_ast_equation *eq, st_env env, const char *origin) {
  int errors = fl->errors, oa, ob, ma, mb;
  st_inst *a = connect_side(fl, eq->connect_a, env, &oa, NULL, &ma);
  st_inst *b = connect_side(fl, eq->connect_b, env, &ob, NULL, &mb);
  if (ma && mb) return 0;
  if (ma && b) a = connect_side(fl, eq->connect_a, env, &oa, b, &ma);
  if (mb && a) b = connect_side(fl, eq->connect_b, env, &ob, a, &mb);
  if (!a || !b) return 1; /* an error, or a conditional connector that is not present */
  if (fl->errors == errors) st_fl_add_connection(fl, a, oa, b, ob, eq->loc, origin);
  return 1;
}

void st_fl_connect(st_fl *fl, const st_ast_equation *eq, st_env env, const char *origin) {
  if (try_connect(fl, eq, env, origin)) return;
  if (fl->ndeferred == fl->capdeferred) {
    int cap = fl->capdeferred ? 2 * fl->capdeferred : 16;
    deferred *d = realloc(fl->deferred, (size_t)cap * sizeof *d);
    if (!d) return;
    fl->deferred = d;
    fl->capdeferred = cap;
  }
  fl->deferred[fl->ndeferred++] = (deferred){eq, env, origin};
}

static int is_expandable(const st_inst *n) {
  return n && n->ndims == 0 && st_cls_is(n->cls, ACK_EXPANDABLE_CONNECTOR);
}

/* Connected expandable connectors have the same members (section 9.1.3): each gets the
 * members of the other it lacks. 1 when one was added. */
static int unite_members(st_fl *fl, st_inst *a, st_inst *b) {
  int added = 0;
  for (int side = 0; side < 2; side++) {
    st_inst *from = side ? b : a, *to = side ? a : b;
    for (int i = 0; i < from->nkids; i++) {
      const st_inst *k = from->kids[i];
      if (k->disabled || st_inst_kid(to, k->name)) continue;
      if (!member_like(fl, to, k->name, k)) return added;
      added = 1;
    }
  }
  return added;
}

static void mark_vars(const st_inst *n, unsigned char *mark) {
  if (n->var >= 0) mark[n->var] = 1;
  for (int i = 0; i < n->nkids; i++) mark_vars(n->kids[i], mark);
}

static int in_expandable(const st_inst *n) {
  for (; n; n = n->parent)
    if (is_expandable(n)) return 1;
  return 0;
}

/* Marks of the variables of a and b, paired by name, made equal (both marked when one is).
 * 1 when one changed. */
static int share_marks(const st_inst *a, const st_inst *b, unsigned char *mark) {
  if (a->var >= 0 && b->var >= 0) {
    int m = mark[a->var] | mark[b->var], changed = m != mark[a->var] || m != mark[b->var];
    mark[a->var] = mark[b->var] = (unsigned char)m;
    return changed;
  }
  int changed = 0;
  for (int i = 0; i < a->nkids; i++) {
    const st_inst *kb = st_inst_kid(b, a->kids[i]->name);
    if (kb) changed |= share_marks(a->kids[i], kb, mark);
  }
  return changed;
}

/* A member declared in an expandable connector that no connection reaches from outside the
 * buses is not present (section 9.1.3): a parameter without binding, no unknown of the
 * equations (ControlBus's declared realSignal2 in Blocks.Examples.BusUsage; the axis buses
 * RobotR3's pathPlanning bus passes on whole). */
static void absent_members(st_fl *fl) {
  unsigned char *connected = calloc((size_t)fl->nvars + 1, 1);
  if (!connected) return;
  for (int i = 0; i < fl->nconnections; i++) {
    const st_connection *c = &fl->connections[i];
    if (in_expandable(c->a) && in_expandable(c->b)) continue;
    mark_vars(c->a, connected);
    mark_vars(c->b, connected);
  }
  for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
    changed = 0;
    for (int i = 0; i < fl->nconnections; i++) {
      const st_connection *c = &fl->connections[i];
      if (in_expandable(c->a) && in_expandable(c->b))
        changed |= share_marks(c->a, c->b, connected);
    }
  }
  for (int k = 0; k < fl->nvars; k++)
    if (!connected[k] && fl->info[k].inst && in_expandable(fl->info[k].inst->parent) &&
        fl->vars[k].variability > ST_V_PARAMETER) {
      fl->vars[k].variability = ST_V_PARAMETER;
      fl->vars[k].is_flow = 0;
    }
  free(connected);
}

void st_fl_expandable_connections(st_fl *fl) {
  /* waiting connections: until no more can be made */
  for (int progress = 1; progress && fl->ndeferred;) {
    progress = 0;
    for (int i = 0; i < fl->ndeferred; i++)
      if (try_connect(fl, fl->deferred[i].eq, fl->deferred[i].env, fl->deferred[i].origin)) {
        fl->deferred[i--] = fl->deferred[--fl->ndeferred];
        progress = 1;
      }
  }
  for (int i = 0; i < fl->ndeferred; i++)
    st_fl_error(fl, fl->deferred[i].eq->loc, fl->deferred[i].env.inst, "connect(%s, %s): "
                "neither side is a connector an expandable connector's member could be made like",
                st_ast_cref_text(fl->tmp, fl->deferred[i].eq->connect_a),
                st_ast_cref_text(fl->tmp, fl->deferred[i].eq->connect_b));
  fl->ndeferred = 0;
  for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
    changed = 0;
    for (int i = 0; i < fl->nconnections; i++) {
      st_connection *c = &fl->connections[i];
      if (is_expandable(c->a) && is_expandable(c->b)) changed |= unite_members(fl, c->a, c->b);
    }
  }
  absent_members(fl);
}

void st_fl_add_connection(st_fl *fl, st_inst *a, int a_outside, st_inst *b, int b_outside,
                          st_loc loc, const char *origin) {
  if (fl->nconnections == fl->capconnections) {
    int cap = fl->capconnections ? 2 * fl->capconnections : 32;
    st_connection *c = realloc(fl->connections, (size_t)cap * sizeof *c);
    if (!c) return;
    fl->connections = c;
    fl->capconnections = cap;
  }
  fl->connections[fl->nconnections++] = (st_connection){a, b, a_outside, b_outside, origin, loc};
}

/* ------------------------------------------------------------------ union-find */

typedef struct st_conn_sets {
  int *parent;   /* over nodes 2*var + outside */
  int *order;    /* first-use order of nodes, for stable output */
  int norder;
  unsigned char *used;
} sets;

static int find(sets *s, int x) {
  while (s->parent[x] != x) {
    s->parent[x] = s->parent[s->parent[x]]; /* path halving */
    x = s->parent[x];
  }
  return x;
}

static void touch(sets *s, int x) {
  if (!s->used[x]) {
    s->used[x] = 1;
    s->order[s->norder++] = x;
  }
}

static void unite(sets *s, int x, int y) {
  touch(s, x);
  touch(s, y);
  x = find(s, x);
  y = find(s, y);
  if (x != y) s->parent[y] = x;
}

/* ------------------------------------------------------------------ pairing */

typedef struct pairing {
  st_fl *fl;
  sets *s;
  const st_connection *c;
} pairing;

static void mismatch(pairing *p, const st_inst *a, const st_inst *b, const char *why) {
  st_fl_error(p->fl, p->c->loc, NULL, "cannot connect '%s' and '%s': %s", a->path, b->path, why);
}

static void pair(pairing *p, const st_inst *a, const st_inst *b);

static void pair_prims(pairing *p, const st_inst *a, const st_inst *b) {
  const st_fvar *va = &p->fl->vars[a->var], *vb = &p->fl->vars[b->var];
  int na = va->type == ST_T_REAL || va->type == ST_T_INTEGER;
  int nb = vb->type == ST_T_REAL || vb->type == ST_T_INTEGER;
  if (na != nb || (!na && va->type != vb->type)) {
    mismatch(p, a, b, "different types");
    return;
  }
  if (va->is_flow != vb->is_flow) {
    mismatch(p, a, b, "a flow variable against a potential one");
    return;
  }
  if (va->is_stream != vb->is_stream) {
    mismatch(p, a, b, "a stream variable against a non-stream one");
    return;
  }
  /* Two outputs of sub-components would both define the same signal. */
  if (va->causality == ST_C_OUTPUT && vb->causality == ST_C_OUTPUT && !p->c->a_outside &&
      !p->c->b_outside) {
    mismatch(p, a, b, "both are outputs");
    return;
  }
  unite(p->s, 2 * a->var + p->c->a_outside, 2 * b->var + p->c->b_outside);
}

static void pair_structured(pairing *p, const st_inst *a, const st_inst *b) {
  int na = 0, nb = 0;
  for (int i = 0; i < a->nkids; i++) na += !a->kids[i]->disabled;
  for (int i = 0; i < b->nkids; i++) nb += !b->kids[i]->disabled;
  if (na != nb) {
    mismatch(p, a, b, "the connectors have different elements");
    return;
  }
  for (int i = 0; i < a->nkids; i++) {
    const st_inst *ka = a->kids[i];
    if (ka->disabled) continue;
    const st_inst *kb = st_inst_kid(b, ka->name);
    if (!kb || kb->disabled) {
      char why[300];
      snprintf(why, sizeof why, "'%s' has no element '%s'", b->path, ka->name);
      mismatch(p, a, b, why);
      return;
    }
    pair(p, ka, kb);
  }
}

static void pair(pairing *p, const st_inst *a, const st_inst *b) {
  if (a->ndims != b->ndims || memcmp(a->dims, b->dims, sizeof(int) * (size_t)a->ndims) != 0) {
    mismatch(p, a, b, "different array sizes");
    return;
  }
  if (a->ndims > 0) {
    for (int i = 0; i < a->nkids && i < b->nkids; i++) pair(p, a->kids[i], b->kids[i]);
    return;
  }
  if ((a->var >= 0) != (b->var >= 0)) {
    mismatch(p, a, b, "a signal against a structured connector");
    return;
  }
  if (a->var >= 0) pair_prims(p, a, b);
  else if (st_fl_connection_broken(p->fl, a, b, p->c))
    st_fl_equality_constraint(p->fl, (st_inst *)a, (st_inst *)b, p->c->loc, p->c->origin);
  else pair_structured(p, a, b);
}

/* ------------------------------------------------------------------ equations */

static st_fexpr *term(st_fl *fl, int node, st_loc loc) {
  return st_fx_var(fl->arena, node / 2, loc);
}

static int is_fixed_value(const st_fl *fl, int node) {
  return fl->vars[node / 2].variability <= ST_V_PARAMETER;
}

/* Connected parameters and constants are not unknowns: their equality is checked, not
 * solved for (section 9.2), e.g. the medium record of a fluid port; strings go unchecked. */
static void parameter_check(st_fl *fl, int a, int b, st_loc loc, const char *origin) {
  if (fl->vars[a / 2].type == ST_T_STRING) return;
  st_feq *q = st_feq_new(fl, FE_ASSERT, loc, origin);
  st_fexpr *m = st_fx_new(fl->arena, FX_STRING, 0, 0, loc);
  if (!q || !m) return;
  m->str = st_arena_printf(fl->arena, "connected parameters '%s' and '%s' differ",
                     fl->vars[a / 2].name, fl->vars[b / 2].name);
  q->rhs = st_fx_binary(fl->arena, FOP_EQ, term(fl, a, loc), term(fl, b, loc), loc);
  q->message = m;
  st_fl_add_eq(fl, &fl->equations, q);
}

static void potential_equations(st_fl *fl, const int *members, int n, st_loc loc,
                                 const char *origin) {
  for (int i = 1; i < n; i++) {
    if (members[i] / 2 == members[0] / 2) continue;
    if (is_fixed_value(fl, members[0]) && is_fixed_value(fl, members[i])) {
      parameter_check(fl, members[0], members[i], loc, origin);
      continue;
    }
    st_feq *q = st_feq_new(fl, FE_EQUAL, loc, origin);
    if (!q) return;
    q->lhs = term(fl, members[0], loc);
    q->rhs = term(fl, members[i], loc);
    st_fl_add_eq(fl, &fl->equations, q);
  }
}

/* sum(inside) - sum(outside) = 0, inside terms first so that it reads a + b - c = 0. */
static void flow_equation(st_fl *fl, const int *members, int n, st_loc loc, const char *origin) {
  st_fexpr *sum = NULL;
  for (int k = 0; k < 2 * n; k++) {
    int i = k % n, outside = members[i] & 1;
    if (outside != (k >= n)) continue;
    st_fexpr *t = term(fl, members[i], loc);
    if (!sum) sum = outside ? st_fx_unary(fl->arena, FOP_NEG, t, loc) : t;
    else sum = st_fx_binary(fl->arena, outside ? FOP_SUB : FOP_ADD, sum, t, loc);
  }
  st_feq *q = st_feq_new(fl, FE_EQUAL, loc, origin);
  if (!q) return;
  q->lhs = sum;
  q->rhs = st_fx_real(fl->arena, 0, loc);
  st_fl_add_eq(fl, &fl->equations, q);
}

/* The set of each root in first-use order; `where` gives each set's first connection. The
 * members of a set are chained in order through `next` in one backward pass, so the sets
 * come out in linear time (a scan of the rest per set was quadratic: 15 % of flattening a
 * chain of 3000 components). */
static void emit_sets(st_fl *fl, sets *s, const int *where) {
  int nn = 2 * fl->nvars;
  int *members = malloc((size_t)(nn + 1) * sizeof *members);
  int *next = malloc((size_t)(s->norder + 1) * sizeof *next);
  int *first = malloc((size_t)(nn + 1) * sizeof *first); /* per root: its earliest entry */
  unsigned char *done = calloc((size_t)nn + 1, 1);
  if (members && next && first && done) {
    for (int i = 0; i < nn; i++) first[i] = -1;
    for (int i = s->norder - 1; i >= 0; i--) {
      int root = find(s, s->order[i]);
      next[i] = first[root];
      first[root] = i;
    }
    for (int i = 0; i < s->norder; i++) {
      int root = find(s, s->order[i]);
      if (done[root]) continue;
      done[root] = 1;
      int n = 0;
      for (int j = i; j >= 0; j = next[j]) members[n++] = s->order[j];
      const st_connection *c = &fl->connections[where[s->order[i]]];
      if (fl->vars[members[0] / 2].is_flow) flow_equation(fl, members, n, c->loc, c->origin);
      else if (fl->vars[members[0] / 2].is_stream) continue; /* see stream_equations */
      else potential_equations(fl, members, n, c->loc, c->origin);
    }
  }
  free(members);
  free(next);
  free(first);
  free(done);
}

static void unconnected_flows(st_fl *fl, const sets *s) {
  for (int v = 0; v < fl->nvars; v++) {
    if (!fl->vars[v].is_flow || s->used[2 * v]) continue;
    st_feq *q = st_feq_new(fl, FE_EQUAL, fl->vars[v].loc, "");
    if (!q) return;
    q->lhs = st_fx_var(fl->arena, v, fl->vars[v].loc);
    q->rhs = st_fx_real(fl->arena, 0, fl->vars[v].loc);
    st_fl_add_eq(fl, &fl->equations, q);
  }
}

/* ------------------------------------------------------------------ stream variables */

static st_fexpr *mixing(st_fl *fl, const sets *s, int node, st_loc loc);
static void stream_equations(st_fl *fl, const sets *s, int first_use, int outside);

/* The flow variable of the connector holding stream variable v (section 15.1: exactly one). */
static int flow_of(const st_fl *fl, int v) {
  const st_inst *in = fl->info[v].inst, *c = in ? in->parent : NULL;
  while (c && c->ndims > 0) c = c->parent; /* an element of a stream array */
  for (int i = 0; c && i < c->nkids; i++)
    if (c->kids[i]->var >= 0 && fl->vars[c->kids[i]->var].is_flow) return c->kids[i]->var;
  return -1;
}

/* The value that marks the if-expression actualStream made (st_fl_stream_product). */
#define ACTUAL_STREAM 1

/* inStream/actualStream of a translated argument, element by element over an expanded array
 * (Xi_outflow[nXi] of a fluid port, possibly empty). */
static st_fexpr *stream_of(st_fl *fl, st_fexpr *x, int actual, const char *name, st_loc loc,
                           st_env env) {
  if (x->kind == FX_ARRAY) {
    st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, x->op, x->nargs, loc);
    for (int i = 0; a && i < x->nargs; i++)
      if (!(a->args[i] = stream_of(fl, x->args[i], actual, name, loc, env))) return NULL;
    return a;
  }
  int flow = x->kind == FX_VAR && fl->vars[x->index].is_stream ? flow_of(fl, x->index) : -1;
  if (flow < 0) {
    st_fl_error(fl, loc, env.inst, "%s() needs a stream variable of a connector with "
                "one flow variable", name);
    return NULL;
  }
  if (fl->ninstreams == fl->capinstreams) {
    int cap = fl->capinstreams ? 2 * fl->capinstreams : 16;
    st_stream_use *u = realloc(fl->instreams, (size_t)cap * sizeof *u);
    if (!u) {
      fl->out_of_memory = 1;
      return NULL;
    }
    fl->instreams = u;
    fl->capinstreams = cap;
  }
  st_fexpr *in = st_fx_var(fl->arena, x->index, loc);
  if (!in) return NULL;
  fl->instreams[fl->ninstreams++] = (st_stream_use){in, x->index};
  if (fl->sets) stream_equations(fl, fl->sets, fl->ninstreams - 1, 0); /* a late binding */
  if (!actual) return in;
  st_fexpr *r = st_fx_new(fl->arena, FX_IF, 0, 3, loc);
  if (!r) return NULL;
  r->args[0] = st_fx_binary(fl->arena, FOP_GT, st_fx_var(fl->arena, flow, loc),
                            st_fx_real(fl->arena, 0, loc), loc);
  r->args[1] = in;
  r->args[2] = x;
  r->value = ACTUAL_STREAM; /* for st_fl_stream_product */
  return r;
}

void st_fl_stream_product(st_fl *fl, const st_fexpr *a, st_fexpr *b) {
  if (b->kind == FX_ARRAY) { /* m_flow*actualStream(Xi_outflow) */
    for (int i = 0; i < b->nargs; i++) st_fl_stream_product(fl, a, b->args[i]);
    return;
  }
  if (a->kind != FX_VAR || b->kind != FX_IF || b->value != ACTUAL_STREAM) return;
  st_fexpr *c = b->args[0];
  if (c->kind != FX_BINARY || c->args[0]->kind != FX_VAR || c->args[0]->index != a->index)
    return;
  st_fexpr *quiet = st_fx_new(fl->arena, FX_BUILTIN, FB_NOEVENT, 1, c->loc);
  if (!quiet) return; /* events stay: correct, only slower */
  quiet->args[0] = c;
  b->args[0] = quiet;
  b->value = 0;
}

/* Translates inStream(v) / actualStream(v) on a stream variable (or an array of them). inStream becomes a
 * node reading v (the unconnected value) that stream_equations rewrites once the connection
 * sets are known; actualStream(v) = if m_flow > 0 then inStream(v) else v. */
st_fexpr *st_fl_stream_call(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                            int *handled) {
  int actual = strcmp(name, "actualStream") == 0;
  *handled = actual || strcmp(name, "inStream") == 0;
  if (!*handled) return NULL;
  const st_ast_fnarg *args = e->u.call.args;
  if (!args || args->next || args->name || fl->fnctx) {
    st_fl_error(fl, e->loc, env.inst, "%s() takes one stream variable of a connector", name);
    return NULL;
  }
  st_fexpr *x = st_translate(fl, args->value, env);
  return x ? stream_of(fl, x, actual, name, e->loc, env) : NULL;
}

/* Below this the weights of section 15.2 are all equal: with every flow zero the mixing is
 * the mean instead of 0/0. */
#define ST_STREAM_EPS 1e-15


/* max(w, eps) */
static st_fexpr *positive_max(st_fl *fl, st_fexpr *w, st_loc loc) {
  st_fexpr *m = st_fx_new(fl->arena, FX_BUILTIN, FB_MAX, 2, loc);
  if (!m) return NULL;
  m->args[0] = w;
  m->args[1] = st_fx_real(fl->arena, ST_STREAM_EPS, loc);
  return m;
}

/* What a member offers to the others: an inside connector its own outflow value, an outside
 * one what flows in from the level above (its inStream, section 15.2). */
static st_fexpr *offered(st_fl *fl, const sets *s, int node, st_loc loc) {
  return node & 1 ? mixing(fl, s, node - 1, loc) : term(fl, node, loc);
}

/* The mixing value seen by `node` of a connection set: the weighted mean of what the other
 * members offer, weighted by max(-m_flow, eps) for inside and max(m_flow, eps) for outside
 * ones (the flow into the set); one other member gives its value directly, none (an
 * unconnected inside connector) the variable itself. */
static st_fexpr *mixing(st_fl *fl, const sets *s, int node, st_loc loc) {
  int others = 0, other = -1;
  if (s->used[node]) {
    int root = find((sets *)s, node);
    for (int k = 0; k < s->norder; k++) {
      int m = s->order[k];
      if (m != node && find((sets *)s, m) == root) others++, other = m;
    }
  }
  if (others == 0) return term(fl, node, loc);
  if (others == 1) return offered(fl, s, other, loc);
  st_fexpr *num = NULL, *den = NULL;
  int root = find((sets *)s, node);
  for (int k = 0; k < s->norder; k++) {
    int m = s->order[k];
    if (m == node || find((sets *)s, m) != root) continue;
    int flow = flow_of(fl, m / 2);
    if (flow < 0) return NULL;
    st_fexpr *f = st_fx_var(fl->arena, flow, loc);
    st_fexpr *w = positive_max(fl, m & 1 ? f : st_fx_unary(fl->arena, FOP_NEG, f, loc), loc);
    st_fexpr *t = st_fx_binary(fl->arena, FOP_MUL, w, offered(fl, s, m, loc), loc);
    num = num ? st_fx_binary(fl->arena, FOP_ADD, num, t, loc) : t;
    den = den ? st_fx_binary(fl->arena, FOP_ADD, den, w, loc) : w;
  }
  return st_fx_binary(fl->arena, FOP_DIV, num, den, loc);
}

/* inStream(v) of an inside connector is the mixing its set offers it; the stream variable
 * of an outside connector is the mixing of its inner set (section 15.2). */
static void stream_equations(st_fl *fl, const sets *s, int first_use, int outside) {
  for (int i = first_use; i < fl->ninstreams; i++) {
    st_stream_use *u = &fl->instreams[i];
    st_fexpr *m = mixing(fl, s, 2 * u->var, u->node->loc);
    if (m) *u->node = *m;
  }
  if (outside)
  for (int v = 0; v < fl->nvars; v++) {
    if (!fl->vars[v].is_stream || !s->used[2 * v + 1]) continue;
    st_fexpr *m = mixing(fl, s, 2 * v + 1, fl->vars[v].loc);
    st_feq *q = m ? st_feq_new(fl, FE_EQUAL, fl->vars[v].loc, "") : NULL;
    if (!q) return;
    q->lhs = st_fx_var(fl->arena, v, fl->vars[v].loc);
    q->rhs = m;
    st_fl_add_eq(fl, &fl->equations, q);
  }
}

void st_fl_free_connection_sets(st_fl *fl) {
  if (!fl->sets) return;
  free(fl->sets->parent);
  free(fl->sets->order);
  free(fl->sets->used);
  free(fl->sets);
  fl->sets = NULL;
}

void st_connections_to_equations(st_fl *fl) {
  int nn = 2 * fl->nvars;
  sets s = {malloc((size_t)(nn + 1) * sizeof(int)), malloc((size_t)(nn + 1) * sizeof(int)), 0,
            calloc((size_t)nn + 1, 1)};
  int *where = malloc((size_t)(nn + 1) * sizeof(int));
  if (s.parent && s.order && s.used && where) {
    for (int i = 0; i < nn; i++) s.parent[i] = i;
    for (int c = 0; c < fl->nconnections; c++) {
      pairing p = {fl, &s, &fl->connections[c]};
      int before = s.norder;
      pair(&p, fl->connections[c].a, fl->connections[c].b);
      for (int k = before; k < s.norder; k++) where[s.order[k]] = c;
    }
    emit_sets(fl, &s, where);
    unconnected_flows(fl, &s);
    stream_equations(fl, &s, 0, 1);
  }
  sets *kept = malloc(sizeof *kept);
  if (kept) *kept = s;
  else {
    free(s.parent);
    free(s.order);
    free(s.used);
  }
  fl->sets = kept;
  free(where); /* fl->connections stay for cardinality() in bindings (fl_free frees them) */
}
