/* Index reduction: Pantelides' algorithm (1988) with symbolic differentiation of equations,
 * then dummy-derivative state selection (Mattsson and Söderlind 1993) honouring stateSelect.
 *
 * Pantelides: match every equation to a "highest derivative" unknown (a variable whose
 * derivative does not occur); when an equation cannot be matched, the equations visited by
 * the failed augmenting search form a structurally singular subset: differentiate all of them
 * (new derivative variables for the variables visited) and retry with the derivative.
 * Dummy derivatives: for the highest differentiated equations pick as many of their highest
 * derivatives as there are equations to become algebraic ("dummies"), preferring higher
 * derivatives and variables whose stateSelect is low; repeat one level down with the
 * equations those were differentiated from (where these are derivatives themselves) and the
 * integrals of the dummies picked. The states are the variables whose derivative occurs and
 * is not a dummy. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

typedef struct ir {
  st_compiled *cm;
  int *integral;      /* per slot: the slot it is the derivative of, or -1 */
  int *assign;        /* per slot: matched equation, -1 */
  int *vcolour, *ecolour;
  int *diff, *pred, *level; /* per equation */
  unsigned char *dummy;
  int capslots, capeqs;
  int *inc;           /* incidence scratch */
  int ninc, capinc;
  int *ss;            /* per flat variable: its stateSelect for the choice (effective_ss) */
  st_start_point *sp; /* the numeric check's start point, made when first needed */
  int sp_failed;      /* making it ran out of memory: no such pass */
  int failed;
  /* One augmenting search: colours equal to gen mark what it visited (no clearing of whole
   * arrays per equation), listed in vvisit/evisit for the differentiation that may follow. */
  int gen;
  int *vvisit, nvv, capvv;
  int *evisit, nev, capev;
} ir;

/* The slot and equation arrays are on the heap (classify.c, equations.c; build.c free_proto
 * frees them): index reduction grows them in place, where the compiler's arena would keep
 * every outgrown copy (at N = 10^4 Mass + SpringDamper, 65 MB of copies). */
static void *grow_heap(void *heap, int cap, size_t size) {
  return realloc(heap, (size_t)cap * size);
}

static int grow_slots(ir *r) {
  st_compiled *cm = r->cm;
  if (cm->p.nslots < r->capslots) return 0;
  int cap = 2 * r->capslots + 16;
  st_slot *s = grow_heap(cm->p.slots, cap, sizeof *s);
  if (s) cm->p.slots = s;
  int *integral = realloc(r->integral, (size_t)cap * sizeof(int));
  if (integral) r->integral = integral;
  int *assign = realloc(r->assign, (size_t)cap * sizeof(int));
  if (assign) r->assign = assign;
  int *vc = realloc(r->vcolour, (size_t)cap * sizeof(int));
  if (vc) {
    r->vcolour = vc;
    memset(vc + r->capslots, 0, sizeof(int) * (size_t)(cap - r->capslots));
  }
  unsigned char *d = realloc(r->dummy, (size_t)cap);
  if (d) r->dummy = d;
  if (!s || !integral || !assign || !vc || !d) return -1;
  r->capslots = cap;
  return 0;
}

static int grow_eqs(ir *r) {
  st_compiled *cm = r->cm;
  if (cm->p.neqs < r->capeqs) return 0;
  int cap = 2 * r->capeqs + 16;
  st_ceq *q = grow_heap(cm->p.eqs, cap, sizeof *q);
  if (q) cm->p.eqs = q;
  int *diff = realloc(r->diff, (size_t)cap * sizeof(int));
  if (diff) r->diff = diff;
  int *pred = realloc(r->pred, (size_t)cap * sizeof(int));
  if (pred) r->pred = pred;
  int *level = realloc(r->level, (size_t)cap * sizeof(int));
  if (level) r->level = level;
  int *ec = realloc(r->ecolour, (size_t)cap * sizeof(int));
  if (ec) {
    r->ecolour = ec;
    memset(ec + r->capeqs, 0, sizeof(int) * (size_t)(cap - r->capeqs));
  }
  if (!q || !diff || !pred || !level || !ec) return -1;
  r->capeqs = cap;
  return 0;
}

static int continuous(const st_compiled *cm, int s) {
  st_kind k = cm->p.slots[s].kind;
  return k == K_STATE || k == K_DER || k == K_ALG;
}

/* The derivative slot of s, created on first use. */
static int der_slot(ir *r, int s) {
  st_compiled *cm = r->cm;
  if (cm->p.slots[s].der >= 0) return cm->p.slots[s].der;
  if (grow_slots(r)) return -1;
  int d = cm->p.nslots++;
  st_slot *src = &cm->p.slots[s];
  cm->p.slots[d] = (st_slot){.name = st_arena_concat(cm->p.arena, "der(", src->name, ")"),
                             .kind = K_DER, .flat = -1, .state = -1, .der = -1, .alias_of = -1,
                             .alias_sign = 1, .loc = src->loc};
  cm->p.slots[s].der = d;
  r->integral[d] = s;
  r->assign[d] = -1;
  r->vcolour[d] = 0;
  r->dummy[d] = 0;
  return d;
}

/* ---- symbolic time derivative ------------------------------------------------------------ */

static int is_zero(const st_fexpr *e) { return e->kind == FX_REAL && e->value == 0; }

static st_fexpr *add(st_arena *a, st_fexpr *x, st_fexpr *y, int op) {
  if (!x || !y) return NULL;
  if (is_zero(y)) return x;
  if (is_zero(x)) {
    if (op == FOP_ADD) return y;
    st_fexpr *n = st_sym_node(a, FX_UNARY, FOP_NEG, 1);
    if (n) n->args[0] = y;
    return n;
  }
  return st_sym_bin(a, op, x, y);
}

static st_fexpr *mul(st_arena *a, st_fexpr *x, st_fexpr *y) {
  if (!x || !y) return NULL;
  if (is_zero(x) || is_zero(y)) return st_sym_num(a, 0);
  return st_sym_bin(a, FOP_MUL, x, y);
}

static st_fexpr *fn1(st_arena *a, int b, st_fexpr *x) {
  st_fexpr *e = st_sym_node(a, FX_BUILTIN, b, 1);
  if (!e) return NULL;
  e->args[0] = x;
  /* a derived call (sign() from abs()) has no text of its own; give it its argument's
   * location so a failure to differentiate it again is still reported at file:line:col */
  if (x) e->loc = x->loc;
  return e;
}

static st_fexpr *ref(st_arena *a, int slot) {
  st_fexpr *e = st_sym_node(a, FX_VAR, 0, 0);
  if (e) e->index = slot;
  return e;
}

static st_fexpr *diff(ir *r, const st_fexpr *e);

/* d/dt f(x) = f'(x) dx/dt for the one-argument functions that have a closed-form f'. */
static st_fexpr *diff_fn1(ir *r, const st_fexpr *e) {
  st_arena *A = r->cm->p.arena;
  st_fexpr *x = e->args[0], *dx = diff(r, x);
  if (!dx) return NULL;
  if (is_zero(dx)) return dx;
  st_fexpr *f = NULL;
  switch (e->op) {
  case FB_SIN: f = fn1(A, FB_COS, x); break;
  case FB_COS: f = st_sym_bin(A, FOP_SUB, st_sym_num(A, 0), fn1(A, FB_SIN, x)); break;
  case FB_EXP: f = fn1(A, FB_EXP, x); break;
  case FB_SQRT: f = st_sym_bin(A, FOP_DIV, st_sym_num(A, 0.5), fn1(A, FB_SQRT, x)); break;
  case FB_LOG: f = st_sym_bin(A, FOP_DIV, st_sym_num(A, 1), x); break;
  case FB_ABS: f = fn1(A, FB_SIGN, x); break;
  case FB_ATAN:
    f = st_sym_bin(A, FOP_DIV, st_sym_num(A, 1),
                   st_sym_bin(A, FOP_ADD, st_sym_num(A, 1), st_sym_bin(A, FOP_MUL, x, x)));
    break;
  case FB_TANH: {
    st_fexpr *t = fn1(A, FB_TANH, x);
    f = st_sym_bin(A, FOP_SUB, st_sym_num(A, 1), st_sym_bin(A, FOP_MUL, t, t));
    break;
  }
  case FB_NOEVENT: case FB_SMOOTH: return dx;
  case FB_SIGN: return st_sym_num(A, 0); /* piecewise constant: it steps at events only */
  default:
    st_error(r->cm->diag, e->loc, "index reduction: cannot differentiate %s()",
             st_builtin_name(e->op));
    return NULL;
  }
  return mul(A, f, dx);
}

static st_fexpr *diff_binary(ir *r, const st_fexpr *e) {
  st_arena *A = r->cm->p.arena;
  st_fexpr *a = e->args[0], *b = e->args[1];
  st_fexpr *da = diff(r, a), *db = diff(r, b);
  if (!da || !db) return NULL;
  switch (e->op) {
  case FOP_ADD: case FOP_SUB: return add(A, da, db, e->op);
  case FOP_MUL: return add(A, mul(A, da, b), mul(A, a, db), FOP_ADD);
  case FOP_DIV:
    /* (a/b)' = a'/b - a b'/b^2 */
    return add(A, is_zero(da) ? da : st_sym_bin(A, FOP_DIV, da, b),
               is_zero(db) ? db : st_sym_bin(A, FOP_DIV, mul(A, a, db), mul(A, b, b)), FOP_SUB);
  case FOP_POW:
    if (is_zero(db))
      return mul(A, mul(A, b, st_sym_bin(A, FOP_POW, a, st_sym_bin(A, FOP_SUB, b, st_sym_num(A, 1)))), da);
    break;
  default: break;
  }
  st_error(r->cm->diag, e->loc, "index reduction: cannot differentiate this expression");
  return NULL;
}

/* d/dt of a function argument: arrays element by element (a parameter table's derivative is
 * an array of zeros of its shape, as the derivative function expects). */
static st_fexpr *diff_arg(ir *r, const st_fexpr *e) {
  if (e->kind != FX_ARRAY) return diff(r, e);
  st_fexpr *n = st_sym_node(r->cm->p.arena, FX_ARRAY, 0, e->nargs);
  if (!n) return NULL;
  n->loc = e->loc;
  for (int i = 0; i < e->nargs; i++)
    if (!(n->args[i] = diff_arg(r, e->args[i]))) return NULL;
  return n;
}

/* d/dt f(u) = f_der(u, du/dt) for a function with annotation(derivative = f_der) (Modelica
 * 3.6 section 12.7.1): the inputs, then the derivatives of the inputs the front end marked,
 * and the same output number. */
static st_fexpr *diff_annotated(ir *r, const st_fexpr *e, const st_ffunction *fn) {
  int nin = 0, nd = 0;
  if (!fn->has_derivative) return NULL; /* the front end always sets both */
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_INPUT) {
      nin++;
      nd += fn->has_derivative[i];
    }
  if (e->nargs != nin) return NULL; /* defaults are filled in by the front end */
  st_fexpr *c = st_sym_node(r->cm->p.arena, FX_CALL, e->op, nin + nd);
  if (!c) return NULL;
  c->index = fn->derivative - 1;
  c->value = e->value; /* the same element of the derivative's output */
  c->loc = e->loc;
  for (int i = 0, a = 0, k = nin; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    c->args[a] = e->args[a];
    if (fn->has_derivative[i] && !(c->args[k++] = diff_arg(r, e->args[a]))) return NULL;
    a++;
  }
  return c;
}

/* The declared type of the output a call stands for (op: its number among the outputs). */
static st_ftype output_type(const st_ffunction *fn, int output) {
  for (int i = 0, o = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == output) return fn->locals[i].type;
  return ST_T_REAL;
}

/* d/dt f(u) = f'(u) du/dt as the directional derivative of f along the arguments' derivatives
 * (FX_CALL_DER): forward mode through the compiled body at run time, the way tools derive a
 * derivative function from the algorithm (statements, loops, calls of other functions with
 * their own derivatives, record outputs as several outputs). Of such a derivative e = g(u, du)
 * again: g's along (du, d2u), the arguments doubled once more. */
static st_fexpr *diff_directional(ir *r, const st_fexpr *e) {
  st_fexpr *c = st_sym_node(r->cm->p.arena, FX_CALL_DER, e->op, 2 * e->nargs);
  if (!c) return NULL;
  c->index = e->index;
  c->value = e->value;
  c->loc = e->loc;
  for (int i = 0; i < e->nargs; i++) {
    c->args[i] = e->args[i];
    if (!(c->args[e->nargs + i] = diff_arg(r, e->args[i]))) return NULL;
  }
  return c;
}

/* Through a user function: its derivative annotation, else its body inlined when that is a
 * chain of scalar assignments, else its directional derivative. An Integer, Boolean or
 * enumeration output (a record's phase) is piecewise constant. */
static st_fexpr *diff_call(ir *r, const st_fexpr *e) {
  st_compiled *cm = r->cm;
  if (e->index < 0 || e->index >= cm->p.flat->nfunctions) return NULL;
  const st_ffunction *fn = &cm->p.flat->functions[e->index];
  if (output_type(fn, e->op) != ST_T_REAL) return st_sym_num(cm->p.arena, 0);
  if (fn->derivative) return diff_annotated(r, e, fn);
  st_fexpr *body = st_inline_call(cm, e);
  if (body) return diff(r, body);
  if (fn->is_impure) {
    st_error(cm->diag, e->loc, "index reduction: cannot differentiate the call of the impure "
             "function '%s'", fn->name);
    return NULL;
  }
  return diff_directional(r, e);
}

static st_fexpr *diff(ir *r, const st_fexpr *e) {
  st_compiled *cm = r->cm;
  st_arena *A = cm->p.arena;
  int deps = st_expr_deps(cm, e);
  if (!(deps & (DEP_TIME | DEP_CONT))) return st_sym_num(A, 0);
  switch (e->kind) {
  case FX_TIME: return st_sym_num(A, 1);
  case FX_VAR: case FX_BUILTIN:
    if (e->kind == FX_VAR || e->op == FB_DER) {
      int s = st_ref_slot(cm, e);
      if (s < 0) break;
      double sign = 1;
      if (e->kind == FX_VAR)
        for (int t = e->index; cm->p.slots[t].kind == K_ALIAS; t = cm->p.slots[t].alias_of)
          sign *= cm->p.slots[t].alias_sign;
      int d = der_slot(r, s);
      if (d < 0) return NULL;
      st_fexpr *v = ref(A, d);
      return sign < 0 ? add(A, st_sym_num(A, 0), v, FOP_SUB) : v;
    }
    if (e->nargs == 1) return diff_fn1(r, e);
    if (e->op == FB_SMOOTH && e->nargs == 2) return diff(r, e->args[1]); /* smooth(p, x) */
    if (e->op == FB_HOMOTOPY && e->nargs == 2) { /* linear in both: homotopy(a', s') */
      st_fexpr *f = st_sym_node(A, FX_BUILTIN, FB_HOMOTOPY, 2);
      if (!f || !(f->args[0] = diff(r, e->args[0])) || !(f->args[1] = diff(r, e->args[1])))
        return NULL;
      f->loc = e->loc;
      return f;
    }
    if ((e->op == FB_MIN || e->op == FB_MAX) && e->nargs == 2) {
      /* min(a, b)' = if a < b then a' else b' (max: a > b), the choice min() makes */
      st_fexpr *da = diff(r, e->args[0]), *db = diff(r, e->args[1]);
      st_fexpr *f = da && db ? st_sym_node(A, FX_IF, 0, 3) : NULL;
      if (!f) return NULL;
      f->args[0] = st_sym_bin(A, e->op == FB_MIN ? FOP_LT : FOP_GT, e->args[0], e->args[1]);
      f->args[1] = da;
      f->args[2] = db;
      return f->args[0] ? f : NULL;
    }
    if (e->op == FB_ATAN2 && e->nargs == 2) {
      /* atan2(y, x)' = (x y' - y x')/(x^2 + y^2) */
      st_fexpr *y = e->args[0], *x = e->args[1], *dy = diff(r, y), *dx = diff(r, x);
      if (!dy || !dx) return NULL;
      st_fexpr *num = add(A, mul(A, x, dy), mul(A, y, dx), FOP_SUB);
      return st_sym_bin(A, FOP_DIV, num, add(A, mul(A, x, x), mul(A, y, y), FOP_ADD));
    }
    break;
  case FX_UNARY:
    if (e->op == FOP_NEG) return add(A, st_sym_num(A, 0), diff(r, e->args[0]), FOP_SUB);
    break;
  case FX_BINARY:
    if (e->op == FOP_MUL && (st_zero_parameter(cm, e->args[0]) || st_zero_parameter(cm, e->args[1])))
      return st_sym_num(A, 0); /* uses nothing (st_expr_unknowns) */
    return diff_binary(r, e);
  case FX_CALL: return diff_call(r, e);
  case FX_CALL_DER: return diff_directional(r, e); /* along (du, d2u): a second derivative */
  case FX_IF: {
    st_fexpr *f = st_sym_node(A, FX_IF, 0, 3);
    if (!f) return NULL;
    f->args[0] = e->args[0];
    f->args[1] = diff(r, e->args[1]);
    f->args[2] = diff(r, e->args[2]);
    return f->args[1] && f->args[2] ? f : NULL;
  }
  default: break;
  }
  st_error(cm->diag, e->loc, "index reduction: cannot differentiate this expression");
  return NULL;
}

/* ---- Pantelides -------------------------------------------------------------------------- */

static void collect(void *p, int slot) {
  ir *r = p;
  if (r->ninc == r->capinc) {
    int cap = 2 * r->capinc + 32;
    int *n = realloc(r->inc, (size_t)cap * sizeof(int));
    if (!n) { r->failed = 1; return; }
    r->inc = n;
    r->capinc = cap;
  }
  r->inc[r->ninc++] = slot;
}

/* Highest-derivative unknowns of equation e (continuous slots without a derivative). */
static int incidence(ir *r, int e, int **out) {
  st_compiled *cm = r->cm;
  r->ninc = 0;
  st_expr_unknowns(cm, cm->p.eqs[e].lhs, collect, r);
  st_expr_unknowns(cm, cm->p.eqs[e].rhs, collect, r);
  int n = 0;
  for (int i = 0; i < r->ninc; i++) {
    int s = r->inc[i];
    if (continuous(cm, s) && cm->p.slots[s].der < 0) r->inc[n++] = s;
  }
  *out = r->inc;
  return n;
}

static void visit(ir *r, int **list, int *n, int *cap, int x) {
  if (*n == *cap) {
    int c = 2 * *cap + 64;
    int *l = realloc(*list, sizeof(int) * (size_t)c);
    if (!l) { r->failed = 1; return; }
    *list = l;
    *cap = c;
  }
  (*list)[(*n)++] = x;
}

static int augment(ir *r, int e) {
  int *inc, n = incidence(r, e, &inc);
  int *vars = malloc(sizeof(int) * (size_t)(n + 1));
  if (!vars) return 0;
  /* an equation without unknowns (der(1) = x with x a parameter) has inc == NULL, n == 0:
   * memcpy from NULL is undefined even for 0 bytes */
  if (n > 0) memcpy(vars, inc, sizeof(int) * (size_t)n);
  r->ecolour[e] = r->gen;
  visit(r, &r->evisit, &r->nev, &r->capev, e);
  int found = 0;
  for (int i = 0; i < n && !found; i++)
    if (r->assign[vars[i]] < 0) {
      r->assign[vars[i]] = e;
      found = 1;
    }
  for (int i = 0; i < n && !found; i++) {
    int v = vars[i];
    if (r->vcolour[v] == r->gen) continue;
    r->vcolour[v] = r->gen;
    visit(r, &r->vvisit, &r->nvv, &r->capvv, v);
    if (augment(r, r->assign[v])) {
      r->assign[v] = e;
      found = 1;
    }
  }
  free(vars);
  return found;
}

static int differentiate_eq(ir *r, int e) {
  st_compiled *cm = r->cm;
  if (cm->p.eqs[e].target >= 0) {
    st_error(cm->diag, cm->p.eqs[e].loc, "index reduction would have to differentiate this "
             "discrete equation");
    return -1;
  }
  st_fexpr *l = diff(r, cm->p.eqs[e].lhs), *rr = diff(r, cm->p.eqs[e].rhs);
  if (!l || !rr || grow_eqs(r)) return -1;
  int d = cm->p.neqs++;
  cm->p.eqs[d] = cm->p.eqs[e];
  cm->p.eqs[d].lhs = l;
  cm->p.eqs[d].rhs = rr;
  cm->p.eqs[d].differentiated = cm->p.eqs[e].differentiated + 1;
  r->diff[e] = d;
  r->diff[d] = -1;
  r->pred[d] = e;
  r->level[d] = r->level[e] + 1;
  r->ecolour[d] = 0; /* never a search's gen (from 1) */
  cm->p.n_differentiated++;
  return 0;
}

static int ascending(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Differentiates the equations and variables a failed search visited, in index order (new
 * slots and equations are numbered as they are made). */
static int pantelides_step(ir *r) {
  st_compiled *cm = r->cm;
  /* the lists are NULL until a search visits something: qsort of NULL is undefined */
  if (r->nvv > 1) qsort(r->vvisit, (size_t)r->nvv, sizeof(int), ascending);
  if (r->nev > 1) qsort(r->evisit, (size_t)r->nev, sizeof(int), ascending);
  for (int i = 0; i < r->nvv; i++)
    if (der_slot(r, r->vvisit[i]) < 0) return -1;
  for (int i = 0; i < r->nev; i++) {
    int e = r->evisit[i];
    if (r->level[e] >= 3 || differentiate_eq(r, e)) return -1;
  }
  for (int i = 0; i < r->nvv; i++) {
    int v = r->vvisit[i];
    if (r->assign[v] >= 0) r->assign[cm->p.slots[v].der] = r->diff[r->assign[v]];
  }
  return 0;
}

static int has_derivative_ref(const ir *r, const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && e->op == FB_PRE) return 0;
  int s = st_ref_slot(r->cm, e);
  if (s >= 0) return r->cm->p.slots[s].der >= 0 || r->integral[s] >= 0;
  for (int i = 0; i < e->nargs; i++)
    if (has_derivative_ref(r, e->args[i])) return 1;
  return 0;
}

/* A singular subset that mentions no state or derivative is an algebraic singularity, not a
 * higher index: differentiating would not help. */
static int mentions_state(ir *r) {
  st_compiled *cm = r->cm;
  for (int i = 0; i < r->nev; i++) {
    int e = r->evisit[i];
    if (has_derivative_ref(r, cm->p.eqs[e].lhs) || has_derivative_ref(r, cm->p.eqs[e].rhs)) return 1;
  }
  return 0;
}

/* 1: differentiated something; 0: the system needs no index reduction; -1: error or an
 * algebraic singularity (left to the structural analysis to report). */
static int pantelides(ir *r) {
  st_compiled *cm = r->cm;
  int did = 0, n0 = cm->p.neqs;
  for (int k = 0; k < n0; k++) {
    if (cm->p.eqs[k].target >= 0) continue;
    int e = k;
    for (int guard = 0; guard < 8; guard++) {
      r->gen++;
      r->nvv = r->nev = 0;
      if (augment(r, e)) break;
      if (r->failed) return -1;
      if (!mentions_state(r)) return did; /* structure.c reports it */
      if (pantelides_step(r)) return -1;
      did = 1;
      e = r->diff[e];
    }
  }
  return did;
}

/* ---- dummy derivatives ------------------------------------------------------------------- */

/* Derivative order of s over its root variable, and the root. */
static int order_of(const ir *r, int s, int *root) {
  int n = 0;
  while (r->integral[s] >= 0) { s = r->integral[s]; n++; }
  *root = s;
  return n;
}

static int root_flat(const st_compiled *cm, int root) {
  return root < cm->p.flat->nvars ? root : -1;
}

static int uf_find(int *p, int i) {
  while (p[i] != i) i = p[i] = p[p[i]];
  return i;
}

/* Unions the two variables of an original equation a = ±b (+ parameters), not counting
 * variables that an equation of their own sets to a parameter expression (the angle of an
 * absent support: gear.phi_a = flange_a.phi - phi_support is an alias equation). */
static void union_aliases(const ir *r, int *p, unsigned char *known) {
  const st_compiled *cm = r->cm;
  int nv = cm->p.flat->nvars, t[3], unit;
  for (int e = 0; e < cm->p.neqs; e++)
    if (r->level[e] == 0 && st_linear_terms(cm, e, t, &unit) == 1 && t[0] < nv) known[t[0]] = 1;
  for (int e = 0; e < cm->p.neqs; e++) {
    int n = r->level[e] == 0 ? st_linear_terms(cm, e, t, &unit) : 0, m = 0, ab[3];
    for (int i = 0; i < n; i++)
      if (t[i] >= nv || !known[t[i]]) ab[m++] = t[i];
    if (unit && m == 2 && ab[0] < nv && ab[1] < nv) p[uf_find(p, ab[0])] = uf_find(p, ab[1]);
  }
}

/* The stateSelect a variable is chosen by: its own, or when it has none (default) that of
 * its alias set (a = ±b equations): connections make a flange angle an alias of the
 * inertia's phi, and `avoid` on J1 must hold for J1.flange_b.phi too (else the flange angle,
 * declared earlier than J2.phi, was kept as the state). A set's value is the highest
 * non-default one given in it, else the lowest. A prefer or always in the set also holds
 * over a member's own lower one: the one variable is asked to be a state (MultiBody's
 * RollingWheel: x(stateSelect = always) = rollingWheel.x, whose own avoid is the inner
 * joint's and whose der() is the one that occurs). */
static int effective_ss(ir *r) {
  const st_compiled *cm = r->cm;
  int nv = cm->p.flat->nvars;
  int *p = malloc(sizeof(int) * (size_t)(3 * nv + 1));
  unsigned char *known = calloc((size_t)nv + 1, 1);
  r->ss = malloc(sizeof(int) * (size_t)(nv + 1));
  if (!p || !known || !r->ss) { free(p); free(known); return -1; }
  int *hi = p + nv, *lo = p + 2 * nv;
  for (int i = 0; i < nv; i++) { p[i] = i; hi[i] = lo[i] = ST_SS_DEFAULT; }
  union_aliases(r, p, known);
  free(known);
  for (int i = 0; i < nv; i++) {
    int k = uf_find(p, i), ss = (int)cm->p.flat->vars[i].state_select;
    if (ss > hi[k]) hi[k] = ss;
    if (ss < lo[k]) lo[k] = ss;
  }
  for (int i = 0; i < nv; i++) {
    int k = uf_find(p, i), own = (int)cm->p.flat->vars[i].state_select;
    r->ss[i] = hi[k] >= ST_SS_PREFER && hi[k] > own ? hi[k]
             : own != ST_SS_DEFAULT ? own : hi[k] != ST_SS_DEFAULT ? hi[k] : lo[k];
  }
  free(p);
  return 0;
}

static int name_depth(const char *name) {
  int n = 0;
  for (; *name; name++) n += *name == '.';
  return n < 15 ? n : 15;
}

/* Larger = rather a dummy: higher derivatives first, then low stateSelect (of the alias set,
 * then its own: within a set the one that asked for it), no fixed start, not differentiated
 * in the model as written (J2.phi, whose der() the Inertia states, rather than its alias
 * gear.phi_b), deeper in the instance tree (as alias.c names a set), later declaration. The
 * kinds are still those of the model as written (reclassify comes after). */
static long long dummy_score(const ir *r, int s) {
  int root, order = order_of(r, s, &root);
  int f = root_flat(r->cm, root);
  const st_fvar *v = f >= 0 ? &r->cm->p.flat->vars[f] : NULL;
  long long eff = v ? r->ss[f] : ST_SS_DEFAULT, own = v ? (long long)v->state_select : ST_SS_DEFAULT;
  int fixed = v && v->fixed == 1;
  int written = f >= 0 && r->cm->p.slots[f].kind == K_STATE;
  /* avoid and default are one tier ranked first by der() as written (Modelica 3.6
   * section 4.9.7.1: default is a state "only if the variable appears differentiated", avoid
   * one "if it appears differentiated and no other potential state with default, prefer or
   * always can be selected"): a body's quaternions, avoided but differentiated in the model,
   * rather than entries of a frame's orientation matrix that only index reduction
   * differentiates */
  long long tier = eff == ST_SS_NEVER ? 3 : eff >= ST_SS_PREFER ? ST_SS_ALWAYS - eff : 2;
  long long key = ((((order * 4LL + tier) * 2 + !written) * 5 + (ST_SS_ALWAYS - eff)) * 5 +
                   (ST_SS_ALWAYS - own)) * 2 + !fixed;
  key = key * 16 + (v ? name_depth(v->name) : 0);
  return key << 28 | (f < 0 ? 0 : f);
}

typedef struct cand { int slot; long long score; } cand;

static int by_score(const void *a, const void *b) {
  long long x = ((const cand *)a)->score, y = ((const cand *)b)->score;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* The equations of one level that mention each unknown, listed once per pair in increasing
 * equation order (CSR): the matching below asks, per candidate, for the equations it is in. */
typedef struct level_inc {
  int *off;  /* per slot: its equations are list[off[s] .. off[s + 1]) */
  int *list;
} level_inc;

static int level_incidence(ir *r, const unsigned char *ing, level_inc *li) {
  st_compiled *cm = r->cm;
  int ns = cm->p.nslots;
  li->off = calloc((size_t)ns + 2, sizeof(int));
  int *last = malloc(sizeof(int) * (size_t)(ns + 1));
  li->list = NULL;
  if (!li->off || !last) {
    free(last);
    return -1;
  }
  for (int pass = 0; pass < 2; pass++) { /* count, then fill */
    for (int v = 0; v < ns; v++) last[v] = -1;
    for (int e = 0; e < cm->p.neqs; e++) {
      if (!ing[e]) continue;
      r->ninc = 0;
      st_expr_unknowns(cm, cm->p.eqs[e].lhs, collect, r);
      st_expr_unknowns(cm, cm->p.eqs[e].rhs, collect, r);
      if (r->failed) break;
      for (int i = 0; i < r->ninc; i++) {
        int v = r->inc[i];
        if (last[v] == e) continue;
        last[v] = e;
        if (pass) li->list[li->off[v + 1]++] = e;
        else li->off[v + 2]++;
      }
    }
    if (pass == 0) { /* off[v + 1] becomes v's start, advanced by the fill to v's end */
      for (int v = 0; v < ns; v++) li->off[v + 2] += li->off[v + 1];
      li->list = malloc(sizeof(int) * (size_t)(li->off[ns + 1] + 1));
      if (!li->list) break;
    }
  }
  free(last);
  return li->list && !r->failed ? 0 : -1;
}

/* Matches the equations of g to candidates, taking candidates in preference order. */
static int pick_augment(ir *r, int v, const level_inc *li, int *eq_match, int *stamp) {
  for (int i = li->off[v]; i < li->off[v + 1]; i++) {
    int e = li->list[i];
    if (r->ecolour[e] == *stamp) continue;
    r->ecolour[e] = *stamp;
    if (eq_match[e] < 0 || pick_augment(r, eq_match[e], li, eq_match, stamp)) {
      eq_match[e] = v;
      return 1;
    }
  }
  return 0;
}

/* ---- numeric check of the choice ---------------------------------------------------------- */

/* The choice above is structural: a set of dummies can match the equations one to one and
 * still leave them singular, when constant coefficients cancel. A star point's currents sum
 * to zero and a space-phasor transform's zero-sequence current is their sum over m: the
 * differentiated equations then fix der(i0) = 0 whatever else is chosen, so der(i0) must be a
 * dummy, but its stateSelect = prefer ranked it last and the structural matching made the
 * rotor angle a dummy instead (MSL Machines: singular space-phasor systems at the first
 * step, Newton failing at initialization). The picks are therefore redone per connected
 * group of equations by a greedy over the Jacobian columns in the same order, each taken
 * when it raises the rank: coefficients that are numbers or parameter expressions take
 * their values, the nonlinear ones first 0 (dummies regular through constant coefficients
 * follow from the states wherever the nonlinear terms go: a mass on a damper keeps its
 * relative position r, not the length s = |r| that made r[2] = sqrt(s^2 - r[1]^2)), then,
 * where that leaves the group rank deficient, their values at the start point (startpoint.c:
 * a made-up value kept sets singular where the run starts, a Cartesian pendulum's x at the
 * horizontal), with the picks the constant coefficients made independent first; where the
 * start point has no value for an entry or leaves the group rank deficient, a made-up generic
 * value. Where even all candidates leave a group rank deficient (the values at hand make it
 * singular) the structural picks stay. */

/* A made-up coefficient for a nonlinear entry, reproducible per (equation, slot). */
static double generic_value(int e, int s) {
  unsigned long long h = (unsigned long long)e * 0x9E3779B97F4A7C15ULL ^ (unsigned long long)s * 0xC2B2AE3D27D4EB4FULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  return 0.5 + (double)(h % 1000003) / 1000003.0;
}

/* Largest dynamic state set (set_cut): free candidates and kept rows. A body's quaternion
 * has 4 and 1. Each state of a set is a sum over the free candidates, and the kept rows'
 * Jacobian is eliminated densely at every indicator evaluation: a machine's currents in MSL
 * ActuatorWithNoise, decided by the start point but regular throughout, cut to 15 and 158
 * and made that run crawl. Larger sets stay static. */
enum { DYN_MAX_CAND = 8, DYN_MAX_ROWS = 32 };

/* Largest group checked numerically (a dense basis of n x n). */
enum { RANK_MAX_GROUP = 400 };

typedef struct rank_basis {
  int n, rank;
  double *vec; /* rank vectors of n, each 1 at its pivot and 0 at earlier vectors' pivots */
  int *pivot;
} rank_basis;

/* Adds v (length n, overwritten) when it is independent of the basis; 1 when added. */
static int rank_add(rank_basis *b, double *v) {
  double scale = 0;
  for (int i = 0; i < b->n; i++) if (fabs(v[i]) > scale) scale = fabs(v[i]);
  if (scale == 0) return 0;
  for (int k = 0; k < b->rank; k++) {
    const double *bk = b->vec + (size_t)k * b->n;
    double f = v[b->pivot[k]];
    if (f != 0)
      for (int i = 0; i < b->n; i++) v[i] -= f * bk[i];
  }
  int p = -1;
  double best = 1e-9 * scale;
  for (int i = 0; i < b->n; i++) if (fabs(v[i]) > best) { best = fabs(v[i]); p = i; }
  if (p < 0) return 0;
  double *nv = b->vec + (size_t)b->rank * b->n, piv = v[p];
  for (int i = 0; i < b->n; i++) nv[i] = v[i] / piv;
  for (int k = 0; k < b->rank; k++) { /* keep earlier vectors 0 at the new pivot */
    double *bk = b->vec + (size_t)k * b->n, f = bk[p];
    if (f != 0)
      for (int i = 0; i < b->n; i++) bk[i] -= f * nv[i];
  }
  b->pivot[b->rank++] = p;
  return 1;
}

/* How the nonlinear coefficients count in a pass of the check. */
typedef enum coef_mode { COEF_ZERO, COEF_AT_START, COEF_MADE_UP } coef_mode;

/* The entry of equation e's Jacobian column for slot s; 0 with *v, -1 when the start point
 * gives it no value (that pass fails). */
static int jacobian_entry(ir *r, int e, int s, coef_mode mode, double *v) {
  const st_compiled *cm = r->cm;
  double a = 0, b = 0;
  int ra = st_sym_coefficient(cm, cm->p.eqs[e].lhs, s, &a), rb = st_sym_coefficient(cm, cm->p.eqs[e].rhs, s, &b);
  if (ra != ST_COEF_GENERIC && rb != ST_COEF_GENERIC) *v = (ra ? a : 0) - (rb ? b : 0);
  else if (mode == COEF_ZERO) *v = 0;
  else if (mode == COEF_MADE_UP) *v = generic_value(e, s);
  else return st_start_point_entry(r->sp, e, s, v);
  return 0;
}

/* Redoes the picks of one group: its n equations (local[e] their index), its candidates gc[0..nc) in
 * preference order (slots; higher derivatives before lower ones), within one derivative order
 * those with first[i] set (first may be NULL) before the others.
 * Sets pick[i] for the candidates taken and returns 1 when they make the group's Jacobian
 * nonsingular, else 0 (pick holds those that raised the rank). prow (may be NULL) gets the
 * pivot row of each candidate taken: the rows of the picks, one each, whose submatrix is
 * regular. */
static int pick_group(ir *r, const level_inc *li, int n, const int *local, const int *gc, int nc,
                      const unsigned char *first, unsigned char *pick, int *prow, coef_mode mode) {
  rank_basis b = {n, 0, malloc(sizeof(double) * ((size_t)n * (size_t)n + 1)),
                  malloc(sizeof(int) * ((size_t)n + 1))};
  double *v = malloc(sizeof(double) * ((size_t)n + 1));
  int ok = 0, unknown = 0;
  if (b.vec && b.pivot && v) {
    memset(pick, 0, (size_t)nc);
    for (int i0 = 0, i1; i0 < nc; i0 = i1) { /* per derivative order, highest first */
      int root, order = order_of(r, gc[i0], &root);
      for (i1 = i0 + 1; i1 < nc && order_of(r, gc[i1], &root) == order; i1++) {}
      for (int sweep = first ? 0 : 1; sweep < 2; sweep++)
        for (int i = i0; i < i1 && b.rank < n && !unknown; i++) {
          if (first && (first[i] != 0) != (sweep == 0)) continue;
          int s = gc[i];
          memset(v, 0, sizeof(double) * (size_t)n);
          for (int k = li->off[s]; k < li->off[s + 1] && !unknown; k++)
            unknown = jacobian_entry(r, li->list[k], s, mode, &v[local[li->list[k]]]) != 0;
          pick[i] = !unknown && rank_add(&b, v);
          if (pick[i] && prow) prow[i] = b.pivot[b.rank - 1];
        }
    }
    ok = !unknown && b.rank == n;
  }
  free(b.vec);
  free(b.pivot);
  free(v);
  return ok;
}

/* The picks with the nonlinear coefficients at the start point (startpoint.c, made once):
 * those the constant coefficients alone make independent (the pass before, its partial picks
 * in pick) first, as they stay regular wherever the run goes; then the others in preference
 * order, by their values at the start. */
static int start_point_picks(ir *r, const level_inc *li, int n, const int *local, const int *gc,
                             int nc, unsigned char *pick) {
  if (!r->sp && !r->sp_failed && !(r->sp = st_start_point_new(r->cm))) r->sp_failed = 1;
  unsigned char *first = r->sp ? malloc((size_t)nc + 1) : NULL;
  if (!first) return 0;
  memcpy(first, pick, (size_t)nc);
  int ok = pick_group(r, li, n, local, gc, nc, first, pick, NULL, COEF_AT_START);
  free(first);
  return ok;
}

/* Preference class of a candidate at run time (exec/dynset.c): order, stateSelect tier and
 * der() as written, the leading fields of dummy_score; the pivots decide within a class. */
static int tier_of(const ir *r, int s) {
  return (int)((dummy_score(r, s) >> 28) / 16 / 2 / 5 / 5); /* without depth, fixed, ss */
}

/* What a dynamic set is really a choice among. The constant-coefficient pass took some
 * candidates P with pivot rows I1 (J[I1, P] regular whatever the run does); the other rows
 * I2 are what the nonlinear coefficients decide. Rows and P columns are followed from I2: a
 * P column in a kept row is kept (fixed), and so is its pivot row. The kept rows then have
 * no entry in a P column left out (Pn, pivot rows I1n), so J is block triangular
 * and det J[:, P + D] = det J[I1n, Pn] det J[kept, Pk + D] for a choice D among the other
 * candidates: the first factor does not depend on D. The choice is among the candidates in
 * the kept rows (free), how regular it is measured on the kept rows with the fixed columns
 * eliminated first (the Schur complement); P are dummies and the other candidates, found in
 * rows left out only, states whatever is chosen. A body's quaternion: the orientation matrix
 * and every position and velocity a frame derives from it are P (coefficient 1 in their own
 * equations), the unit-norm constraint the one row of I2, the quaternion's four components
 * the free candidates (Mattsson, Olsson and Elmqvist 2000 reduce a set in the same way to
 * the variables the constraint does not give explicitly). */
typedef struct set_cut {
  int neq, n2;      /* kept rows (local indices in row[]), of which n2 from I2 */
  int nfix, nfree;  /* kept candidates (indices into the group's), fixed and free */
  int *row, *fix, *free;
} set_cut;

static void cut_free(set_cut *c) {
  free(c->row);
  free(c->fix);
  free(c->free);
}

/* Fills c from the group (n rows, m candidates gc in order, cpick/prow the constant pass's
 * picks and pivot rows); -1 when out of memory. */
static int cut_set(const level_inc *li, int n, const int *local, const int *gc, int m,
                   const unsigned char *cpick, const int *prow, set_cut *c) {
  *c = (set_cut){0};
  int *off = calloc((size_t)n + 2, sizeof(int)), *rc = NULL, *rowpick = malloc(sizeof(int) * ((size_t)n + 1));
  unsigned char *keep = calloc((size_t)n + 1, 1), *kcol = calloc((size_t)m + 1, 1);
  c->row = malloc(sizeof(int) * ((size_t)n + 1));
  c->fix = malloc(sizeof(int) * ((size_t)m + 1));
  c->free = malloc(sizeof(int) * ((size_t)m + 1));
  int rcode = -1;
  if (!off || !rowpick || !keep || !kcol || !c->row || !c->fix || !c->free) goto out;
  for (int i = 0; i < m; i++) /* the candidates of each row (CSR), from the columns' rows */
    for (int k = li->off[gc[i]]; k < li->off[gc[i] + 1]; k++) off[local[li->list[k]] + 2]++;
  for (int e = 0; e < n; e++) off[e + 2] += off[e + 1];
  if (!(rc = malloc(sizeof(int) * ((size_t)off[n + 1] + 1)))) goto out;
  for (int i = 0; i < m; i++)
    for (int k = li->off[gc[i]]; k < li->off[gc[i] + 1]; k++) rc[off[local[li->list[k]] + 1]++] = i;
  for (int e = 0; e < n; e++) rowpick[e] = -1;
  for (int i = 0; i < m; i++)
    if (cpick[i]) rowpick[prow[i]] = i;
  for (int e = 0; e < n; e++) /* I2, the start of the search (row[] its queue) */
    if (rowpick[e] < 0) { keep[e] = 1; c->row[c->neq++] = e; }
  c->n2 = c->neq;
  for (int q = 0; q < c->neq; q++)
    for (int k = off[c->row[q]]; k < off[c->row[q] + 1]; k++) {
      int i = rc[k];
      if (!cpick[i] || kcol[i]) continue;
      kcol[i] = 1;
      if (!keep[prow[i]]) { keep[prow[i]] = 1; c->row[c->neq++] = prow[i]; }
    }
  memset(kcol, 0, (size_t)m);
  for (int q = 0; q < c->neq; q++)
    for (int k = off[c->row[q]]; k < off[c->row[q] + 1]; k++) kcol[rc[k]] = 1;
  for (int i = 0; i < m; i++)
    if (kcol[i]) {
      if (cpick[i]) c->fix[c->nfix++] = i;
      else c->free[c->nfree++] = i;
    }
  rcode = 0;
out:
  free(off); free(rc); free(rowpick); free(keep); free(kcol);
  return rcode;
}

/* A group whose choice the start point made (nonlinear coefficients), cut to the candidates
 * the choice is among: kept as a dynamic state set, its free candidates dummies, the states to
 * be made by make_sets. gpick: the start point's picks (the initial selection). */
static int record_set(ir *r, const int *geq, const set_cut *cut, const int *gc,
                      const unsigned char *gpick) {
  st_compiled *cm = r->cm;
  st_arena *A = cm->p.arena;
  st_dynset *d = st_arena_alloc(A, sizeof *d * (size_t)(cm->p.ndyn + 1));
  if (!d) return -1;
  if (cm->p.ndyn) memcpy(d, cm->p.dyn, sizeof *d * (size_t)cm->p.ndyn);
  st_dynset *ds = &d[cm->p.ndyn];
  int n = cut->neq, m = cut->nfree, ncol = m + cut->nfix;
  *ds = (st_dynset){.neq = n, .ncand = m, .nfix = cut->nfix, .nstate = m - cut->n2};
  ds->resid = st_arena_alloc(A, sizeof(st_fexpr *) * (size_t)n + 1);
  ds->cand = st_arena_alloc(A, sizeof(int) * (size_t)ncol + 1);
  ds->var = st_arena_alloc(A, sizeof(int) * (size_t)m + 1);
  ds->tier = st_arena_alloc(A, sizeof(int) * (size_t)m + 1);
  ds->init_sel = st_arena_alloc(A, sizeof(int) * (size_t)m + 1);
  if (!ds->resid || !ds->cand || !ds->var || !ds->tier || !ds->init_sel) return -1;
  for (int i = 0; i < n; i++) {
    const st_ceq *q = &cm->p.eqs[geq[cut->row[i]]];
    if (!(ds->resid[i] = st_sym_bin(A, FOP_SUB, q->lhs, q->rhs))) return -1;
  }
  int j = 0;
  for (int i = 0; i < m; i++) {
    int c = cut->free[i];
    ds->cand[i] = gc[c];
    ds->var[i] = r->integral[gc[c]];
    ds->tier[i] = tier_of(r, gc[c]);
    if (!gpick[c] && j < ds->nstate) ds->init_sel[j++] = i;
  }
  for (int i = 0; i < m && j < ds->nstate; i++) /* the start point took a fixed one's place */
    if (gpick[cut->free[i]]) ds->init_sel[j++] = i;
  for (int i = 0; i < cut->nfix; i++) ds->cand[m + i] = gc[cut->fix[i]];
  cm->p.dyn = d;
  cm->p.ndyn++;
  return 0;
}

/* The states of the sets recorded in this reduction (from first on): per set nstate new
 * variables s[j] with der(s[j]), the selection A in K_WHEN slots and the equations
 * s[j] = sum_i A[j][i] var[i], der(s[j]) = sum_i A[j][i] cand[i]. */
static int new_slot(ir *r, const char *name, st_kind kind) {
  if (grow_slots(r)) return -1;
  st_compiled *cm = r->cm;
  int s = cm->p.nslots++;
  cm->p.slots[s] = (st_slot){.name = name, .kind = kind, .flat = -1, .state = -1, .der = -1,
                             .alias_of = -1, .alias_sign = 1, .loc = cm->p.flat->loc};
  r->integral[s] = -1;
  r->assign[s] = -1;
  r->vcolour[s] = 0;
  r->dummy[s] = 0;
  return s;
}

static int new_eq(ir *r, st_fexpr *lhs, st_fexpr *rhs) {
  st_compiled *cm = r->cm;
  if (!lhs || !rhs || grow_eqs(r)) return -1;
  int e = cm->p.neqs++;
  cm->p.eqs[e] = (st_ceq){.lhs = lhs, .rhs = rhs, .target = -1, .loc = cm->p.flat->loc,
                          .origin = "dynamic state selection"};
  r->diff[e] = r->pred[e] = -1;
  r->level[e] = 0;
  r->ecolour[e] = 0;
  return 0;
}

static st_fexpr *selection_sum(ir *r, const st_dynset *ds, int j, const int *slots) {
  st_arena *A = r->cm->p.arena;
  st_fexpr *sum = NULL;
  for (int i = 0; i < ds->ncand; i++) {
    st_fexpr *t = st_sym_bin(A, FOP_MUL, ref(A, ds->a[j * ds->ncand + i]), ref(A, slots[i]));
    sum = sum ? st_sym_bin(A, FOP_ADD, sum, t) : t;
    if (!sum) return NULL;
  }
  return sum;
}

static int make_sets(ir *r, int first) {
  st_compiled *cm = r->cm;
  st_arena *A = cm->p.arena;
  for (int k = first; k < cm->p.ndyn; k++) {
    st_dynset *ds = &cm->p.dyn[k];
    ds->state = st_arena_alloc(A, sizeof(int) * (size_t)ds->nstate + 1);
    ds->a = st_arena_alloc(A, sizeof(int) * (size_t)(ds->nstate * ds->ncand) + 1);
    if (!ds->state || !ds->a) return -1;
    for (int j = 0; j < ds->nstate; j++) {
      const char *nm = st_arena_printf(A, "$stateSet%d.x[%d]", k + 1, j + 1);
      if (!nm || (ds->state[j] = new_slot(r, nm, K_ALG)) < 0 || der_slot(r, ds->state[j]) < 0)
        return -1;
      for (int i = 0; i < ds->ncand; i++) {
        const char *an = st_arena_printf(A, "$stateSet%d.A[%d,%d]", k + 1, j + 1, i + 1);
        if (!an || (ds->a[j * ds->ncand + i] = new_slot(r, an, K_WHEN)) < 0) return -1;
      }
    }
    for (int j = 0; j < ds->nstate; j++) {
      int s = ds->state[j];
      if (new_eq(r, ref(A, s), selection_sum(r, ds, j, ds->var)) ||
          new_eq(r, ref(A, cm->p.slots[s].der), selection_sum(r, ds, j, ds->cand)))
        return -1;
    }
  }
  return 0;
}

/* Per group of equations linked by shared candidates (c[0..nc) in preference order), the
 * numeric picks replace the structural ones in pick[] where they exist. */
static int numeric_picks(ir *r, const unsigned char *ing, const level_inc *li, const cand *c,
                         int nc, unsigned char *pick) {
  int ne = r->cm->p.neqs;
  int *parent = malloc(sizeof(int) * ((size_t)ne + 1)), *local = malloc(sizeof(int) * ((size_t)ne + 1));
  int *geq = malloc(sizeof(int) * ((size_t)ne + 1)), *gc = malloc(sizeof(int) * ((size_t)nc + 1));
  int *gi = malloc(sizeof(int) * ((size_t)nc + 1));
  unsigned char *gpick = malloc((size_t)nc + 1), *done = calloc((size_t)ne + 1, 1);
  unsigned char *cpick = malloc((size_t)nc + 1);
  int *prow = malloc(sizeof(int) * ((size_t)nc + 1));
  int rc = -1;
  if (!parent || !local || !geq || !gc || !gi || !gpick || !done || !cpick || !prow) goto out;
  for (int e = 0; e < ne; e++) parent[e] = e;
  for (int i = 0; i < nc; i++) {
    int s = c[i].slot;
    for (int k = li->off[s] + 1; k < li->off[s + 1]; k++)
      parent[uf_find(parent, li->list[k])] = uf_find(parent, li->list[li->off[s]]);
  }
  for (int e0 = 0; e0 < ne; e0++) {
    int root = uf_find(parent, e0), n = 0, m = 0;
    if (!ing[e0] || done[root]) continue;
    done[root] = 1;
    for (int e = e0; e < ne; e++)
      if (ing[e] && uf_find(parent, e) == root) { local[e] = n; geq[n++] = e; }
    if (n > RANK_MAX_GROUP) continue;
    for (int i = 0; i < nc; i++) {
      int s = c[i].slot;
      if (li->off[s] < li->off[s + 1] && uf_find(parent, li->list[li->off[s]]) == root) {
        gi[m] = i;
        gc[m++] = s;
      }
    }
    set_cut cut = {0};
    int dynamic = 0;
    if (!pick_group(r, li, n, local, gc, m, NULL, gpick, prow, COEF_ZERO)) {
      memcpy(cpick, gpick, (size_t)m);
      if (start_point_picks(r, li, n, local, gc, m, gpick)) {
        if (cut_set(li, n, local, gc, m, cpick, prow, &cut)) { cut_free(&cut); goto out; }
        dynamic = cut.nfree > cut.n2 && cut.nfree <= DYN_MAX_CAND && cut.neq <= DYN_MAX_ROWS;
      } else if (!pick_group(r, li, n, local, gc, m, NULL, gpick, NULL, COEF_MADE_UP)) continue;
    }
    if (dynamic) { /* the constant picks, and the free candidates, which the set's states stand for */
      if (record_set(r, geq, &cut, gc, gpick)) { cut_free(&cut); goto out; }
      memcpy(gpick, cpick, (size_t)m);
      for (int j = 0; j < cut.nfree; j++) gpick[cut.free[j]] = 1;
    }
    cut_free(&cut);
    for (int j = 0; j < m; j++) pick[gi[j]] = gpick[j];
  }
  rc = 0;
out:
  free(parent); free(local); free(geq); free(gc); free(gi); free(gpick); free(done);
  free(cpick); free(prow);
  return rc;
}

static int select_level(ir *r, const unsigned char *ing, int ng, const unsigned char *inz) {
  st_compiled *cm = r->cm;
  cand *c = malloc(sizeof *c * (size_t)(cm->p.nslots + 1));
  int *eq_match = malloc(sizeof(int) * (size_t)(cm->p.neqs + 1));
  level_inc li;
  int bad = level_incidence(r, ing, &li);
  if (!c || !eq_match || bad) {
    free(c);
    free(eq_match);
    free(li.off);
    free(li.list);
    return -1;
  }
  int nc = 0, got = 0, stamp = 0;
  for (int s = 0; s < cm->p.nslots; s++)
    if (inz[s]) c[nc++] = (cand){s, dummy_score(r, s)};
  qsort(c, (size_t)nc, sizeof *c, by_score);
  for (int e = 0; e < cm->p.neqs; e++) { eq_match[e] = -1; r->ecolour[e] = 0; }
  for (int i = 0; i < nc && got < ng; i++) {
    stamp++;
    if (pick_augment(r, c[i].slot, &li, eq_match, &stamp)) got++;
  }
  /* the structural picks, then the numeric check's where it has them */
  unsigned char *pick = calloc((size_t)nc + 1, 1), *matched = calloc((size_t)cm->p.nslots + 1, 1);
  if (!pick || !matched) got = -1;
  for (int e = 0; matched && e < cm->p.neqs; e++)
    if (ing[e] && eq_match[e] >= 0) matched[eq_match[e]] = 1;
  for (int i = 0; pick && matched && i < nc; i++) pick[i] = matched[c[i].slot];
  if (got == ng && numeric_picks(r, ing, &li, c, nc, pick)) got = -1;
  for (int i = 0; pick && i < nc; i++)
    if (pick[i]) r->dummy[c[i].slot] = 1;
  free(pick);
  free(matched);
  free(c);
  free(eq_match);
  free(li.off);
  free(li.list);
  return got == ng ? 0 : -1;
}

static int dummy_derivatives(ir *r) {
  st_compiled *cm = r->cm;
  unsigned char *ing = calloc((size_t)cm->p.neqs + 1, 1), *inz = calloc((size_t)cm->p.nslots + 1, 1);
  unsigned char *next = calloc((size_t)cm->p.neqs + 1, 1);
  int rc = (ing && inz && next && !effective_ss(r)) ? 0 : -1, ng = 0;
  for (int e = 0; !rc && e < cm->p.neqs; e++)
    if (r->level[e] >= 1 && r->diff[e] < 0) {
      ing[e] = 1;
      ng++;
      r->ninc = 0;
      st_expr_unknowns(cm, cm->p.eqs[e].lhs, collect, r);
      st_expr_unknowns(cm, cm->p.eqs[e].rhs, collect, r);
      for (int i = 0; i < r->ninc; i++)
        if (continuous(cm, r->inc[i]) && cm->p.slots[r->inc[i]].der < 0) inz[r->inc[i]] = 1;
    }
  while (!rc && ng > 0) {
    rc = select_level(r, ing, ng, inz);
    int nn = 0;
    memset(next, 0, (size_t)cm->p.neqs);
    for (int e = 0; e < cm->p.neqs; e++)
      if (ing[e] && r->pred[e] >= 0 && r->level[r->pred[e]] >= 1) { next[r->pred[e]] = 1; nn++; }
    memset(inz, 0, (size_t)cm->p.nslots);
    for (int s = 0; s < cm->p.nslots; s++)
      if (r->dummy[s] && r->integral[s] >= 0) inz[r->integral[s]] = 1;
    for (int s = 0; s < cm->p.nslots; s++)
      if (inz[s] && r->dummy[s]) inz[s] = 0;
    memcpy(ing, next, (size_t)cm->p.neqs);
    ng = nn;
  }
  free(ing);
  free(inz);
  free(next);
  return rc;
}

/* New kinds: a continuous slot is a state when it has a derivative that is not a dummy. */
static int reclassify(ir *r) {
  st_compiled *cm = r->cm;
  int *ss = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)cm->p.nslots + 1);
  if (!ss) return -1;
  int ns = 0;
  for (int s = 0; s < cm->p.nslots; s++) {
    if (!continuous(cm, s)) continue;
    int was_der = cm->p.slots[s].kind == K_DER;
    cm->p.slots[s].state = -1;
    cm->p.slots[s].kind = was_der ? K_DER : K_ALG;
    if (cm->p.slots[s].der >= 0 && !r->dummy[cm->p.slots[s].der]) {
      cm->p.slots[s].kind = K_STATE;
      ss[ns] = s;
      cm->p.slots[s].state = ns++;
    }
  }
  for (int i = 0; i < ns; i++) {
    int d = cm->p.slots[ss[i]].der;
    cm->p.slots[d].kind = K_DER;
    cm->p.slots[d].state = i;
  }
  for (int s = 0; s < cm->p.nslots; s++)
    if (cm->p.slots[s].kind == K_DER && cm->p.slots[s].state < 0) cm->p.slots[s].kind = K_ALG;
  cm->p.state_slot = ss;
  cm->p.nstates = ns;
  return 0;
}

static int setup(ir *r, st_compiled *cm) {
  r->cm = cm;
  r->capslots = cm->p.nslots;
  r->capeqs = cm->p.neqs;
  int ns = cm->p.nslots + 1, ne = cm->p.neqs + 1;
  r->integral = malloc(sizeof(int) * (size_t)ns);
  r->assign = malloc(sizeof(int) * (size_t)ns);
  r->vcolour = calloc((size_t)ns, sizeof(int));
  r->dummy = calloc((size_t)ns, 1);
  r->diff = malloc(sizeof(int) * (size_t)ne);
  r->pred = malloc(sizeof(int) * (size_t)ne);
  r->level = calloc((size_t)ne, sizeof(int));
  r->ecolour = calloc((size_t)ne, sizeof(int));
  if (!r->integral || !r->assign || !r->vcolour || !r->dummy || !r->diff || !r->pred ||
      !r->level || !r->ecolour)
    return -1;
  for (int s = 0; s < cm->p.nslots; s++) { r->integral[s] = -1; r->assign[s] = -1; }
  for (int s = 0; s < cm->p.nslots; s++)
    if (cm->p.slots[s].kind == K_STATE) r->integral[cm->p.slots[s].der] = s;
  for (int e = 0; e < cm->p.neqs; e++) { r->diff[e] = -1; r->pred[e] = -1; }
  return 0;
}

static void teardown(ir *r) {
  free(r->integral); free(r->assign); free(r->vcolour); free(r->dummy);
  free(r->diff); free(r->pred); free(r->level); free(r->ecolour); free(r->inc); free(r->ss);
  free(r->vvisit); free(r->evisit);
  st_start_point_free(r->sp);
}

/* Index reduction (and alias elimination before it) only makes sense for a square system;
 * the structural analysis reports the others with the equations and variables involved. */
int st_system_is_square(const st_compiled *cm) {
  int nunk = 0;
  for (int s = 0; s < cm->p.nslots; s++) {
    st_kind k = cm->p.slots[s].kind;
    nunk += k == K_DER || k == K_ALG || k == K_DISCRETE;
  }
  return nunk == cm->p.neqs;
}

/* prefer and always ask for a state even where der() does not occur (Modelica 3.6 section
 * 4.9.7.1; the v_rel of a compliant element whose only equation is v_rel = der(s_rel), a
 * vessel's p and T beside its mass and energy). Such a variable is taken as differentiated
 * before Pantelides: der(v) replaces v among the unknowns (the system stays square), the
 * equations that tie v to the states become a singular subset and are differentiated, and
 * the dummy derivatives choose among v and those states by their ranking (prefer and always
 * first). Where nothing ties v to a state its derivative becomes a dummy and v stays
 * algebraic. Returns how many variables were taken, -1 when out of memory. */
static int preferred_unwritten(const st_compiled *cm, int s) {
  return cm->p.slots[s].kind == K_ALG && cm->p.slots[s].der < 0 &&
         cm->p.flat->vars[s].state_select >= ST_SS_PREFER;
}

static int promote_preferred(ir *r) {
  int n = 0;
  for (int s = 0; s < r->cm->p.flat->nvars; s++) {
    if (!preferred_unwritten(r->cm, s)) continue;
    if (der_slot(r, s) < 0) return -1;
    n++;
  }
  return n;
}

static int has_preferred(const st_compiled *cm) {
  for (int s = 0; s < cm->p.flat->nvars; s++)
    if (preferred_unwritten(cm, s)) return 1;
  return 0;
}

/* One index reduction; promote: with the prefer/always variables above taken as
 * differentiated. */
static int reduce_once(st_compiled *cm, int promote) {
  ir r = {0};
  int rc = setup(&r, cm);
  if (!rc && promote && promote_preferred(&r) < 0) rc = -1;
  int did = rc ? -1 : pantelides(&r);
  int ndyn0 = cm->p.ndyn;
  if (did < 0 && st_diag_errors(cm->diag)) rc = -1;
  else if (did > 0)
    rc = (dummy_derivatives(&r) || make_sets(&r, ndyn0) || reclassify(&r)) ? -1 : 0;
  else if (did < 0 && promote) rc = -1; /* the singularity may be the promotion's */
  if (rc && !st_diag_errors(cm->diag))
    st_error(cm->diag, cm->p.flat->loc, "index reduction failed: no consistent choice of "
             "dummy derivatives");
  teardown(&r);
  return rc;
}

int st_index_save(const st_compiled *cm, st_index_saved *sv) {
  *sv = (st_index_saved){cm->p.nslots, cm->p.neqs, cm->p.nstates, cm->p.n_differentiated,
                         cm->p.ndyn, cm->p.state_slot, malloc(sizeof(st_slot) * ((size_t)cm->p.nslots + 1)),
                         malloc(sizeof(st_ceq) * ((size_t)cm->p.neqs + 1))};
  if (!sv->slots || !sv->eqs) return -1;
  memcpy(sv->slots, cm->p.slots, sizeof(st_slot) * (size_t)sv->nslots);
  if (sv->neqs) memcpy(sv->eqs, cm->p.eqs, sizeof(st_ceq) * (size_t)sv->neqs);
  return 0;
}

/* Into the arrays as they are now (an index reduction only grows them). */
void st_index_restore(st_compiled *cm, const st_index_saved *sv) {
  memcpy(cm->p.slots, sv->slots, sizeof(st_slot) * (size_t)sv->nslots);
  if (sv->neqs) memcpy(cm->p.eqs, sv->eqs, sizeof(st_ceq) * (size_t)sv->neqs);
  cm->p.nslots = sv->nslots;
  cm->p.neqs = sv->neqs;
  cm->p.nstates = sv->nstates;
  cm->p.state_slot = sv->state_slot;
  cm->p.n_differentiated = sv->n_differentiated;
  cm->p.ndyn = sv->ndyn; /* the sets recorded since (arena memory, not yet emitted) */
}

void st_index_saved_free(st_index_saved *sv) {
  free(sv->slots);
  free(sv->eqs);
}

/* With the promotion first, quietly; where that fails (an equation it would differentiate
 * cannot be: an impure call) the model as written, whose errors are the ones reported. */
int st_index_reduce(st_compiled *cm) {
  if (!st_system_is_square(cm)) return 0;
  if (!has_preferred(cm)) return reduce_once(cm, 0);
  st_index_saved sv;
  st_diag *quiet = st_diag_new(NULL), *loud = cm->diag;
  int rc = -1;
  if (!st_index_save(cm, &sv) && quiet) {
    cm->diag = quiet;
    rc = reduce_once(cm, 1);
    cm->diag = loud;
    if (rc == -1) st_index_restore(cm, &sv);
  }
  if (rc == -1) rc = reduce_once(cm, 0);
  st_index_saved_free(&sv);
  if (quiet) st_diag_free(quiet);
  return rc;
}

/* stateSelect (Modelica 3.6 section 4.9.7.1) is honoured as a preference where there is a
 * choice, among the candidates of the dummy derivatives (dummy_score). What the choice could
 * not honour is said at the declaration: a `never` variable that had to stay a state, and an
 * `always` variable that is not one -- its derivative became a dummy (more such variables
 * than the constraints leave states, or nothing ties it to a state), or its der() does not
 * occur (the equations that tie it to the states could not be differentiated).
 * Called after alias elimination: an `always` variable equal to a state is that state. */
void st_report_state_select(st_compiled *cm) {
  for (int s = 0; s < cm->p.flat->nvars; s++) {
    const st_fvar *v = &cm->p.flat->vars[s];
    const st_slot *sl = &cm->p.slots[s];
    int state = sl->kind == K_STATE;
    if (v->state_select == ST_SS_NEVER && state)
      st_warning(cm->diag, v->loc, "'%s' has stateSelect = StateSelect.never but is a state: "
                 "no other variable could be chosen", v->name);
    else if (v->state_select == ST_SS_ALWAYS && !state &&
             !(sl->kind == K_ALIAS && cm->p.slots[sl->alias_of].kind == K_STATE))
      st_warning(cm->diag, v->loc, "'%s' has stateSelect = StateSelect.always but is not a "
                 "state: %s", v->name, cm->p.slots[s].der >= 0
                 ? "its derivative had to become a dummy derivative"
                 : "the equations that tie it to the states could not be differentiated");
  }
}
