/* Expressions to bytecode; relations become event relations (with indicators) or time
 * events; dependency queries over expression trees. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec/delay.h"
#include "func/external.h"
#include "compile/extlib.h"
#include "compile/model_impl.h"

static int resolve(const st_compiled *cm, int slot, double *sign) {
  *sign = 1;
  while (slot >= 0 && cm->p.slots[slot].kind == K_ALIAS) {
    *sign *= cm->p.slots[slot].alias_sign;
    slot = cm->p.slots[slot].alias_of;
  }
  return slot;
}

/* der(v): v's own derivative slot when it has one (an eliminated alias keeps the dummy
 * derivative index reduction gave it), else the derivative of v's representative; either is
 * followed through aliases again. */
static int resolve_der(const st_compiled *cm, int v, double *sign) {
  double s1 = 1, s2 = 1;
  int d = cm->p.slots[v].der;
  if (d < 0) {
    int r = resolve(cm, v, &s1);
    d = r >= 0 ? cm->p.slots[r].der : -1;
  }
  int s = d >= 0 ? resolve(cm, d, &s2) : -1;
  *sign = s1 * s2;
  return s;
}

int st_resolve_ref(const st_compiled *cm, const st_fexpr *e, double *sign) {
  *sign = 1;
  if (e->kind == FX_VAR) return resolve(cm, e->index, sign);
  if (e->kind == FX_BUILTIN && e->op == FB_DER && e->nargs == 1 && e->args[0]->kind == FX_VAR)
    return resolve_der(cm, e->args[0]->index, sign);
  return -1;
}

int st_ref_slot(const st_compiled *cm, const st_fexpr *e) {
  double sign;
  return st_resolve_ref(cm, e, &sign);
}

static int kind_deps(st_kind k) {
  switch (k) {
  case K_PARAM: case K_INPUT: case K_CONST: return DEP_PARAM;
  case K_DISCRETE: case K_WHEN: return DEP_DISC;
  case K_IGNORED: return 0;
  default: return DEP_CONT;
  }
}

int st_expr_deps(const st_compiled *cm, const st_fexpr *e) {
  if (!e) return 0;
  switch (e->kind) {
  case FX_TIME: return DEP_TIME;
  case FX_VAR: {
    double sign;
    return kind_deps(cm->p.slots[resolve(cm, e->index, &sign)].kind);
  }
  case FX_BUILTIN:
    if (e->op == FB_DER) return DEP_CONT;
    if (e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE) return DEP_DISC;
    if (e->op == FB_INITIAL || e->op == FB_TERMINAL || e->op == FB_SAMPLE) return DEP_DISC;
    if (e->op == FB_DELAY) { /* a past value: it moves with time */
      int d = DEP_TIME;
      for (int i = 0; i < e->nargs; i++) d |= st_expr_deps(cm, e->args[i]);
      return d;
    }
    break;
  default: break;
  }
  int d = 0;
  for (int i = 0; i < e->nargs; i++) d |= st_expr_deps(cm, e->args[i]);
  return d;
}

/* A final (or Evaluate = true) parameter whose value is 0 at compilation: a product with it
 * uses nothing (Spice3's ird*m_drainResist = D.v - Dinternal with no drain resistance
 * determines Dinternal, not ird). st_zero_parameters_hold checks at each run that it is
 * still 0. */
int st_zero_parameter(const st_compiled *cm, const st_fexpr *e) {
  int s = st_ref_slot(cm, e);
  return s >= 0 && s < cm->p.flat->nvars && cm->p.zero_param && cm->p.zero_param[s];
}

int st_mark_zero_parameters(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  cm->p.zero_param = st_arena_alloc(cm->p.arena, (size_t)f->nvars + 1);
  cm->p.held_param = st_arena_alloc(cm->p.arena, ((size_t)f->nvars + 1) * sizeof(double));
  if (!cm->p.zero_param || !cm->p.held_param) return -1;
  for (int s = 0; s < f->nvars; s++)
    cm->p.held_param[s] = cm->p.pinned_param && cm->p.pinned_param[s] ? cm->x[s] : NAN;
  for (int s = 0; s < f->nvars; s++)
    cm->p.zero_param[s] = cm->p.slots[s].kind == K_PARAM && cm->x[s] == 0 &&
                          (f->vars[s].is_final || f->vars[s].evaluate);
  return 0;
}

void st_expr_unknowns(const st_compiled *cm, const st_fexpr *e, void (*fn)(void *, int),
                      void *ctx) {
  if (!e) return;
  if (e->kind == FX_BINARY && e->op == FOP_MUL && e->nargs == 2 &&
      (st_zero_parameter(cm, e->args[0]) || st_zero_parameter(cm, e->args[1])))
    return;
  if (e->kind == FX_BUILTIN && (e->op == FB_PRE || e->op == FB_CHANGE || e->op == FB_EDGE)) {
    if (e->op != FB_PRE && e->nargs == 1) st_expr_unknowns(cm, e->args[0], fn, ctx);
    return;
  }
  int s = st_ref_slot(cm, e);
  if (s >= 0) {
    st_kind k = cm->p.slots[s].kind;
    if (k == K_DER || k == K_ALG || k == K_DISCRETE) fn(ctx, s);
    return;
  }
  for (int i = 0; i < e->nargs; i++) st_expr_unknowns(cm, e->args[i], fn, ctx);
}

static int emit_ref(st_compiled *cm, st_prog *p, const st_fexpr *e) {
  double sign = 1;
  int s = st_resolve_ref(cm, e, &sign);
  if (s < 0) {
    double sv;
    int v = resolve(cm, e->args[0]->index, &sv);
    st_error(cm->diag, e->loc, "der(%s): '%s' is not a state of the model",
             cm->p.slots[e->args[0]->index].name, cm->p.slots[v].name);
    return -1;
  }
  if (st_prog_emit(p, OP_LOAD, s, 0)) return -1;
  return sign < 0 ? st_prog_emit(p, OP_NEG, 0, 0) : 0;
}

/* Whether a and b compute the same (shared subtrees are compared once: the front end's
 * element calls share their arguments, a tree exponential in nesting if walked). */
static int same_expr(const st_fexpr *a, const st_fexpr *b) {
  if (a == b) return 1;
  if (a->kind != b->kind || a->op != b->op || a->nargs != b->nargs) return 0;
  if ((a->kind == FX_VAR || a->kind == FX_LOCAL) && a->index != b->index) return 0;
  if (a->kind == FX_STRING && strcmp(a->str ? a->str : "", b->str ? b->str : "")) return 0;
  if ((a->kind == FX_REAL || a->kind == FX_BOOL || a->kind == FX_ENUM || a->kind == FX_CALL ||
       a->kind == FX_CALL_DER) && a->value != b->value)
    return 0;
  if ((a->kind == FX_CALL || a->kind == FX_CALL_DER) && a->index != b->index) return 0;
  for (int i = 0; i < a->nargs; i++)
    if (!same_expr(a->args[i], b->args[i])) return 0;
  return 1;
}

static int grow_relations(st_compiled *cm) {
  if (cm->p.nrels < cm->p.caprels) return 0;
  int cap = cm->p.caprels ? 2 * cm->p.caprels : 16;
  st_relation *r = st_arena_alloc(cm->p.arena, (size_t)cap * sizeof *r);
  st_vm_rel *v = st_arena_alloc(cm->p.arena, (size_t)cap * sizeof *v);
  if (!r || !v) return -1;
  if (cm->p.nrels) {
    memcpy(r, cm->rels, (size_t)cm->p.nrels * sizeof *r);
    memcpy(v, cm->p.vmrels, (size_t)cm->p.nrels * sizeof *v);
  }
  cm->rels = r;
  cm->p.vmrels = v;
  cm->p.caprels = cap;
  return 0;
}

/* integer(), floor(), ceil() and div() are integer valued: a tie in them is an equality. */
static int piecewise_constant(const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && (e->op == FB_INTEGER || e->op == FB_FLOOR || e->op == FB_CEIL ||
                                e->op == FB_DIV))
    return 1;
  for (int i = 0; i < e->nargs; i++)
    if (piecewise_constant(e->args[i])) return 1;
  return 0;
}

/* Registers the relation a op b (or finds an identical one). Time relations (time vs. an
 * expression of parameters and discrete variables) become time events; the others get an
 * indicator a - b. */
static int add_relation(st_compiled *cm, const st_fexpr *e, int flags) {
  const st_fexpr *a = e->args[0], *b = e->args[1];
  int volatile_ = (flags & EMIT_VOLATILE) != 0;
  for (int k = 0; k < cm->p.nrels; k++)
    if (cm->rels[k].op == e->op && same_expr(cm->rels[k].a, a) && same_expr(cm->rels[k].b, b)) {
      cm->rels[k].always_active |= volatile_;
      return k;
    }
  if (grow_relations(cm)) return -1;
  int k = cm->p.nrels++;
  st_relation *r = &cm->rels[k];
  memset(r, 0, sizeof *r);
  r->always_active = volatile_;
  r->op = e->op;
  r->a = (st_fexpr *)a;
  r->b = (st_fexpr *)b;
  r->loc = e->loc;
  r->indicator = -1;
  int da = st_expr_deps(cm, a), db = st_expr_deps(cm, b);
  /* a threshold may read discrete variables (a pulse's `time < T_start + T_width`, the next
   * tick of a clock of variable interval): they change only in event passes, after each of
   * which the next time event is computed again; an indicator with its hysteresis switched
   * 1e-10 s late. Thresholds a few units of rounding apart are one instant
   * (st_time_reached: a Ramp's 1e-9 and a Trapezoid's -2e-8 + 2.1e-8 in MSL NandGate) */
  if (a->kind == FX_TIME && !(db & (DEP_TIME | DEP_CONT))) {
    r->time_only = 1;
    r->time_left = 1;
  } else if (b->kind == FX_TIME && !(da & (DEP_TIME | DEP_CONT))) {
    r->time_only = 1;
  }
  cm->p.vmrels[k].op = e->op;
  cm->p.vmrels[k].time_right = r->time_only;
  cm->p.vmrels[k].tie_keep = !r->time_only && !((da | db) & DEP_DISC) && !piecewise_constant(a) &&
                           !piecewise_constant(b);
  if (r->time_only && !r->time_left) {
    /* Stored as `time op' T` (T < time is time > T) so that the machine can take the
     * right limit at the event instant: time > T is true at T itself. */
    static const int mirror[] = {[FOP_LT] = FOP_GT, [FOP_LE] = FOP_GE, [FOP_GT] = FOP_LT,
                                 [FOP_GE] = FOP_LE};
    cm->p.vmrels[k].op = mirror[e->op];
  }
  const st_fexpr *param_side = r->time_left ? b : a;
  int rc = r->time_only ? st_emit(cm, &r->threshold, param_side, EMIT_PLAIN)
                        : st_emit_residual(cm, &r->ind, a, b);
  return rc ? -1 : k;
}

static int emit_relation(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  int deps = st_expr_deps(cm, e);
  int event = !(flags & (EMIT_NOEVENT | EMIT_PLAIN)) && (deps & (DEP_TIME | DEP_CONT)) &&
              e->op >= FOP_LT && e->op <= FOP_GE;
  const st_fexpr *a = e->args[0], *b = e->args[1];
  int k = -1;
  if (event && (k = add_relation(cm, e, flags)) < 0) return -1;
  /* A time relation written T < time is stored as time > T: swap the operands. */
  if (event && cm->rels[k].time_only && b->kind == FX_TIME && a->kind != FX_TIME) {
    const st_fexpr *t = a;
    a = b;
    b = t;
  }
  if (st_emit(cm, p, a, flags) || st_emit(cm, p, b, flags)) return -1;
  if (event) return st_prog_emit(p, OP_REL, k, 0);
  return st_prog_emit(p, OP_LT + (e->op - FOP_LT), 0, 0);
}

/* Whether an expression has the same value between events as in the pass that ended the last
 * event iteration: it reads only parameters, discrete variables, pre() and event relations
 * (frozen), not a continuous variable or time directly, through a noEvent() comparison, or
 * through sample(). */
static int frozen(const st_compiled *cm, const st_fexpr *e, int noevent) {
  if (e->kind == FX_BINARY && e->op >= FOP_LT && e->op <= FOP_GE && !noevent) return 1;
  if (e->kind == FX_BUILTIN && (e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE))
    return 1;
  /* sample() is true only at its instants, so the pass that ends such an event iteration
   * does not show the branches taken after it */
  if (e->kind == FX_BUILTIN && e->op == FB_SAMPLE) return 0;
  if (st_quiet_builtin(e)) noevent = 1;
  if (e->nargs == 0 || e->kind == FX_VAR || (e->kind == FX_BUILTIN && e->op == FB_DER))
    return !(st_expr_deps(cm, e) & (DEP_TIME | DEP_CONT));
  for (int i = 0; i < e->nargs; i++)
    if (!frozen(cm, e->args[i], noevent)) return 0;
  return 1;
}

/* Flags for the operands that a condition c may skip: when c can change between events (a
 * noEvent comparison), a relation in them may start to be evaluated without an event, so it
 * must always keep its indicator (EMIT_VOLATILE; see st_relation.always_active). */
static int guarded_flags(const st_compiled *cm, const st_fexpr *c, int flags) {
  int noevent = (flags & (EMIT_NOEVENT | EMIT_PLAIN)) != 0;
  return frozen(cm, c, noevent) ? flags : flags | EMIT_VOLATILE;
}

/* a and b, a or b with short-circuit jumps: b is not evaluated when a decides. Between events
 * this fixes which relations the model reads (doc/events.md, "Active relations"). */
static int emit_logic(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  int and = e->op == FOP_AND, bflags = guarded_flags(cm, e->args[0], flags);
  if (st_emit(cm, p, e->args[0], flags)) return -1;
  int jz = st_prog_here(p);
  if (st_prog_emit(p, OP_JZ, 0, 0)) return -1;
  if (and ? st_emit(cm, p, e->args[1], bflags) : st_prog_emit(p, OP_CONST, 0, 1)) return -1;
  int jmp = st_prog_here(p);
  if (st_prog_emit(p, OP_JMP, 0, 0)) return -1;
  p->depth--; /* the other path starts from the depth before */
  p->code[jz].arg = st_prog_here(p);
  if (and ? st_prog_emit(p, OP_CONST, 0, 0) : st_emit(cm, p, e->args[1], bflags)) return -1;
  p->code[jmp].arg = st_prog_here(p);
  return 0;
}

static int emit_binary(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  static const int ops[] = {OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW};
  if (e->op >= FOP_LT && e->op <= FOP_NE) return emit_relation(cm, p, e, flags);
  if (e->op == FOP_AND || e->op == FOP_OR) return emit_logic(cm, p, e, flags);
  if (st_emit(cm, p, e->args[0], flags) || st_emit(cm, p, e->args[1], flags)) return -1;
  return st_prog_emit(p, ops[e->op], 0, 0);
}

/* if c then a else b: both branches are not evaluated (a jump), so a guard like
 * `if x > 0 then sqrt(x) else 0` never computes the square root of a negative. */
static int emit_if(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  /* The branch of `if initial()` is dead after initialization (which compares literally in
   * any case): its relations get no indicator, which would fire for the whole run -- the
   * ElastoBacklash initialization characteristic did at every pass of +-1.5 b/2. Dymola
   * gives them no events either (53 in the Backlash reference, all from the other branch). */
  const st_fexpr *c = e->args[0];
  int bflags = guarded_flags(cm, c, flags);
  int then_flags = c->kind == FX_BUILTIN && c->op == FB_INITIAL ? bflags | EMIT_NOEVENT : bflags;
  if (st_emit(cm, p, c, flags)) return -1;
  int jz = st_prog_here(p);
  if (st_prog_emit(p, OP_JZ, 0, 0) || st_emit(cm, p, e->args[1], then_flags)) return -1;
  int jmp = st_prog_here(p);
  if (st_prog_emit(p, OP_JMP, 0, 0)) return -1;
  p->depth--; /* the else branch starts from the depth before the then branch */
  p->code[jz].arg = st_prog_here(p);
  if (st_emit(cm, p, e->args[2], bflags)) return -1;
  p->code[jmp].arg = st_prog_here(p);
  return 0;
}

static int emit_pre_like(st_compiled *cm, st_prog *p, const st_fexpr *e, int op) {
  const st_fexpr *v = e->args[0];
  if (v->kind != FX_VAR) {
    st_error(cm->diag, e->loc, "%s() needs a variable as its argument",
             st_builtin_name(e->op));
    return -1;
  }
  double sign;
  int s = resolve(cm, v->index, &sign);
  if (st_prog_emit(p, op, s, 0)) return -1;
  return sign < 0 && op == OP_PRE ? st_prog_emit(p, OP_NEG, 0, 0) : 0;
}

/* homotopy(actual, simplified) = actual when lambda = 1 (always, after initialization),
 * simplified alone at lambda = 0 (the actual may not evaluate at the start values: that is
 * why init.c walks the path), else lambda*actual + (1 - lambda)*simplified. A program
 * specialized between events sees the actual alone. */
static int emit_homotopy(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  if (st_prog_emit(p, OP_LAMBDA, 0, 0) || st_prog_emit(p, OP_CONST, 0, 0) ||
      st_prog_emit(p, OP_EQ, 0, 0))
    return -1;
  int jz_actual = st_prog_here(p);
  if (st_prog_emit(p, OP_JZ, 0, 0) || st_emit(cm, p, e->args[1], flags)) return -1;
  int jmp_end = st_prog_here(p);
  if (st_prog_emit(p, OP_JMP, 0, 0)) return -1;
  p->depth--; /* the actual starts from the depth before the simplified */
  p->code[jz_actual].arg = st_prog_here(p);
  if (st_emit(cm, p, e->args[0], flags) || st_prog_emit(p, OP_LAMBDA, 0, 0) ||
      st_prog_emit(p, OP_CONST, 0, 1) || st_prog_emit(p, OP_NE, 0, 0))
    return -1;
  int jz_end = st_prog_here(p);
  if (st_prog_emit(p, OP_JZ, 0, 0) || st_prog_emit(p, OP_LAMBDA, 0, 0) ||
      st_prog_emit(p, OP_MUL, 0, 0) || st_prog_emit(p, OP_CONST, 0, 1) ||
      st_prog_emit(p, OP_LAMBDA, 0, 0) || st_prog_emit(p, OP_SUB, 0, 0) ||
      st_emit(cm, p, e->args[1], flags) || st_prog_emit(p, OP_MUL, 0, 0) ||
      st_prog_emit(p, OP_ADD, 0, 0))
    return -1;
  p->code[jz_end].arg = p->code[jmp_end].arg = st_prog_here(p);
  cm->p.nhomotopy++;
  return 0;
}

/* semiLinear(x, kp, km) = if x >= 0 then kp*x else km*x (continuous: no event). */
static int emit_semilinear(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  st_fexpr *x = e->args[0];
  st_fexpr *c = st_sym_bin(cm->p.arena, FOP_GE, x, st_sym_num(cm->p.arena, 0));
  st_fexpr *f = st_sym_node(cm->p.arena, FX_IF, 0, 3);
  if (!c || !f) return -1;
  f->args[0] = c;
  f->args[1] = st_sym_bin(cm->p.arena, FOP_MUL, e->args[1], x);
  f->args[2] = st_sym_bin(cm->p.arena, FOP_MUL, e->args[2], x);
  return emit_if(cm, p, f, flags | EMIT_NOEVENT);
}

/* sample(start, interval): a stateless test at the instant, plus a schedule of time events. */
static int held_args(const st_compiled *cm, const st_fexpr *e);

/* Whether e is fixed after initialization: parameters, also those with fixed = false that
 * the initial equations compute (held like when-variables, classify.c). */
static int held_after_init(const st_compiled *cm, const st_fexpr *e) {
  if (e->kind == FX_TIME || e->kind == FX_CALL) return e->kind == FX_CALL && held_args(cm, e);
  if (e->kind == FX_VAR) {
    int s = st_ref_slot(cm, e);
    if (s < 0) return 0;
    st_kind k = cm->p.slots[s].kind;
    return k == K_PARAM || k == K_CONST ||
           (k == K_WHEN && s < cm->p.flat->nvars &&
            cm->p.flat->vars[s].variability == ST_V_PARAMETER);
  }
  return held_args(cm, e);
}

static int held_args(const st_compiled *cm, const st_fexpr *e) {
  for (int i = 0; i < e->nargs; i++)
    if (!held_after_init(cm, e->args[i])) return 0;
  return 1;
}

/* e as an exact fraction n/d of integer constants (`3`, `3/10`); 0 when it is not. */
static int const_fraction(const st_fexpr *e, double *n, double *d) {
  const double big = 9007199254740992.0; /* 2^53 */
  if (e->kind == FX_REAL && e->value == floor(e->value) && fabs(e->value) < big) {
    *n = e->value;
    *d = 1;
    return 1;
  }
  if (e->kind != FX_BINARY || e->op != FOP_DIV || !const_fraction(e->args[0], n, d) || *d != 1 ||
      !const_fraction(e->args[1], d, &(double){0}) || !(*d > 0))
    return 0;
  return 1;
}

/* The exact form of sample(start, interval) with fractional constant arguments. */
static void sample_fraction(st_sample *s, const st_fexpr *e) {
  double sn, sd, in, id;
  s->den = 0;
  if (!const_fraction(e->args[0], &sn, &sd) || !const_fraction(e->args[1], &in, &id) || in <= 0)
    return;
  double g = sd, h = id; /* den = lcm(sd, id) */
  while (h) {
    double r = fmod(g, h);
    g = h;
    h = r;
  }
  double den = sd / g * id;
  if (den * fmax(fabs(sn), in) >= 9007199254740992.0) return;
  s->den = den;
  s->snum = sn * (den / sd);
  s->inum = in * (den / id);
}

static int emit_sample(st_compiled *cm, st_prog *p, const st_fexpr *e) {
  /* the arguments, not e itself: st_expr_deps counts sample() as discrete */
  if (e->nargs != 2 || !held_after_init(cm, e->args[0]) || !held_after_init(cm, e->args[1])) {
    st_error(cm->diag, e->loc, "sample() needs a parameter start time and interval");
    return -1;
  }
  if ((cm->p.nsamples & (cm->p.nsamples - 1)) == 0) {
    st_sample *s = st_arena_alloc(cm->p.arena, sizeof *s * (size_t)(cm->p.nsamples ? 2 * cm->p.nsamples : 1));
    if (!s) return -1;
    if (cm->p.nsamples) memcpy(s, cm->p.samples, sizeof *s * (size_t)cm->p.nsamples);
    cm->p.samples = s;
  }
  st_sample *s = &cm->p.samples[cm->p.nsamples++];
  sample_fraction(s, e);
  if (st_emit(cm, &s->start, e->args[0], EMIT_PLAIN) ||
      st_emit(cm, &s->interval, e->args[1], EMIT_PLAIN))
    return -1;
  if (st_emit(cm, p, e->args[0], EMIT_PLAIN) || st_emit(cm, p, e->args[1], EMIT_PLAIN))
    return -1;
  return st_prog_emit(p, OP_SAMPLE, 0, 0);
}

/* The history of delay() node e (one per node: the residual, the solved assignment and an
 * indicator containing the same call read one history); its recording programs are expr and
 * the parameter bound, evaluated without relations (delay.h). */
static int delay_line(st_compiled *cm, const st_fexpr *e, const st_fexpr *bound) {
  if (!cm->delays) cm->delays = st_delays_new();
  cm->vm.delays = cm->delays;
  int created = 0;
  st_prog *arg = NULL, *bp = NULL;
  int k = cm->delays ? st_delays_line(cm->delays, e, &created, &arg, &bp) : -1;
  if (k < 0) {
    st_error(cm->diag, e->loc, "out of memory");
    return -1;
  }
  if (created && (st_emit(cm, arg, e->args[0], EMIT_NOEVENT) ||
                  st_emit(cm, bp, bound, EMIT_PLAIN)))
    return -1;
  if (created && e->nargs == 2) st_delays_set_fixed(cm->delays, k);
  return k;
}

/* delay(expr, delayTime[, delayMax]), Modelica 3.7.2.3: without delayMax the delay time must
 * be a parameter expression (it bounds the history); with it, delayMax must be. */
static int emit_delay(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  if (e->nargs != 2 && e->nargs != 3) {
    st_error(cm->diag, e->loc, "delay() takes 2 or 3 arguments (expr, delayTime, delayMax)");
    return -1;
  }
  const st_fexpr *bound = e->args[e->nargs - 1];
  if (st_expr_deps(cm, bound) & (DEP_TIME | DEP_CONT | DEP_DISC)) {
    st_error(cm->diag, bound->loc, e->nargs == 2
             ? "delay(expr, delayTime): delayTime must be a parameter expression (or give "
               "delayMax)"
             : "delay(expr, delayTime, delayMax): delayMax must be a parameter expression");
    return -1;
  }
  int k = delay_line(cm, e, bound);
  if (k < 0) return -1;
  for (int i = 0; i < 2; i++)
    if (st_emit(cm, p, e->args[i], flags)) return -1;
  if (st_emit(cm, p, bound, EMIT_PLAIN)) return -1;
  return st_prog_emit(p, OP_DELAY, k, 0);
}

static int emit_builtin(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  switch (e->op) {
  case FB_DER:
    if (e->nargs == 1 && e->args[0]->kind == FX_VAR) return emit_ref(cm, p, e);
    st_error(cm->diag, e->loc, "der() of an expression is not supported; introduce a variable");
    return -1;
  case FB_PRE: return emit_pre_like(cm, p, e, OP_PRE);
  case FB_EDGE: return emit_pre_like(cm, p, e, OP_EDGE);
  case FB_CHANGE: return emit_pre_like(cm, p, e, OP_CHANGE);
  case FB_INITIAL: return st_prog_emit(p, OP_INITIAL, 0, 0);
  case FB_TERMINAL: return st_prog_emit(p, OP_TERMINAL, 0, 0);
  case FB_NOEVENT: return st_emit(cm, p, e->args[0], flags | EMIT_NOEVENT);
  case FB_SMOOTH: return st_emit(cm, p, e->args[e->nargs - 1], flags | (st_quiet_builtin(e) ? EMIT_NOEVENT : 0));
  case FB_HOMOTOPY: return emit_homotopy(cm, p, e, flags);
  case FB_SEMILINEAR: return emit_semilinear(cm, p, e, flags);
  case FB_SAMPLE: return emit_sample(cm, p, e);
  case FB_DELAY: return emit_delay(cm, p, e, flags);
  case FB_CARDINALITY:
    st_error(cm->diag, e->loc, "%s() is not supported by the compiler", st_builtin_name(e->op));
    return -1;
  default: break;
  }
  for (int i = 0; i < e->nargs; i++)
    if (st_emit(cm, p, e->args[i], flags)) return -1;
  if (e->nargs == 2) return st_prog_emit(p, OP_FN2, e->op, 0);
  if (e->nargs == 1) return st_prog_emit(p, OP_FN1, e->op, 0);
  st_error(cm->diag, e->loc, "%s() with %d arguments is not supported", st_builtin_name(e->op),
           e->nargs);
  return -1;
}

/* The declared shape of the output a call stands for when it is an array of constant sizes
 * (Q_guess = nullRotation(), a 4-vector); -1 otherwise. */
static int call_output_shape(const st_compiled *cm, const st_fexpr *e, int *ndims, int *dims) {
  if ((e->kind != FX_CALL && e->kind != FX_CALL_DER) || e->value > 0 || e->index < 0 ||
      e->index >= cm->p.flat->nfunctions)
    return -1;
  const st_ffunction *fn = &cm->p.flat->functions[e->index];
  for (int i = 0, o = 0; i < fn->nlocals; i++) {
    const st_flocal *l = &fn->locals[i];
    if (l->causality != ST_C_OUTPUT || o++ != e->op) continue;
    if (l->ndims < 1 || l->ndims > 4) return -1;
    for (int d = 0; d < l->ndims; d++)
      if ((dims[d] = l->dims[d]) < 1) return -1;
    *ndims = l->ndims;
    return 0;
  }
  return -1;
}

/* A user function argument: nested {..} literals of the front end give its shape, or the
 * declared sizes of the output of a call. */
static int arg_shape(const st_compiled *cm, const st_fexpr *e, int *ndims, int *dims) {
  *ndims = 0;
  if (call_output_shape(cm, e, ndims, dims) == 0) return 0;
  for (; e->kind == FX_ARRAY; e = e->args[0]) {
    if (*ndims == 4) return -1;
    dims[(*ndims)++] = e->nargs;
    if (e->nargs == 0) break; /* an empty array: no element to say more (table on file) */
  }
  return 0;
}

/* The element of an array-valued call pushed last while pushing arguments, and its site. */
typedef struct array_call {
  const st_fexpr *e;
  int site;
} array_call;

/* a and b are elements of one call: the same function, output and arguments. */
static int same_call(const st_fexpr *a, const st_fexpr *b) {
  if (a->kind != b->kind || a->index != b->index || a->op != b->op || a->nargs != b->nargs)
    return 0;
  for (int i = 0; i < a->nargs; i++)
    if (!same_expr(a->args[i], b->args[i])) return 0;
  return 1;
}

static int stack_room(st_compiled *cm, const st_prog *p, const st_fexpr *e);

/* After an OP_CALL of site width `width`: it popped width and pushed 1 (st_prog_emit counted
 * -1); a call of no arguments deepens the stack. */
static int call_pushed(st_compiled *cm, st_prog *p, const st_fexpr *e, int width) {
  p->depth += 2 - width;
  if (p->depth > p->maxdepth) p->maxdepth = p->depth;
  return width == 0 ? stack_room(cm, p, e) : 0;
}

/* Pushes e, element `value` of an array output: when *last is an element of the same call,
 * a replay of its site (no second evaluation of the arguments), else the call, which
 * becomes *last. */
static int emit_element_call(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags,
                             array_call *last) {
  if (last->e && same_call(e, last->e)) {
    int k = st_fcalls_add_replay(cm->fcalls, last->site, (int)e->value);
    if (k < 0) {
      st_error(cm->diag, e->loc, "out of memory");
      return -1;
    }
    if (st_prog_emit(p, OP_CALL, k, 0)) return -1;
    return call_pushed(cm, p, e, 0);
  }
  if (st_emit(cm, p, e, flags)) return -1;
  if (p->n > 0 && p->code[p->n - 1].op == OP_CALL) *last = (array_call){e, p->code[p->n - 1].arg};
  return 0;
}

/* Pushes the elements of an argument in row-major order; -2 when it is not rectangular. A
 * call with an array output pushes its elements, evaluating its arguments once (the first
 * element's call, then replays: emit_element_call). */
static int emit_elements(st_compiled *cm, st_prog *p, const st_fexpr *e, int level, int ndims,
                         const int *dims, int flags, array_call *last) {
  if (level == 0 && ndims > 0 && (e->kind == FX_CALL || e->kind == FX_CALL_DER)) {
    int n = 1;
    for (int d = 0; d < ndims; d++) n *= dims[d];
    st_fexpr one = *e;
    array_call own = {0};
    for (int i = 0; i < n; i++) {
      one.value = i + 1;
      if (emit_element_call(cm, p, &one, flags, &own)) return -1;
    }
    return 0;
  }
  if (level == ndims) {
    if (e->kind == FX_ARRAY) return -2;
    if ((e->kind == FX_CALL || e->kind == FX_CALL_DER) && e->value > 0)
      return emit_element_call(cm, p, e, flags, last);
    return st_emit(cm, p, e, flags);
  }
  if (e->kind != FX_ARRAY || e->nargs != dims[level]) return -2;
  for (int i = 0; i < e->nargs; i++) {
    int rc = emit_elements(cm, p, e->args[i], level + 1, ndims, dims, flags, last);
    if (rc) return rc;
  }
  return 0;
}

/* Output e->op, element e->value of call site k (tuple equations, equations.c; an array
 * output); k or -1 after an error. */
static int select_output(st_compiled *cm, const st_fexpr *e, int k) {
  /* op of a call is the output it stands for (tuple equations, equations.c) */
  if (k >= 0 && e->op > 0 && st_fcall_select_output(cm->fcalls, k, e->op)) {
    st_error(cm->diag, e->loc, "function '%s' has no output number %d",
             cm->p.flat->functions[e->index].name, e->op + 1);
    return -1;
  }
  /* value of a call is the element of an array output it stands for (1-based, row-major) */
  if (k >= 0 && e->value > 0) st_fcall_select_element(cm->fcalls, k, (int)e->value);
  return k;
}

/* The call site of e's function for its first nargs arguments of shapes ndims/dims. */
static int call_site(st_compiled *cm, const st_fexpr *e, int nargs, const int *ndims,
                     const int *dims) {
  if (!cm->fcalls) cm->fcalls = st_fcalls_new(cm->p.flat);
  cm->vm.calls = cm->fcalls;
  int k = cm->fcalls ? st_fcalls_add(cm->fcalls, e->index, nargs, ndims, dims) : -1;
  if (k < 0) st_error(cm->diag, e->loc, "out of memory");
  return select_output(cm, e, k);
}

/* An external function must be one stiction provides, called with scalars (external.h);
 * checked here, where the call's location is known. */
static int bind_external(st_compiled *cm, const st_fexpr *e, const st_ffunction *fn) {
  st_extcall c;
  char why[1400];
  if (st_extlib_wants(fn)) { /* C code of the model's own: built and loaded now */
    if (!cm->fcalls) cm->fcalls = st_fcalls_new(cm->p.flat);
    const char *err = cm->fcalls ? st_fcalls_external_error(cm->fcalls, e->index) : "out of memory";
    if (!err) return 0;
    const st_loc *l = &fn->ext->loc;
    st_error(cm->diag, e->loc, "external function '%s' (declared at %s:%d:%d): %s", fn->name,
             l->file ? l->file : "?", l->line, l->col, err);
    return -1;
  }
  for (int i = 0; i < e->nargs; i++)
    if (e->args[i]->kind == FX_ARRAY) {
      st_error(cm->diag, e->args[i]->loc, "argument %d of external function '%s' must be a "
               "scalar", i + 1, fn->name);
      return -1;
    }
  if (!st_extcall_bind(&c, fn, e->nargs, why, sizeof why)) return 0;
  st_error(cm->diag, e->loc, "%s", why);
  return -1;
}

/* Whether a String argument has a number of the String table: a literal, a String
 * parameter, a choice between such. A String made at run time (a call's String result,
 * String() of a variable) has none. */
static int string_has_number(const st_fexpr *e) {
  if (e->kind == FX_STRING || e->kind == FX_VAR) return 1;
  return e->kind == FX_IF && string_has_number(e->args[1]) && string_has_number(e->args[2]);
}

/* Pushes the elements of the first nargs arguments of call e, their shapes in ndims/dims;
 * the number of elements, -1 after an error. */
static int emit_call_args(st_compiled *cm, st_prog *p, const st_fexpr *e, int nargs, int flags,
                          int *ndims, int *dims) {
  const st_ffunction *fn = &cm->p.flat->functions[e->index];
  int width = 0;
  array_call last = {0};
  if (nargs > ST_FCALL_MAX_ARGS) {
    st_error(cm->diag, e->loc, "call of function '%s': more than %d arguments are not "
             "supported in equations", fn->name, ST_FCALL_MAX_ARGS);
    return -1;
  }
  if (fn->external_name && bind_external(cm, e, fn)) return -1;
  for (int i = 0, input = -1; i < nargs; i++) {
    if (arg_shape(cm, e->args[i], &ndims[i], &dims[4 * i])) {
      st_error(cm->diag, e->args[i]->loc, "argument %d of '%s' has more than 4 dimensions",
               i + 1, fn->name);
      return -1;
    }
    while (++input < fn->nlocals && fn->locals[input].causality != ST_C_INPUT) continue;
    if (input < fn->nlocals && fn->locals[input].type == ST_T_STRING && ndims[i] == 0 &&
        !string_has_number(e->args[i])) {
      st_error(cm->diag, e->args[i]->loc, "argument %d of '%s': a String made while the model "
               "runs (a function's String result, String() of a variable) cannot be passed in "
               "an equation yet; make the call inside one function", i + 1, fn->name);
      return -1;
    }
    /* an empty array has the rank its parameter declares (fill(0.0, 0, 2) for table[:, :]) */
    if (ndims[i] == 1 && dims[4 * i] == 0 && input < fn->nlocals)
      while (ndims[i] < fn->locals[input].ndims) dims[4 * i + ndims[i]++] = 0;
    int rc = emit_elements(cm, p, e->args[i], 0, ndims[i], &dims[4 * i], flags, &last);
    if (rc == -1) return -1;
    if (rc) {
      st_error(cm->diag, e->args[i]->loc, "argument %d of '%s' is not a rectangular array",
               i + 1, fn->name);
      return -1;
    }
    int n = 1;
    for (int d = 0; d < ndims[i]; d++) n *= dims[4 * i + d];
    width += n;
  }
  return width;
}

/* f(args): all argument elements on the stack, then OP_CALL pops them and pushes the first
 * output (func_calls.h). */
static int emit_call(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  if (e->index < 0 || e->index >= cm->p.flat->nfunctions) return -1;
  int ndims[ST_FCALL_MAX_ARGS], dims[4 * ST_FCALL_MAX_ARGS];
  int width = emit_call_args(cm, p, e, e->nargs, flags, ndims, dims);
  if (width < 0) return -1;
  int k = call_site(cm, e, e->nargs, ndims, dims);
  if (k < 0 || st_prog_emit(p, OP_CALL, k, 0)) return -1;
  return call_pushed(cm, p, e, width);
}

/* der(f(u)) along du (FX_CALL_DER): u's elements, then du's in u's shapes (a derivative that
 * is the number 0, of arguments that do not vary, as zeros of the shape), and OP_CALL of a
 * tangent site over f's call site; a k-th derivative (2^k times f's inputs) stacks k tangent
 * sites. */
static int emit_call_der(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  if (e->index < 0 || e->index >= cm->p.flat->nfunctions) return -1;
  const st_ffunction *fn = &cm->p.flat->functions[e->index];
  int n = 0, order = 0, ndims[ST_FCALL_MAX_ARGS], dims[4 * ST_FCALL_MAX_ARGS];
  for (int i = 0; i < fn->nlocals; i++) n += fn->locals[i].causality == ST_C_INPUT;
  while (n > 0 && n << order < e->nargs) order++;
  if (n == 0 || n << order != e->nargs || e->nargs > ST_FCALL_MAX_ARGS) {
    st_error(cm->diag, e->loc, "the derivative of the call of '%s': %d arguments", fn->name,
             e->nargs);
    return -1;
  }
  int width = emit_call_args(cm, p, e, n, flags, ndims, dims);
  if (width < 0) return -1;
  array_call last = {0};
  for (int i = n; i < e->nargs; i++) {
    const st_fexpr *d = e->args[i];
    const int *dm = &dims[4 * (i % n)];
    int nd = ndims[i % n], len = 1;
    for (int j = 0; j < nd; j++) len *= dm[j];
    if (nd > 0 && d->kind == FX_REAL && d->value == 0) {
      for (int j = 0; j < len; j++)
        if (st_prog_emit(p, OP_CONST, 0, 0)) return -1;
      continue;
    }
    int rc = emit_elements(cm, p, d, 0, nd, dm, flags, &last);
    if (rc == -1) return -1;
    if (rc) {
      st_error(cm->diag, d->loc, "the derivative of argument %d of '%s' does not have the "
               "argument's shape", i % n + 1, fn->name);
      return -1;
    }
  }
  int k = call_site(cm, e, n, ndims, dims);
  for (int j = 0; j < order && k >= 0; j++)
    if ((k = st_fcalls_add_tangent(cm->fcalls, k)) < 0)
      st_error(cm->diag, e->loc, "the derivative of the call of '%s': out of memory or more "
               "than %d argument elements", fn->name, ST_FCALL_MAX_ARGS);
  if (k < 0 || st_prog_emit(p, OP_CALL, k, 0)) return -1;
  return call_pushed(cm, p, e, width << order);
}

/* A String value as its number (st_fcalls_string): literals, String parameters through their
 * bindings (String variables have no slot). */
static int emit_string(st_compiled *cm, st_prog *p, const st_fexpr *e) {
  if (!cm->fcalls) cm->fcalls = st_fcalls_new(cm->p.flat);
  cm->vm.calls = cm->fcalls;
  int id = cm->fcalls ? st_fcalls_string(cm->fcalls, e->str ? e->str : "") : -1;
  if (id < 0) {
    st_error(cm->diag, e->loc, "out of memory");
    return -1;
  }
  return st_prog_emit(p, OP_CONST, 0, id);
}

static int is_string_var(const st_compiled *cm, const st_fexpr *e) {
  return e->kind == FX_VAR && e->index >= 0 && e->index < cm->p.flat->nvars &&
         cm->p.flat->vars[e->index].type == ST_T_STRING;
}

/* Room on the evaluator's stack for p and two more entries: the stack is scratch between
 * evaluations (none runs while a program is emitted), so a larger one replaces it. */
static int stack_room(st_compiled *cm, const st_prog *p, const st_fexpr *e) {
  if (p->maxdepth <= cm->p.stack_cap - 2) return 0;
  if (p->maxdepth > ST_STACK_MAX - 2) {
    st_error(cm->diag, e->loc, "expression too deeply nested for the evaluator (more than %d "
             "stack entries)", ST_STACK_MAX);
    return -1;
  }
  int cap = 2 * cm->p.stack_cap;
  while (cap < p->maxdepth + 2) cap *= 2;
  if (cap > ST_STACK_MAX) cap = ST_STACK_MAX;
  double *s = st_arena_alloc(cm->p.arena, sizeof(double) * (size_t)cap);
  double *d = st_arena_alloc(cm->p.arena, sizeof(double) * (size_t)cap);
  if (!s || !d) {
    st_error(cm->diag, e->loc, "out of memory");
    return -1;
  }
  cm->vm.stack = s;
  cm->vm.dstack = d;
  cm->p.stack_cap = cap;
  return 0;
}

int st_emit(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags) {
  if (!e) return -1;
  if (stack_room(cm, p, e)) return -1;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: return st_prog_emit(p, OP_CONST, 0, e->value);
  case FX_STRING: return emit_string(cm, p, e);
  case FX_VAR:
    if (is_string_var(cm, e)) {
      const st_fvar *v = &cm->p.flat->vars[e->index];
      static const st_fexpr empty = {.kind = FX_STRING, .str = ""};
      const st_fexpr *b = v->binding ? v->binding : v->start ? v->start : &empty;
      if (b != e && is_string_var(cm, b) && b->index == e->index) b = &empty;
      return st_emit(cm, p, b, flags);
    }
    return emit_ref(cm, p, e);
  case FX_TIME: return st_prog_emit(p, OP_TIME, 0, 0);
  case FX_BINARY: return emit_binary(cm, p, e, flags);
  case FX_UNARY:
    if (st_emit(cm, p, e->args[0], flags)) return -1;
    return st_prog_emit(p, e->op == FOP_NOT ? OP_NOT : OP_NEG, 0, 0);
  case FX_BUILTIN: return emit_builtin(cm, p, e, flags);
  case FX_IF: return emit_if(cm, p, e, flags);
  case FX_CALL: return emit_call(cm, p, e, flags);
  case FX_CALL_DER: return emit_call_der(cm, p, e, flags);
  default:
    st_error(cm->diag, e->loc, "this expression (strings, arrays) is not supported in equations");
    return -1;
  }
}

/* prev (emitted for the call prev_e) with its call site replaced by one for e, when e is
 * another output or element of the same call (the same function on the same arguments):
 * the arguments' code is the same. The fields of a record parameter bound to a call are one
 * call each (Spice3's BJT: ~80 fields of a 100-argument call per record); emitting each
 * again cost ~200 instructions per argument. 1 when done, 0 when e is no such call, -1
 * after an error. */
int st_emit_again(st_compiled *cm, st_prog *p, const st_prog *prev, const st_fexpr *prev_e,
                  const st_fexpr *e) {
  if (!prev || !prev_e || !e || e->kind != FX_CALL || prev_e->kind != FX_CALL ||
      e->index != prev_e->index || e->nargs != prev_e->nargs || prev->n < 1 ||
      prev->code[prev->n - 1].op != OP_CALL || !cm->fcalls)
    return 0;
  for (int i = 0; i < e->nargs; i++)
    if (!same_expr(e->args[i], prev_e->args[i])) return 0;
  int k = st_fcalls_add_like(cm->fcalls, prev->code[prev->n - 1].arg);
  if (k < 0) return 0; /* a tangent or replay site: emitted as usual */
  if (select_output(cm, e, k) < 0) return -1;
  st_ins *code = malloc(sizeof *code * (size_t)prev->n);
  if (!code) {
    st_error(cm->diag, e->loc, "out of memory");
    return -1;
  }
  memcpy(code, prev->code, sizeof *code * (size_t)prev->n);
  code[prev->n - 1].arg = k;
  st_prog_free(p);
  *p = (st_prog){code, prev->n, prev->n, prev->depth, prev->maxdepth};
  cm->p.n_emitted_again++;
  return 1;
}

int st_emit_residual(st_compiled *cm, st_prog *p, const st_fexpr *lhs, const st_fexpr *rhs) {
  if (st_emit(cm, p, lhs, 0) || st_emit(cm, p, rhs, 0)) return -1;
  return st_prog_emit(p, OP_SUB, 0, 0);
}
