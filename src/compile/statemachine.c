/* Clocked state machines (Modelica 3.6 chapter 17), lowered to clocked equations before the
 * clock lowering (clocks.c), following the semantics of section 17.3.4:
 *
 *   selected = previous(active)                (the initial state, 1, before the first tick)
 *   fires_i  = selected == from_i and (immediate_i ? c_i : previous(d_i))
 *   d_i      = active == from_i and c_i        (delayed transitions: taken at the next tick)
 *   active   = if firstTick() then 1 elseif fires_1 then to_1 elseif ... else selected
 *   reset    = firstTick() or the reset of the transition that fired
 *
 * with the transitions in priority order (at most one fires per tick). A state is an
 * instance; its equations (v = expr, in the instance or its components) hold when it is
 * active, and every variable they assign keeps its previous value otherwise:
 * v = if active == k1 then e1 elseif active == k2 then e2 else previous(v), so outer outputs
 * written by several states become one equation. In a state entered by a reset transition
 * (and at the first tick) previous() of the state's own variables is their start value.
 * ticksInState() counts the ticks since the active state was entered (1 at that tick; of
 * an inner machine only the ticks it runs), timeInState() the time since.
 *
 * A machine inside a state (hierarchy) runs only while that state is active: its
 * transitions fire only then, its active state is held otherwise, and it restarts in its
 * initial state (reset) when the enclosing state is entered by a reset transition or at the
 * first tick; a state of it is active when it is the machine's active state and the machine
 * runs. Variables may be assigned by states of nested machines of one hierarchy (the
 * states' activities exclude each other). Not yet: synchronize, equations other than
 * v = expr in states. */
#include <math.h>
#include <string.h>

#include "compile/model_impl.h"
#include "front/flat_expr.h"

typedef struct sm_transition {
  int from, to; /* state indices */
  const st_fexpr *cond;
  int immediate, reset, priority, delayed_var;
  st_loc loc;
} sm_transition;

typedef struct sm_state {
  const char *path;
  int machine, index; /* index within its machine, 1 = initial */
  st_loc loc;
} sm_state;

typedef struct sm_machine {
  int initial;                 /* state, -1 until initialState() */
  int parent;                  /* the state it lies in, -1 for a top-level machine */
  int active, reset, entered;  /* variables */
  int ticks, tenter;           /* variables, -1 until used */
  st_loc loc;
} sm_machine;

typedef struct smlow {
  st_compiled *cm;
  st_arena *a;
  const st_flat_model *f;
  sm_state *states;
  int nstates, capstates;
  sm_transition *tr;
  int ntr, captr;
  sm_machine *m;
  int nm;
  int *uf;
  st_fvar *vars;
  int nvars, capvars;
  st_feq_list eqs;
  int capeqs;
  int errors;
} smlow;


static int is_sm_call(const st_feq *q) {
  return q->kind == FE_CALL && q->rhs && q->rhs->kind == FX_BUILTIN &&
         (q->rhs->op == FB_TRANSITION || q->rhs->op == FB_INITIALSTATE);
}

static int uses_state_machines(const st_flat_model *f) {
  for (int i = 0; i < f->equations.n; i++)
    if (is_sm_call(f->equations.items[i])) return 1;
  return 0;
}

static int find_state(smlow *S, const char *path, st_loc loc) {
  for (int i = 0; i < S->nstates; i++)
    if (strcmp(S->states[i].path, path) == 0) return i;
  if (st_arena_grow(S->a, (void **)&S->states, &S->capstates, S->nstates, sizeof *S->states)) return -1;
  S->states[S->nstates] = (sm_state){path, -1, 0, loc};
  return S->nstates++;
}

/* Whether the instance path `o` lies in state path `s` (is it or one of its components). */
static int inside(const char *o, const char *s) {
  size_t n = strlen(s);
  return strncmp(o, s, n) == 0 && (o[n] == 0 || o[n] == '.' || o[n] == '[');
}

/* The state an instance path lies in, -1 for none (the innermost one). */
static int state_of(const smlow *S, const char *o) {
  int best = -1;
  for (int i = 0; i < S->nstates; i++)
    if (inside(o, S->states[i].path) &&
        (best < 0 || strlen(S->states[i].path) > strlen(S->states[best].path)))
      best = i;
  return best;
}

static int error(smlow *S, st_loc loc, const char *msg, const char *arg) {
  st_error(S->cm->diag, loc, msg, arg);
  S->errors++;
  return -1;
}

static st_fexpr *param_binding(void *ctx, int var) {
  const st_flat_model *f = ctx;
  return f->vars[var].variability <= ST_V_PARAMETER ? f->vars[var].binding : NULL;
}

static int param_int(smlow *S, const st_fexpr *e, int *out) {
  double v;
  if (st_fx_eval(e, param_binding, (void *)S->f, &v) == 0 && v == floor(v)) {
    *out = (int)v;
    return 0;
  }
  return error(S, e->loc, "%s: a transition's immediate, reset, synchronize and priority "
               "must be parameter expressions", "transition()");
}

static int collect(smlow *S) {
  const st_flat_model *f = S->f;
  for (int i = 0; i < f->equations.n; i++) {
    const st_feq *q = f->equations.items[i];
    if (!is_sm_call(q)) continue;
    const st_fexpr *c = q->rhs;
    int from = find_state(S, c->args[0]->str, q->loc);
    if (from < 0) return -1;
    if (c->op == FB_INITIALSTATE) continue;
    int to = find_state(S, c->args[1]->str, q->loc), sync;
    if (to < 0 || st_arena_grow(S->a, (void **)&S->tr, &S->captr, S->ntr, sizeof *S->tr)) return -1;
    sm_transition *t = &S->tr[S->ntr++];
    *t = (sm_transition){.from = from, .to = to, .cond = c->args[2], .delayed_var = -1,
                         .loc = q->loc};
    if (param_int(S, c->args[3], &t->immediate) || param_int(S, c->args[4], &t->reset) ||
        param_int(S, c->args[5], &sync) || param_int(S, c->args[6], &t->priority))
      return -1;
    if (sync) return error(S, q->loc, "%s: synchronize = true is not supported", "transition()");
    if (t->priority < 1) return error(S, q->loc, "%s: the priority must be at least 1",
                                      "transition()");
  }
  return 0;
}

static int find(int *uf, int i) {
  while (uf[i] != i) i = uf[i] = uf[uf[i]];
  return i;
}

static int new_var(smlow *S, const char *name, st_ftype type, st_fexpr *start, st_loc loc) {
  if (st_arena_grow(S->a, (void **)&S->vars, &S->capvars, S->nvars, sizeof *S->vars)) return -1;
  st_fvar_hidden(&S->vars[S->nvars], name, type, ST_V_DISCRETE, start, loc);
  return S->nvars++;
}

/* The innermost state of another machine that state s lies in, -1 for none. */
static int enclosing_state(const smlow *S, int s) {
  int best = -1;
  const char *p = S->states[s].path;
  for (int i = 0; i < S->nstates; i++)
    if (S->states[i].machine != S->states[s].machine && strlen(S->states[i].path) < strlen(p) &&
        inside(p, S->states[i].path) &&
        (best < 0 || strlen(S->states[i].path) > strlen(S->states[best].path)))
      best = i;
  return best;
}

/* The top-level machine of machine k's hierarchy. */
static int root_machine(const smlow *S, int k) {
  while (S->m[k].parent >= 0) k = S->states[S->m[k].parent].machine;
  return k;
}

/* Machines: the states connected by transitions, each with one initial state first. */
static int machines(smlow *S) {
  S->uf = st_arena_alloc(S->a, sizeof(int) * (size_t)S->nstates + 1);
  S->m = st_arena_alloc(S->a, sizeof *S->m * (size_t)S->nstates + 1);
  if (!S->uf || !S->m) return -1;
  for (int i = 0; i < S->nstates; i++) S->uf[i] = i;
  for (int k = 0; k < S->ntr; k++) {
    int a = find(S->uf, S->tr[k].from), b = find(S->uf, S->tr[k].to);
    if (a != b) S->uf[a > b ? a : b] = a < b ? a : b;
  }
  for (int i = 0; i < S->nstates; i++) {
    int r = find(S->uf, i);
    if (S->states[r].machine < 0) {
      S->states[r].machine = S->nm;
      S->m[S->nm++] = (sm_machine){.initial = -1, .parent = -1, .ticks = -1, .tenter = -1,
                                   .loc = S->states[r].loc};
    }
    S->states[i].machine = S->states[r].machine;
  }
  const st_flat_model *f = S->f;
  for (int i = 0; i < f->equations.n; i++) {
    const st_feq *q = f->equations.items[i];
    if (!is_sm_call(q) || q->rhs->op != FB_INITIALSTATE) continue;
    int s = find_state(S, q->rhs->args[0]->str, q->loc);
    sm_machine *m = &S->m[S->states[s].machine];
    if (m->initial >= 0)
      return error(S, q->loc, "%s: a second initial state of this state machine",
                   "initialState()");
    m->initial = s;
  }
  for (int k = 0; k < S->nm; k++) {
    sm_machine *m = &S->m[k];
    if (m->initial < 0)
      return error(S, m->loc, "%s: this state machine has no initialState()", "transition()");
    m->parent = enclosing_state(S, m->initial);
    int n = 1;
    S->states[m->initial].index = 1;
    for (int i = 0; i < S->nstates; i++)
      if (S->states[i].machine == k && i != m->initial) S->states[i].index = ++n;
    const char *id = st_arena_printf(S->a, "$stateMachine%d", k);
    m->active = new_var(S, st_arena_concat(S->a, id, ".activeState", ""), ST_T_INTEGER,
                        st_fx_real(S->a, 1, m->loc), m->loc);
    m->reset = new_var(S, st_arena_concat(S->a, id, ".activeReset", ""), ST_T_BOOLEAN,
                       st_fx_bool(S->a, 1, m->loc), m->loc);
    m->entered = new_var(S, st_arena_concat(S->a, id, ".entered", ""), ST_T_BOOLEAN,
                         st_fx_bool(S->a, 1, m->loc), m->loc);
    if (m->active < 0 || m->reset < 0 || m->entered < 0) return -1;
  }
  /* the same priority twice among the transitions leaving one state: no order */
  for (int i = 0; i < S->ntr; i++)
    for (int j = 0; j < i; j++)
      if (S->tr[i].from == S->tr[j].from && S->tr[i].priority == S->tr[j].priority)
        return error(S, S->tr[i].loc, "%s: two transitions leave this state with the same "
                     "priority", "transition()");
  return 0;
}

/* ------------------------------------------------------------------ expressions */

static st_fexpr *node(smlow *S, int op, int nargs, st_loc loc) {
  return st_fx_new(S->a, FX_BUILTIN, op, nargs, loc);
}

static st_fexpr *call1(smlow *S, int op, st_fexpr *x, st_loc loc) {
  st_fexpr *r = node(S, op, 1, loc);
  if (!r || !x) return NULL;
  r->args[0] = x;
  return r;
}

static st_fexpr *var(smlow *S, int v, st_loc loc) { return st_fx_var(S->a, v, loc); }

static st_fexpr *previous(smlow *S, int v, st_loc loc) {
  return call1(S, FB_PREVIOUS, var(S, v, loc), loc);
}

static st_fexpr *num(smlow *S, double x, st_loc loc) { return st_fx_real(S->a, x, loc); }

static st_fexpr *if_expr(smlow *S, st_fexpr *c, st_fexpr *a, st_fexpr *b, st_loc loc) {
  st_fexpr *r = st_fx_new(S->a, FX_IF, 0, 3, loc);
  if (!r || !c || !a || !b) return NULL;
  r->args[0] = c;
  r->args[1] = a;
  r->args[2] = b;
  return r;
}

static st_fexpr *is_active(smlow *S, int state, st_loc loc);

/* Whether machine k runs at this tick: NULL (always) for a top-level machine, else whether
 * the state it lies in is active. */
static st_fexpr *machine_runs(smlow *S, int k, st_loc loc) {
  return S->m[k].parent < 0 ? NULL : is_active(S, S->m[k].parent, loc);
}

static st_fexpr *is_active(smlow *S, int state, st_loc loc) {
  const sm_state *s = &S->states[state];
  st_fexpr *here = st_fx_binary(S->a, FOP_EQ, var(S, S->m[s->machine].active, loc),
                                num(S, s->index, loc), loc);
  st_fexpr *runs = machine_runs(S, s->machine, loc);
  return runs ? st_fx_binary(S->a, FOP_AND, runs, here, loc) : here;
}

static st_fexpr *first_tick(smlow *S, st_loc loc) { return node(S, FB_FIRSTTICK, 0, loc); }

/* Whether machine k restarts in its initial state at this tick: the first tick, and for a
 * nested machine the tick its state is entered by a reset transition. */
static st_fexpr *machine_restarts(smlow *S, int k, st_loc loc) {
  int p = S->m[k].parent;
  if (p < 0) return first_tick(S, loc);
  st_fexpr *entered = st_fx_binary(S->a, FOP_AND, var(S, S->m[S->states[p].machine].reset, loc),
                                   is_active(S, p, loc), loc);
  return st_fx_binary(S->a, FOP_OR, first_tick(S, loc), entered, loc);
}

static int add_eq(smlow *S, st_fexpr *lhs, st_fexpr *rhs, st_loc loc) {
  st_feq *q = lhs && rhs ? st_fx_equation(S->a, lhs, rhs, loc) : NULL;
  if (!q || st_arena_grow(S->a, (void **)&S->eqs.items, &S->capeqs, S->eqs.n,
                          sizeof *S->eqs.items))
    return -1;
  S->eqs.items[S->eqs.n++] = q;
  return 0;
}

/* The machine of the state an instance path lies in (ticksInState(), timeInState()). */
static sm_machine *machine_at(smlow *S, const char *path, const st_fexpr *e) {
  int s = state_of(S, path);
  if (s >= 0) return &S->m[S->states[s].machine];
  error(S, e->loc, "%s() outside a state", st_builtin_name(e->op));
  return NULL;
}

/* A variable of machine m set when a state is entered (to on_entry) and stepped otherwise
 * (previous + 1 when `count` and the machine runs, else held: a machine inside a state does
 * not tick while that state is inactive): ticksInState()'s count, timeInState()'s entry
 * time. *slot remembers it. */
static int entry_var(smlow *S, sm_machine *m, int *slot, const char *what, st_ftype type,
                     st_fexpr *on_entry, int count) {
  if (*slot >= 0) return *slot;
  st_loc loc = m->loc;
  int v = new_var(S, st_arena_printf(S->a, "$stateMachine%d.%s", (int)(m - S->m), what), type,
                  num(S, 0, loc), loc);
  if (v < 0) return -1;
  st_fexpr *runs = machine_runs(S, (int)(m - S->m), loc), *step = num(S, 1, loc);
  if (runs) step = if_expr(S, runs, step, num(S, 0, loc), loc);
  st_fexpr *other = count ? st_fx_binary(S->a, FOP_ADD, previous(S, v, loc), step, loc)
                          : previous(S, v, loc);
  if (add_eq(S, var(S, v, loc), if_expr(S, var(S, m->entered, loc), on_entry, other, loc), loc))
    return -1;
  return *slot = v;
}

static st_fexpr *now(smlow *S, st_loc loc) {
  return call1(S, FB_CSAMPLE, st_fx_new(S->a, FX_TIME, 0, 0, loc), loc);
}

/* e with the state-machine operators replaced; in state `st` (-1: none) previous() of the
 * state's own variables reads their start value when the state is reset. In the condition
 * of a transition `tr` (else NULL), ticksInState() and timeInState() are those of its
 * machine's active state: an immediate one is decided before the tick's state is, so it
 * counts this tick as one more in the state left by the previous tick. */
static st_fexpr *rewrite(smlow *S, const st_fexpr *e, int st, const sm_transition *tr) {
  if (!e) return NULL;
  if (e->kind == FX_BUILTIN) {
    st_loc loc = e->loc;
    switch (e->op) {
    case FB_ACTIVESTATE: {
      int k = -1;
      for (int i = 0; i < S->nstates; i++)
        if (strcmp(S->states[i].path, e->args[0]->str) == 0) k = i;
      if (k >= 0) return is_active(S, k, loc);
      error(S, loc, "activeState(): '%s' is no state of a state machine", e->args[0]->str);
      return NULL;
    }
    case FB_TICKSINSTATE: case FB_TIMEINSTATE: {
      sm_machine *m = tr ? &S->m[S->states[tr->from].machine] : machine_at(S, e->args[0]->str, e);
      if (!m) return NULL;
      int before = tr && tr->immediate;
      if (e->op == FB_TICKSINSTATE) {
        int t = entry_var(S, m, &m->ticks, "ticksInState", ST_T_INTEGER, num(S, 1, m->loc), 1);
        if (t < 0) return NULL;
        return before ? st_fx_binary(S->a, FOP_ADD, previous(S, t, loc), num(S, 1, loc), loc)
                      : var(S, t, loc);
      }
      int t = entry_var(S, m, &m->tenter, "enteredAt", ST_T_REAL, now(S, m->loc), 0);
      if (t < 0) return NULL;
      return st_fx_binary(S->a, FOP_SUB, now(S, loc),
                          before ? previous(S, t, loc) : var(S, t, loc), loc);
    }
    case FB_PREVIOUS:
      if (st >= 0 && e->args[0]->kind == FX_VAR &&
          inside(S->f->vars[e->args[0]->index].name, S->states[st].path)) {
        const st_fvar *v = &S->f->vars[e->args[0]->index];
        st_fexpr *start = v->start ? v->start
                          : v->type == ST_T_BOOLEAN ? st_fx_bool(S->a, 0, loc) : num(S, 0, loc);
        sm_machine *m = &S->m[S->states[st].machine];
        return if_expr(S, var(S, m->reset, loc), start, (st_fexpr *)e, loc);
      }
      break;
    default: break;
    }
  }
  if (e->nargs == 0) return (st_fexpr *)e;
  st_fexpr *r = st_fx_copy_node(S->a, e);
  if (!r) return NULL;
  for (int i = 0; i < e->nargs; i++)
    if (!(r->args[i] = rewrite(S, e->args[i], st, tr))) return NULL;
  return r;
}

/* ------------------------------------------------------------------ the machines' equations */

static int machine_equations(smlow *S, int k) {
  sm_machine *m = &S->m[k];
  st_loc loc = m->loc;
  st_fexpr *sel = previous(S, m->active, loc), *runs = machine_runs(S, k, loc);
  st_fexpr *act = sel, *rst = st_fx_bool(S->a, 0, loc), *any = st_fx_bool(S->a, 0, loc);
  /* built from the lowest priority up, so that the highest is tested first */
  for (int p = 0; p < S->ntr; p++) {
    /* the p-th transition counted from the last in priority order */
    int best = -1;
    for (int i = 0; i < S->ntr; i++) {
      if (S->states[S->tr[i].from].machine != k) continue;
      int rank = 0;
      for (int j = 0; j < S->ntr; j++)
        rank += S->states[S->tr[j].from].machine == k &&
                (S->tr[j].priority > S->tr[i].priority ||
                 (S->tr[j].priority == S->tr[i].priority && j > i));
      if (rank == p) best = i;
    }
    if (best < 0) break;
    sm_transition *t = &S->tr[best];
    st_fexpr *cond = rewrite(S, t->cond, -1, t);
    if (!cond) return -1;
    st_fexpr *go;
    if (t->immediate) {
      go = cond;
    } else {
      t->delayed_var = new_var(S, st_arena_printf(S->a, "$stateMachine%d.delayed%d", k, best),
                               ST_T_BOOLEAN, st_fx_bool(S->a, 0, t->loc), t->loc);
      if (t->delayed_var < 0 ||
          add_eq(S, var(S, t->delayed_var, t->loc),
                 st_fx_binary(S->a, FOP_AND, is_active(S, t->from, t->loc), cond, t->loc), t->loc))
        return -1;
      go = previous(S, t->delayed_var, t->loc);
    }
    st_fexpr *from = st_fx_binary(S->a, FOP_EQ, previous(S, m->active, t->loc),
                                  num(S, S->states[t->from].index, t->loc), t->loc);
    st_fexpr *fires = st_fx_binary(S->a, FOP_AND, from, go, t->loc);
    if (runs) fires = st_fx_binary(S->a, FOP_AND, runs, fires, t->loc);
    act = if_expr(S, fires, num(S, S->states[t->to].index, t->loc), act, t->loc);
    rst = if_expr(S, fires, st_fx_bool(S->a, t->reset, t->loc), rst, t->loc);
    any = st_fx_binary(S->a, FOP_OR, fires, any, t->loc);
    if (!act || !rst || !any) return -1;
  }
  return add_eq(S, var(S, m->active, loc), if_expr(S, machine_restarts(S, k, loc), num(S, 1, loc), act, loc), loc) ||
         add_eq(S, var(S, m->reset, loc), st_fx_binary(S->a, FOP_OR, machine_restarts(S, k, loc), rst, loc), loc) ||
         add_eq(S, var(S, m->entered, loc), st_fx_binary(S->a, FOP_OR, machine_restarts(S, k, loc), any, loc), loc);
}

/* The equations v = e of the states: per variable, the active state's e, else previous(v). */
typedef struct assigned {
  int var, machine;
  st_fexpr *value; /* built up from the states met */
  st_loc loc;
} assigned;

static int state_equations(smlow *S, const st_feq_list *in, unsigned char *taken) {
  assigned *as = NULL;
  int nas = 0, capas = 0;
  for (int i = 0; i < in->n; i++) {
    const st_feq *q = in->items[i];
    int st = is_sm_call(q) ? -1 : state_of(S, q->origin);
    if (st < 0) continue;
    taken[i] = 1;
    const st_fexpr *lhs = q->lhs, *rhs = q->rhs;
    if (q->kind == FE_EQUAL && lhs && lhs->kind != FX_VAR && rhs && rhs->kind == FX_VAR) {
      lhs = q->rhs;
      rhs = q->lhs;
    }
    if (q->kind != FE_EQUAL || !lhs || lhs->kind != FX_VAR)
      return error(S, q->loc, "state %s: only equations v = expr are supported in states",
                   S->states[st].path);
    int k = -1;
    for (int j = 0; j < nas; j++)
      if (as[j].var == lhs->index) k = j;
    if (k < 0) {
      if (st_arena_grow(S->a, (void **)&as, &capas, nas, sizeof *as)) return -1;
      k = nas++;
      as[k] = (assigned){lhs->index, S->states[st].machine, previous(S, lhs->index, q->loc),
                         q->loc};
    } else if (root_machine(S, as[k].machine) != root_machine(S, S->states[st].machine)) {
      return error(S, q->loc, "'%s' is assigned in states of two state machines",
                   S->f->vars[lhs->index].name);
    }
    st_fexpr *e = rewrite(S, rhs, st, NULL);
    if (!e || !(as[k].value = if_expr(S, is_active(S, st, q->loc), e, as[k].value, q->loc)))
      return -1;
  }
  for (int j = 0; j < nas; j++)
    if (add_eq(S, var(S, as[j].var, as[j].loc), as[j].value, as[j].loc)) return -1;
  return 0;
}

/* The bindings of the states' variables as equations (gated with the state's others). */
static const st_feq_list *with_state_bindings(smlow *S) {
  const st_flat_model *f = S->f;
  st_feq_list *l = st_arena_alloc(S->a, sizeof *l);
  int cap = 0;
  if (!l) return NULL;
  memset(l, 0, sizeof *l);
  for (int i = 0; i < f->equations.n; i++)
    if (st_arena_grow(S->a, (void **)&l->items, &cap, l->n, sizeof *l->items)) return NULL;
    else l->items[l->n++] = f->equations.items[i];
  for (int v = 0; v < f->nvars; v++) {
    st_fvar *fv = &S->vars[v];
    int st = state_of(S, fv->name);
    if (st < 0 || !fv->binding || fv->variability <= ST_V_PARAMETER || fv->type == ST_T_CLOCK)
      continue;
    st_feq *q = st_fx_equation(S->a, var(S, v, fv->loc), fv->binding, fv->loc);
    if (!q || st_arena_grow(S->a, (void **)&l->items, &cap, l->n, sizeof *l->items)) return NULL;
    q->origin = S->states[st].path;
    l->items[l->n++] = q;
    fv->binding = NULL;
  }
  return l;
}

int st_lower_state_machines(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  if (!uses_state_machines(f)) return 0;
  smlow S = {.cm = cm, .a = cm->p.arena, .f = f};
  S.capvars = f->nvars + 16;
  S.vars = st_arena_alloc(S.a, sizeof *S.vars * (size_t)S.capvars);
  if (!S.vars) return -1;
  memcpy(S.vars, f->vars, sizeof *S.vars * (size_t)f->nvars);
  S.nvars = f->nvars;
  if (collect(&S) || machines(&S)) return -1;
  const st_feq_list *in = with_state_bindings(&S);
  unsigned char *taken = in ? st_arena_alloc(S.a, (size_t)in->n + 1) : NULL;
  if (!taken) return -1;
  memset(taken, 0, (size_t)in->n + 1);
  for (int k = 0; k < S.nm; k++)
    if (machine_equations(&S, k)) return -1;
  if (state_equations(&S, in, taken)) return -1;
  for (int v = 0; v < f->nvars; v++) /* `Boolean inA = activeState(a)` */
    if (S.vars[v].binding && !(S.vars[v].binding = rewrite(&S, S.vars[v].binding, -1, NULL)))
      return -1;
  for (int i = 0; i < in->n; i++) {
    const st_feq *q = in->items[i];
    if (taken[i] || is_sm_call(q)) continue;
    st_feq *r = st_arena_alloc(S.a, sizeof *r);
    if (!r) return -1;
    *r = *q;
    if ((q->lhs && !(r->lhs = rewrite(&S, q->lhs, -1, NULL))) ||
        (q->rhs && !(r->rhs = rewrite(&S, q->rhs, -1, NULL))))
      return -1;
    if (q->nconds) {
      r->conds = st_arena_alloc(S.a, sizeof *r->conds * (size_t)q->nconds);
      for (int c = 0; r->conds && c < q->nconds; c++)
        if (!(r->conds[c] = rewrite(&S, q->conds[c], -1, NULL))) return -1;
      if (!r->conds) return -1;
    }
    if (st_arena_grow(S.a, (void **)&S.eqs.items, &S.capeqs, S.eqs.n, sizeof *S.eqs.items)) return -1;
    S.eqs.items[S.eqs.n++] = r;
  }
  if (S.errors) return -1;
  st_flat_model *g = st_arena_alloc(S.a, sizeof *g);
  if (!g) return -1;
  *g = *f;
  g->vars = S.vars;
  g->nvars = S.nvars;
  g->equations = S.eqs;
  cm->p.flat = g;
  return 0;
}
