/* Synchronous Modelica (Modelica 3.6 chapter 16): clock inference, partitioning and the
 * lowering of clocked partitions onto the hybrid machinery, before classification.
 *
 * Clock variables are resolved at compile time to clock values (periodic with exact
 * rational period and shift where the constructors give them, or event clocks). The other
 * variables and equations are split into partitions: connected through the variables an
 * equation reads directly, not through the arguments of sample(), hold(), subSample(),
 * superSample(), shiftSample(), backSample() and noClock(). A partition is clocked when it
 * uses a clocked operator; its clock comes from sample(u, c), `when c then`, and the
 * rational relations of the sub-sampling operators (propagated both ways until nothing
 * changes; two different clocks for one partition are a located error).
 *
 * Lowering: the values a clocked partition reads from outside at a tick (sample(u), the
 * sub-sampling operators, noClock) and previous(x) become when-assigned variables latched by
 * one when-clause per partition whose condition is the clock's tick (sample(shift, period),
 * a time event, or the event clock's condition); firstTick() and interval() are latched
 * too. Everything else in the partition stays ordinary equations, which read only latched
 * values, parameters and partition variables: they are constant between ticks and solved
 * in BLT order with the rest (algebraic loops as usual). hold(y) is y. Partitions fed by
 * another partition's fresh values at the same instant latch after it (clock_rank,
 * exec/event_pass.c). A continuous-time partition on a clock with a solverMethod is
 * discretized: der(x) becomes a variable and x an explicit or implicit Euler update. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "front/flat_expr.h"

typedef struct rat {
  long long n, d; /* d > 0, reduced */
} rat;

typedef enum { CV_NONE, CV_PERIODIC, CV_EVENT, CV_VARIABLE } cv_kind;

typedef struct clockval {
  cv_kind kind;
  int exact;            /* period and shift are the rationals */
  rat period, shift;
  double dperiod, dshift;
  const st_fexpr *cond; /* CV_EVENT: the condition */
  long long every, skip; /* CV_EVENT: ticks at the condition's rises number skip, skip +
                          * every, ... (counted from 0; subSample, shiftSample, backSample) */
  double start_interval;
  const char *solver;   /* solverMethod or NULL */
  /* CV_VARIABLE: Clock(intervalCounter, resolution) with a clocked counter (the next tick
   * is the counter's value at this tick / resolution later) or Clock(interval) with a
   * clocked interval (previous(interval) later) */
  const st_fexpr *counter;
  double resolution;    /* 0: Clock(interval) */
} clockval;

/* A relation between partitions: `to` = op(the partition of var `from`, a, b). */
typedef struct relation {
  int to, from;
  int op;     /* FB_SUBSAMPLE ... FB_NOCLOCK */
  long long a, b;
  st_loc loc;
} relation;

typedef struct source {
  int unit;
  clockval c;
  st_loc loc;
} source;

typedef struct part {
  int clocked, has_clock, rank, solver_checked;
  clockval c;
  st_loc clock_loc;
  st_feq **latch;
  int nlatch, caplatch;
  int ticked, first, tlast, ival; /* hidden variables, -1 until needed */
} part;

typedef struct lower {
  st_compiled *cm;
  st_arena *a;
  const st_flat_model *f;
  int nunits;           /* f->equations.n + f->nalgorithms */
  int *uf;              /* union-find over vars [0, nvars) and units after them */
  unsigned char *clocked; /* per node: uses or is used by a clocked operator */
  unsigned char *has_der;
  st_loc *der_loc;
  source *src;
  int nsrc, capsrc;
  relation *rel;
  int nrel, caprel;
  /* clock variables: union-find over vars, one defining expression per class */
  int *cuf;
  const st_fexpr **cdef;
  clockval *cval;
  unsigned char *cstate; /* 0 unresolved, 1 resolving, 2 resolved */
  part *parts;          /* per root node */
  /* the new flat model */
  st_fvar *vars;
  int nvars, capvars;
  int *prev_of, *der_of; /* per variable: its previous() / der() variable, -1 */
  st_feq_list eqs;
  int capeqs;
  /* the rise counters of event clocks that count them (counted_tick) */
  struct rise {
    const st_fexpr *cond;
    int var;
  } *rises;
  int nrises, caprises;
  int errors;
} lower;

/* ------------------------------------------------------------------ rationals */

static long long gcd(long long a, long long b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a ? a : 1;
}

static rat mkrat(long long n, long long d) {
  if (d < 0) n = -n, d = -d;
  long long g = gcd(n, d);
  return (rat){n / g, d / g};
}

static rat rmul(rat x, long long n, long long d) {
  long long g1 = gcd(x.n, d), g2 = gcd(n, x.d);
  return mkrat((x.n / g1) * (n / g2), (x.d / g2) * (d / g1));
}

static rat radd(rat x, rat y) {
  long long g = gcd(x.d, y.d);
  return mkrat(x.n * (y.d / g) + y.n * (x.d / g), x.d / g * y.d);
}

static double rdbl(rat x) { return (double)x.n / (double)x.d; }

/* ------------------------------------------------------------------ helpers */

static int find(int *uf, int i) {
  while (uf[i] != i) i = uf[i] = uf[uf[i]];
  return i;
}

static void unite(int *uf, int a, int b) {
  a = find(uf, a);
  b = find(uf, b);
  if (a != b) uf[a < b ? b : a] = a < b ? a : b;
}


static st_fexpr *param_binding(void *ctx, int var) {
  const st_flat_model *f = ctx;
  const st_fvar *v = &f->vars[var];
  return v->variability <= ST_V_PARAMETER ? v->binding : NULL;
}

static int eval_param(lower *L, const st_fexpr *e, double *out) {
  if (st_fx_eval(e, param_binding, (void *)L->f, out) == 0) return 0;
  st_error(L->cm->diag, e->loc, "a clock argument must be a parameter expression");
  L->errors++;
  return -1;
}

static int is_clock_expr(const lower *L, const st_fexpr *e) {
  return e && st_fx_type(e, L->f->vars) == ST_T_CLOCK;
}

static int is_clocked_op(int op) { return op >= FB_CLOCK && op <= FB_NOCLOCK; }

static int clock_equal(const clockval *x, const clockval *y) {
  if (x->kind != y->kind) return 0;
  if (x->kind == CV_EVENT)
    return x->cond == y->cond && x->every == y->every && x->skip == y->skip;
  if (x->kind == CV_VARIABLE) return x->counter == y->counter && x->resolution == y->resolution;
  if (x->exact && y->exact)
    return x->period.n == y->period.n && x->period.d == y->period.d &&
           x->shift.n == y->shift.n && x->shift.d == y->shift.d;
  return fabs(x->dperiod - y->dperiod) <= 1e-12 * fmax(x->dperiod, y->dperiod) &&
         fabs(x->dshift - y->dshift) <= 1e-12 * fmax(x->dperiod, y->dperiod);
}

static const char *clock_text(lower *L, const clockval *c) {
  if (c->kind == CV_VARIABLE) return "a clock of variable interval";
  if (c->kind == CV_EVENT)
    return c->every == 1 && !c->skip ? "an event clock"
           : st_arena_printf(L->a, "an event clock taking every %lld. tick from tick %lld",
                             c->every, c->skip);
  if (c->exact)
    return st_arena_printf(L->a, "a periodic clock of interval %lld/%lld s shifted by %lld/%lld s",
                           c->period.n, c->period.d, c->shift.n, c->shift.d);
  return st_arena_printf(L->a, "a periodic clock of interval %.17g s shifted by %.17g s",
                         c->dperiod, c->dshift);
}

/* The sub-sampling operators on an event clock select among its ticks: they cannot make
 * new ones (superSample only undoes a subSample, a shift is a whole number of ticks). */
static int event_op(lower *L, clockval *c, int op, long long a, long long b, st_loc loc) {
  const char *why = NULL;
  if (a <= 0 || b <= 0) why = "the factors must be positive";
  else if (op == FB_SUBSAMPLE) c->every *= a;
  else if (op == FB_SUPERSAMPLE && c->every % a == 0) c->every /= a;
  else if (op == FB_SUPERSAMPLE) why = "it would make ticks between the event clock's ticks";
  else if (a % b) why = "an event clock shifts by whole ticks (shiftCounter/resolution)";
  else if (op == FB_SHIFTSAMPLE) c->skip += a / b * c->every;
  else if (c->skip < a / b * c->every) why = "it would tick before the event clock's first tick";
  else c->skip -= a / b * c->every;
  if (!why) return 0;
  st_error(L->cm->diag, loc, "%s() of an event clock: %s", st_builtin_name(op), why);
  L->errors++;
  return -1;
}

/* c with the sub-sampling operator op(factor a, b) applied (the relation's direction). */
static int apply_op(lower *L, clockval *c, int op, long long a, long long b, st_loc loc) {
  if (op == FB_NOCLOCK || op == FB_CSAMPLE) return 0;
  if (c->kind == CV_EVENT) return event_op(L, c, op, a, b, loc);
  if (c->kind == CV_VARIABLE) {
    st_error(L->cm->diag, loc, "%s() of a clock of variable interval is not supported",
             st_builtin_name(op));
    L->errors++;
    return -1;
  }
  if (a <= 0 || b <= 0) {
    st_error(L->cm->diag, loc, "%s(): the factors must be positive", st_builtin_name(op));
    L->errors++;
    return -1;
  }
  rat step = c->period, sh = c->shift;
  switch (op) {
  case FB_SUBSAMPLE: step = rmul(step, a, 1); break;
  case FB_SUPERSAMPLE: step = rmul(step, 1, a); break;
  case FB_SHIFTSAMPLE: sh = radd(sh, rmul(c->period, a, b)); break;
  case FB_BACKSAMPLE: sh = radd(sh, rmul(c->period, -a, b)); break;
  default: break;
  }
  double dstep = c->dperiod, dsh = c->dshift;
  switch (op) {
  case FB_SUBSAMPLE: dstep *= (double)a; break;
  case FB_SUPERSAMPLE: dstep /= (double)a; break;
  case FB_SHIFTSAMPLE: dsh += c->dperiod * (double)a / (double)b; break;
  case FB_BACKSAMPLE: dsh -= c->dperiod * (double)a / (double)b; break;
  default: break;
  }
  c->period = step;
  c->shift = sh;
  c->dperiod = c->exact ? rdbl(step) : dstep;
  c->dshift = c->exact ? rdbl(sh) : dsh;
  return 0;
}

/* The inverse: the clock of the argument from the clock of the result. */
static int invert_op(lower *L, clockval *c, int op, long long a, long long b, st_loc loc) {
  switch (op) {
  case FB_SUBSAMPLE: return apply_op(L, c, FB_SUPERSAMPLE, a, 1, loc);
  case FB_SUPERSAMPLE: return apply_op(L, c, FB_SUBSAMPLE, a, 1, loc);
  case FB_SHIFTSAMPLE: return apply_op(L, c, FB_BACKSAMPLE, a, b, loc);
  case FB_BACKSAMPLE: return apply_op(L, c, FB_SHIFTSAMPLE, a, b, loc);
  default: return 0;
  }
}

/* The integer factors (a, b) of subSample(u, a), shiftSample(u, a, b), ... (defaults 1);
 * a = 0 for an inferred factor. */
static int op_factors(lower *L, const st_fexpr *e, long long *a, long long *b) {
  double x = 1, y = 1;
  *a = *b = 1;
  if (e->nargs >= 2 && eval_param(L, e->args[1], &x)) return -1;
  if (e->nargs >= 3 && eval_param(L, e->args[2], &y)) return -1;
  if (e->nargs < 2 && (e->op == FB_SUBSAMPLE || e->op == FB_SUPERSAMPLE)) x = 0;
  if (x != floor(x) || y != floor(y) || fabs(x) > 1e15 || fabs(y) > 1e15) {
    st_error(L->cm->diag, e->loc, "%s(): the factors must be Integer", st_builtin_name(e->op));
    L->errors++;
    return -1;
  }
  *a = (long long)x;
  *b = (long long)y;
  return 0;
}

/* ------------------------------------------------------------------ clock values */

static int clock_value(lower *L, const st_fexpr *e, clockval *out, int depth);

static int clock_var(lower *L, int v, clockval *out, int depth) {
  int r = find(L->cuf, v);
  if (L->cstate[r] == 2) {
    *out = L->cval[r];
    return 0;
  }
  if (L->cstate[r] == 1 || depth > 64) {
    st_error(L->cm->diag, L->f->vars[v].loc, "the clock of '%s' is defined by itself",
             L->f->vars[v].name);
    L->errors++;
    return -1;
  }
  if (!L->cdef[r]) { /* an input nobody drives: inferred */
    *out = (clockval){.kind = CV_NONE};
  } else {
    L->cstate[r] = 1;
    if (clock_value(L, L->cdef[r], out, depth + 1)) return -1;
  }
  L->cval[r] = *out;
  L->cstate[r] = 2;
  return 0;
}

/* The start value of a variable when a parameter expression gives it, else 0: interval() at
 * the first tick of a clock of variable interval (previous(interval) there). */
static double start_of(lower *L, const st_fexpr *x) {
  double v;
  const st_fvar *fv = x->kind == FX_VAR ? &L->f->vars[x->index] : NULL;
  return fv && fv->start && st_fx_eval(fv->start, param_binding, (void *)L->f, &v) == 0 ? v : 0;
}

static int clock_value(lower *L, const st_fexpr *e, clockval *out, int depth) {
  *out = (clockval){.kind = CV_NONE};
  if (e->kind == FX_VAR) return clock_var(L, e->index, out, depth);
  if (e->kind == FX_IF) {
    double c;
    if (eval_param(L, e->args[0], &c)) return -1;
    return clock_value(L, e->args[c != 0 ? 1 : 2], out, depth + 1);
  }
  if (e->kind != FX_BUILTIN) goto bad;
  if (e->op == FB_CLOCK) {
    double x, y = 1;
    switch ((st_clock_form)e->index) {
    case CLK_INFERRED: return 0;
    case CLK_RATIONAL:
      if (!st_fx_is_parametric(e->args[0], L->f->vars)) {
        if (e->nargs > 1 && eval_param(L, e->args[1], &y)) return -1;
        if (y != floor(y) || !(y > 0 && y <= 1e15)) goto bad_rational;
        *out = (clockval){.kind = CV_VARIABLE, .counter = e->args[0], .resolution = y};
        out->start_interval = start_of(L, e->args[0]) / y;
        return 0;
      }
      if (eval_param(L, e->args[0], &x) || (e->nargs > 1 && eval_param(L, e->args[1], &y)))
        return -1;
      /* The bound keeps the factors exact as long long (an infinite one is not Integer). */
      if (x != floor(x) || y != floor(y) || !(x > 0 && x <= 1e15) || !(y > 0 && y <= 1e15)) {
      bad_rational:
        st_error(L->cm->diag, e->loc, "Clock(intervalCounter, resolution) needs positive "
                 "Integer arguments");
        L->errors++;
        return -1;
      }
      out->kind = CV_PERIODIC;
      out->exact = 1;
      out->period = mkrat((long long)x, (long long)y);
      out->shift = mkrat(0, 1);
      out->dperiod = rdbl(out->period);
      return 0;
    case CLK_REAL:
      if (!st_fx_is_parametric(e->args[0], L->f->vars)) {
        if (e->args[0]->kind != FX_VAR) {
          st_error(L->cm->diag, e->loc, "Clock(interval): a clocked interval must be a variable");
          L->errors++;
          return -1;
        }
        *out = (clockval){.kind = CV_VARIABLE, .counter = e->args[0]};
        out->start_interval = start_of(L, e->args[0]);
        return 0;
      }
      if (eval_param(L, e->args[0], &x)) return -1;
      if (!(x > 0) || !isfinite(x)) {
        st_error(L->cm->diag, e->loc, "Clock(interval) needs a positive finite interval");
        L->errors++;
        return -1;
      }
      out->kind = CV_PERIODIC;
      out->exact = x == floor(x) && x < 1e15;
      out->period = mkrat(out->exact ? (long long)x : 1, 1);
      out->shift = mkrat(0, 1);
      out->dperiod = x;
      return 0;
    case CLK_EVENT:
      out->kind = CV_EVENT;
      out->cond = e->args[0];
      out->every = 1;
      if (e->nargs > 1 && eval_param(L, e->args[1], &out->start_interval)) return -1;
      return 0;
    case CLK_SOLVER:
      if (clock_value(L, e->args[0], out, depth + 1)) return -1;
      out->solver = e->str;
      return 0;
    }
  }
  if (e->op >= FB_SUBSAMPLE && e->op <= FB_BACKSAMPLE && is_clock_expr(L, e->args[0])) {
    long long a, b;
    if (clock_value(L, e->args[0], out, depth + 1) || op_factors(L, e, &a, &b)) return -1;
    if (a == 0) goto bad;
    return out->kind == CV_NONE ? 0 : apply_op(L, out, e->op, a, b, e->loc);
  }
bad:
  st_error(L->cm->diag, e->loc, "unsupported clock expression");
  L->errors++;
  return -1;
}

/* Clock equations `c = expr` and `c1 = c2` (connections), and clock bindings. */
static int clock_equation(lower *L, const st_feq *q) {
  if (q->kind != FE_EQUAL || !(is_clock_expr(L, q->lhs) || is_clock_expr(L, q->rhs))) return 0;
  const st_fexpr *l = q->lhs, *r = q->rhs;
  if (l->kind != FX_VAR) {
    const st_fexpr *t = l;
    l = r;
    r = t;
  }
  if (l->kind != FX_VAR) {
    st_error(L->cm->diag, q->loc, "a clock equation needs a clock variable on one side");
    L->errors++;
    return 1;
  }
  if (r->kind == FX_VAR) {
    int a = find(L->cuf, l->index), b = find(L->cuf, r->index);
    const st_fexpr *d = L->cdef[a] ? L->cdef[a] : L->cdef[b];
    unite(L->cuf, a, b);
    L->cdef[find(L->cuf, a)] = d;
    return 1;
  }
  int c = find(L->cuf, l->index);
  if (L->cdef[c]) {
    st_error(L->cm->diag, q->loc, "clock '%s' is defined twice", L->f->vars[l->index].name);
    L->errors++;
  }
  L->cdef[c] = r;
  return 1;
}

/* ------------------------------------------------------------------ partitioning */

static int add_source(lower *L, int unit, const st_fexpr *c, st_loc loc) {
  if (st_arena_grow(L->a, (void **)&L->src, &L->capsrc, L->nsrc, sizeof *L->src)) return -1;
  source *s = &L->src[L->nsrc++];
  s->unit = unit;
  s->loc = loc;
  return clock_value(L, c, &s->c, 0);
}

/* The first non-parameter variable e reads directly (its partition), -1 when none: not one
 * under hold() or a sampling operator, which belongs to another partition (the u of
 * sample(hold(u) + 1, c) is not sampled there: hold(u) is continuous-time). */
static int first_var(const lower *L, const st_fexpr *e) {
  if (!e) return -1;
  if (e->kind == FX_VAR)
    return L->f->vars[e->index].variability > ST_V_PARAMETER &&
                   L->f->vars[e->index].type != ST_T_CLOCK ? e->index : -1;
  if (e->kind == FX_BUILTIN && (e->op == FB_CSAMPLE || e->op == FB_HOLD ||
                                (e->op >= FB_SUBSAMPLE && e->op <= FB_NOCLOCK)))
    return -1;
  for (int i = 0; i < e->nargs; i++) {
    int v = first_var(L, e->args[i]);
    if (v >= 0) return v;
  }
  return -1;
}

static void mark_vars(lower *L, const st_fexpr *e) {
  int v = first_var(L, e);
  if (v >= 0) L->clocked[v] = 1;
}

/* Unites unit with the variables e reads directly, records clock sources and relations. */
static int scan_expr(lower *L, int unit, const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_VAR) {
    const st_fvar *v = &L->f->vars[e->index];
    if (v->variability > ST_V_PARAMETER && v->type != ST_T_CLOCK) unite(L->uf, unit, e->index);
    return 0;
  }
  if (e->kind == FX_BUILTIN && is_clocked_op(e->op)) {
    L->clocked[unit] = 1;
    switch (e->op) {
    case FB_CSAMPLE: {
      if (e->nargs > 1 && add_source(L, unit, e->args[1], e->loc)) return -1;
      /* the argument lives in another partition; when that one is clocked (sample(u, c)
       * assigning a clock to a clocked u, MSL's AssignClock), both have one clock */
      int from = first_var(L, e->args[0]);
      if (from < 0) return 0;
      if (st_arena_grow(L->a, (void **)&L->rel, &L->caprel, L->nrel, sizeof *L->rel)) return -1;
      L->rel[L->nrel++] = (relation){unit, from, FB_CSAMPLE, 1, 1, e->loc};
      return 0;
    }
    case FB_HOLD:
      mark_vars(L, e->args[0]);
      L->clocked[unit] = 0; /* hold's result is continuous */
      return 0;
    case FB_SUBSAMPLE: case FB_SUPERSAMPLE: case FB_SHIFTSAMPLE: case FB_BACKSAMPLE:
    case FB_NOCLOCK: {
      if (is_clock_expr(L, e->args[0])) return 0;
      int from = first_var(L, e->args[0]);
      if (from < 0) return 0;
      L->clocked[from] = 1;
      if (st_arena_grow(L->a, (void **)&L->rel, &L->caprel, L->nrel, sizeof *L->rel)) return -1;
      relation *r = &L->rel[L->nrel++];
      *r = (relation){unit, from, e->op, 1, 1, e->loc};
      return e->op == FB_NOCLOCK ? 0 : op_factors(L, e, &r->a, &r->b);
    }
    case FB_CLOCK: return 0;
    default: break; /* previous, interval, firstTick: their arguments are of this partition */
    }
  }
  if (e->kind == FX_BUILTIN && e->op == FB_DER) {
    L->has_der[unit] = 1;
    L->der_loc[unit] = e->loc;
  }
  for (int i = 0; i < e->nargs; i++)
    if (scan_expr(L, unit, e->args[i])) return -1;
  return 0;
}

static int scan_eq(lower *L, int unit, const st_feq *q);

static int scan_list(lower *L, int unit, const st_feq_list *l) {
  for (int i = 0; i < l->n; i++)
    if (scan_eq(L, unit, l->items[i])) return -1;
  return 0;
}

static int clock_when(const lower *L, const st_feq *q) {
  return q->kind == FE_WHEN && q->nconds == 1 && is_clock_expr(L, q->conds[0]);
}

static int scan_eq(lower *L, int unit, const st_feq *q) {
  if (clock_when(L, q)) {
    L->clocked[unit] = 1;
    return add_source(L, unit, q->conds[0], q->loc) || scan_list(L, unit, &q->branches[0]);
  }
  if (scan_expr(L, unit, q->lhs) || scan_expr(L, unit, q->rhs) || scan_expr(L, unit, q->message))
    return -1;
  for (int i = 0; i < q->ntuple; i++)
    if (scan_expr(L, unit, q->tuple[i])) return -1;
  for (int i = 0; i < q->nconds; i++)
    if (scan_expr(L, unit, q->conds[i])) return -1;
  int nb = q->kind == FE_IF ? q->nconds + 1 : q->kind == FE_WHEN ? q->nconds : 0;
  for (int b = 0; b < nb; b++)
    if (scan_list(L, unit, &q->branches[b])) return -1;
  return 0;
}

static int scan_stmts(lower *L, int unit, const st_fstmt_list *l) {
  for (int i = 0; l && i < l->n; i++) {
    const st_fstmt *s = l->items[i];
    if (scan_expr(L, unit, s->target) || scan_expr(L, unit, s->value) ||
        scan_expr(L, unit, s->range))
      return -1;
    for (int k = 0; k < s->ntargets; k++)
      if (scan_expr(L, unit, s->targets[k])) return -1;
    for (int k = 0; k < s->nconds; k++)
      if (scan_expr(L, unit, s->conds[k])) return -1;
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_WHEN ? s->nconds
             : s->kind == FS_FOR || s->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; b < nb; b++)
      if (scan_stmts(L, unit, &s->branches[b])) return -1;
  }
  return 0;
}

/* The clock of every clocked partition, from its sources and relations. */
static int infer_clocks(lower *L) {
  int n = L->f->nvars + L->nunits;
  for (int i = 0; i < n; i++)
    if (L->clocked[i]) L->parts[find(L->uf, i)].clocked = 1;
  for (int k = 0; k < L->nsrc; k++) {
    part *p = &L->parts[find(L->uf, L->src[k].unit)];
    const clockval *c = &L->src[k].c;
    if (c->kind == CV_NONE) continue;
    if (!p->has_clock) {
      p->has_clock = 1;
      p->c = *c;
      p->clock_loc = L->src[k].loc;
    } else if (!clock_equal(&p->c, c)) {
      if (c->solver && !p->c.solver) p->c.solver = c->solver;
      if (!clock_equal(&p->c, c)) goto conflict;
    } else if (c->solver && !p->c.solver) {
      p->c.solver = c->solver;
    }
    continue;
  conflict:
    st_error(L->cm->diag, L->src[k].loc, "clock conflict: this partition has %s here and %s "
             "from line %d", clock_text(L, c), clock_text(L, &p->c), p->clock_loc.line);
    L->errors++;
    return -1;
  }
  for (int changed = 1, round = 0; changed && round < n + 2; round++) {
    changed = 0;
    for (int k = 0; k < L->nrel; k++) {
      relation *r = &L->rel[k];
      part *to = &L->parts[find(L->uf, r->to)], *from = &L->parts[find(L->uf, r->from)];
      /* noClock and superSample(u) with an inferred factor relate no clocks */
      if (r->op == FB_NOCLOCK || r->a == 0 || (r->op == FB_CSAMPLE && !from->clocked)) continue;
      if (from->has_clock) {
        clockval c = from->c;
        if (apply_op(L, &c, r->op, r->a, r->b, r->loc)) return -1;
        c.solver = to->has_clock ? to->c.solver : NULL;
        if (!to->has_clock) {
          to->has_clock = changed = 1;
          to->c = c;
          to->clock_loc = r->loc;
        } else if (!clock_equal(&to->c, &c)) {
          st_error(L->cm->diag, r->loc, "clock conflict: %s() gives %s, the partition has %s "
                   "from line %d", st_builtin_name(r->op), clock_text(L, &c),
                   clock_text(L, &to->c), to->clock_loc.line);
          L->errors++;
          return -1;
        }
      } else if (to->has_clock) {
        clockval c = to->c;
        if (invert_op(L, &c, r->op, r->a, r->b, r->loc)) return -1;
        c.solver = NULL;
        from->has_clock = changed = 1;
        from->c = c;
        from->clock_loc = r->loc;
      }
    }
  }
  /* latching order among simultaneous ticks: after the partitions read */
  for (int round = 0; round < L->nrel + 1; round++) {
    int changed = 0;
    for (int k = 0; k < L->nrel; k++) {
      part *to = &L->parts[find(L->uf, L->rel[k].to)], *from = &L->parts[find(L->uf, L->rel[k].from)];
      if (to != from && from->clocked && to->rank < from->rank + 1 && from->rank < L->nrel) {
        to->rank = from->rank + 1;
        changed = 1;
      }
    }
    if (!changed) break;
  }
  return 0;
}

/* ------------------------------------------------------------------ the new flat model */

static int new_var(lower *L, const char *name, st_ftype type, st_variability var,
                   st_fexpr *start, st_loc loc) {
  if (L->nvars == L->capvars) { /* prev_of follows vars (previous() of a new der() variable) */
    int *p = st_arena_alloc(L->a, sizeof *p * (size_t)(2 * L->capvars));
    if (!p) return -1;
    memcpy(p, L->prev_of, sizeof *p * (size_t)L->nvars);
    for (int i = L->nvars; i < 2 * L->capvars; i++) p[i] = -1;
    L->prev_of = p;
  }
  if (st_arena_grow(L->a, (void **)&L->vars, &L->capvars, L->nvars, sizeof *L->vars)) return -1;
  st_fvar_hidden(&L->vars[L->nvars], name, type, var, start, loc);
  return L->nvars++;
}

static st_feq *new_equal(lower *L, st_fexpr *lhs, st_fexpr *rhs, st_loc loc) {
  return st_fx_equation(L->a, lhs, rhs, loc);
}

static int add_eq(lower *L, st_feq_list *l, int *cap, st_feq *q) {
  if (!q || st_arena_grow(L->a, (void **)&l->items, cap, l->n, sizeof *l->items)) return -1;
  l->items[l->n++] = q;
  return 0;
}

/* A latch of partition p: variable := value at p's ticks. */
static int push_latch(lower *L, part *p, int var, st_fexpr *value) {
  st_feq_list l = {p->latch, p->nlatch};
  st_feq *q = new_equal(L, st_fx_var(L->a, var, value->loc), value, value->loc);
  if (add_eq(L, &l, &p->caplatch, q)) return -1;
  p->latch = l.items;
  p->nlatch = l.n;
  return 0;
}

/* The Boolean `ticked` of p: false until p's first tick has latched. */
static int ticked_var(lower *L, part *p, int id, st_loc loc) {
  if (p->ticked >= 0) return p->ticked;
  const char *name = st_arena_printf(L->a, "$clock%d.ticked", id);
  p->ticked = new_var(L, name, ST_T_BOOLEAN, ST_V_DISCRETE, st_fx_bool(L->a, 0, loc), loc);
  if (p->ticked < 0 || push_latch(L, p, p->ticked, st_fx_bool(L->a, 1, loc))) return -1;
  return p->ticked;
}

static st_fexpr *if_expr(lower *L, st_fexpr *c, st_fexpr *a, st_fexpr *b, st_loc loc) {
  st_fexpr *r = st_fx_new(L->a, FX_IF, 0, 3, loc);
  if (!r) return NULL;
  r->args[0] = c;
  r->args[1] = a;
  r->args[2] = b;
  return r;
}

static int part_id(lower *L, const part *p) { return (int)(p - L->parts); }

static part *part_of_var(lower *L, int v) { return &L->parts[find(L->uf, v)]; }

static st_fexpr *rewrite(lower *L, part *p, const st_fexpr *e);

/* previous(x): the value of x at the previous tick of its partition (x.start before). */
static st_fexpr *previous_of(lower *L, part *p, const st_fexpr *e) {
  const st_fexpr *x = e->args[0];
  if (x->kind != FX_VAR) {
    st_error(L->cm->diag, e->loc, "previous() needs a variable");
    L->errors++;
    return NULL;
  }
  int v = x->index;
  if (L->vars[v].variability <= ST_V_PARAMETER) return (st_fexpr *)x;
  if (L->prev_of[v] < 0) {
    part *q = v < L->f->nvars ? part_of_var(L, v) : p; /* new variables: p's der() */
    const st_fvar *fv = &L->vars[v];
    int t = ticked_var(L, q, part_id(L, q), e->loc);
    if (t < 0) return NULL;
    int pv = new_var(L, st_arena_concat(L->a, "$previous(", fv->name, ")"), fv->type,
                     ST_V_DISCRETE, fv->start, e->loc);
    if (pv < 0) return NULL;
    L->prev_of[v] = pv;
    st_fexpr *val = if_expr(L, st_fx_var(L->a, t, e->loc), st_fx_var(L->a, v, e->loc),
                            st_fx_var(L->a, pv, e->loc), e->loc);
    if (!val || push_latch(L, q, pv, val)) return NULL;
  }
  return st_fx_var(L->a, L->prev_of[v], e->loc);
}

/* e with its variables read as pre(): their left limits at the event (sample() takes the
 * value just before the tick, Modelica 3.6 section 16.5.1, so a step at the tick's time is
 * seen at the next tick). */
static st_fexpr *left_limit(lower *L, st_fexpr *e) {
  if (e->kind == FX_VAR) {
    if (L->vars[e->index].variability <= ST_V_PARAMETER) return e;
    st_fexpr *p = st_fx_new(L->a, FX_BUILTIN, FB_PRE, 1, e->loc);
    if (p) p->args[0] = e;
    return p;
  }
  if (e->kind == FX_BUILTIN && (e->op == FB_DER || e->op == FB_PRE)) return e;
  for (int i = 0; i < e->nargs; i++)
    if (!(e->args[i] = left_limit(L, e->args[i]))) return NULL;
  return e;
}

/* val, the value of u of the clocked partition q read from outside it (by hold() or a
 * sub-sampling operator): u.start before q's first tick (Modelica 3.6 sections 16.5.1-2;
 * q's equations are not solved before it ticks). */
static st_fexpr *after_first_tick(lower *L, part *q, const st_fexpr *u, st_fexpr *val) {
  if (!val || u->kind != FX_VAR || !q || !q->clocked || !q->has_clock) return val;
  int t = ticked_var(L, q, part_id(L, q), u->loc);
  if (t < 0) return NULL;
  const st_fvar *fv = &L->vars[u->index];
  st_fexpr *start = fv->start ? fv->start
                    : fv->type == ST_T_BOOLEAN ? st_fx_bool(L->a, 0, u->loc)
                                               : st_fx_real(L->a, 0, u->loc);
  return if_expr(L, st_fx_var(L->a, t, u->loc), val, start, u->loc);
}

/* A value read at the ticks of p from outside (sample, subSample, ..., noClock). */
static st_fexpr *latched(lower *L, part *p, const st_fexpr *e) {
  const st_fexpr *u = e->args[0];
  int from = first_var(L, u);
  part *q = from >= 0 ? part_of_var(L, from) : NULL;
  st_fexpr *val = rewrite(L, q && q->clocked ? q : NULL, u);
  if (val && e->op == FB_CSAMPLE && !(q && q->clocked)) val = left_limit(L, val);
  else if (q != p) val = after_first_tick(L, q, u, val);
  if (!val) return NULL;
  if (st_fx_is_parametric(u, L->f->vars)) return val;
  st_ftype t = st_fx_type(u, L->f->vars);
  st_fexpr *start = u->kind == FX_VAR ? L->vars[u->index].start : NULL;
  int s = new_var(L, st_arena_printf(L->a, "$clock%d.%s%d", part_id(L, p), st_builtin_name(e->op),
                                     L->nvars), t, ST_V_DISCRETE, start, e->loc);
  if (s < 0 || push_latch(L, p, s, val)) return NULL;
  return st_fx_var(L->a, s, e->loc);
}

static st_fexpr *interval_of(lower *L, part *p, st_loc loc) {
  if (p->c.kind == CV_PERIODIC) return st_fx_real(L->a, p->c.dperiod, loc);
  if (p->ival >= 0) return st_fx_var(L->a, p->ival, loc);
  int t = ticked_var(L, p, part_id(L, p), loc);
  if (t < 0) return NULL;
  int id = part_id(L, p);
  p->tlast = new_var(L, st_arena_printf(L->a, "$clock%d.tlast", id), ST_T_REAL, ST_V_DISCRETE,
                     st_fx_real(L->a, 0, loc), loc);
  p->ival = new_var(L, st_arena_printf(L->a, "$clock%d.interval", id), ST_T_REAL, ST_V_DISCRETE,
                    st_fx_real(L->a, p->c.start_interval, loc), loc);
  if (p->tlast < 0 || p->ival < 0) return NULL;
  st_fexpr *now = st_fx_new(L->a, FX_TIME, 0, 0, loc);
  st_fexpr *d = st_fx_binary(L->a, FOP_SUB, now, st_fx_var(L->a, p->tlast, loc), loc);
  st_fexpr *v = if_expr(L, st_fx_var(L->a, t, loc), d, st_fx_real(L->a, p->c.start_interval, loc), loc);
  if (!v || push_latch(L, p, p->ival, v) || push_latch(L, p, p->tlast, now)) return NULL;
  return st_fx_var(L->a, p->ival, loc);
}

static st_fexpr *first_tick(lower *L, part *p, st_loc loc) {
  if (p->first < 0) {
    int t = ticked_var(L, p, part_id(L, p), loc);
    if (t < 0) return NULL;
    p->first = new_var(L, st_arena_printf(L->a, "$clock%d.firstTick", part_id(L, p)),
                       ST_T_BOOLEAN, ST_V_DISCRETE, st_fx_bool(L->a, 1, loc), loc);
    st_fexpr *v = p->first >= 0 ? st_fx_unary(L->a, FOP_NOT, st_fx_var(L->a, t, loc), loc) : NULL;
    if (!v || push_latch(L, p, p->first, v)) return NULL;
  }
  return st_fx_var(L->a, p->first, loc);
}

/* der(x) in a partition discretized by its clock's solverMethod: a variable. */
static st_fexpr *der_of(lower *L, part *p, const st_fexpr *e) {
  const st_fexpr *x = e->args[0];
  if (!p->c.solver || x->kind != FX_VAR) {
    st_error(L->cm->diag, e->loc, "der() in a clocked partition needs a clock with a "
             "solverMethod");
    L->errors++;
    return NULL;
  }
  int v = x->index;
  if (L->der_of[v] < 0) {
    int d = new_var(L, st_arena_concat(L->a, "der(", L->vars[v].name, ")"), ST_T_REAL,
                    ST_V_CONTINUOUS, NULL, e->loc);
    if (d < 0) return NULL;
    L->der_of[v] = d;
  }
  return st_fx_var(L->a, L->der_of[v], e->loc);
}

static st_fexpr *hold_of(lower *L, const st_fexpr *u) {
  int v = first_var(L, u);
  part *q = v >= 0 ? part_of_var(L, v) : NULL;
  return after_first_tick(L, q, u, rewrite(L, q, u));
}

/* e with the clocked operators of partition p (NULL: continuous-time) replaced. */
static st_fexpr *rewrite(lower *L, part *p, const st_fexpr *e) {
  if (!e) return NULL;
  if (e->kind == FX_BUILTIN && is_clocked_op(e->op)) {
    switch (e->op) {
    case FB_HOLD: return hold_of(L, e->args[0]);
    case FB_PREVIOUS: return previous_of(L, p, e);
    case FB_INTERVAL: case FB_FIRSTTICK:
      if (!p || !p->has_clock) break;
      return e->op == FB_INTERVAL ? interval_of(L, p, e->loc) : first_tick(L, p, e->loc);
    case FB_CSAMPLE: case FB_SUBSAMPLE: case FB_SUPERSAMPLE: case FB_SHIFTSAMPLE:
    case FB_BACKSAMPLE: case FB_NOCLOCK:
      if (!p || !p->has_clock) break;
      return latched(L, p, e);
    default: break;
    }
    st_error(L->cm->diag, e->loc, "%s() outside a clocked partition",
             st_builtin_name(e->op));
    L->errors++;
    return NULL;
  }
  if (p && e->kind == FX_BUILTIN && e->op == FB_DER) return der_of(L, p, e);
  if (p && e->kind == FX_BINARY && e->op >= FOP_LT && e->op <= FOP_NE) {
    /* a clocked relation is evaluated at the ticks as it is: no crossing, no event (a step
     * at startTime = 0.2 seen by sample(time) at the tick 0.2 is not a tie to keep) */
    st_fexpr *r = st_fx_binary(L->a, e->op, rewrite(L, p, e->args[0]), rewrite(L, p, e->args[1]),
                               e->loc);
    st_fexpr *n = r && r->args[0] && r->args[1] ? st_fx_new(L->a, FX_BUILTIN, FB_NOEVENT, 1, e->loc)
                                                : NULL;
    if (n) n->args[0] = r;
    return n;
  }
  if (e->nargs == 0) return (st_fexpr *)e;
  st_fexpr *r = st_fx_copy_node(L->a, e);
  if (!r) return NULL;
  for (int i = 0; i < e->nargs; i++)
    if (!(r->args[i] = rewrite(L, p, e->args[i]))) return NULL;
  return r;
}

static int rewrite_eq(lower *L, part *p, const st_feq *q, st_feq_list *out, int *cap);

static st_feq_list *rewrite_list(lower *L, part *p, const st_feq_list *l) {
  st_feq_list *r = st_arena_alloc(L->a, sizeof *r);
  int cap = 0;
  if (!r) return NULL;
  memset(r, 0, sizeof *r);
  for (int i = 0; i < l->n; i++)
    if (rewrite_eq(L, p, l->items[i], r, &cap)) return NULL;
  return r;
}

static int rewrite_eq(lower *L, part *p, const st_feq *q, st_feq_list *out, int *cap) {
  if (clock_when(L, q)) { /* the body belongs to the partition */
    for (int i = 0; i < q->branches[0].n; i++)
      if (rewrite_eq(L, p, q->branches[0].items[i], out, cap)) return -1;
    return 0;
  }
  st_feq *r = st_arena_alloc(L->a, sizeof *r);
  if (!r) return -1;
  *r = *q;
  if ((q->lhs && !(r->lhs = rewrite(L, p, q->lhs))) || (q->rhs && !(r->rhs = rewrite(L, p, q->rhs))))
    return -1;
  if (q->ntuple) {
    r->tuple = st_arena_alloc(L->a, sizeof *r->tuple * (size_t)q->ntuple);
    for (int i = 0; r->tuple && i < q->ntuple; i++)
      r->tuple[i] = q->tuple[i] ? rewrite(L, p, q->tuple[i]) : NULL;
  }
  if (q->nconds) {
    r->conds = st_arena_alloc(L->a, sizeof *r->conds * (size_t)q->nconds);
    if (!r->conds) return -1;
    for (int i = 0; i < q->nconds; i++)
      if (!(r->conds[i] = rewrite(L, p, q->conds[i]))) return -1;
  }
  int nb = q->kind == FE_IF ? q->nconds + 1 : q->kind == FE_WHEN ? q->nconds : 0;
  if (nb) {
    r->branches = st_arena_alloc(L->a, sizeof *r->branches * (size_t)nb);
    if (!r->branches) return -1;
    for (int b = 0; b < nb; b++) {
      st_feq_list *l = rewrite_list(L, p, &q->branches[b]);
      if (!l) return -1;
      r->branches[b] = *l;
    }
  }
  return add_eq(L, out, cap, r);
}

/* An algorithm section of a clocked partition: its statements with the partition's clocked
 * operators replaced, as its equations (the section then reads only values latched at the
 * tick and the partition's variables, so its outputs change only at the ticks). */
static st_fstmt_list *rewrite_stmts(lower *L, part *p, const st_fstmt_list *l) {
  st_fstmt_list *r = st_arena_alloc(L->a, sizeof *r);
  if (!r) return NULL;
  r->n = l ? l->n : 0;
  r->items = st_arena_alloc(L->a, sizeof *r->items * (size_t)(r->n + 1));
  if (!r->items) return NULL;
  for (int i = 0; i < r->n; i++) {
    const st_fstmt *s = l->items[i];
    st_fstmt *c = st_arena_alloc(L->a, sizeof *c);
    if (!c) return NULL;
    *c = *s;
    if ((s->target && !(c->target = rewrite(L, p, s->target))) ||
        (s->value && !(c->value = rewrite(L, p, s->value))) ||
        (s->range && !(c->range = rewrite(L, p, s->range))) ||
        (s->message && !(c->message = rewrite(L, p, s->message))))
      return NULL;
    if (s->ntargets && !(c->targets = st_arena_alloc(L->a, sizeof *c->targets * (size_t)s->ntargets)))
      return NULL;
    for (int k = 0; k < s->ntargets; k++)
      if (s->targets[k] && !(c->targets[k] = rewrite(L, p, s->targets[k]))) return NULL;
    if (s->nconds && !(c->conds = st_arena_alloc(L->a, sizeof *c->conds * (size_t)s->nconds)))
      return NULL;
    for (int k = 0; k < s->nconds; k++)
      if (!(c->conds[k] = rewrite(L, p, s->conds[k]))) return NULL;
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_WHEN ? s->nconds
             : s->kind == FS_FOR || s->kind == FS_WHILE ? 1 : 0;
    if (nb && !(c->branches = st_arena_alloc(L->a, sizeof *c->branches * (size_t)nb))) return NULL;
    for (int b = 0; b < nb; b++) {
      st_fstmt_list *x = rewrite_stmts(L, p, &s->branches[b]);
      if (!x) return NULL;
      c->branches[b] = *x;
    }
    r->items[i] = c;
  }
  return r;
}

/* ------------------------------------------------------------------ discretization */

/* A copy of e with the variables map gives (index < nmap, map >= 0) replaced. */
static st_fexpr *renamed(lower *L, const st_fexpr *e, const int *map, int nmap) {
  if (!e) return NULL;
  if (e->kind == FX_VAR)
    return e->index < nmap && map[e->index] >= 0 ? st_fx_var(L->a, map[e->index], e->loc)
                                                 : (st_fexpr *)e;
  if (e->nargs == 0) return (st_fexpr *)e;
  st_fexpr *r = st_fx_copy_node(L->a, e);
  if (!r) return NULL;
  for (int i = 0; i < e->nargs; i++)
    if (!(r->args[i] = renamed(L, e->args[i], map, nmap))) return NULL;
  return r;
}

static st_feq *renamed_eq(lower *L, const st_feq *q, const int *map, int nmap);

static int renamed_list(lower *L, const st_feq_list *l, st_feq_list *out, const int *map,
                        int nmap) {
  int cap = 0;
  memset(out, 0, sizeof *out);
  for (int i = 0; i < l->n; i++) {
    st_feq *r = renamed_eq(L, l->items[i], map, nmap);
    if (r && add_eq(L, out, &cap, r)) return -1;
  }
  return 0;
}

/* A copy of an equation of a partition for one stage: equations, tuples and if-equations
 * (asserts are checked once, by the partition itself). */
static st_feq *renamed_eq(lower *L, const st_feq *q, const int *map, int nmap) {
  if (q->kind != FE_EQUAL && q->kind != FE_TUPLE && q->kind != FE_IF) return NULL;
  st_feq *r = st_arena_alloc(L->a, sizeof *r);
  if (!r) return NULL;
  *r = *q;
  r->lhs = renamed(L, q->lhs, map, nmap);
  r->rhs = renamed(L, q->rhs, map, nmap);
  if (q->ntuple && (r->tuple = st_arena_alloc(L->a, sizeof *r->tuple * (size_t)q->ntuple)))
    for (int i = 0; i < q->ntuple; i++) r->tuple[i] = renamed(L, q->tuple[i], map, nmap);
  if (q->kind == FE_IF) {
    r->conds = st_arena_alloc(L->a, sizeof *r->conds * (size_t)q->nconds + 1);
    r->branches = st_arena_alloc(L->a, sizeof *r->branches * (size_t)(q->nconds + 1));
    if (!r->conds || !r->branches) return NULL;
    for (int i = 0; i < q->nconds; i++) r->conds[i] = renamed(L, q->conds[i], map, nmap);
    for (int b = 0; b <= q->nconds; b++)
      if (renamed_list(L, &q->branches[b], &r->branches[b], map, nmap)) return NULL;
  }
  return r;
}

/* The explicit Runge-Kutta methods: stage s (from 1) evaluates der() at x + h c[s] k(s - 1)
 * with the tick's inputs; x moves by h sum(b[s] k(s)) at the next tick. */
typedef struct rk_method {
  const char *name;
  int stages;
  double c[4], b[4];
} rk_method;

static const rk_method rk_methods[] = {
    {"ExplicitMidPoint2", 2, {0, 0.5}, {0, 1}},
    {"ExplicitRungeKutta4", 4, {0, 0.5, 0.5, 1}, {1.0 / 6, 2.0 / 6, 2.0 / 6, 1.0 / 6}},
};

/* p's variables and der() variables (index < nmap) in *vars. */
static int partition_vars(lower *L, part *p, int nmap, int **vars) {
  int n = 0;
  *vars = st_arena_alloc(L->a, sizeof **vars * (size_t)nmap + 1);
  if (!*vars) return -1;
  for (int v = 0; v < L->f->nvars; v++) {
    const st_fvar *fv = &L->f->vars[v];
    if (part_of_var(L, v) != p || fv->variability <= ST_V_PARAMETER || fv->type == ST_T_CLOCK)
      continue;
    (*vars)[n++] = v;
    if (L->der_of[v] >= 0) (*vars)[n++] = L->der_of[v];
  }
  return n;
}

/* k[s][x]: der(x) evaluated by stage s, from copies of p's equations (eq_part[j] == p for
 * L->eqs item j < neqs) in which p's variables are stage variables and each state x is
 * x + h c[s] k[s - 1][x]. Returns the der() variables of the stages per state. */
static int rk_stages(lower *L, part *p, const rk_method *m, const int *eq_part, int neqs,
                     const int *states, int nstates, int *k, st_loc loc) {
  int nmap = L->nvars, *vars, pid = part_id(L, p);
  int n = partition_vars(L, p, nmap, &vars);
  int *map = st_arena_alloc(L->a, sizeof *map * (size_t)nmap + 1);
  st_fexpr *h = interval_of(L, p, loc);
  if (n < 0 || !map || !h) return -1;
  for (int i = 0; i < nstates; i++) k[i] = L->der_of[states[i]];
  for (int s = 1; s < m->stages; s++) {
    for (int i = 0; i < nmap; i++) map[i] = -1;
    for (int i = 0; i < n; i++) {
      const st_fvar *fv = &L->vars[vars[i]];
      int c = new_var(L, st_arena_printf(L->a, "$stage%d.%s", s + 1, fv->name), fv->type,
                      fv->variability, fv->start, loc);
      if (c < 0) return -1;
      map[vars[i]] = c;
    }
    for (int i = 0; i < nstates; i++) { /* x_s = x + h c[s] k(s - 1) */
      int x = states[i];
      st_fexpr *kx = st_fx_var(L->a, k[(s - 1) * nstates + i], loc);
      st_fexpr *xs = st_fx_binary(L->a, FOP_ADD, st_fx_var(L->a, x, loc),
                                  st_fx_binary(L->a, FOP_MUL, st_fx_binary(L->a, FOP_MUL, h,
                                               st_fx_real(L->a, m->c[s], loc), loc), kx, loc), loc);
      if (add_eq(L, &L->eqs, &L->capeqs, new_equal(L, st_fx_var(L->a, map[x], loc), xs, loc)))
        return -1;
      k[s * nstates + i] = map[L->der_of[x]];
    }
    for (int j = 0; j < neqs; j++) {
      if (eq_part[j] != pid) continue;
      st_feq *r = renamed_eq(L, L->eqs.items[j], map, nmap);
      if (r && add_eq(L, &L->eqs, &L->capeqs, r)) return -1;
    }
  }
  return 0;
}

/* x = x.start at the first tick, then x = previous(x) + interval*previous(der(x)) (explicit
 * Euler), + interval*der(x) (implicit Euler), or + interval*sum(b[s] previous(k[s])) (the
 * Runge-Kutta methods: their stages are evaluated at the previous tick, with its inputs). */
static int discretize(lower *L, part *p, int v, const int *k, int nk, int nstates, int which,
                      st_loc loc) {
  const char *m = p->c.solver;
  int implicit = strcmp(m, "ImplicitEuler") == 0;
  st_fexpr *x = st_fx_var(L->a, v, loc);
  st_fexpr *dx = st_fx_var(L->a, L->der_of[v], loc);
  st_fexpr pcall = {.kind = FX_BUILTIN, .op = FB_PREVIOUS, .nargs = 1, .args = &x, .loc = loc};
  st_fexpr *px = previous_of(L, p, &pcall);
  st_fexpr *slope = dx;
  if (nk) {
    slope = NULL;
    for (int s = 0; s < nk; s++) {
      const rk_method *rk = NULL;
      for (size_t r = 0; r < sizeof rk_methods / sizeof rk_methods[0]; r++)
        if (strcmp(rk_methods[r].name, m) == 0) rk = &rk_methods[r];
      if (!rk || rk->b[s] == 0) continue;
      st_fexpr *ks = st_fx_var(L->a, k[s * nstates + which], loc);
      pcall.args = &ks;
      st_fexpr *term = st_fx_binary(L->a, FOP_MUL, st_fx_real(L->a, rk->b[s], loc),
                                    previous_of(L, p, &pcall), loc);
      slope = slope ? st_fx_binary(L->a, FOP_ADD, slope, term, loc) : term;
    }
  } else if (!implicit) {
    pcall.args = &dx;
    slope = previous_of(L, p, &pcall);
  }
  st_fexpr *h = interval_of(L, p, loc), *ft = first_tick(L, p, loc);
  if (!px || !slope || !h || !ft) return -1;
  st_fexpr *start = L->vars[v].start ? L->vars[v].start : st_fx_real(L->a, 0, loc);
  st_fexpr *step = st_fx_binary(L->a, FOP_ADD, px, st_fx_binary(L->a, FOP_MUL, h, slope, loc), loc);
  st_fexpr *rhs = if_expr(L, ft, start, step, loc);
  return rhs ? add_eq(L, &L->eqs, &L->capeqs, new_equal(L, x, rhs, loc)) : -1;
}

/* The discretized partitions: each state's update, and the stages of the Runge-Kutta
 * methods (on a periodic clock: a stage steps over the next interval, which an event clock
 * does not know yet). */
static int discretize_all(lower *L, const int *eq_part, int neqs) {
  const st_flat_model *f = L->f;
  int *states = st_arena_alloc(L->a, sizeof *states * (size_t)f->nvars + 1);
  if (!states) return -1;
  for (int v0 = 0; v0 < f->nvars; v0++) {
    if (L->der_of[v0] < 0) continue;
    part *p = part_of_var(L, v0);
    if (p->solver_checked) continue;
    p->solver_checked = 1;
    const char *m = p->c.solver;
    const rk_method *rk = NULL;
    for (size_t r = 0; r < sizeof rk_methods / sizeof rk_methods[0]; r++)
      if (strcmp(rk_methods[r].name, m) == 0) rk = &rk_methods[r];
    st_loc loc = f->vars[v0].loc;
    if (!rk && strcmp(m, "ImplicitEuler") && strcmp(m, "ExplicitEuler")) {
      st_error(L->cm->diag, loc, "solverMethod \"%s\" is not supported (ExplicitEuler, "
               "ImplicitEuler, ExplicitMidPoint2, ExplicitRungeKutta4)", m);
      L->errors++;
      return -1;
    }
    if (rk && p->c.kind != CV_PERIODIC) {
      st_error(L->cm->diag, loc, "solverMethod \"%s\" needs a periodic clock", m);
      L->errors++;
      return -1;
    }
    int n = 0;
    for (int v = 0; v < f->nvars; v++)
      if (L->der_of[v] >= 0 && part_of_var(L, v) == p) states[n++] = v;
    int *k = rk ? st_arena_alloc(L->a, sizeof *k * (size_t)(n * rk->stages) + 1) : NULL;
    if (rk && (!k || rk_stages(L, p, rk, eq_part, neqs, states, n, k, loc))) return -1;
    for (int i = 0; i < n; i++)
      if (discretize(L, p, states[i], k, rk ? rk->stages : 0, n, i, f->vars[states[i]].loc))
        return -1;
  }
  return 0;
}

/* ------------------------------------------------------------------ index reduction
 * A continuous-time partition discretized by its clock's solverMethod may be a higher-index
 * DAE (MSL's ControlledMixingUnit: an inverse plant model whose output is tied to a filter
 * state). It is reduced as a continuous-time system first, by the compiler's own index
 * reduction (st_index_alone) on a flat model of its equations alone, in which the values
 * it reads at a tick (sample(), previous(), interval(), ...) are parameters (constant over
 * a step, derivative 0) and the variables of other partitions too. Its states are then the
 * states chosen there; a derivative that became a dummy, or a derivative of one, is an
 * algebraic variable of the partition. Without differentiated equations nothing changes. */

typedef struct reduction {
  lower *L;
  part *p;
  st_fvar *vars;        /* the partition's flat model: f's variables, then placeholders */
  int nvars, capvars;
  const st_fexpr **held; /* per placeholder: the clocked operator it stands for */
  st_compiled *rc;      /* the reduced system */
  int *integral;        /* per slot of rc: the slot it is the derivative of, -1 */
  int *alg;             /* per slot of rc: its algebraic variable in L, -1 */
} reduction;

/* A copy of e in which `leaf` replaces the nodes it takes (it sets *took; NULL with *took
 * is a failure); the others are copied with their arguments mapped. */
typedef st_fexpr *(*leaf_fn)(reduction *r, const st_fexpr *e, int *took);

static st_fexpr *mapped(reduction *r, const st_fexpr *e, leaf_fn leaf) {
  if (!e) return NULL;
  int took = 0;
  st_fexpr *x = leaf(r, e, &took);
  if (took) return x;
  if (e->nargs == 0) return (st_fexpr *)e;
  st_fexpr *c = st_fx_copy_node(r->L->a, e);
  if (!c) return NULL;
  for (int i = 0; i < e->nargs; i++)
    if (!(c->args[i] = mapped(r, e->args[i], leaf))) return NULL;
  return c;
}

/* A clocked operator: a new parameter (a placeholder) standing for it. */
static st_fexpr *placeholder(reduction *r, const st_fexpr *e, int *took) {
  lower *L = r->L;
  if ((*took = e->kind == FX_BUILTIN && is_clocked_op(e->op))) {
    if (st_arena_grow(L->a, (void **)&r->vars, &r->capvars, r->nvars, sizeof *r->vars)) return NULL;
    int k = r->nvars - L->f->nvars;
    const st_fexpr **h = st_arena_alloc(L->a, sizeof *h * (size_t)(k + 1));
    if (!h) return NULL;
    if (k) memcpy(h, r->held, sizeof *h * (size_t)k);
    h[k] = e;
    r->held = h;
    st_fvar_hidden(&r->vars[r->nvars], st_arena_printf(L->a, "$held%d", k), ST_T_REAL,
                   ST_V_PARAMETER, st_fx_real(L->a, 1, e->loc), e->loc);
    return st_fx_var(L->a, r->nvars++, e->loc);
  }
  return NULL;
}

/* The partition's equations (the bodies of its clocked whens) with placeholders, into out;
 * 1 when one is not of the form a = b (if-equations, asserts: the partition is left as it
 * is). */
static int placeholder_eqs(reduction *r, const st_feq_list *l, st_feq_list *out, int *cap) {
  lower *L = r->L;
  for (int i = 0; i < l->n; i++) {
    const st_feq *q = l->items[i];
    if (clock_when(L, q)) {
      int rc = placeholder_eqs(r, &q->branches[0], out, cap);
      if (rc) return rc;
      continue;
    }
    if (q->kind != FE_EQUAL) return 1; /* not reduced: as it is */
    st_feq *c = new_equal(L, mapped(r, q->lhs, placeholder), mapped(r, q->rhs, placeholder), q->loc);
    if (!c || !c->lhs || !c->rhs || add_eq(L, out, cap, c)) return -1;
  }
  return 0;
}

/* The derivative slot d of rc in the lowered model: der(x) of a state x (discretized), else
 * an algebraic variable of the partition. */
static st_fexpr *derivative(reduction *r, int d, st_loc loc) {
  lower *L = r->L;
  const st_slot *sl = r->rc->p.slots;
  int x = r->integral[d];
  if (x < 0) return NULL;
  if (x < L->f->nvars && sl[x].kind == K_STATE) {
    st_fexpr *n = st_fx_new(L->a, FX_BUILTIN, FB_DER, 1, loc);
    if (n) n->args[0] = st_fx_var(L->a, x, loc);
    return n;
  }
  if (r->alg[d] < 0) {
    const char *name = x < L->f->nvars ? L->f->vars[x].name : sl[x].name;
    r->alg[d] = new_var(L, st_arena_concat(L->a, "der(", name, ")"), ST_T_REAL, ST_V_CONTINUOUS,
                        NULL, loc);
    if (r->alg[d] < 0) return NULL;
  }
  return st_fx_var(L->a, r->alg[d], loc);
}

/* A variable or der() of the reduced system in the variables of the lowering. */
static st_fexpr *lowered_leaf(reduction *r, const st_fexpr *e, int *took) {
  lower *L = r->L;
  int nf = L->f->nvars;
  if ((*took = e->kind == FX_VAR)) {
    if (e->index < nf) return st_fx_var(L->a, e->index, e->loc);
    if (e->index < r->nvars) return (st_fexpr *)r->held[e->index - nf];
    return derivative(r, e->index, e->loc);
  }
  if ((*took = e->kind == FX_BUILTIN && e->op == FB_DER && e->nargs == 1 &&
               e->args[0]->kind == FX_VAR)) {
    int x = e->args[0]->index;
    return x < r->rc->p.nslots && r->rc->p.slots[x].der >= 0
               ? derivative(r, r->rc->p.slots[x].der, e->loc) : NULL;
  }
  return NULL;
}

/* The equations of partition p (eq_of[i] == p for f's equation i) after index reduction
 * into *out, or *out = NULL when none was differentiated. */
static int reduce_partition(lower *L, part *p, part **eq_of, st_feq_list **out) {
  const st_flat_model *f = L->f;
  reduction r = {.L = L, .p = p, .nvars = f->nvars};
  *out = NULL;
  r.capvars = f->nvars;
  r.vars = st_arena_alloc(L->a, sizeof *r.vars * (size_t)(f->nvars + 1));
  if (!r.vars) return -1;
  memcpy(r.vars, f->vars, sizeof *r.vars * (size_t)f->nvars);
  for (int v = 0; v < f->nvars; v++) { /* the others' variables: constants here */
    st_fvar *x = &r.vars[v];
    if (x->variability <= ST_V_PARAMETER || x->type == ST_T_CLOCK || part_of_var(L, v) == p) continue;
    x->variability = ST_V_PARAMETER;
    x->fixed = -1;
    x->binding = NULL;
    x->start = NULL;
  }
  st_flat_model *g = st_arena_alloc(L->a, sizeof *g);
  if (!g) return -1;
  memset(g, 0, sizeof *g);
  g->name = f->name;
  g->functions = f->functions;
  g->nfunctions = f->nfunctions;
  g->loc = f->loc;
  int cap = 0;
  for (int i = 0; i < f->equations.n; i++) {
    if (eq_of[i] != p) continue;
    st_feq_list one = {&f->equations.items[i], 1};
    int rc = placeholder_eqs(&r, &one, &g->equations, &cap);
    if (rc) return rc < 0 ? -1 : 0;
  }
  g->vars = r.vars;
  g->nvars = r.nvars;
  /* quietly: a partition it cannot reduce is left as it is, and the compiler says why */
  st_diag *quiet = st_diag_new(NULL);
  r.rc = quiet ? st_index_alone(g, quiet) : NULL;
  if (!r.rc) {
    st_diag_free(quiet);
    return 0;
  }
  int rc = 0;
  if (r.rc->p.n_differentiated > 0) {
    if (strcmp(p->c.solver, "ExplicitEuler") && strcmp(p->c.solver, "ImplicitEuler")) {
      st_error(L->cm->diag, p->clock_loc, "solverMethod \"%s\" on a partition that needs index "
               "reduction is not supported (ExplicitEuler, ImplicitEuler)", p->c.solver);
      L->errors++;
      rc = -1;
    }
    int ns = r.rc->p.nslots;
    r.integral = st_arena_alloc(L->a, sizeof(int) * (size_t)(ns + 1));
    r.alg = st_arena_alloc(L->a, sizeof(int) * (size_t)(ns + 1));
    *out = st_arena_alloc(L->a, sizeof **out);
    if (!r.integral || !r.alg || !*out) rc = -1;
    for (int s = 0; !rc && s < ns; s++) r.integral[s] = r.alg[s] = -1;
    for (int s = 0; !rc && s < ns; s++)
      if (r.rc->p.slots[s].der >= 0) r.integral[r.rc->p.slots[s].der] = s;
    if (!rc) memset(*out, 0, sizeof **out);
    int ocap = 0;
    for (int i = 0; !rc && i < r.rc->p.neqs; i++) {
      const st_ceq *q = &r.rc->p.eqs[i];
      st_fexpr *lhs = q->target >= 0 ? st_fx_var(L->a, q->target, q->loc)
                                     : mapped(&r, q->lhs, lowered_leaf);
      st_feq *e = new_equal(L, lhs, mapped(&r, q->rhs, lowered_leaf), q->loc);
      if (!e || !e->lhs || !e->rhs || add_eq(L, *out, &ocap, e)) rc = -1;
    }
  }
  st_index_alone_free(r.rc);
  st_diag_free(quiet);
  return rc;
}

/* x as n/d (emit.c schedules sample() instants with fraction arguments exactly). */
static st_fexpr *fraction(lower *L, int exact, rat x, double dx, st_loc loc) {
  if (!exact) return st_fx_real(L->a, dx, loc);
  if (x.d == 1) return st_fx_real(L->a, (double)x.n, loc);
  return st_fx_binary(L->a, FOP_DIV, st_fx_real(L->a, (double)x.n, loc),
                      st_fx_real(L->a, (double)x.d, loc), loc);
}

/* The tick of p as a when-condition. */
/* The tick of a clock of variable interval: at the start, then at $next, an equation of p
 * (so that the counter's value at this tick counts): the time of the latest tick plus
 * counter/resolution, or plus previous(interval) (Modelica 3.6 section 16.3). */
static st_fexpr *variable_tick(lower *L, part *p, st_loc loc) {
  int id = part_id(L, p), t = ticked_var(L, p, id, loc);
  if (t < 0 || !interval_of(L, p, loc)) return NULL; /* interval_of makes p->tlast */
  st_fexpr *step;
  if (p->c.resolution > 0) {
    step = st_fx_binary(L->a, FOP_DIV, rewrite(L, p, p->c.counter),
                        st_fx_real(L->a, p->c.resolution, loc), loc);
  } else {
    st_fexpr *x = (st_fexpr *)p->c.counter;
    st_fexpr pcall = {.kind = FX_BUILTIN, .op = FB_PREVIOUS, .nargs = 1, .args = &x, .loc = loc};
    step = previous_of(L, p, &pcall);
  }
  int next = new_var(L, st_arena_printf(L->a, "$clock%d.next", id), ST_T_REAL, ST_V_DISCRETE,
                     st_fx_real(L->a, 0, loc), loc);
  st_fexpr *at = st_fx_binary(L->a, FOP_ADD, st_fx_var(L->a, p->tlast, loc), step, loc);
  if (next < 0 || !step || !at ||
      add_eq(L, &L->eqs, &L->capeqs, new_equal(L, st_fx_var(L->a, next, loc), at, loc)))
    return NULL;
  st_fexpr *due = st_fx_binary(L->a, FOP_GE, st_fx_new(L->a, FX_TIME, 0, 0, loc),
                               st_fx_var(L->a, next, loc), loc);
  return st_fx_binary(L->a, FOP_OR, st_fx_unary(L->a, FOP_NOT, st_fx_var(L->a, t, loc), loc),
                      due, loc);
}

static st_fexpr *tick_condition(lower *L, part *p, st_loc loc) {
  if (p->c.kind == CV_EVENT) return (st_fexpr *)p->c.cond;
  if (p->c.kind == CV_VARIABLE) return variable_tick(L, p, loc);
  st_fexpr *s = st_fx_new(L->a, FX_BUILTIN, FB_SAMPLE, 2, loc);
  if (!s) return NULL;
  s->args[0] = fraction(L, p->c.exact, p->c.shift, p->c.dshift, loc);
  s->args[1] = fraction(L, p->c.exact, p->c.period, p->c.dperiod, loc);
  return s->args[0] && s->args[1] ? s : NULL;
}

static st_fexpr *pre_of(lower *L, int v, st_loc loc) {
  st_fexpr *p = st_fx_new(L->a, FX_BUILTIN, FB_PRE, 1, loc);
  if (p && !(p->args[0] = st_fx_var(L->a, v, loc))) return NULL;
  return p;
}

/* when cond then latch[0..n) end when, at clock rank `rank`. */
static int emit_when(lower *L, st_fexpr *cond, st_feq **latch, int n, int rank, int at_start,
                     st_loc loc) {
  st_feq *w = st_arena_alloc(L->a, sizeof *w);
  st_fexpr **c = st_arena_alloc(L->a, sizeof *c);
  st_feq_list *b = st_arena_alloc(L->a, sizeof *b);
  if (!w || !c || !b || !cond) return -1;
  memset(w, 0, sizeof *w);
  c[0] = cond;
  w->kind = FE_WHEN;
  w->nconds = 1;
  w->conds = c;
  b->items = latch;
  b->n = n;
  w->branches = b;
  w->origin = "";
  w->loc = loc;
  w->clock_rank = rank;
  w->clock_at_start = at_start;
  return add_eq(L, &L->eqs, &L->capeqs, w);
}

/* Whether p's ticks are counted rises of its event clock's condition rather than the rises
 * themselves: when it takes only some of them (every, skip), and when it latches after
 * another partition (rank > 0), which may have made the condition false again within the
 * instant (MSL's RotationalClock moves its threshold at its own tick). */
static int counts_rises(const part *p) {
  return p->c.kind == CV_EVENT && (p->c.every != 1 || p->c.skip || p->rank > 0);
}

/* The counter of the rises of an event clock's condition: one per condition, stepped by
 * its own when-clause at the first clock rank, before the partitions that read it. */
static int rise_counter(lower *L, const st_fexpr *cond, st_loc loc) {
  for (int i = 0; i < L->nrises; i++)
    if (L->rises[i].cond == cond) return L->rises[i].var;
  if (st_arena_grow(L->a, (void **)&L->rises, &L->caprises, L->nrises, sizeof *L->rises)) return -1;
  int n = new_var(L, st_arena_printf(L->a, "$eventclock%d.rises", L->nrises), ST_T_REAL,
                  ST_V_DISCRETE, st_fx_real(L->a, 0, loc), loc);
  st_feq **step = st_arena_alloc(L->a, sizeof *step);
  if (n < 0 || !step) return -1;
  st_fexpr *next = st_fx_binary(L->a, FOP_ADD, pre_of(L, n, loc), st_fx_real(L->a, 1, loc), loc);
  if (!next || !(step[0] = new_equal(L, st_fx_var(L->a, n, loc), next, loc)) ||
      emit_when(L, (st_fexpr *)cond, step, 1, 1, 1, loc))
    return -1;
  L->eqs.items[L->eqs.n - 1]->origin = ST_ORIGIN_RISE_COUNTER; /* no tick of its own */
  L->rises[L->nrises++] = (struct rise){cond, n};
  return n;
}

/* The tick of p whose event clock counts rises: the counter moved at this instant, and the
 * count is one p takes; its latches are kept at their pre() value at the others. */
static st_fexpr *counted_tick(lower *L, part *p, st_loc loc) {
  int n = rise_counter(L, p->c.cond, loc);
  if (n < 0) return NULL;
  st_fexpr *k = st_fx_binary(L->a, FOP_SUB, st_fx_var(L->a, n, loc),
                             st_fx_real(L->a, (double)(p->c.skip + 1), loc), loc);
  st_fexpr *m = st_fx_new(L->a, FX_BUILTIN, FB_MOD, 2, loc);
  if (!k || !m) return NULL;
  m->args[0] = k;
  m->args[1] = st_fx_real(L->a, (double)p->c.every, loc);
  st_fexpr *take = st_fx_binary(L->a, FOP_AND,
                                st_fx_binary(L->a, FOP_GE, k, st_fx_real(L->a, 0, loc), loc),
                                st_fx_binary(L->a, FOP_EQ, m, st_fx_real(L->a, 0, loc), loc), loc);
  if (!take) return NULL;
  if (p->c.every != 1 || p->c.skip)
    for (int i = 0; i < p->nlatch; i++) {
      st_feq *q = p->latch[i];
      if (!(q->rhs = if_expr(L, take, q->rhs, pre_of(L, q->lhs->index, loc), loc))) return NULL;
    }
  return st_fx_binary(L->a, FOP_NE, st_fx_var(L->a, n, loc), pre_of(L, n, loc), loc);
}

static int emit_ticks(lower *L) {
  int n = L->f->nvars + L->nunits, counted = 0;
  for (int i = 0; i < n; i++)
    counted |= find(L->uf, i) == i && L->parts[i].clocked && L->parts[i].nlatch &&
               counts_rises(&L->parts[i]);
  for (int i = 0; i < n; i++) {
    part *p = &L->parts[i];
    if (find(L->uf, i) != i || !p->clocked || !p->nlatch) continue;
    st_loc loc = p->latch[0]->loc;
    /* the rise counters latch at rank 1, the partitions after them */
    st_fexpr *c = counts_rises(p) ? counted_tick(L, p, loc) : tick_condition(L, p, loc);
    /* an event clock ticks when edge(condition) is true, also at the start (pre = false) */
    if (emit_when(L, c, p->latch, p->nlatch, 1 + counted + p->rank, 1, loc))
      return -1;
  }
  return 0;
}

static int uses_clocks(const st_flat_model *f) {
  for (int i = 0; i < f->nvars; i++)
    if (f->vars[i].type == ST_T_CLOCK) return 1;
  return 0;
}

static int expr_uses_clocked(const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && is_clocked_op(e->op)) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (expr_uses_clocked(e->args[i])) return 1;
  return 0;
}

static int list_uses_clocked(const st_feq_list *l) {
  for (int i = 0; i < l->n; i++) {
    const st_feq *q = l->items[i];
    if (expr_uses_clocked(q->lhs) || expr_uses_clocked(q->rhs)) return 1;
    for (int k = 0; k < q->nconds; k++)
      if (expr_uses_clocked(q->conds[k])) return 1;
    int nb = q->kind == FE_IF ? q->nconds + 1 : q->kind == FE_WHEN ? q->nconds : 0;
    for (int b = 0; b < nb; b++)
      if (list_uses_clocked(&q->branches[b])) return 1;
  }
  return 0;
}

static int stmts_use_clocked(const st_fstmt_list *l) {
  for (int i = 0; l && i < l->n; i++) {
    const st_fstmt *s = l->items[i];
    if (expr_uses_clocked(s->value) || expr_uses_clocked(s->range)) return 1;
    for (int k = 0; k < s->nconds; k++)
      if (expr_uses_clocked(s->conds[k])) return 1;
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_WHEN ? s->nconds
             : s->kind == FS_FOR || s->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; b < nb; b++)
      if (stmts_use_clocked(&s->branches[b])) return 1;
  }
  return 0;
}

static int setup(lower *L) {
  const st_flat_model *f = L->f;
  int nv = f->nvars, n = nv + L->nunits;
  L->uf = st_arena_alloc(L->a, sizeof(int) * (size_t)n);
  L->cuf = st_arena_alloc(L->a, sizeof(int) * (size_t)nv + 1);
  L->clocked = st_arena_alloc(L->a, (size_t)n);
  L->has_der = st_arena_alloc(L->a, (size_t)n);
  L->der_loc = st_arena_alloc(L->a, sizeof *L->der_loc * (size_t)n);
  L->cdef = st_arena_alloc(L->a, sizeof *L->cdef * (size_t)nv + 1);
  L->cval = st_arena_alloc(L->a, sizeof *L->cval * (size_t)nv + 1);
  L->cstate = st_arena_alloc(L->a, (size_t)nv + 1);
  L->parts = st_arena_alloc(L->a, sizeof *L->parts * (size_t)n);
  L->capvars = nv + 16;
  L->prev_of = st_arena_alloc(L->a, sizeof(int) * (size_t)L->capvars);
  L->der_of = st_arena_alloc(L->a, sizeof(int) * (size_t)nv + 1);
  if (!L->uf || !L->cuf || !L->clocked || !L->has_der || !L->der_loc || !L->cdef || !L->cval ||
      !L->cstate || !L->parts || !L->prev_of || !L->der_of)
    return -1;
  memset(L->clocked, 0, (size_t)n);
  memset(L->has_der, 0, (size_t)n);
  memset(L->cdef, 0, sizeof *L->cdef * (size_t)nv);
  memset(L->cstate, 0, (size_t)nv);
  memset(L->parts, 0, sizeof *L->parts * (size_t)n);
  for (int i = 0; i < n; i++) {
    L->uf[i] = i;
    L->parts[i].ticked = L->parts[i].first = L->parts[i].tlast = L->parts[i].ival = -1;
  }
  for (int i = 0; i < L->capvars; i++) L->prev_of[i] = -1;
  for (int i = 0; i < nv; i++) {
    L->cuf[i] = i;
    L->der_of[i] = -1;
    if (f->vars[i].type == ST_T_CLOCK && f->vars[i].binding) L->cdef[i] = f->vars[i].binding;
  }
  L->vars = st_arena_alloc(L->a, sizeof *L->vars * (size_t)L->capvars);
  if (!L->vars) return -1;
  memcpy(L->vars, f->vars, sizeof *L->vars * (size_t)nv);
  L->nvars = nv;
  return 0;
}

/* Whether e reads only variables of clocked partitions; *n counts them. */
static int reads_only_clocked(lower *L, const st_fexpr *e, int *n) {
  if (!e) return 1;
  if (e->kind == FX_VAR && L->f->vars[e->index].variability > ST_V_PARAMETER) {
    ++*n;
    return part_of_var(L, e->index)->clocked;
  }
  for (int i = 0; i < e->nargs; i++)
    if (!reads_only_clocked(L, e->args[i], n)) return 0;
  return 1;
}

static int eq_only_clocked(lower *L, const st_feq *q, int *n) {
  if (!reads_only_clocked(L, q->lhs, n) || !reads_only_clocked(L, q->rhs, n)) return 0;
  for (int i = 0; i < q->nconds; i++)
    if (!reads_only_clocked(L, q->conds[i], n)) return 0;
  int nb = q->kind == FE_IF ? q->nconds + 1 : q->kind == FE_WHEN ? q->nconds : 0;
  for (int b = 0; b < nb; b++)
    for (int k = 0; k < q->branches[b].n; k++)
      if (!eq_only_clocked(L, q->branches[b].items[k], n)) return 0;
  return 1;
}

/* Initial equations of clocked variables are dropped: a clocked partition starts from the
 * start values at its first tick (Modelica 3.6 section 16.9; a discretized PI with
 * initType = InitialOutput in MSL's ClockedWithDiscretizedContinuousController). */
static int drop_clocked_initial_equations(lower *L, st_flat_model *g) {
  const st_feq_list *l = &L->f->initial_equations;
  st_feq_list kept = {0};
  int cap = 0;
  for (int i = 0; i < l->n; i++) {
    int n = 0;
    if (eq_only_clocked(L, l->items[i], &n) && n > 0) continue;
    if (add_eq(L, &kept, &cap, l->items[i])) return -1;
  }
  g->initial_equations = kept;
  return 0;
}

/* f with the bindings of variables (`Real tol = 0.1*interval(u)`) as equations, so that
 * they are partitioned and lowered like the others (equations.c would make them equations
 * after the lowering). */
static const st_flat_model *bindings_as_equations(lower *L, const st_flat_model *f) {
  st_flat_model *g = st_arena_alloc(L->a, sizeof *g);
  st_fvar *vars = st_arena_alloc(L->a, sizeof *vars * (size_t)(f->nvars + 1));
  if (!g || !vars) return NULL;
  *g = *f;
  memcpy(vars, f->vars, sizeof *vars * (size_t)f->nvars);
  g->vars = vars;
  int cap = f->equations.n;
  for (int i = 0; i < f->nvars; i++) {
    st_fvar *v = &vars[i];
    if (!v->binding || v->variability <= ST_V_PARAMETER || v->type == ST_T_CLOCK) continue;
    if (g->equations.items == f->equations.items) { /* copy on first write */
      g->equations.items = NULL;
      g->equations.n = cap = 0;
      for (int k = 0; k < f->equations.n; k++)
        if (add_eq(L, &g->equations, &cap, f->equations.items[k])) return NULL;
    }
    if (add_eq(L, &g->equations, &cap, new_equal(L, st_fx_var(L->a, i, v->loc), v->binding, v->loc)))
      return NULL;
    v->binding = NULL;
  }
  return g;
}

/* Whether a binding of a variable uses a clocked operator (`Real u = sample(x, Clock(1, 10))`
 * in a model without Clock variables or clocked equations). */
static int bindings_use_clocked(const st_flat_model *f) {
  for (int i = 0; i < f->nvars; i++)
    if (f->vars[i].variability > ST_V_PARAMETER && expr_uses_clocked(f->vars[i].binding)) return 1;
  return 0;
}

int st_lower_clocks(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  int algs_clocked = 0;
  for (int i = 0; i < f->nalgorithms && !algs_clocked; i++)
    algs_clocked = stmts_use_clocked(&f->algorithms[i]);
  if (!uses_clocks(f) && !list_uses_clocked(&f->equations) && !bindings_use_clocked(f) &&
      !algs_clocked)
    return 0;
  lower L = {.cm = cm, .a = cm->p.arena};
  if (!(f = bindings_as_equations(&L, f))) return -1;
  L.f = f;
  L.nunits = f->equations.n + f->nalgorithms;
  if (setup(&L)) return -1;
  unsigned char *is_clock_eq = st_arena_alloc(L.a, (size_t)f->equations.n + 1);
  if (!is_clock_eq) return -1;
  for (int i = 0; i < f->equations.n; i++) is_clock_eq[i] = (unsigned char)clock_equation(&L, f->equations.items[i]);
  for (int i = 0; i < f->equations.n && !L.errors; i++)
    if (!is_clock_eq[i] && scan_eq(&L, f->nvars + i, f->equations.items[i]) && !L.errors) return -1;
  for (int i = 0; i < f->nalgorithms && !L.errors; i++)
    if (scan_stmts(&L, f->nvars + f->equations.n + i, &f->algorithms[i])) return -1;
  if (L.errors || infer_clocks(&L) || L.errors) return -1;
  /* every clocked partition needs its clock; continuous-time equations in it a solver */
  int n = f->nvars + L.nunits;
  for (int i = 0; i < n; i++) {
    part *p = &L.parts[find(L.uf, i)];
    if (!p->clocked) continue;
    if (!p->has_clock && i >= f->nvars) {
      int alg = i - f->nvars - f->equations.n;
      st_loc loc = alg >= 0 ? (f->algorithms[alg].n ? f->algorithms[alg].items[0]->loc : f->loc)
                            : f->equations.items[i - f->nvars]->loc;
      st_error(cm->diag, loc, "the clock of this clocked %s cannot be inferred (no sample(u, "
               "clock), when-clock or sub-sampling relation gives it)",
               alg >= 0 ? "algorithm" : "equation");
      return -1;
    }
    if (i >= f->nvars + f->equations.n && L.has_der[i]) {
      st_error(cm->diag, L.der_loc[i], "der() in a clocked algorithm section is not supported");
      return -1;
    }
    if (L.has_der[i] && !p->c.solver) {
      st_error(cm->diag, L.der_loc[i], "clocked variables used in a continuous-time equation: "
               "sample() or hold() them, or give the clock a solverMethod");
      return -1;
    }
  }
  /* discretized partitions that need index reduction: their reduced equations instead */
  part **eq_of = st_arena_alloc(L.a, sizeof *eq_of * (size_t)(f->equations.n + 1));
  st_feq_list **reduced = st_arena_alloc(L.a, sizeof *reduced * (size_t)(n + 1));
  unsigned char *done = st_arena_alloc(L.a, (size_t)n + 1);
  if (!eq_of || !reduced || !done) return -1;
  memset(done, 0, (size_t)n + 1);
  for (int i = 0; i < f->equations.n; i++) {
    part *p = &L.parts[find(L.uf, f->nvars + i)];
    eq_of[i] = is_clock_eq[i] ? NULL : p;
  }
  for (int i = 0; i < f->equations.n; i++) {
    part *p = eq_of[i];
    int id = p ? part_id(&L, p) : 0;
    if (!p || !p->clocked || !p->c.solver || done[id]) continue;
    done[id] = 1;
    if (reduce_partition(&L, p, eq_of, &reduced[id])) return -1;
  }
  int *first = st_arena_alloc(L.a, sizeof *first * (size_t)(f->equations.n + 1));
  if (!first) return -1;
  memset(done, 0, (size_t)n + 1);
  for (int i = 0; i < f->equations.n; i++) {
    first[i] = L.eqs.n;
    if (is_clock_eq[i]) continue;
    part *p = &L.parts[find(L.uf, f->nvars + i)];
    int id = part_id(&L, p);
    if (p->clocked && p->c.solver && reduced[id]) {
      if (done[id]++) continue;
      for (int k = 0; k < reduced[id]->n; k++)
        if (rewrite_eq(&L, p, reduced[id]->items[k], &L.eqs, &L.capeqs)) return -1;
      continue;
    }
    if (rewrite_eq(&L, p->clocked ? p : NULL, f->equations.items[i], &L.eqs, &L.capeqs)) return -1;
  }
  /* the partition of each lowered equation (the stages copy them) */
  int neqs = L.eqs.n, *eq_part = st_arena_alloc(L.a, sizeof *eq_part * (size_t)neqs + 1);
  if (!eq_part) return -1;
  for (int i = 0; i < f->equations.n; i++) {
    part *p = &L.parts[find(L.uf, f->nvars + i)];
    for (int j = first[i]; j < (i + 1 < f->equations.n ? first[i + 1] : neqs); j++)
      eq_part[j] = p->clocked ? part_id(&L, p) : -1;
  }
  /* the algorithm sections, the clocked ones rewritten */
  st_fstmt_list *algs = NULL;
  if (f->nalgorithms && !(algs = st_arena_alloc(L.a, sizeof *algs * (size_t)f->nalgorithms)))
    return -1;
  for (int i = 0; i < f->nalgorithms; i++) {
    part *p = &L.parts[find(L.uf, f->nvars + f->equations.n + i)];
    st_fstmt_list *r = p->clocked ? rewrite_stmts(&L, p, &f->algorithms[i]) : NULL;
    if (p->clocked && !r) return -1;
    algs[i] = r ? *r : f->algorithms[i];
  }
  if (discretize_all(&L, eq_part, neqs)) return -1;
  if (L.errors || emit_ticks(&L)) return -1;
  st_flat_model *g = st_arena_alloc(L.a, sizeof *g);
  if (!g) return -1;
  *g = *f;
  if (drop_clocked_initial_equations(&L, g)) return -1;
  if (algs) g->algorithms = algs;
  g->vars = L.vars;
  g->nvars = L.nvars;
  g->equations = L.eqs;
  cm->p.flat = g;
  return 0;
}
