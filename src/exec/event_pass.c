/* Discrete semantics: when-equations (with elsewhen, reinit, terminate), asserts, time
 * events, and one pass of the event iteration for the runtime. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exec/delay.h"
#include "compile/model_impl.h"

int st_mentions_initial(const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && e->op == FB_INITIAL) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (st_mentions_initial(e->args[i])) return 1;
  return 0;
}

/* Reports a failed assert with its message built from the values now when it is. */
static void assert_failed(st_compiled *cm, st_loc loc, double t, const char *message,
                          const st_message *built, int warning) {
  char *text = built ? st_message_eval(cm, built) : NULL;
  if (warning) st_warning(cm->diag, loc, "assertion failed at time %.17g: %s", t, text ? text : message);
  else st_fail(cm, loc, "assertion failed at time %.17g: %s", t, text ? text : message);
  free(text);
}

static int compile_action(st_compiled *cm, st_action *a, const st_feq *q) {
  a->loc = q->loc;
  switch (q->kind) {
  case FE_EQUAL: {
    int s = q->lhs->kind == FX_VAR ? st_ref_slot(cm, q->lhs) : -1;
    if (s < 0 || cm->p.slots[s].kind != K_WHEN) {
      st_error(cm->diag, q->loc, "a when-equation must have a variable on its left side");
      return -1;
    }
    a->kind = A_ASSIGN;
    a->slot = s;
    return st_emit(cm, &a->value, q->rhs, 0);
  }
  case FE_REINIT: {
    int s = q->lhs->kind == FX_VAR ? st_ref_slot(cm, q->lhs) : -1;
    if (s < 0 || cm->p.slots[s].kind != K_STATE) {
      st_error(cm->diag, q->loc, "reinit() needs a state variable (a variable whose der() appears)");
      return -1;
    }
    a->kind = A_REINIT;
    a->slot = s;
    return st_emit(cm, &a->value, q->rhs, 0);
  }
  case FE_TERMINATE:
    a->kind = A_TERMINATE;
    a->message = st_message_compile(cm, q->message, &a->built);
    a->built = NULL; /* the runtime keeps the text: a constant one */
    return 0;
  case FE_ASSERT:
    a->kind = A_ASSERT;
    a->message = st_message_compile(cm, q->message, &a->built);
    return st_emit(cm, &a->value, q->rhs, 0);
  case FE_CALL: /* a function called for its effects (Streams.close(file) at terminal()) */
    if (!q->rhs || q->rhs->kind != FX_CALL) break;
    a->kind = A_CALL;
    return st_emit(cm, &a->value, q->rhs, 0);
  default: break;
  }
  st_error(cm->diag, q->loc, "this equation is not supported inside a when-equation");
  return -1;
}

static int grow(st_compiled *cm, void **items, int n, size_t size) {
  if (n & (n - 1)) return 0; /* capacities are powers of two */
  void *p = st_arena_alloc(cm->p.arena, size * (size_t)(n ? 2 * n : 1));
  if (!p) return -1;
  if (n) memcpy(p, *items, size * (size_t)n);
  *items = p;
  return 0;
}

/* Whether e reads slot s (not through pre(): that is the value before the instant). */
static int reads_slot(const st_compiled *cm, const st_fexpr *e, int s) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && e->op == FB_PRE) return 0;
  if (e->kind == FX_VAR) return st_ref_slot(cm, e) == s;
  for (int i = 0; i < e->nargs; i++)
    if (reads_slot(cm, e->args[i], s)) return 1;
  return 0;
}

/* The equations of a branch hold simultaneously: an assignment whose right side reads a
 * variable that another assignment of the branch sets sees the new value (nextTimeEvent =
 * f(nextTimeEventScaled) in the MSL's tables). Levels: 0 for an assignment reading none of
 * them, else one more than the highest it reads; fire() evaluates and assigns level by level,
 * so the assignments of one level see the values before the instant, as before. Variables
 * the compiler made (names starting with '$': clocks.c's latches, read with the value before
 * the tick) create no dependency; on a cycle the levels stop growing. */
static void level_actions(st_compiled *cm, st_action *a, const st_feq_list *l) {
  int n = l->n;
  for (int k = 0; k < n; k++) a[k].level = 0;
  for (int pass = 0, changed = 1; changed && pass < n; pass++) {
    changed = 0;
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++) {
        if (j == k || a[j].kind != A_ASSIGN || a[k].kind == A_TERMINATE ||
            cm->p.slots[a[j].slot].name[0] == '$' || a[k].level > a[j].level ||
            !reads_slot(cm, l->items[k]->rhs, a[j].slot))
          continue;
        a[k].level = a[j].level + 1;
        changed = 1;
      }
  }
}

static int mentions_pre(const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_BUILTIN && (e->op == FB_PRE || e->op == FB_EDGE || e->op == FB_CHANGE))
    return 1;
  for (int i = 0; i < e->nargs; i++)
    if (mentions_pre(e->args[i])) return 1;
  return 0;
}

/* Whether e calls an impure function (impureRandom: a new number at every call). */
static int calls_impure(const st_compiled *cm, const st_fexpr *e) {
  if (!e) return 0;
  if (e->kind == FX_CALL && cm->p.flat->functions[e->index].is_impure) return 1;
  for (int i = 0; i < e->nargs; i++)
    if (calls_impure(cm, e->args[i])) return 1;
  return 0;
}

static void collect_reads(const st_compiled *cm, const st_fexpr *e, int *out, int *n, int cap) {
  if (!e || (e->kind == FX_BUILTIN && e->op == FB_PRE)) return;
  if (e->kind == FX_VAR) {
    int s = st_ref_slot(cm, e);
    for (int i = 0; i < *n; i++)
      if (out[i] == s) return;
    if (s >= 0 && *n < cap) out[(*n)++] = s;
    return;
  }
  for (int i = 0; i < e->nargs; i++) collect_reads(cm, e->args[i], out, n, cap);
}

/* The slots the assignments of an initial() branch read (st_initial_whens_before). */
static int branch_reads(st_compiled *cm, st_when_branch *b, const st_feq_list *l) {
  int cap = cm->p.nslots + 1, n = 0;
  int *tmp = malloc((size_t)cap * sizeof *tmp);
  if (!tmp) return -1;
  for (int k = 0; k < l->n; k++)
    if (l->items[k]->kind == FE_EQUAL) collect_reads(cm, l->items[k]->rhs, tmp, &n, cap);
  for (int k = 0; k < l->n; k++) /* a state of its own (a counter): assigned once, by the event */
    if (mentions_pre(l->items[k]->rhs)) b->early = -1;
  b->reads = st_arena_alloc(cm->p.arena, (size_t)n * sizeof *b->reads + 1);
  if (b->reads) memcpy(b->reads, tmp, (size_t)n * sizeof *tmp);
  b->nreads = n;
  free(tmp);
  return b->reads ? 0 : -1;
}

void st_initial_whens_before(st_compiled *cm, const int *block_of, int k, unsigned char *pending) {
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches; i++) {
      const st_when_branch *b = &cm->p.whens[w].branches[i];
      int c = cm->p.whens[w].wc + i, ready = 1;
      if (!pending[c] || b->early < 0) continue;
      for (int r = 0; r < b->nreads && ready; r++)
        ready = block_of[b->reads[r]] < k;
      if (!ready) continue;
      pending[c] = 0;
      if (st_vm_eval(&cm->vm, &b->cond) == 0) continue;
      cm->init_fired[c] = (unsigned char)b->impure;
      for (int a = 0; a < b->nactions; a++)
        if (b->actions[a].kind == A_ASSIGN) {
          double v = st_vm_eval(&cm->vm, &b->actions[a].value);
          int s = b->actions[a].slot;
          cm->x[s] = cm->p.slots[s].is_bool ? v != 0 : v;
        }
    }
}

/* A branch's equations with each tuple equation (a, b) = f(x) as a = (output 1 of f(x)),
 * b = (output 2 of f(x)), as equations.c does outside when (the function runs per output). */
int st_target_leaves(const st_fexpr *e) {
  if (!e || e->kind != FX_ARRAY) return 1;
  int n = 0;
  for (int i = 0; i < e->nargs; i++) n += st_target_leaves(e->args[i]);
  return n;
}

static const st_fexpr *leaf(const st_fexpr *e, int *j) {
  if (!e || e->kind != FX_ARRAY) return (*j)-- == 0 ? e : NULL;
  for (int i = 0; i < e->nargs; i++) {
    const st_fexpr *r = leaf(e->args[i], j);
    if (r) return r;
  }
  return NULL;
}

const st_fexpr *st_target_leaf(const st_fexpr *e, int j) { return leaf(e, &j); }

st_fexpr *st_output_call(st_compiled *cm, const st_fexpr *call, int output, int element) {
  st_fexpr *c = st_sym_node(cm->p.arena, FX_CALL, output, call->nargs);
  if (!c) return NULL;
  c->index = call->index;
  c->loc = call->loc;
  c->value = element; /* emit.c: the element of an array output it stands for */
  if (call->nargs) memcpy(c->args, call->args, (size_t)call->nargs * sizeof *c->args);
  return c;
}

/* lhs = (output i of call), element j + 1 of that output when lhs is an array's element. */
static st_feq *output_equation(st_compiled *cm, const st_feq *q, int i, const st_fexpr *lhs,
                               int element) {
  st_fexpr *c = st_output_call(cm, q->rhs, i, element);
  st_feq *e = st_arena_alloc(cm->p.arena, sizeof *e);
  if (!c || !e) return NULL;
  *e = *q;
  e->kind = FE_EQUAL;
  e->lhs = (st_fexpr *)lhs;
  e->rhs = c;
  return e;
}

/* --- if-equations inside when-equations (FluxTubes' GenericHystPreisachEverett) --- */

/* Whether two equations act on the same target: the variable assigned or reinit()ed. */
static int same_target(const st_feq *a, const st_feq *b) {
  return a->kind == b->kind && a->lhs && b->lhs && a->lhs->kind == FX_VAR &&
         b->lhs->kind == FX_VAR && a->lhs->index == b->lhs->index;
}

/* The value list l gives target t: the equation's right side, a nested if-equation's choice,
 * else hold (pre(v) for an assignment: the value before the instant; the state itself for a
 * reinit(); true for an assert). */
static st_fexpr *value_in(st_compiled *cm, const st_feq_list *l, const st_feq *t,
                          st_fexpr *hold);

static st_fexpr *if_choice(st_compiled *cm, const st_feq *q, const st_feq *t, st_fexpr *hold) {
  st_fexpr *r = value_in(cm, &q->branches[q->nconds], t, hold);
  for (int b = q->nconds - 1; r && b >= 0; b--)
    r = st_sym_if(cm->p.arena, q->conds[b], value_in(cm, &q->branches[b], t, hold), r);
  return r;
}

static int holds_target(const st_feq_list *l, const st_feq *t) {
  for (int k = 0; k < l->n; k++) {
    const st_feq *e = l->items[k];
    if (t->kind == FE_ASSERT ? e == t : same_target(e, t)) return 1;
    for (int b = 0; e->kind == FE_IF && b <= e->nconds; b++)
      if (holds_target(&e->branches[b], t)) return 1;
  }
  return 0;
}

static st_fexpr *value_in(st_compiled *cm, const st_feq_list *l, const st_feq *t,
                          st_fexpr *hold) {
  for (int k = 0; k < l->n; k++) {
    const st_feq *e = l->items[k];
    if (t->kind == FE_ASSERT ? e == t : same_target(e, t)) return e->rhs;
    if (e->kind != FE_IF) continue;
    for (int b = 0; b <= e->nconds; b++)
      if (holds_target(&e->branches[b], t)) return if_choice(cm, e, t, hold);
  }
  return hold;
}

/* Appends to out the targets of if-equation q (each once) as equations of the when-branch:
 * `v = if c1 then e1 elseif ... else pre(v)`. -1 on an equation that cannot be chosen so. */
static int if_targets(st_compiled *cm, const st_feq *root, const st_feq *q, st_feq **out,
                      int *n, int cap) {
  for (int b = 0; b <= q->nconds; b++)
    for (int k = 0; k < q->branches[b].n; k++) {
      const st_feq *e = q->branches[b].items[k];
      if (e->kind == FE_IF) {
        if (if_targets(cm, root, e, out, n, cap)) return -1;
        continue;
      }
      if (!(e->kind == FE_ASSERT || ((e->kind == FE_EQUAL || e->kind == FE_REINIT) &&
                                      e->lhs && e->lhs->kind == FX_VAR))) {
        st_error(cm->diag, e->loc, "this equation is not supported inside an if-equation "
                 "inside a when-equation");
        return -1;
      }
      int seen = 0;
      for (int i = 0; i < *n && !seen; i++)
        seen = e->kind != FE_ASSERT && same_target(out[i], e);
      if (seen) continue;
      if (*n == cap) return -1;
      st_fexpr *hold;
      if (e->kind == FE_ASSERT) {
        if ((hold = st_sym_node(cm->p.arena, FX_BOOL, 0, 0))) hold->value = 1;
      } else if (e->kind == FE_REINIT) {
        hold = e->lhs;
      } else if ((hold = st_sym_node(cm->p.arena, FX_BUILTIN, FB_PRE, 1))) {
        hold->args[0] = e->lhs;
      }
      st_feq *c = hold ? st_arena_alloc(cm->p.arena, sizeof *c) : NULL;
      if (!c || !(c->rhs = if_choice(cm, root, e, hold))) return -1;
      *c = (st_feq){.kind = e->kind, .loc = e->loc, .origin = e->origin, .lhs = e->lhs,
                    .rhs = c->rhs, .message = e->message, .level = e->level};
      out[(*n)++] = c;
    }
  return 0;
}

static int count_leaves(const st_feq *q) {
  int n = 0;
  for (int b = 0; b <= q->nconds; b++)
    for (int k = 0; k < q->branches[b].n; k++)
      n += q->branches[b].items[k]->kind == FE_IF ? count_leaves(q->branches[b].items[k]) : 1;
  return n;
}

static int expand_tuples(st_compiled *cm, const st_feq_list *in, st_feq_list *out) {
  int n = 0;
  for (int k = 0; k < in->n; k++) {
    const st_feq *q = in->items[k];
    if (q->kind == FE_IF) n += count_leaves(q);
    else if (q->kind != FE_TUPLE) n++;
    else
      for (int i = 0; i < q->ntuple; i++) n += st_target_leaves(q->tuple[i]);
  }
  out->items = st_arena_alloc(cm->p.arena, (size_t)n * sizeof *out->items + 1);
  out->n = 0;
  if (!out->items) return -1;
  for (int k = 0; k < in->n; k++) {
    const st_feq *q = in->items[k];
    if (q->kind == FE_IF) {
      if (if_targets(cm, q, q, out->items, &out->n, n)) return -1;
      continue;
    }
    if (q->kind != FE_TUPLE || !q->rhs || q->rhs->kind != FX_CALL) {
      out->items[out->n++] = (st_feq *)q;
      continue;
    }
    for (int i = 0; i < q->ntuple; i++) {
      if (!q->tuple[i]) continue;
      int array = q->tuple[i]->kind == FX_ARRAY, m = st_target_leaves(q->tuple[i]);
      for (int j = 0; j < m; j++) {
        st_feq *e = output_equation(cm, q, i, st_target_leaf(q->tuple[i], j), array ? j + 1 : 0);
        if (!e) return -1;
        out->items[out->n++] = e;
      }
    }
  }
  return 0;
}

int st_add_when(st_compiled *cm, const st_feq *q) {
  if (grow(cm, (void **)&cm->p.whens, cm->p.nwhens, sizeof *cm->p.whens)) return -1;
  st_when *w = &cm->p.whens[cm->p.nwhens++];
  w->nbranches = q->nconds;
  w->branches = st_arena_alloc(cm->p.arena, (size_t)q->nconds * sizeof *w->branches + 1);
  w->wc = cm->p.nwc;
  w->clock_rank = q->clock_rank;
  w->clock_at_start = q->clock_at_start;
  w->clock_tick = q->clock_rank > 0 && strcmp(q->origin ? q->origin : "", ST_ORIGIN_RISE_COUNTER);
  cm->p.nwc += q->nconds;
  if (!w->branches) return -1;
  for (int i = 0; i < q->nconds; i++) {
    st_when_branch *b = &w->branches[i];
    st_feq_list expanded;
    if (expand_tuples(cm, &q->branches[i], &expanded)) return -1;
    const st_feq_list *l = &expanded;
    b->loc = q->loc;
    b->has_initial = st_mentions_initial(q->conds[i]);
    if (st_emit(cm, &b->cond, q->conds[i], 0)) return -1;
    b->nactions = l->n;
    b->actions = st_arena_alloc(cm->p.arena, (size_t)l->n * sizeof *b->actions + 1);
    if (!b->actions) return -1;
    for (int k = 0; k < l->n; k++) {
      if (compile_action(cm, &b->actions[k], l->items[k])) return -1;
      b->impure |= calls_impure(cm, l->items[k]->rhs);
    }
    level_actions(cm, b->actions, l);
    if (b->has_initial && branch_reads(cm, b, l)) return -1;
  }
  return 0;
}

int st_add_assert(st_compiled *cm, const st_feq *q) {
  if (grow(cm, (void **)&cm->asserts, cm->nasserts, sizeof *cm->asserts)) return -1;
  st_assert *a = &cm->asserts[cm->nasserts++];
  a->message = st_message_compile(cm, q->message, &a->built);
  a->level = q->level;
  a->loc = q->loc;
  return st_emit(cm, &a->cond, q->rhs, 0);
}

/* Asserts of level error stop the run with their message, time and location. Level warning
 * (Modelica 3.6 section 8.3.7) reports the same and the run goes on: once each time the
 * condition turns false (its relations are indicators, so that is an event), not at every
 * pass of every later event. */
int st_check_asserts(st_compiled *cm, double t, int *terminate) {
  for (int i = 0; i < cm->nasserts; i++) {
    st_assert *a = &cm->asserts[i];
    if (st_vm_eval(&cm->vm, &a->cond) != 0) {
      a->warned = 0;
      continue;
    }
    if (a->level == 1) {
      if (!a->warned) assert_failed(cm, a->loc, t, a->message, a->built, 1);
      a->warned = 1;
      continue;
    }
    assert_failed(cm, a->loc, t, a->message, a->built, 0);
    *terminate = 1;
    return -1;
  }
  return 0;
}

/* The slot holding the value of s (an alias chain followed). */
static int value_slot(const st_compiled *cm, int s) {
  for (int n = 0; cm->p.slots[s].kind == K_ALIAS && n < cm->p.nslots; n++) s = cm->p.slots[s].alias_of;
  return s;
}

/* The blocks reading slot s (its value slot) are to be evaluated again (eval_changed). */
static void slot_changed(st_compiled *cm, int s) {
  s = value_slot(cm, s);
  for (int j = cm->rdr_start[s]; j < cm->rdr_start[s + 1]; j++) cm->dirty[cm->rdr_block[j]] = 1;
}

/* What block k assigns has changed: its readers are dirty. */
static void block_changed(st_compiled *cm, int k) {
  const st_block *b = &cm->blocks[k];
  for (int i = 0; i < b->n; i++) slot_changed(cm, b->slots[i]);
  for (int i = 0; i < b->nd; i++) slot_changed(cm, b->dslots[i]);
}

/* x[s] = v by a when-clause; a change is noted for eval_changed. */
static void mark_assigned(st_compiled *cm, int s, double v) {
  if (cm->dirty && !(cm->x[s] == v)) slot_changed(cm, s);
  cm->x[s] = v;
}

/* Fires the actions of a branch. The equations of one instant are simultaneous: assignments
 * are evaluated and made level by level (level_actions), the values of reinit() and asserts
 * are taken after all assignments. */
static int fire(st_compiled *cm, const st_when_branch *b, stiction_event_info *info,
                double t) {
  double stack_vals[64];
  int n = b->nactions, top = 0; /* a clock's latches can be many (clocks.c) */
  double *vals = n <= 64 ? stack_vals : malloc(sizeof *vals * (size_t)n);
  if (!vals) return -1;
  for (int k = 0; k < n; k++)
    if (b->actions[k].level > top) top = b->actions[k].level;
  for (int level = 0; level <= top; level++) {
    for (int k = 0; k < n; k++)
      if (b->actions[k].kind == A_ASSIGN && b->actions[k].level == level)
        vals[k] = st_vm_eval(&cm->vm, &b->actions[k].value);
    for (int k = 0; k < n; k++) {
      const st_action *a = &b->actions[k];
      if (a->kind == A_ASSIGN && a->level == level)
        mark_assigned(cm, a->slot, cm->p.slots[a->slot].is_bool ? vals[k] != 0 : vals[k]);
    }
  }
  for (int k = 0; k < n; k++) {
    const st_action *a = &b->actions[k];
    if (a->kind == A_REINIT || a->kind == A_ASSERT || a->kind == A_CALL)
      vals[k] = st_vm_eval(&cm->vm, &a->value);
  }
  for (int k = 0; k < n; k++) {
    const st_action *a = &b->actions[k];
    switch (a->kind) {
    case A_ASSIGN: break; /* done above */
    case A_REINIT:
      mark_assigned(cm, a->slot, vals[k]);
      info->states_changed = 1;
      break;
    case A_TERMINATE:
      info->terminate = 1;
      info->message = a->message;
      break;
    case A_ASSERT:
      if (vals[k] == 0) {
        assert_failed(cm, a->loc, t, a->message, a->built, 0);
        if (vals != stack_vals) free(vals);
        return -1;
      }
      break;
    case A_CALL:
      if (isnan(vals[k])) { /* the call failed (an assert in the function, st_fcall_eval) */
        const char *why = cm->fcalls ? st_fcalls_failure(cm->fcalls) : "";
        st_fail(cm, a->loc, "the function call failed%s%s at time %.17g", *why ? ": " : "",
                why, t);
        if (vals != stack_vals) free(vals);
        return -1;
      }
      break;
    }
  }
  if (vals != stack_vals) free(vals);
  return 0;
}

static int eval_changed(st_compiled *cm);

/* Evaluates the when-conditions; a branch fires on a rising edge of its condition unless an
 * earlier branch of the same when fired (in this call or an earlier one of the same pass:
 * when_fired). Returns how many fired, -1 on failure. */
static int run_whens_of_rank(st_compiled *cm, stiction_event_info *info, double t, int rank,
                             int *more) {
  int fired = 0;
  for (int w = 0; w < cm->p.nwhens; w++) {
    const st_when *wh = &cm->p.whens[w];
    if (wh->clock_rank > rank) *more = 1;
    if (wh->clock_rank != rank || cm->when_fired[w]) continue;
    int done = 0;
    for (int i = 0; i < wh->nbranches; i++) {
      const st_when_branch *b = &wh->branches[i];
      int k = wh->wc + i;
      cm->wc[k] = st_vm_eval(&cm->vm, &b->cond) != 0;
      /* initial_pre(): while initializing, active iff the condition names initial(); the
       * passes settle the discrete values, so a branch whose call gives a new value each
       * time (impure) is evaluated once, as the initial system's equation it is */
      double pre = info->initial ? (b->has_initial ? 0 : cm->wc[k]) : cm->wc_pre[k];
      if (done || !(cm->wc[k] && !pre)) continue;
      done = cm->when_fired[w] = 1;
      if (info->initial && b->impure) {
        if (cm->init_fired[k]) continue;
        cm->init_fired[k] = 1;
      }
      fired++;
      cm->pass_ticks += wh->clock_tick;
      cm->pass_other += !wh->clock_rank;
      if (fire(cm, b, info, t)) return -1;
    }
  }
  return fired;
}

/* Ordinary when-clauses (rank 0), then the clock ticks by rank (clocks.c). */
static int run_whens(st_compiled *cm, stiction_event_info *info, double t) {
  int fired = 0, more = 1;
  for (int rank = 0; more; rank++) {
    more = 0;
    /* a clock partition reading another's values at this tick sees them updated, and an
     * event clock's condition the values when-clauses just assigned (Clocked's
     * RotationalSample: a Pulse's count steps at the instant its clock condition would
     * rise with the old pulse value) */
    if (rank > 0 && fired && eval_changed(cm)) return -1;
    int f = run_whens_of_rank(cm, info, t, rank, &more);
    if (f < 0) return -1;
    fired += f;
  }
  return fired;
}

static void conditions_left_limits(st_compiled *cm, int clocks);

/* The discrete values and the other when-conditions before the first clock tick at the
 * start: the first pass after the initialization takes them as their pre(), so that what
 * the ticks change is a change there (Dymola ticks after the initialization; a
 * `when change(hold(y))` fires at the first tick). */
static void start_left_limits(st_compiled *cm) {
  cm->vm.event_mode = 0;
  conditions_left_limits(cm, 0);
  memcpy(cm->wc_start, cm->wc_pre, (size_t)(cm->p.nwc > 0 ? cm->p.nwc : 1) * sizeof *cm->wc);
  memcpy(cm->start_pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x);
  cm->wc_start_set = 1;
  cm->vm.event_mode = 1;
}

/* The clock ticks at the start time are part of the initialization (Modelica 3.6 section
 * 16.9: a clocked partition is initialized at its first tick): fired after the initial
 * system, by rank, so that the first row holds the ticked values as in Dymola's results;
 * the initial event does not fire them again (their has_initial is 0, so their pre() there
 * is their value). */
int st_clock_start_ticks(st_compiled *cm) {
  int fired = 0, more = 1;
  stiction_event_info info;
  memset(&info, 0, sizeof info);
  cm->start_ticks = 0;
  memcpy(cm->pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x); /* sample()'s left limits */
  for (int rank = 1; more; rank++) {
    more = 0;
    if (fired && st_eval_blocks(cm, 1)) return -1;
    cm->vm.event_mode = 1; /* sample() is true at its instants only in event mode */
    for (int w = 0; w < cm->p.nwhens; w++) {
      const st_when *wh = &cm->p.whens[w];
      if (wh->clock_rank > rank) more = 1;
      if (wh->clock_rank != rank || !wh->clock_at_start) continue;
      if (st_vm_eval(&cm->vm, &wh->branches[0].cond) == 0) continue;
      if (!fired++) start_left_limits(cm);
      cm->start_ticks += wh->clock_tick;
      if (fire(cm, &wh->branches[0], &info, cm->vm.time)) return -1;
    }
  }
  return fired && st_eval_blocks(cm, 1) ? -1 : 0;
}

/* wc_pre = the when-conditions evaluated between events (sample() false, relations held);
 * clocks: also those of the clock ticks. */
static void conditions_left_limits(st_compiled *cm, int clocks) {
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches && (clocks || !cm->p.whens[w].clock_rank); i++)
      cm->wc_pre[cm->p.whens[w].wc + i] =
          st_vm_eval(&cm->vm, &cm->p.whens[w].branches[i].cond) != 0;
  st_algorithms_left_limits(cm);
}

/* pre() of the when-conditions at the first pass of an event: their values just before the
 * instant (relations frozen, sample() false), not the values stored at the previous event,
 * which stay true for a condition such as sample() that is true only at instants. Not for an
 * iteration that continues an instant already handled (the terminal pass or an input change
 * at an event's time): that instant's values are its pre(); else a sample() true at it reads
 * as a change and fires again (a spurious extra row at the end). The start has its own rule
 * (st_event_update). terminal() is false just before the terminal pass, so that
 * `when terminal()` still rises. */
static void when_left_limits(st_compiled *cm) {
  int terminal = cm->vm.terminal;
  cm->vm.terminal = 0;
  st_discrete_left_limits(cm);
  memcpy(cm->pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x);
  conditions_left_limits(cm, 1);
  cm->vm.terminal = terminal;
}

double st_next_time_event(st_compiled *cm, double t, int *defined) {
  double next = INFINITY;
  cm->vm.event_mode = 0;
  for (int k = 0; k < cm->p.nrels; k++) {
    if (!cm->rels[k].time_only) continue;
    double T = st_vm_eval(&cm->vm, &cm->rels[k].threshold);
    if (!st_time_reached(t, T) && T < next) next = T; /* later also when t < 0 */
  }
  for (int k = 0; k < cm->p.nsamples; k++) {
    double s = st_vm_eval(&cm->vm, &cm->p.samples[k].start);
    double h = st_vm_eval(&cm->vm, &cm->p.samples[k].interval);
    if (h <= 0) continue;
    double n = s > t ? 0 : floor((t - s) / h + 1e-9) + 1;
    const st_sample *x = &cm->p.samples[k];
    double T = x->den > 0 && n < 9007199254740992.0 / (x->inum + 1) ? (x->snum + n * x->inum) / x->den
                                                                   : s + n * h;
    if (T < next) next = T;
  }
  if (cm->delays) {
    double T = st_delays_next_event(cm->delays, &cm->vm, t);
    if (T < next) next = T;
  }
  *defined = isfinite(next);
  return next;
}

static int discrete_changed(const st_compiled *cm) {
  for (int i = 0; i < cm->p.ndisc; i++)
    if (cm->x[cm->p.disc_slot[i]] != cm->pre[cm->p.disc_slot[i]]) return 1;
  for (int k = 0; k < cm->p.nwc; k++)
    if (cm->wc[k] != cm->wc_pre[k]) return 1;
  return 0;
}

/* pre_read: the slots whose pre() a program reads (OP_PRE, OP_EDGE, OP_CHANGE), and along
 * an alias chain the slot that holds the value (programs compiled before alias elimination
 * read the alias). */
static void mark_pre_reads(const st_compiled *cm, const st_prog *p, unsigned char *mark) {
  for (int i = 0; p && i < p->n; i++) {
    int op = p->code[i].op, s = p->code[i].arg;
    if (op != OP_PRE && op != OP_EDGE && op != OP_CHANGE) continue;
    for (mark[s] = 1; cm->p.slots[s].kind == K_ALIAS; mark[s] = 1) s = cm->p.slots[s].alias_of;
  }
}

typedef void mark_fn(const st_compiled *cm, const st_prog *p, unsigned char *mark);

/* mark applied to every program of block b: assignment, residuals, derivatives, sequence. */
static void mark_block(const st_compiled *cm, const st_block *b, mark_fn *mark_prog,
                       unsigned char *mark) {
  mark_prog(cm, &b->assign, mark);
  for (int i = 0; b->res && i < b->n; i++) mark_prog(cm, &b->res[i], mark);
  for (int i = 0; b->dexpr && i < b->nd; i++) mark_prog(cm, &b->dexpr[i], mark);
  for (int i = 0; b->seq && i < b->nseq; i++) mark_prog(cm, &b->seq[i], mark);
}

/* Appends to rd_slot the slots that program p reads (x[], also through edge() and change()),
 * each once per block (last[s]: the last block that listed slot s; a search of the block's
 * list so far was quadratic in a loop of 10^5 unknowns); rd_always[k] when its value depends
 * on more (a call may keep state or be impure, a delay reads its history). n: entries so
 * far, cap: room. */
static int add_reads(st_compiled *cm, const st_prog *p, int k, int *last, int *n, int cap) {
  for (int i = 0; p && i < p->n; i++) {
    int op = p->code[i].op;
    if (op == OP_CALL || op == OP_DELAY) cm->rd_always[k] = 1;
    if (op != OP_LOAD && op != OP_ADDX && op != OP_SUBX && op != OP_MULX && op != OP_DIVX &&
        op != OP_EDGE && op != OP_CHANGE)
      continue;
    int s = value_slot(cm, p->code[i].arg);
    if (last[s] == k) continue;
    last[s] = k;
    if (*n == cap) {
      int *bigger = realloc(cm->rd_slot, sizeof *bigger * (size_t)(2 * cap));
      if (!bigger) return -1;
      cm->rd_slot = bigger;
      cap *= 2;
    }
    cm->rd_slot[(*n)++] = s;
  }
  return cap;
}

static int block_prog_reads(st_compiled *cm, int k, int *last, int *n, int cap) {
  const st_block *b = &cm->blocks[k];
  cap = add_reads(cm, &b->assign, k, last, n, cap);
  for (int i = 0; cap > 0 && b->res && i < b->n; i++) cap = add_reads(cm, &b->res[i], k, last, n, cap);
  for (int i = 0; cap > 0 && b->dexpr && i < b->nd; i++) cap = add_reads(cm, &b->dexpr[i], k, last, n, cap);
  for (int i = 0; cap > 0 && b->seq && i < b->nseq; i++) cap = add_reads(cm, &b->seq[i], k, last, n, cap);
  return cap;
}

/* Opcodes whose value in event mode may differ from the value between events at the same
 * point and discrete values (bytecode.c: a relation is evaluated afresh, sample() is true at
 * its instants, pre() moved to the left limit, a call keeps state). */
static void mark_event_ops(const st_compiled *cm, const st_prog *p, unsigned char *mark) {
  (void)cm;
  for (int i = 0; p && i < p->n && !*mark; i++) switch (p->code[i].op) {
    case OP_REL: case OP_PRE: case OP_EDGE: case OP_CHANGE: case OP_INITIAL: case OP_TERMINAL:
    case OP_LAMBDA: case OP_SAMPLE: case OP_CALL: case OP_DELAY:
      *mark = 1;
      break;
    default: break;
    }
}

/* ev_sensitive (model_impl.h): every block but an assignment whose program is a function of
 * x, time and parameters alone. A linear or nonlinear solve starts from its unknowns' values
 * and seeds (solve.c), so an evaluation again may differ in the last bits: it is not skipped. */
static void event_sensitive(st_compiled *cm) {
  cm->ev_sensitive = st_arena_alloc(cm->iarena, (size_t)cm->nblocks + 1);
  for (int k = 0; cm->ev_sensitive && k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    unsigned char *m = &cm->ev_sensitive[k];
    *m = b->kind != BK_ASSIGN || cm->rd_always[k];
    mark_block(cm, b, mark_event_ops, m);
  }
}

/* rdr_start, rdr_block: the lists rd_slot turned round (n entries), per slot its readers. */
static int readers(st_compiled *cm, int n) {
  int ns = cm->p.nslots;
  cm->rdr_start = st_arena_alloc(cm->iarena, sizeof *cm->rdr_start * (size_t)(ns + 2));
  cm->rdr_block = st_arena_alloc(cm->iarena, sizeof *cm->rdr_block * (size_t)n + 1);
  if (!cm->rdr_start || !cm->rdr_block) return 0;
  memset(cm->rdr_start, 0, sizeof *cm->rdr_start * (size_t)(ns + 2));
  for (int j = 0; j < n; j++) cm->rdr_start[cm->rd_slot[j] + 2]++;
  for (int s = 0; s < ns; s++) cm->rdr_start[s + 2] += cm->rdr_start[s + 1];
  for (int k = 0; k < cm->nblocks; k++) /* rdr_start[s + 1]: next free entry of s */
    for (int j = cm->rd_start[k]; j < cm->rd_start[k + 1]; j++)
      cm->rdr_block[cm->rdr_start[cm->rd_slot[j] + 1]++] = k;
  return 1;
}

/* rd_start, rd_slot, rd_always and dirty (model_impl.h), made once; dirty stays NULL
 * when they cannot be made, and the blocks are then all evaluated. */
void st_block_reads(st_compiled *cm) {
  if (cm->dirty || cm->rd_start) return;
  int cap = 64, n = 0;
  cm->rd_start = st_arena_alloc(cm->iarena, sizeof *cm->rd_start * (size_t)(cm->nblocks + 1));
  cm->rd_always = st_arena_alloc(cm->iarena, (size_t)cm->nblocks + 1);
  cm->rd_slot = malloc(sizeof *cm->rd_slot * (size_t)cap);
  int *last = malloc(sizeof *last * (size_t)(cm->p.nslots + 1));
  if (!cm->rd_start || !cm->rd_always || !cm->rd_slot || !last) {
    free(last);
    return;
  }
  memset(cm->rd_always, 0, (size_t)cm->nblocks + 1);
  for (int s = 0; s < cm->p.nslots; s++) last[s] = -1;
  for (int k = 0; k < cm->nblocks && cap > 0; k++) {
    cm->rd_start[k] = n;
    cm->rd_always[k] |= cm->blocks[k].kind == BK_ALGORITHM;
    cap = block_prog_reads(cm, k, last, &n, cap);
  }
  free(last);
  cm->rd_start[cm->nblocks] = n;
  event_sensitive(cm);
  /* the list lives as long as the instance: copied into its arena */
  int *kept = cap > 0 ? st_arena_alloc(cm->iarena, sizeof *kept * (size_t)n + 1) : NULL;
  if (kept) memcpy(kept, cm->rd_slot, sizeof *kept * (size_t)n);
  free(cm->rd_slot);
  cm->rd_slot = kept;
  if (kept && readers(cm, n)) cm->dirty = st_arena_alloc(cm->iarena, (size_t)cm->nblocks + 1);
  if (cm->dirty) memset(cm->dirty, 0, (size_t)cm->nblocks + 1);
}

static int block_reads_changed(const st_compiled *cm, int k) {
  return cm->rd_always[k] || cm->dirty[k];
}

/* Evaluates in event mode, in the blocks' order, the blocks marked in also (NULL: none) and
 * those reading what a block evaluated here or a when-clause assigned; clears the marks. */
static int eval_dirty_blocks(st_compiled *cm, const unsigned char *also) {
  cm->vm.event_mode = 1;
  cm->gen++; /* discrete values and relations may change */
  for (int k = 0; k < cm->nblocks; k++) {
    if (!(also && also[k]) && !block_reads_changed(cm, k)) continue;
    cm->block_evals++;
    if (st_eval_block_event(cm, k)) return -1;
    block_changed(cm, k);
  }
  st_sync_aliases(cm);
  memset(cm->dirty, 0, (size_t)cm->nblocks + 1);
  return 0;
}

/* The blocks after when-clauses fired in an event pass: only those that read a slot the
 * clauses changed, or one that such a block assigned, in the blocks' order (each reads what
 * earlier ones assign). The others would compute what they hold already: their inputs,
 * pre(), time and the relations they evaluated are those of the evaluation before. A clock
 * tick then evaluates its partition and what reads its outputs (a held input and the
 * derivatives it drives), not every block. All blocks with algorithm sections or delay()
 * in the model (their outputs start from pre() or their own history) and while a mixed
 * system has not settled (its next fixed point may differ), as in the initial passes. */
static int eval_changed(st_compiled *cm) {
  if (!cm->dirty || cm->nalgs || cm->delays || cm->mixed_unsettled || cm->vm.initial)
    return st_eval_blocks(cm, 1);
  return eval_dirty_blocks(cm, NULL);
}

static unsigned char *pre_reads(st_compiled *cm) {
  if (cm->pre_read) return cm->pre_read;
  unsigned char *mark = st_arena_alloc(cm->iarena, (size_t)cm->p.nslots + 1);
  if (!mark) return NULL;
  for (int k = 0; k < cm->nblocks; k++) mark_block(cm, &cm->blocks[k], mark_pre_reads, mark);
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches; i++) {
      const st_when_branch *b = &cm->p.whens[w].branches[i];
      mark_pre_reads(cm, &b->cond, mark);
      for (int a = 0; a < b->nactions; a++) mark_pre_reads(cm, &b->actions[a].value, mark);
    }
  for (int i = 0; i < cm->nasserts; i++) mark_pre_reads(cm, &cm->asserts[i].cond, mark);
  for (int k = 0; k < cm->p.nrels; k++) {
    mark_pre_reads(cm, &cm->rels[k].ind, mark);
    mark_pre_reads(cm, &cm->rels[k].threshold, mark);
  }
  return cm->pre_read = mark;
}

/* Whether a pass that ticked clocks is the last of its event although it changed discrete
 * values: the next pass would take them as pre() and evaluate the same equations again, which
 * changes nothing when no program reads pre() of what changed and no when-condition other
 * than the clocks' ticks moved (a condition that rose fired in this pass; the clocks' own
 * latches are read directly, not through pre()). Algorithm sections (their discrete outputs
 * start from pre()), delay() and a mixed system still settling keep the second pass. */
static int settled_by_ticks(st_compiled *cm, const stiction_event_info *info) {
  if (!cm->pass_ticks || info->initial || cm->vm.terminal || cm->mixed_unsettled || cm->nalgs ||
      cm->delays)
    return 0;
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches && !cm->p.whens[w].clock_rank; i++)
      if (cm->wc[cm->p.whens[w].wc + i] != cm->wc_pre[cm->p.whens[w].wc + i]) return 0;
  /* a clock's condition as it fired, before its latches: a variable interval's `time >=
   * $next` is false again after them, which the next pass would see (and hold its relation) */
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; cm->p.whens[w].clock_rank && cm->when_fired[w] && i < cm->p.whens[w].nbranches; i++)
      if ((st_vm_eval(&cm->vm, &cm->p.whens[w].branches[i].cond) != 0) != cm->wc[cm->p.whens[w].wc + i])
        return 0;
  const unsigned char *read = pre_reads(cm);
  if (!read) return 0;
  for (int i = 0; i < cm->p.ndisc; i++) {
    int s = cm->p.disc_slot[i];
    if (cm->x[s] != cm->pre[s] && read[s]) return 0;
  }
  return 1;
}

/* Whether this pass only ticked clocks (stiction_event_info.ticks_only): besides the
 * clocks' when-clauses nothing fired, switched or was reinitialized. sample() in equations,
 * algorithm sections (their own when-clauses) and delay() may change values at the same
 * instant unseen here, so with them a pass is never one. */
static int ticks_only(const st_compiled *cm, const stiction_event_info *info, int switched) {
  if (cm->pass_other || switched || info->states_changed || info->terminate || info->initial ||
      cm->nalgs || cm->delays || cm->vm.terminal)
    return 0;
  for (int k = 0; k < cm->nblocks; k++)
    if (cm->blocks[k].samples) return 0;
  return 1;
}

/* plant_in (see model_impl.h) from what the programs of the plant load. */
static void mark_plant_reads(const st_compiled *cm, const st_prog *p, unsigned char *mark) {
  for (int i = 0; p && i < p->n; i++) switch (p->code[i].op) {
    case OP_LOAD: case OP_ADDX: case OP_SUBX: case OP_MULX: case OP_DIVX:
      mark[p->code[i].arg] = 1;
      break;
    case OP_PRE: case OP_EDGE: case OP_CHANGE: case OP_CALL: case OP_DELAY:
      mark[cm->p.nslots] = 1;
      break;
    default: break;
    }
}

static unsigned char *plant_inputs(st_compiled *cm) {
  if (cm->plant_in) return cm->plant_in;
  unsigned char *mark = st_arena_alloc(cm->iarena, (size_t)cm->p.nslots + 1);
  if (!mark) return NULL;
  for (int k = 0; k < cm->nblocks; k++)
    if (cm->blocks[k].varying) mark_block(cm, &cm->blocks[k], mark_plant_reads, mark);
  for (int k = 0; k < cm->p.nrels; k++) mark_plant_reads(cm, &cm->rels[k].ind, mark);
  for (int k = 0; k < cm->nblocks; k++)
    for (int i = 0; cm->blocks[k].varying && i < cm->blocks[k].n; i++)
      mark[cm->blocks[k].slots[i]] = 0;
  for (int i = 0; i < cm->p.nstates; i++) {
    mark[cm->p.state_slot[i]] = 0;
    mark[cm->p.slots[cm->p.state_slot[i]].der] = 0;
  }
  return cm->plant_in = mark;
}

/* Whether a pass that only ticked clocks changed a value the plant reads (pre[] holds the
 * values at the pass's start): when not, the right-hand side is the same function as before
 * the tick and the integrator goes on without a restart. Any other pass counts as a change. */
static int plant_changed(st_compiled *cm, const stiction_event_info *info) {
  if (!info->ticks_only || !cm->pass_ticks || cm->nalgs) return 1;
  const unsigned char *in = plant_inputs(cm);
  if (!in || in[cm->p.nslots]) return 1;
  for (int s = 0; s < cm->p.nslots; s++)
    if (in[s] && cm->x[s] != cm->pre[s]) return 1;
  return 0;
}

static int relations_changed(const st_compiled *cm) {
  for (int k = 0; k < cm->p.nrels; k++)
    if (cm->rel[k] != cm->rel_pre[k]) return 1;
  return 0;
}

/* Every relation gets its value at every event, also one that sits in a branch the
 * equations did not take in this pass (the `else` of `if initial()`, the inner branch of a
 * noEvent if-expression). A branch can switch without an event -- after initialization
 * initial() becomes false -- and would then read a relation frozen at its default (false),
 * and its indicator would carry the hysteresis of the wrong side, so the relation never
 * switches until its operands cross the threshold the other way. Dymola and OpenModelica
 * evaluate all zero-crossing relations after initialization (Modelica 3.6 section 8.5:
 * relations are updated at event instants). Relations that were taken already hold this
 * value: the blocks were just evaluated with the same unknowns. */
static void refresh_relations(st_compiled *cm, double t) {
  for (int k = 0; k < cm->p.nrels; k++) {
    const st_relation *r = &cm->rels[k];
    /* one the pass evaluated holds what the equations used (a tie kept, bytecode.c) */
    if (cm->vm.active && cm->vm.active[k] && !r->always_active) continue;
    int op = cm->p.vmrels[k].op;
    double a, b = 0;
    if (cm->vm.gap) cm->vm.gap[k] = 0;
    if (r->time_only) {
      /* right limit at the instant, as the machine takes it (bytecode.c: relation()) */
      a = t;
      b = st_vm_eval(&cm->vm, &r->threshold);
      if (op == FOP_GT) op = FOP_GE;
      else if (op == FOP_LE) op = FOP_LT;
      if (b > a && st_time_reached(a, b)) b = a;
    } else {
      a = st_vm_eval(&cm->vm, &r->ind); /* a - b has the sign of the comparison */
    }
    switch (op) {
    case FOP_LT: cm->rel[k] = a < b; break;
    case FOP_LE: cm->rel[k] = a <= b; break;
    case FOP_GT: cm->rel[k] = a > b; break;
    default: cm->rel[k] = a >= b; break;
    }
  }
}

/* The pass's first evaluation in event mode. All blocks in the initial and terminal passes,
 * the first pass after them, later passes of an event (their discrete values moved), when
 * anything changed the model since the last pass (gen: a parameter or an input set), and
 * with algorithm sections, delay(), dynamic state sets or the DAE form. Otherwise x holds the
 * left limits just evaluated, and the blocks the left limit does not evaluate (not varying)
 * hold the values of the last pass, made with the same discrete values: only the
 * event-sensitive blocks and, in the blocks' order, those reading what they assign can
 * differ (eval_changed's rule). A clock tick then evaluates its relations' blocks, not all. */
static int first_event_eval(st_compiled *cm, const stiction_event_info *info, int after_init) {
  st_block_reads(cm); /* dirty[] from here on: the readers of what the when-clauses assign */
  int all = !cm->dirty || !cm->ev_sensitive || info->initial || info->iteration != 0 ||
            after_init || cm->vm.terminal || cm->gen != cm->gen_done || cm->nalgs ||
            cm->delays || cm->dae || cm->p.ndyn;
  if (all) {
    int rc = st_eval_blocks(cm, 1);
    if (cm->dirty) memset(cm->dirty, 0, (size_t)cm->nblocks + 1);
    return rc;
  }
  return eval_dirty_blocks(cm, cm->ev_sensitive);
}

static void store_y(st_compiled *cm, double *y, double *yp) {
  for (int i = 0; i < cm->p.nstates; i++) {
    y[i] = cm->x[cm->p.state_slot[i]];
    if (yp) yp[i] = cm->x[cm->p.slots[cm->p.state_slot[i]].der];
  }
}

/* Active relations (doc/events.md): between two events the discrete values and the held
 * relation values are constant, so the evaluation takes the same branches as the last pass of
 * the event iteration. A relation that pass did not evaluate (an untaken if branch, the
 * skipped operand of and/or) cannot influence anything before the next event, so its
 * indicator is held (model.c). Relations behind noEvent conditions are always active. */
static void clear_active(st_compiled *cm) {
  for (int k = 0; k < cm->p.nrels; k++) cm->vm.active[k] = (unsigned char)cm->rels[k].always_active;
}

/* A pass with initial() true is part of initialization (Modelica 3.6 section 8.6): pre() of
 * a discrete variable is its start value (init_pre) in every such pass, not the value of the
 * pass before, and a when-clause is active in every pass if its condition names initial()
 * and in none otherwise (run_whens; algorithm.c). The passes only settle the discrete values
 * among themselves; the event iteration after them moves pre() (Digital's And gate: y =
 * pre(auxiliary_n) is 'U' throughout initialization, so the delay after it sees its input
 * change from 'U' after initialization, when `change(x) and not initial()` can fire). */
static void initial_pre(st_compiled *cm) {
  memcpy(cm->init_view, cm->pre, (size_t)cm->p.nslots * sizeof *cm->pre);
  for (int i = 0; i < cm->p.ndisc; i++)
    cm->init_view[cm->p.disc_slot[i]] = cm->init_pre[cm->p.disc_slot[i]];
  cm->vm.pre = cm->init_view;
}

/* The relations whose indicators crossed at this state event (bytecode.c relation(); sign
 * +1: to true), set at the first pass of every event for all its passes: a relation the model
 * contradicts drops its mark for the rest of the event. */
static void mark_crossed(st_compiled *cm, const stiction_event_info *info) {
  if (info->iteration != 0) return;
  memset(cm->vm.crossed, 0, (size_t)cm->p.nrels + 1);
  for (int i = 0; info->crossed && info->crossed_dir && i < info->n_crossed; i++) {
    int ind = info->crossed[i];
    if (ind >= 0 && ind < cm->p.nind)
      cm->vm.crossed[cm->p.ind_rel[ind]] = (signed char)(info->crossed_dir[i] > 0 ? 1 : -1);
  }
}

static int event_update(st_compiled *cm, double t, double *y, double *yp,
                        stiction_event_info *info);

int st_event_update(st_compiled *cm, double t, double *y, double *yp,
                    stiction_event_info *info) {
  mark_crossed(cm, info);
  return event_update(cm, t, y, yp, info);
}

/* Whether x holds the between-events evaluation at (t, y) already: the runtime asked for
 * the outputs at the left limit just before the pass (its left row, doc/events.md), which
 * evaluated every block at the same point with the same discrete values (model.c
 * evaluate_quietly). Evaluating again would give the same values: the blocks are functions
 * of those. Not in the initial and terminal passes (initial(), terminal() differ), not with
 * delay() (the evaluation records history) or in the DAE form (algebraic unknowns not in x). */
static int left_limit_done(const st_compiled *cm, double t, const double *y,
                           const stiction_event_info *info) {
  if (!cm->full_eval || cm->full_gen != cm->gen || cm->vm.time != t || info->initial ||
      cm->vm.terminal || cm->delays || cm->dae)
    return 0;
  for (int i = 0; i < cm->p.nstates; i++)
    if (memcmp(&cm->x[cm->p.state_slot[i]], &y[i], sizeof *y)) return 0;
  return 1;
}

/* The left limits with everything frozen (pre() is then taken from them). */
static int left_limit(st_compiled *cm, double t, double *y, stiction_event_info *info) {
  if (left_limit_done(cm, t, y, info)) {
    st_spec_refresh(cm); /* counted as the evaluation it stands for (specialize.c evals) */
    return 0;
  }
  st_load_states(cm, y);
  cm->vm.time = t;
  cm->vm.initial = info->initial;
  info->left_evals = 1;
  return st_eval_blocks(cm, 0) || st_record_delays(cm, 0);
}

static int event_update(st_compiled *cm, double t, double *y, double *yp,
                        stiction_event_info *info) {
  if (t != cm->vm.event_done_t) cm->vm.prev_event_t = cm->vm.event_done_t;
  cm->event_iteration = info->iteration;
  cm->pass_ticks = cm->pass_other = 0;
  if (info->initial && info->iteration == 0) { /* the ticks of the initialization */
    cm->pass_ticks = cm->start_ticks;
    cm->start_ticks = 0;
  }
  if (left_limit(cm, t, y, info)) goto fail;
  cm->vm.initial = info->initial;
  memcpy(cm->pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x);
  memcpy(cm->rel_pre, cm->rel, (size_t)(cm->p.nrels > 0 ? cm->p.nrels : 1) * sizeof *cm->rel);
  memcpy(cm->wc_pre, cm->wc, (size_t)(cm->p.nwc > 0 ? cm->p.nwc : 1) * sizeof *cm->wc);
  if (info->initial) initial_pre(cm);
  if (!info->initial && info->iteration == 0 && !(t == cm->last_event_t)) when_left_limits(cm);
  /* The first pass after initialization at t0: pre() of the when-conditions is their value
   * just before the start, sample() false (it was true in the initial passes, where only
   * branches naming initial() are active). So `when sample(t0, T)` fires at t0, also as the
   * elsewhen of a `when initial()`, as in Dymola's results (Math.Random's generators and
   * the Blocks.Noise sources draw their first number at t0). The clock ticks fired with the
   * initialization (st_clock_start_ticks) keep their pre(). A discrete variable given by
   * sample() (DiscreteBlock's sampleTrigger) is false there too, so `when sampleTrigger`
   * fires at t0 like `when sample(t0, T)` (PowerConverters' SVPWM took its first period from
   * the start values). */
  else if (!info->initial && cm->initialized) {
    st_discrete_left_limits(cm);
    memcpy(cm->pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x);
    for (int i = 0; cm->wc_start_set && i < cm->p.ndisc; i++)
      cm->pre[cm->p.disc_slot[i]] = cm->start_pre[cm->p.disc_slot[i]];
    conditions_left_limits(cm, 0);
    for (int w = 0; cm->wc_start_set && w < cm->p.nwhens; w++)
      for (int i = 0; i < cm->p.whens[w].nbranches && !cm->p.whens[w].clock_rank; i++)
        cm->wc_pre[cm->p.whens[w].wc + i] = cm->wc_start[cm->p.whens[w].wc + i];
    cm->wc_start_set = 0;
  }
  int after_init = cm->initialized;
  cm->initialized = info->initial;
  if (!cm->vm.terminal) cm->last_event_t = t;
  cm->lenient_mixed = 1;
  cm->mixed_unsettled = 0;
  clear_active(cm); /* the pass that changes nothing (the last) leaves its set */
  cm->block_evals = 0;
  if (first_event_eval(cm, info, after_init)) goto fail;
  /* The when-equations are equations of the pass, solved with the others: what a firing
   * assigns can raise another condition in the same pass (StateGraph: a step set by a
   * transition enables the next, whose `when enableFire then t_start = time` must fire
   * before `fire = enableFire and time >= t_start + waitTime` is taken, else the stale
   * t_start fired it at once). Each round fires at least one more when, so they end. */
  memset(cm->when_fired, 0, (size_t)cm->p.nwhens + 1);
  int fired;
  while ((fired = run_whens(cm, info, t)) > 0)
    if (eval_changed(cm)) goto fail;
  if (fired < 0) goto fail_when;
  cm->lenient_mixed = 0;
  cm->vm.pre = cm->pre;
  if (!cm->vm.terminal) refresh_relations(cm, t); /* held in the terminal pass (bytecode.c) */
  if (st_check_asserts(cm, t, &info->terminate)) return -1;
  if (cm->alg_terminate) { /* a model algorithm's terminate() ran in this pass */
    info->terminate = 1;
    info->message = cm->alg_terminate;
    cm->alg_terminate = NULL;
  }
  int changed = discrete_changed(cm);
  info->discrete_changed = changed && !settled_by_ticks(cm, info);
  info->clock_ticks = cm->pass_ticks;
  info->block_evals = cm->block_evals;
  /* an unsettled mixed system (solve.c) is only acceptable while the iteration moves on */
  if (cm->mixed_unsettled && !info->discrete_changed) goto fail;
  int switched = relations_changed(cm);
  info->ticks_only = ticks_only(cm, info, switched);
  info->equations_changed = switched || (changed && plant_changed(cm, info));
  /* a delayed step arriving: the right-hand side jumps, the integrator restarts */
  if (cm->delays && st_delays_event_at(cm->delays, &cm->vm, t)) info->equations_changed = 1;
  /* the delays' right samples first: a step of their expr schedules its arrival */
  if (st_record_delays(cm, 1)) goto fail;
  info->next_time = st_next_time_event(cm, t, &info->next_time_defined);
  cm->vm.event_mode = 0;
  cm->vm.event_done_t = t;
  cm->gen_done = cm->gen;
  store_y(cm, y, yp);
  info->yp_set = yp != NULL;
  return 0;
fail:
  st_fail(cm, cm->error_loc, "%s", cm->error ? cm->error : "evaluation failed");
fail_when:
  cm->lenient_mixed = 0;
  cm->vm.pre = cm->pre;
  return -1;
}
