/* Classification of the flat variables (parameters, discrete, states, algebraics) and the
 * evaluation of parameters in dependency order. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "front/flat_expr.h"

static void mark_der(const st_fexpr *e, unsigned char *is_state) {
  if (!e) return;
  if (e->kind == FX_BUILTIN && e->op == FB_DER && e->nargs == 1 && e->args[0]->kind == FX_VAR)
    is_state[e->args[0]->index] = 1;
  for (int i = 0; i < e->nargs; i++) mark_der(e->args[i], is_state);
}

static void scan_list(const st_feq_list *l, unsigned char *is_state, unsigned char *in_when,
                      int inside_when);

void st_mark_when_targets(const st_fexpr *e, unsigned char *in_when) {
  if (!e) return;
  if (e->kind == FX_VAR) in_when[e->index] = 1;
  for (int i = 0; e->kind == FX_ARRAY && i < e->nargs; i++)
    st_mark_when_targets(e->args[i], in_when);
}

static void scan_eq(const st_feq *q, unsigned char *is_state, unsigned char *in_when,
                    int inside_when) {
  mark_der(q->lhs, is_state);
  mark_der(q->rhs, is_state);
  for (int i = 0; i < q->nconds; i++) mark_der(q->conds[i], is_state);
  if (inside_when && q->kind == FE_EQUAL && q->lhs && q->lhs->kind == FX_VAR)
    in_when[q->lhs->index] = 1;
  for (int i = 0; inside_when && q->kind == FE_TUPLE && i < q->ntuple; i++)
    st_mark_when_targets(q->tuple[i], in_when);
  if (q->kind == FE_IF || q->kind == FE_WHEN) {
    int nb = q->kind == FE_IF ? q->nconds + 1 : q->nconds;
    for (int b = 0; b < nb; b++)
      scan_list(&q->branches[b], is_state, in_when, inside_when || q->kind == FE_WHEN);
  }
}

static void scan_list(const st_feq_list *l, unsigned char *is_state, unsigned char *in_when,
                      int inside_when) {
  for (int i = 0; i < l->n; i++) scan_eq(l->items[i], is_state, in_when, inside_when);
}

static st_kind kind_of(const st_fvar *v, int state, int when) {
  /* strings are only kept as text (messages, annotations' names): also String parameters */
  if (v->type == ST_T_STRING || v->type == ST_T_CLOCK) return K_IGNORED;
  /* a parameter(fixed = false) without binding is computed by the initial equations (section
   * 8.6) and held: like a variable assigned only at initialization (equations.c) */
  if (v->variability == ST_V_PARAMETER && v->fixed == 0 && !v->binding) return K_WHEN;
  if (v->variability == ST_V_CONSTANT || v->variability == ST_V_PARAMETER) return K_PARAM;
  if (when) return K_WHEN;
  if (state) return K_STATE;
  if (v->variability == ST_V_DISCRETE || v->type != ST_T_REAL) return K_DISCRETE;
  if (v->causality == ST_C_INPUT && !strchr(v->name, '.') && !v->binding) return K_INPUT;
  return K_ALG;
}

static int setup_slots(st_compiled *cm, const unsigned char *is_state,
                       const unsigned char *in_when) {
  const st_flat_model *f = cm->p.flat;
  for (int i = 0; i < f->nvars; i++) cm->p.nstates += is_state[i] && !in_when[i];
  cm->p.nslots = f->nvars + cm->p.nstates;
  /* on the heap, where index reduction grows it in place (build.c free_proto frees it) */
  cm->p.slots = calloc((size_t)cm->p.nslots + 1, sizeof *cm->p.slots);
  cm->p.state_slot = st_arena_alloc(cm->p.arena, (size_t)cm->p.nstates * sizeof(int) + 1);
  if (!cm->p.slots || !cm->p.state_slot) return -1;
  int ns = 0;
  for (int i = 0; i < f->nvars; i++) {
    const st_fvar *v = &f->vars[i];
    st_slot *s = &cm->p.slots[i];
    *s = (st_slot){.name = v->name, .kind = kind_of(v, is_state[i], in_when[i]), .flat = i,
                   .state = -1, .der = -1, .alias_of = -1, .alias_sign = 1,
                   .is_bool = v->type == ST_T_BOOLEAN, .loc = v->loc, .fixed = v->fixed == 1};
    if (s->kind == K_PARAM && in_when[i]) {
      st_error(cm->diag, v->loc, "parameter '%s' is assigned in a when-equation", v->name);
      return -1;
    }
    if (s->kind != K_STATE) continue;
    int d = f->nvars + ns;
    s->state = ns;
    s->der = d;
    cm->p.state_slot[ns] = i;
    cm->p.slots[d] = (st_slot){.name = st_arena_concat(cm->p.arena, "der(", v->name, ")"),
                               .kind = K_DER, .flat = -1, .state = ns, .der = -1,
                               .alias_of = -1, .alias_sign = 1, .loc = v->loc};
    ns++;
  }
  return 0;
}

static int reads_initial_parameter(const st_compiled *cm, const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_VAR) {
    const st_fvar *v = &cm->p.flat->vars[e->index];
    return cm->p.slots[e->index].kind == K_WHEN && v->variability == ST_V_PARAMETER;
  }
  for (int i = 0; i < e->nargs; i++)
    if (reads_initial_parameter(cm, e->args[i])) return 1;
  return 0;
}

/* A Real parameter whose binding reads a parameter with fixed = false (a spring's c = c0
 * where c0 is found by the initial equations) is itself computed at initialization: its
 * binding becomes an initial equation (equations.c) and it is held afterwards, like them. */
static int bind_initial_parameters(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  cm->p.init_bound = st_arena_alloc(cm->p.arena, (size_t)f->nvars + 1);
  if (!cm->p.init_bound) return -1;
  memset(cm->p.init_bound, 0, (size_t)f->nvars + 1);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 0; i < f->nvars; i++) {
      const st_fvar *v = &f->vars[i];
      if (cm->p.slots[i].kind != K_PARAM || v->variability != ST_V_PARAMETER ||
          v->type != ST_T_REAL || !v->binding || !reads_initial_parameter(cm, v->binding))
        continue;
      cm->p.slots[i].kind = K_WHEN;
      cm->p.init_bound[i] = 1;
      changed = 1;
    }
  }
  return 0;
}

int st_classify(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  unsigned char *is_state = calloc((size_t)f->nvars + 1, 1);
  unsigned char *in_when = calloc((size_t)f->nvars + 1, 1);
  int rc = -1;
  if (is_state && in_when) {
    scan_list(&f->equations, is_state, in_when, 0);
    scan_list(&f->initial_equations, is_state, in_when, 0);
    /* declaration equations too: wMechanical = der(phiMechanical) (Machines' PartialBasicMachine) */
    for (int i = 0; i < f->nvars; i++)
      if (f->vars[i].variability > ST_V_PARAMETER) mark_der(f->vars[i].binding, is_state);
    st_algorithms_scan(f, is_state, in_when);
    rc = setup_slots(cm, is_state, in_when) || bind_initial_parameters(cm) ? -1 : 0;
  }
  free(is_state);
  free(in_when);
  return rc;
}

/* Parameters: bindings may reference other parameters; evaluate in dependency order found by
 * depth-first search, reporting a cycle at the declaration. */
typedef struct order_ctx {
  st_compiled *cm;
  unsigned char *mark; /* 0 new, 1 on the path, 2 done */
  int n;
  int failed;
} order_ctx;

static const st_fexpr *param_expr(const st_fvar *v) {
  return v->binding ? v->binding : v->start;
}

static void visit_param(order_ctx *c, int i);

/* The value of a constant, or of a final or Evaluate = true parameter with a binding: what a
 * condition may be decided by while translating. */
static st_fexpr *decided_binding(void *ctx, int var) {
  const order_ctx *c = ctx;
  const st_fvar *v = &c->cm->p.flat->vars[var];
  if (v->variability == ST_V_CONSTANT) return (st_fexpr *)param_expr(v);
  return c->cm->p.slots[var].kind == K_PARAM && (v->is_final || v->evaluate)
             ? (st_fexpr *)v->binding : NULL;
}

static void pin_refs(order_ctx *c, const st_fexpr *e) {
  if (!e) return;
  if (e->kind == FX_VAR) c->cm->p.pinned_param[e->index] = 1;
  for (int i = 0; i < e->nargs; i++) pin_refs(c, e->args[i]);
}

/* `T_start = if use_T_start then system.T_start else f(h_start)` beside `h_start = if
 * use_T_start then g(T_start) else h_default` (MSL Fluid): a condition decided by constants
 * and final or Evaluate parameters orders only the branch taken; those parameters keep
 * their value (st_zero_parameters_hold). 1 with *branch set when decided. */
static int decided_if(order_ctx *c, const st_fexpr *e, const st_fexpr **branch) {
  double v;
  if (e->kind != FX_IF || e->nargs != 3 ||
      st_fx_eval(e->args[0], decided_binding, c, &v) != 0)
    return 0;
  pin_refs(c, e->args[0]);
  *branch = e->args[v != 0 ? 1 : 2];
  return 1;
}

static void visit_refs(order_ctx *c, const st_fexpr *e, int from) {
  if (!e || c->failed) return;
  if (e->kind == FX_VAR) {
    const st_slot *s = &c->cm->p.slots[e->index];
    const st_fvar *v = &c->cm->p.flat->vars[e->index];
    if (s->kind == K_IGNORED && v->type == ST_T_STRING) { /* emitted as its binding (emit.c) */
      if (c->mark[e->index] == 1) {
        st_error(c->cm->diag, v->loc, "parameter '%s' is defined in terms of itself", s->name);
        c->failed = 1;
        return;
      }
      c->mark[e->index] = 1;
      visit_refs(c, v->binding, from);
      c->mark[e->index] = 0;
      return;
    }
    if (s->kind == K_PARAM) visit_param(c, e->index);
    else if (s->kind != K_INPUT) {
      st_error(c->cm->diag, e->loc, "the value of parameter '%s' depends on variable '%s'",
               c->cm->p.slots[from].name, s->name);
      c->failed = 1;
    }
    return;
  }
  const st_fexpr *branch;
  if (decided_if(c, e, &branch)) {
    visit_refs(c, e->args[0], from);
    visit_refs(c, branch, from);
    return;
  }
  for (int i = 0; i < e->nargs; i++) visit_refs(c, e->args[i], from);
}

static void visit_param(order_ctx *c, int i) {
  if (c->mark[i] == 2 || c->failed) return;
  if (c->mark[i] == 1) {
    st_error(c->cm->diag, c->cm->p.flat->vars[i].loc,
             "parameter '%s' is defined in terms of itself", c->cm->p.slots[i].name);
    c->failed = 1;
    return;
  }
  c->mark[i] = 1;
  visit_refs(c, param_expr(&c->cm->p.flat->vars[i]), i);
  c->mark[i] = 2;
  c->cm->p.param_order[c->n++] = i;
}

/* Parameters in evaluation order; one bound to another output or field of the call the
 * previous one is bound to takes a copy of its program (st_emit_again). */
static int compile_param_progs(st_compiled *cm) {
  const st_fexpr *prev_e = NULL;
  const st_prog *prev = NULL;
  for (int k = 0; k < cm->p.nparams; k++) {
    int i = cm->p.param_order[k];
    const st_fexpr *e = param_expr(&cm->p.flat->vars[i]);
    if (!e) continue;
    int again = st_emit_again(cm, &cm->p.param_prog[i], prev, prev_e, e);
    if (again < 0 || (!again && st_emit(cm, &cm->p.param_prog[i], e, EMIT_PLAIN))) return -1;
    prev_e = e;
    prev = &cm->p.param_prog[i];
  }
  return 0;
}

int st_eval_parameters(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  order_ctx c = {cm, calloc((size_t)f->nvars + 1, 1), 0, 0};
  cm->p.param_order = st_arena_alloc(cm->p.arena, (size_t)f->nvars * sizeof(int) + 1);
  cm->p.param_prog = st_arena_alloc(cm->p.arena, (size_t)f->nvars * sizeof(st_prog) + 1);
  cm->param_overridden = st_arena_alloc(cm->p.arena, (size_t)f->nvars + 1);
  cm->p.pinned_param = st_arena_alloc(cm->p.arena, (size_t)f->nvars + 1);
  if (!c.mark || !cm->p.param_order || !cm->p.param_prog || !cm->param_overridden ||
      !cm->p.pinned_param) {
    free(c.mark);
    return -1;
  }
  for (int i = 0; i < f->nvars && !c.failed; i++)
    if (cm->p.slots[i].kind == K_PARAM) visit_param(&c, i);
  free(c.mark);
  cm->p.nparams = c.n;
  return c.failed ? -1 : compile_param_progs(cm);
}
