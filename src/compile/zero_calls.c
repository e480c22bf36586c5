/* Structural zeros through function bodies: an output of a call that is 0 whatever its
 * non-parameter arguments are.
 *
 * Spice3's BJT computes cc = bjtNoBypassCode(dev1, p1, c, {voltages}); with no base-collector
 * capacitance in the model card (final parameters) the output capbx is
 * junctionCapRevised(c.m_tBCcap*(1 - XCJC), vbx, ...) = 0*sarg on every path, and
 * icapbx = cc.capbx*der(vbx) then divided by zero. The body is run abstractly: every
 * scalar is a known number or unknown; arguments that are final or Evaluate parameters (or
 * zeros of zeros.c) are known, the others unknown; a product with a known 0 is 0, a branch
 * on an unknown condition runs both ways and keeps what they agree on, loops with unknown
 * ranges and anything not followed make the locals they assign unknown. Only a known 0 for
 * the output counts. zeros.c uses it for `v = f(...)` equations. */
#include "compile/model_impl.h"

#include "front/flat_expr.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct aval {
  double v;
  int known;
} aval;

typedef struct aloc {
  int n;      /* elements, -1: shape not followed (every read unknown) */
  aval *e;
} aloc;

typedef struct frame {
  const st_ffunction *fn;
  aloc *loc;
  int stop;   /* a return or break ran on the definite path */
} frame;

typedef struct actx {
  const st_compiled *cm;
  long budget; /* statements and calls left */
  int depth;
  int failed;  /* a return/break under an unknown branch, or out of budget or memory */
} actx;

static const aval unknown = {0, 0};
static aval known(double v) { return (aval){v, 1}; }
static int is_zero(aval a) { return a.known && a.v == 0; }

static aval eval(actx *c, frame *f, const st_fexpr *e);
static int exec_list(actx *c, frame *f, const st_fstmt_list *l, int forked);
static int call(actx *c, const st_fexpr *e, frame *caller, aloc *outs);

static void free_frame(frame *f) {
  if (!f->loc) return;
  for (int i = 0; i < f->fn->nlocals; i++) free(f->loc[i].e);
  free(f->loc);
  f->loc = NULL;
}

/* Larger locals are not followed: the analysis is a shortcut, not worth 16 MB of one array
 * (a saved model the fuzzer made declared 10^8 elements). */
#define ZERO_CALLS_MAX_ELEMENTS (1 << 20)

static int set_size(actx *c, aloc *l, int n) {
  free(l->e);
  l->e = NULL;
  l->n = n;
  if (n > ZERO_CALLS_MAX_ELEMENTS) return l->n = -1, -1;
  if (n <= 0) return 0;
  if (!(l->e = calloc((size_t)n, sizeof *l->e))) c->failed = 1;
  return l->e ? 0 : -1;
}

static void havoc(aloc *l) {
  for (int i = 0; i < l->n; i++) l->e[i] = unknown;
}

/* A model variable: known when a constant, a final/Evaluate parameter or a zero of zeros.c
 * (Spice3 MOS passes its constant m_bInit, whose branch gives a tiny capacitance). */
static aval model_var(actx *c, const st_fexpr *e) {
  const st_compiled *cm = c->cm;
  if (st_zero_parameter(cm, e)) return known(0);
  int s = st_ref_slot(cm, e);
  if (s < 0 || s >= cm->p.flat->nvars || cm->p.slots[s].kind != K_PARAM) return unknown;
  const st_fvar *v = &cm->p.flat->vars[s];
  return v->is_final || v->evaluate || v->variability == ST_V_CONSTANT ? known(cm->x[s])
                                                                     : unknown;
}

/* Element index of local[args...] (1-based subscripts, row-major), -1 when not known. */
static int element(actx *c, frame *f, const st_fexpr *e, const aloc **lp) {
  if (!f || e->nargs < 2 || e->args[0]->kind != FX_LOCAL) return -1;
  int li = e->args[0]->index;
  if (li < 0 || li >= f->fn->nlocals) return -1;
  const st_flocal *d = &f->fn->locals[li];
  const aloc *l = &f->loc[li];
  *lp = l;
  if (l->n < 0 || e->nargs - 1 != (d->ndims ? d->ndims : 1)) return -1;
  int idx = 0;
  for (int k = 1; k < e->nargs; k++) {
    aval a = eval(c, f, e->args[k]);
    int dim = d->ndims ? d->dims[k - 1] : l->n;
    if (k == 1 && d->ndims == 1) dim = l->n;
    if (!a.known || a.v != floor(a.v) || dim <= 0 || a.v < 1 || a.v > dim) return -1;
    idx = idx * dim + (int)a.v - 1;
  }
  return idx < l->n ? idx : -1;
}

static aval binary(actx *c, frame *f, const st_fexpr *e) {
  aval a = eval(c, f, e->args[0]), b = eval(c, f, e->args[1]);
  if (e->op == FOP_MUL && (is_zero(a) || is_zero(b))) return known(0);
  if (e->op == FOP_DIV && is_zero(a)) return known(0);
  if (e->op == FOP_AND && (is_zero(a) || is_zero(b))) return known(0);
  if (e->op == FOP_OR && ((a.known && a.v != 0) || (b.known && b.v != 0))) return known(1);
  double r;
  if (a.known && b.known && !st_fx_apply_binary(e->op, a.v, b.v, &r)) return known(r);
  return unknown;
}

static aval builtin(actx *c, frame *f, const st_fexpr *e) {
  if ((e->op == FB_NOEVENT || e->op == FB_SMOOTH || e->op == FB_HOMOTOPY) && e->nargs >= 1)
    return eval(c, f, e->args[e->op == FB_SMOOTH && e->nargs == 2 ? 1 : 0]);
  double r;
  if (e->nargs == 1) {
    aval a = eval(c, f, e->args[0]);
    if (a.known && !st_fx_apply_builtin1(e->op, a.v, &r)) return known(r);
  } else if (e->nargs == 2 && e->op != FB_SIZE) {
    aval a = eval(c, f, e->args[0]), b = eval(c, f, e->args[1]);
    if (a.known && b.known && !st_fx_apply_builtin2(e->op, a.v, b.v, &r)) return known(r);
  }
  return unknown;
}

static aval join(aval a, aval b) {
  return a.known && b.known && a.v == b.v ? a : unknown;
}

static aval call_scalar(actx *c, frame *f, const st_fexpr *e) {
  const st_ffunction *fn = &c->cm->p.flat->functions[e->index];
  aloc *outs = calloc((size_t)fn->nlocals + 1, sizeof *outs);
  if (!outs) {
    c->failed = 1;
    return unknown;
  }
  aval r = unknown;
  int k = e->value >= 1 ? (int)e->value - 1 : 0, li = -1;
  for (int i = 0, o = 0; i < fn->nlocals && li < 0; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == e->op) li = i;
  if (li >= 0 && !call(c, e, f, outs) && k < outs[li].n) r = outs[li].e[k];
  for (int i = 0; i < fn->nlocals; i++) free(outs[i].e);
  free(outs);
  return r;
}

static aval eval(actx *c, frame *f, const st_fexpr *e) {
  if (!e || c->failed) return unknown;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: return known(e->value);
  case FX_VAR: return f ? unknown : model_var(c, e);
  case FX_LOCAL:
    if (f && e->index >= 0 && e->index < f->fn->nlocals && f->loc[e->index].n == 1)
      return f->loc[e->index].e[0];
    return unknown;
  case FX_INDEX: {
    const aloc *l = NULL;
    int i = element(c, f, e, &l);
    return i >= 0 ? l->e[i] : unknown;
  }
  case FX_UNARY: {
    aval a = e->nargs == 1 ? eval(c, f, e->args[0]) : unknown;
    if (!a.known) return unknown;
    if (e->op == FOP_NEG) return known(-a.v);
    if (e->op == FOP_NOT) return known(a.v == 0);
    return unknown;
  }
  case FX_BINARY: return e->nargs == 2 ? binary(c, f, e) : unknown;
  case FX_BUILTIN: return builtin(c, f, e);
  case FX_IF: {
    if (e->nargs != 3) return unknown;
    aval q = eval(c, f, e->args[0]);
    if (q.known) return eval(c, f, e->args[q.v != 0 ? 1 : 2]);
    return join(eval(c, f, e->args[1]), eval(c, f, e->args[2]));
  }
  case FX_CALL: return call_scalar(c, f, e);
  default: return unknown;
  }
}

/* The elements of e into a fresh aloc: a local (whole), nested {...}, or a scalar; n -1 for
 * shapes not followed. */
static int eval_into(actx *c, frame *f, const st_fexpr *e, aloc *out) {
  if (f && e->kind == FX_LOCAL && e->index >= 0 && e->index < f->fn->nlocals) {
    const aloc *l = &f->loc[e->index];
    if (set_size(c, out, l->n)) return -1;
    if (l->n > 0) memcpy(out->e, l->e, (size_t)l->n * sizeof *l->e);
    return 0;
  }
  if (e->kind == FX_ARRAY) {
    aloc *parts = calloc((size_t)e->nargs + 1, sizeof *parts);
    int n = 0;
    if (!parts) return c->failed = 1, -1;
    for (int i = 0; i < e->nargs; i++) {
      eval_into(c, f, e->args[i], &parts[i]);
      n = parts[i].n < 0 || n < 0 || n > ZERO_CALLS_MAX_ELEMENTS ? -1 : n + parts[i].n;
    }
    int rc = set_size(c, out, n);
    for (int i = 0, k = 0; i < e->nargs; i++) {
      for (int j = 0; !rc && n > 0 && j < parts[i].n; j++) out->e[k++] = parts[i].e[j];
      free(parts[i].e);
    }
    free(parts);
    return rc;
  }
  if (e->kind == FX_CALL || e->kind == FX_BUILTIN || e->kind == FX_BINARY ||
      e->kind == FX_IF) {
    /* may be an array of a shape not followed: only a scalar function's result counts */
    if (e->kind == FX_CALL) {
      const st_ffunction *fn = &c->cm->p.flat->functions[e->index];
      int o = 0;
      for (int i = 0; i < fn->nlocals; i++)
        if (fn->locals[i].causality == ST_C_OUTPUT && o++ == e->op && fn->locals[i].ndims &&
            e->value < 1)
          return set_size(c, out, -1);
    } else if (f && st_fx_uses_local(e)) {
      /* an expression over array locals (a + b) is not followed */
      for (int i = 0; i < e->nargs; i++)
        if (e->args[i]->kind == FX_LOCAL && e->args[i]->index >= 0 &&
            f->loc[e->args[i]->index].n != 1)
          return set_size(c, out, -1);
    }
  }
  if (set_size(c, out, 1)) return -1;
  out->e[0] = eval(c, f, e);
  return 0;
}

static int declared_size(actx *c, frame *f, int i) {
  const st_flocal *d = &f->fn->locals[i];
  if (d->ndims > 4) return -1;
  int n = 1;
  for (int k = 0; k < d->ndims; k++) {
    int m = d->dims[k];
    if (m < 0 && d->size[k]) {
      aval a = eval(c, f, d->size[k]);
      m = a.known && a.v >= 0 && a.v <= 1e6 ? (int)a.v : -1;
    }
    if (m < 0 || (m > 0 && n > ZERO_CALLS_MAX_ELEMENTS / m)) return -1; /* no int overflow */
    n *= m;
  }
  return n;
}

/* The inputs e gives fn, evaluated in the caller (the model when caller is NULL) into in[]
 * (one per input given); their count, -1 when out of budget or memory. They depend on the
 * caller only, not on fn's frame: st_call_is_zero keys its memo on them. */
static int eval_args(actx *c, const st_fexpr *e, frame *caller, const st_ffunction *fn,
                     aloc *in) {
  int a = 0;
  for (int i = 0; i < fn->nlocals && a < e->nargs; i++)
    if (fn->locals[i].causality == ST_C_INPUT) {
      if (eval_into(c, caller, e->args[a], &in[a])) return -1;
      a++;
    }
  return a;
}

/* Frame of fn for the call e: the given inputs taken from in[] (moved), defaults and
 * bindings evaluated in order. */
static int enter(actx *c, const st_fexpr *e, aloc *in, frame *f) {
  const st_ffunction *fn = f->fn;
  if (!(f->loc = calloc((size_t)fn->nlocals + 1, sizeof *f->loc))) return c->failed = 1, -1;
  int a = 0;
  for (int i = 0; i < fn->nlocals; i++) {
    const st_flocal *d = &fn->locals[i];
    if (d->causality == ST_C_INPUT && a < e->nargs) {
      f->loc[i] = in[a];
      in[a++] = (aloc){0, NULL};
      continue;
    }
    if (set_size(c, &f->loc[i], declared_size(c, f, i))) return -1;
    havoc(&f->loc[i]);
  }
  for (int i = 0, in_k = 0; i < fn->nlocals; i++) {
    const st_flocal *d = &fn->locals[i];
    int given = d->causality == ST_C_INPUT && in_k++ < e->nargs;
    if (!d->binding || given) continue;
    aloc v = {0, NULL};
    if (eval_into(c, f, d->binding, &v)) return -1;
    if (v.n >= 0 && (f->loc[i].n < 0 || v.n == f->loc[i].n)) {
      free(f->loc[i].e);
      f->loc[i] = v;
    } else {
      free(v.e);
      havoc(&f->loc[i]);
    }
  }
  return 0;
}

static void free_alocs(aloc *l, int n) {
  for (int i = 0; l && i < n; i++) free(l[i].e);
  free(l);
}

/* The outputs of fn for the inputs in[] (given by e, consumed) in outs (indexed by local);
 * -1 when the body was not followed. */
static int run_body(actx *c, const st_fexpr *e, const st_ffunction *fn, aloc *in,
                    aloc *outs) {
  frame f = {fn, NULL, 0};
  int failed = c->failed, rc = -1;
  c->depth++;
  if (!enter(c, e, in, &f) && !exec_list(c, &f, &fn->body, 0) && !c->failed) {
    rc = 0;
    for (int i = 0; i < fn->nlocals; i++)
      if (fn->locals[i].causality == ST_C_OUTPUT) {
        outs[i] = f.loc[i];
        f.loc[i].e = NULL;
      }
  }
  c->depth--;
  /* a callee not followed leaves its outputs unknown, the caller goes on */
  if (!failed && c->budget >= 0) c->failed = 0;
  free_frame(&f);
  return rc;
}

/* The function e calls when the analysis follows it (pure, in the model, within depth and
 * budget), else NULL. */
static const st_ffunction *followed(actx *c, const st_fexpr *e) {
  const st_flat_model *flat = c->cm->p.flat;
  if (e->index < 0 || e->index >= flat->nfunctions || c->depth > 12 || --c->budget < 0)
    return NULL;
  const st_ffunction *fn = &flat->functions[e->index];
  return fn->external_name || fn->ext || fn->is_impure ? NULL : fn;
}

/* The outputs of e in outs (indexed by local); -1 when the body was not followed. */
static int call(actx *c, const st_fexpr *e, frame *caller, aloc *outs) {
  const st_ffunction *fn = followed(c, e);
  if (!fn) return -1;
  aloc *in = calloc((size_t)e->nargs + 1, sizeof *in);
  if (!in) return c->failed = 1, -1;
  int rc = eval_args(c, e, caller, fn, in) < 0 ? -1 : run_body(c, e, fn, in, outs);
  free_alocs(in, e->nargs);
  return rc;
}

static void assign(actx *c, frame *f, const st_fexpr *t, aloc *v) {
  if (!t) return;
  if (t->kind == FX_LOCAL && t->index >= 0 && t->index < f->fn->nlocals) {
    aloc *l = &f->loc[t->index];
    if (v->n >= 0 && (l->n < 0 || v->n == l->n || f->fn->locals[t->index].ndims)) {
      free(l->e);
      *l = *v;
      v->e = NULL;
    } else {
      havoc(l);
    }
    return;
  }
  if (t->kind == FX_INDEX && t->nargs >= 1 && t->args[0]->kind == FX_LOCAL) {
    const aloc *cl = NULL;
    int i = element(c, f, t, &cl);
    aloc *l = &f->loc[t->args[0]->index];
    if (i >= 0 && v->n == 1) l->e[i] = v->e[0];
    else havoc(l);
  }
}

static void havoc_targets(frame *f, const st_fstmt_list *l);

static void havoc_target(frame *f, const st_fexpr *t) {
  if (t && t->kind == FX_INDEX && t->nargs >= 1) t = t->args[0];
  if (t && t->kind == FX_LOCAL && t->index >= 0 && t->index < f->fn->nlocals)
    havoc(&f->loc[t->index]);
}

/* Every local a statement list may assign becomes unknown. */
static void havoc_targets(frame *f, const st_fstmt_list *l) {
  for (int i = 0; l && i < l->n; i++) {
    const st_fstmt *s = l->items[i];
    havoc_target(f, s->target);
    for (int k = 0; k < s->ntargets; k++) havoc_target(f, s->targets[k]);
    if (s->kind == FS_FOR && s->loop_local >= 0 && s->loop_local < f->fn->nlocals)
      havoc(&f->loc[s->loop_local]);
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_FOR || s->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; s->branches && b < nb; b++) havoc_targets(f, &s->branches[b]);
  }
}

static int copy_frame(actx *c, const frame *f, frame *g) {
  *g = (frame){f->fn, calloc((size_t)f->fn->nlocals + 1, sizeof *g->loc), 0};
  if (!g->loc) return c->failed = 1, -1;
  for (int i = 0; i < f->fn->nlocals; i++) {
    if (set_size(c, &g->loc[i], f->loc[i].n)) return -1;
    if (f->loc[i].n > 0) memcpy(g->loc[i].e, f->loc[i].e, (size_t)f->loc[i].n * sizeof(aval));
  }
  return 0;
}

/* f := what f and g agree on */
static void join_frames(frame *f, const frame *g) {
  for (int i = 0; i < f->fn->nlocals; i++) {
    aloc *a = &f->loc[i];
    const aloc *b = &g->loc[i];
    if (a->n != b->n) {
      free(a->e);
      a->e = NULL;
      a->n = -1;
      continue;
    }
    for (int k = 0; k < a->n; k++) a->e[k] = join(a->e[k], b->e[k]);
  }
}

/* if-statement from condition k on */
static int exec_if(actx *c, frame *f, const st_fstmt *s, int k, int forked) {
  for (; k < s->nconds; k++) {
    aval q = eval(c, f, s->conds[k]);
    if (q.known && q.v != 0) return exec_list(c, f, &s->branches[k], forked);
    if (q.known) continue;
    frame g;
    if (copy_frame(c, f, &g)) return -1;
    int rc = exec_list(c, &g, &s->branches[k], 1) || exec_if(c, f, s, k + 1, 1);
    if (!rc) join_frames(f, &g);
    free_frame(&g);
    return rc;
  }
  return exec_list(c, f, &s->branches[s->nconds], forked);
}

static int exec_for(actx *c, frame *f, const st_fstmt *s, int forked) {
  const st_fexpr *r = s->range;
  aval a = unknown, b = unknown, st = known(1);
  if (r && r->kind == FX_RANGE && r->nargs >= 2) {
    a = eval(c, f, r->args[0]);
    b = eval(c, f, r->args[r->nargs - 1]);
    if (r->nargs == 3) st = eval(c, f, r->args[1]);
  }
  int lv = s->loop_local;
  if (!a.known || !b.known || !st.known || st.v == 0 || fabs((b.v - a.v) / st.v) > 1e5 ||
      lv < 0 || lv >= f->fn->nlocals || f->loc[lv].n != 1) {
    havoc_targets(f, &s->branches[0]);
    return 0;
  }
  for (double x = a.v; st.v > 0 ? x <= b.v : x >= b.v; x += st.v) {
    f->loc[lv].e[0] = known(x);
    if (exec_list(c, f, &s->branches[0], forked)) return -1;
    if (f->stop) {
      f->stop = f->stop == 2 ? 0 : f->stop; /* break ends the loop, return the body */
      break;
    }
  }
  return 0;
}

static int exec_stmt(actx *c, frame *f, const st_fstmt *s, int forked) {
  if (--c->budget < 0) return c->failed = 1, -1;
  switch (s->kind) {
  case FS_ASSIGN: {
    aloc v = {0, NULL};
    if (eval_into(c, f, s->value, &v)) return -1;
    assign(c, f, s->target, &v);
    free(v.e);
    return 0;
  }
  case FS_TUPLE: {
    const st_fexpr *e = s->value;
    if (!e || e->kind != FX_CALL || e->index < 0 || e->index >= c->cm->p.flat->nfunctions) {
      for (int k = 0; k < s->ntargets; k++) havoc_target(f, s->targets[k]);
      return 0;
    }
    const st_ffunction *fn = &c->cm->p.flat->functions[e->index];
    aloc *outs = calloc((size_t)fn->nlocals + 1, sizeof *outs);
    if (!outs) return c->failed = 1, -1;
    int ok = !call(c, e, f, outs);
    for (int i = 0, k = 0; i < fn->nlocals && k < s->ntargets; i++) {
      if (fn->locals[i].causality != ST_C_OUTPUT) continue;
      if (ok) assign(c, f, s->targets[k], &outs[i]);
      else havoc_target(f, s->targets[k]);
      k++;
    }
    for (int i = 0; i < fn->nlocals; i++) free(outs[i].e);
    free(outs);
    return 0;
  }
  case FS_IF: return exec_if(c, f, s, 0, forked);
  case FS_FOR: return exec_for(c, f, s, forked);
  case FS_WHILE: {
    aval q = s->nconds ? eval(c, f, s->conds[0]) : unknown;
    if (!(q.known && q.v == 0)) havoc_targets(f, &s->branches[0]);
    return 0;
  }
  case FS_RETURN: case FS_BREAK:
    if (forked) return c->failed = 1, -1;
    f->stop = s->kind == FS_BREAK ? 2 : 1;
    return 0;
  default: return 0; /* assert, terminate, calls for their effects */
  }
}

static int exec_list(actx *c, frame *f, const st_fstmt_list *l, int forked) {
  for (int i = 0; l && i < l->n && !f->stop; i++)
    if (exec_stmt(c, f, l->items[i], forked)) return -1;
  return c->failed ? -1 : 0;
}

/* The memo of st_call_is_zero: the analysis of a call depends only on the function and its
 * inputs as evaluated in the model (a fresh budget each, model variables are unknown inside
 * the body), so calls with the same abstract inputs share one run of the body: Spice3's
 * BJT asks for each of its ~20 outputs of bjtNoBypassCode(...) in its own equation, with the
 * same model card in every transistor. */
typedef struct zentry {
  struct zentry *next;
  uint64_t hash;
  int fn, nin;       /* function index, inputs given */
  aloc *in;          /* the inputs as evaluated (the key) */
  int ok;            /* the body was followed: outs holds its outputs */
  int nlocals;
  aloc *outs;        /* per local of fn, the outputs filled */
} zentry;

struct st_zero_memo {
  zentry **bucket;
  size_t nbuckets, n;
  long runs, hits;
};

st_zero_memo *st_zero_memo_new(void) { return calloc(1, sizeof(st_zero_memo)); }

void st_zero_memo_free(st_zero_memo *m) {
  if (!m) return;
  for (size_t b = 0; b < m->nbuckets; b++)
    for (zentry *z = m->bucket[b], *next; z; z = next) {
      next = z->next;
      free_alocs(z->in, z->nin);
      free_alocs(z->outs, z->nlocals);
      free(z);
    }
  free(m->bucket);
  free(m);
}

long st_zero_memo_runs(const st_zero_memo *m) { return m ? m->runs : 0; }

/* One 64-bit word into the key's hash (FNV-1a's prime over words, not bytes: the key of a
 * transistor's call has ~100 inputs and is hashed at each of its ~20 equations). */
static uint64_t mix(uint64_t h, uint64_t w) { return (h ^ w) * 0x100000001b3ULL; }

/* An unknown's value is no part of the key. */
static uint64_t key_hash(int fn, const aloc *in, int nin) {
  uint64_t h = mix(mix(0xcbf29ce484222325ULL, (uint64_t)fn), (uint64_t)nin);
  for (int a = 0; a < nin; a++) {
    h = mix(h, (uint64_t)(int64_t)in[a].n);
    for (int k = 0; k < in[a].n; k++) {
      uint64_t bits = 0;
      if (in[a].e[k].known) memcpy(&bits, &in[a].e[k].v, sizeof bits);
      h = mix(mix(h, (uint64_t)in[a].e[k].known), bits);
    }
  }
  return h;
}

static int same_aval(aval a, aval b) {
  return a.known == b.known && (!a.known || memcmp(&a.v, &b.v, sizeof a.v) == 0);
}

static int same_key(const zentry *z, uint64_t hash, int fn, const aloc *in, int nin) {
  if (z->hash != hash || z->fn != fn || z->nin != nin) return 0;
  for (int a = 0; a < nin; a++) {
    if (z->in[a].n != in[a].n) return 0;
    for (int k = 0; k < in[a].n; k++)
      if (!same_aval(z->in[a].e[k], in[a].e[k])) return 0;
  }
  return 1;
}

static zentry *memo_find(const st_zero_memo *m, uint64_t hash, int fn, const aloc *in,
                         int nin) {
  if (!m->nbuckets) return NULL;
  for (zentry *z = m->bucket[hash % m->nbuckets]; z; z = z->next)
    if (same_key(z, hash, fn, in, nin)) return z;
  return NULL;
}

static int memo_grow(st_zero_memo *m) {
  size_t nb = m->nbuckets ? 2 * m->nbuckets : 64;
  zentry **b = calloc(nb, sizeof *b);
  if (!b) return -1;
  for (size_t i = 0; i < m->nbuckets; i++)
    for (zentry *z = m->bucket[i], *next; z; z = next) {
      next = z->next;
      z->next = b[z->hash % nb];
      b[z->hash % nb] = z;
    }
  free(m->bucket);
  m->bucket = b;
  m->nbuckets = nb;
  return 0;
}

/* A copy of in[0..nin) (the key; run_body consumes the inputs). */
static aloc *copy_alocs(const aloc *in, int nin) {
  aloc *r = calloc((size_t)nin + 1, sizeof *r);
  for (int a = 0; r && a < nin; a++) {
    r[a].n = in[a].n;
    if (in[a].n <= 0) continue;
    if (!(r[a].e = malloc((size_t)in[a].n * sizeof *r[a].e))) {
      free_alocs(r, a);
      return NULL;
    }
    memcpy(r[a].e, in[a].e, (size_t)in[a].n * sizeof *r[a].e);
  }
  return r;
}

/* The entry of the call e whose inputs in[0..nin) were evaluated in the model: found, or
 * the body run now and kept; NULL when out of memory. */
static zentry *memo_entry(actx *c, st_zero_memo *m, const st_fexpr *e,
                          const st_ffunction *fn, aloc *in, int nin) {
  uint64_t hash = key_hash(e->index, in, nin);
  zentry *z = memo_find(m, hash, e->index, in, nin);
  if (z) {
    m->hits++;
    return z;
  }
  if (m->n >= m->nbuckets && memo_grow(m)) return NULL;
  if (!(z = calloc(1, sizeof *z))) return NULL;
  *z = (zentry){NULL, hash, e->index, nin, copy_alocs(in, nin), 0, fn->nlocals,
                calloc((size_t)fn->nlocals + 1, sizeof(aloc))};
  if (!z->in || !z->outs) {
    free_alocs(z->in, nin);
    free(z->outs);
    free(z);
    return NULL;
  }
  m->runs++;
  z->ok = !run_body(c, e, fn, in, z->outs) && !c->failed;
  z->next = m->bucket[hash % m->nbuckets];
  m->bucket[hash % m->nbuckets] = z;
  m->n++;
  return z;
}

int st_call_is_zero(const st_compiled *cm, st_zero_memo *m, const st_fexpr *e) {
  if (!e || e->kind != FX_CALL || e->index < 0 || e->index >= cm->p.flat->nfunctions)
    return 0;
  actx c = {cm, 200000, 0, 0};
  const st_ffunction *fn = &cm->p.flat->functions[e->index];
  int li = -1;
  for (int i = 0, o = 0; i < fn->nlocals && li < 0; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == e->op) li = i;
  if (li < 0 || !(fn = followed(&c, e))) return 0;
  aloc *in = calloc((size_t)e->nargs + 1, sizeof *in);
  if (!in) return 0;
  int nin = eval_args(&c, e, NULL, fn, in);
  const zentry *z = nin < 0 || c.failed ? NULL : memo_entry(&c, m, e, fn, in, nin);
  free_alocs(in, e->nargs);
  int k = e->value >= 1 ? (int)e->value - 1 : 0;
  return z && z->ok && k < z->outs[li].n && is_zero(z->outs[li].e[k]);
}
