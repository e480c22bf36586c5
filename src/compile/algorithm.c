/* Algorithm sections of models (Modelica 3.6 chapter 11).
 *
 * An algorithm section is one unit of the equation system: its outputs are the variables it
 * assigns, its inputs everything else it reads (section 11.1.2). For the structural analysis
 * it contributes one equation per unknown output; each of them is matched only to its own
 * output and is incident with every variable the section reads and with all its outputs, so
 * the equations of one section always form one strongly connected component, which is
 * executed as one block (BK_ALGORITHM). A loop through a section and other equations is a
 * located error.
 *
 * Execution: every output is first initialized, a discrete one (Integer, Boolean, discrete or
 * when-assigned Real) with pre(v), a continuous one with its start value (section 11.1.2),
 * then the statements run in order over x[]; each expression is a bytecode program, so the
 * relations in conditions become event relations like those of equations. A section is
 * therefore a function of its inputs and pre-values and can be executed any number of times
 * in one event pass. when-statements fire only in event mode, on a rising edge of their
 * condition (the first branch of an elsewhen chain that rises); a condition with initial()
 * fires during initialization (the section runs there in event mode) and not again in the
 * first pass of the initial event, which starts from the initialized values; their condition
 * values live in cm->wc so that the event iteration sees them change. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

#define MAX_LOOP 1000000L /* iterations of one while-statement before giving up */

typedef struct alist {
  struct astmt *items;
  int n;
} alist;

typedef struct astmt {
  st_fstmt_kind kind;
  int slot;          /* FS_ASSIGN target (resolved through aliases) */
  double sign;       /* x[slot] = sign * value */
  st_prog value;     /* FS_ASSIGN value, FS_ASSERT condition */
  int nconds;
  st_prog *conds;
  alist *branches;   /* FS_IF: nconds + 1; FS_WHEN: nconds; FS_WHILE: 1 */
  int wc;            /* FS_WHEN: index of its first condition value in cm->wc */
  int *tslots;       /* FS_TUPLE: targets (conds[i] is the call returning output i; -1:
                        skipped) and their alias signs */
  double *tsigns;
  unsigned char *has_initial;
  const char *message;
  st_message *built; /* FS_ASSERT: the message built from values, or NULL */
  int level;
  st_loc loc;
} astmt;

struct st_algorithm {
  alist body;
  int nout, capout;
  int *out;          /* every slot the section assigns */
  double *saved;     /* their values before a run between events */
  int nreads, capreads;
  st_fexpr **reads;  /* every expression it evaluates (for the incidence) */
  int has_block;
  int initial;       /* an initial algorithm: run once before the initial system */
  st_loc loc;
};

typedef struct exec {
  st_compiled *cm;
  int brk;
  long steps;
} exec;

/* ------------------------------------------------------------------ classification */

static void mark_der(const st_fexpr *e, unsigned char *is_state) {
  if (!e) return;
  if (e->kind == FX_BUILTIN && e->op == FB_DER && e->nargs == 1 && e->args[0]->kind == FX_VAR)
    is_state[e->args[0]->index] = 1;
  for (int i = 0; i < e->nargs; i++) mark_der(e->args[i], is_state);
}

static void scan_stmts(const st_fstmt_list *l, unsigned char *is_state, unsigned char *in_when,
                       int inside_when) {
  for (int i = 0; i < l->n; i++) {
    const st_fstmt *s = l->items[i];
    mark_der(s->value, is_state);
    for (int c = 0; c < s->nconds; c++) mark_der(s->conds[c], is_state);
    if (inside_when && s->kind == FS_ASSIGN && s->target->kind == FX_VAR)
      in_when[s->target->index] = 1;
    for (int t = 0; inside_when && s->kind == FS_TUPLE && t < s->ntargets; t++)
      st_mark_when_targets(s->targets[t], in_when);
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_WHEN ? s->nconds
             : s->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; b < nb; b++)
      scan_stmts(&s->branches[b], is_state, in_when, inside_when || s->kind == FS_WHEN);
  }
}

void st_algorithms_scan(const st_flat_model *f, unsigned char *is_state, unsigned char *in_when) {
  for (int a = 0; a < f->nalgorithms; a++) scan_stmts(&f->algorithms[a], is_state, in_when, 0);
}

/* ------------------------------------------------------------------ compiling */

static int grow_ints(st_compiled *cm, int **items, int n, int *cap) {
  if (n < *cap) return 0;
  int c = *cap ? 2 * *cap : 8;
  int *p = st_arena_alloc(cm->p.arena, (size_t)c * sizeof *p);
  if (!p) return -1;
  if (n) memcpy(p, *items, (size_t)n * sizeof *p);
  *items = p;
  *cap = c;
  return 0;
}

static int add_read(st_compiled *cm, st_algorithm *a, st_fexpr *e) {
  if (a->nreads == a->capreads) {
    int c = a->capreads ? 2 * a->capreads : 16;
    st_fexpr **p = st_arena_alloc(cm->p.arena, (size_t)c * sizeof *p);
    if (!p) return -1;
    if (a->nreads) memcpy(p, a->reads, (size_t)a->nreads * sizeof *p);
    a->reads = p;
    a->capreads = c;
  }
  a->reads[a->nreads++] = e;
  return 0;
}

static int emit_read(st_compiled *cm, st_algorithm *a, st_prog *p, st_fexpr *e) {
  return add_read(cm, a, e) || st_emit(cm, p, e, 0) ? -1 : 0;
}

/* The slot a target refers to, following eliminated aliases (x = sign * x[alias_of]). */
static int target_slot(st_compiled *cm, const st_fexpr *t, double *sign) {
  *sign = 1;
  int s = st_ref_slot(cm, t);
  if (s < 0 || t->kind != FX_VAR) return s;
  int v = t->index;
  while (cm->p.slots[v].kind == K_ALIAS) {
    *sign *= cm->p.slots[v].alias_sign;
    v = cm->p.slots[v].alias_of;
  }
  return v;
}

static int add_output(st_compiled *cm, st_algorithm *a, const st_fexpr *target, astmt *s) {
  s->slot = target_slot(cm, target, &s->sign);
  st_kind k = s->slot >= 0 ? cm->p.slots[s->slot].kind : K_IGNORED;
  if (a->initial && k != K_WHEN) {
    /* the others are determined by the equations, which would overwrite the value */
    st_error(cm->diag, s->loc, "an initial algorithm may only assign variables that "
             "when-clauses assign (as initial equations would)%s%s", s->slot >= 0 ? ": " : "",
             s->slot >= 0 ? cm->p.slots[s->slot].name : "");
    return -1;
  }
  if (k != K_ALG && k != K_DISCRETE && k != K_WHEN) {
    st_error(cm->diag, s->loc, "an algorithm section may only assign algebraic or discrete "
             "variables (not parameters, states, derivatives or strings)%s%s", s->slot >= 0 ? ": " : "",
             s->slot >= 0 ? cm->p.slots[s->slot].name : "");
    return -1;
  }
  for (int i = 0; i < a->nout; i++)
    if (a->out[i] == s->slot) return 0;
  if (grow_ints(cm, &a->out, a->nout, &a->capout)) return -1;
  a->out[a->nout++] = s->slot;
  return 0;
}

static int compile_list(st_compiled *cm, st_algorithm *a, const st_fstmt_list *l, alist *out);


static int compile_branches(st_compiled *cm, st_algorithm *a, const st_fstmt *s, astmt *t,
                            int nbranches) {
  t->nconds = s->nconds;
  t->conds = st_arena_alloc(cm->p.arena, (size_t)(s->nconds + 1) * sizeof *t->conds);
  t->branches = st_arena_alloc(cm->p.arena, (size_t)(nbranches + 1) * sizeof *t->branches);
  t->has_initial = st_arena_alloc(cm->p.arena, (size_t)s->nconds + 1);
  if (!t->conds || !t->branches || !t->has_initial) return -1;
  memset(t->conds, 0, (size_t)(s->nconds + 1) * sizeof *t->conds);
  memset(t->branches, 0, (size_t)(nbranches + 1) * sizeof *t->branches);
  for (int c = 0; c < s->nconds; c++) {
    t->has_initial[c] = st_mentions_initial(s->conds[c]);
    if (emit_read(cm, a, &t->conds[c], s->conds[c])) return -1;
  }
  for (int b = 0; b < nbranches; b++)
    if (compile_list(cm, a, &s->branches[b], &t->branches[b])) return -1;
  return 0;
}

/* (a, b) := f(x): conds[i] is f(x) returning output i (func_calls.h); all are evaluated
 * before any target is assigned. */
static int compile_tuple(st_compiled *cm, st_algorithm *a, const st_fstmt *s, astmt *t) {
  const st_fexpr *call = s->value;
  if (!call || call->kind != FX_CALL) {
    st_error(cm->diag, s->loc, "a tuple assignment needs a function call on its right side");
    return -1;
  }
  int n = 0; /* an array target {s[1], s[2]} stands for each of its elements */
  for (int i = 0; i < s->ntargets; i++) n += st_target_leaves(s->targets[i]);
  t->nconds = n;
  t->conds = st_arena_alloc(cm->p.arena, (size_t)(n + 1) * sizeof *t->conds);
  t->tslots = st_arena_alloc(cm->p.arena, (size_t)(n + 1) * sizeof *t->tslots);
  t->tsigns = st_arena_alloc(cm->p.arena, (size_t)(n + 1) * sizeof *t->tsigns);
  if (!t->conds || !t->tslots || !t->tsigns) return -1;
  memset(t->conds, 0, (size_t)(n + 1) * sizeof *t->conds);
  for (int i = 0, k = 0; i < s->ntargets; i++) {
    int m = st_target_leaves(s->targets[i]), array = s->targets[i] && s->targets[i]->kind == FX_ARRAY;
    for (int j = 0; j < m; j++, k++) {
      t->tslots[k] = -1;
      if (!s->targets[i]) continue;
      st_fexpr *c = st_output_call(cm, call, i, array ? j + 1 : 0);
      if (!c) return -1;
      if (add_output(cm, a, st_target_leaf(s->targets[i], j), t) ||
          emit_read(cm, a, &t->conds[k], c))
        return -1;
      t->tslots[k] = t->slot;
      t->tsigns[k] = t->sign;
    }
  }
  return 0;
}

static int compile_stmt(st_compiled *cm, st_algorithm *a, const st_fstmt *s, astmt *t) {
  memset(t, 0, sizeof *t);
  t->kind = s->kind;
  t->loc = s->loc;
  switch (s->kind) {
  case FS_ASSIGN:
    if (add_output(cm, a, s->target, t)) return -1;
    return emit_read(cm, a, &t->value, s->value);
  case FS_IF: return compile_branches(cm, a, s, t, s->nconds + 1);
  case FS_TUPLE: return compile_tuple(cm, a, s, t);
  case FS_WHILE: return compile_branches(cm, a, s, t, 1);
  case FS_WHEN:
    t->wc = cm->p.nwc;
    cm->p.nwc += s->nconds;
    return compile_branches(cm, a, s, t, s->nconds);
  case FS_ASSERT:
    t->message = st_message_compile(cm, s->message, &t->built);
    t->level = s->level;
    return emit_read(cm, a, &t->value, s->value);
  case FS_TERMINATE:
    t->message = st_message_compile(cm, s->message, &t->built);
    t->built = NULL; /* as terminate() equations: the runtime keeps a constant text */
    return 0;
  case FS_BREAK: return 0;
  case FS_REINIT:
    st_error(cm->diag, s->loc, "reinit() is not allowed in an algorithm section: only in the "
             "body of a when-equation (Modelica 3.6 section 8.3.6)");
    return -1;
  case FS_RETURN:
    st_error(cm->diag, s->loc, "return is only allowed in the algorithm of a function "
             "(Modelica 3.6 section 11.2.6)");
    return -1;
  case FS_CALL:
    /* a function called for its asserts (Blocks.Sources' isValidTable(table)) */
    if (s->value && s->value->kind == FX_CALL) return emit_read(cm, a, &t->value, s->value);
    /* fall through */
  default:
    st_error(cm->diag, s->loc, "this statement (a call of something else than a function) is "
             "not supported in algorithm sections of models");
    return -1;
  }
}

static int compile_list(st_compiled *cm, st_algorithm *a, const st_fstmt_list *l, alist *out) {
  out->n = 0; /* counts the statements started, so that freeing a partial list is safe */
  out->items = st_arena_alloc(cm->p.arena, (size_t)(l->n + 1) * sizeof *out->items);
  if (!out->items) return -1;
  for (int i = 0; i < l->n; i++) {
    out->n = i + 1;
    if (compile_stmt(cm, a, l->items[i], &out->items[i])) return -1;
  }
  return 0;
}

static st_fexpr *var_ref(st_compiled *cm, int slot, st_loc loc) {
  st_fexpr *r = st_sym_node(cm->p.arena, FX_VAR, 0, 0);
  if (r) {
    r->index = slot;
    r->loc = loc;
  }
  return r;
}

/* One equation per unknown output: `out = {every expression read, every output}` stands for
 * its incidence only (it is never emitted; blocks.c runs the section instead). */
static int section_equations(st_compiled *cm, st_algorithm *a, int index,
                             int (*push)(st_compiled *, void *, st_ceq), void *ctx) {
  st_fexpr *all = st_sym_node(cm->p.arena, FX_ARRAY, 0, a->nreads + a->nout);
  if (!all) return -1;
  if (a->nreads) /* reads is NULL for a section that reads nothing */
    memcpy(all->args, a->reads, (size_t)a->nreads * sizeof *all->args);
  for (int i = 0; i < a->nout; i++)
    if (!(all->args[a->nreads + i] = var_ref(cm, a->out[i], a->loc))) return -1;
  for (int i = 0; i < a->nout; i++) {
    if (cm->p.slots[a->out[i]].kind == K_WHEN) continue;
    st_ceq q = {var_ref(cm, a->out[i], a->loc), all, a->out[i], a->loc, "", 0, index + 1};
    if (!q.lhs || push(cm, ctx, q)) return -1;
  }
  return 0;
}

int st_add_algorithms(st_compiled *cm, int (*push)(st_compiled *, void *, st_ceq), void *ctx) {
  const st_flat_model *f = cm->p.flat;
  if (f->nalgorithms == 0) return 0;
  cm->algs = st_arena_alloc(cm->p.arena, (size_t)f->nalgorithms * sizeof *cm->algs);
  if (!cm->algs) return -1;
  for (int i = 0; i < f->nalgorithms; i++) {
    st_algorithm *a = st_arena_alloc(cm->p.arena, sizeof *a);
    if (!a) return -1;
    memset(a, 0, sizeof *a);
    cm->algs[cm->nalgs++] = a;
    a->loc = f->algorithms[i].n ? f->algorithms[i].items[0]->loc : f->loc;
    if (compile_list(cm, a, &f->algorithms[i], &a->body) ||
        !(a->saved = st_arena_alloc(cm->p.arena, (size_t)(a->nout + 1) * sizeof *a->saved)) ||
        section_equations(cm, a, i, push, ctx))
      return -1;
  }
  return 0;
}

/* Initial algorithm sections (Modelica 3.6 section 8.6): run once, in order, before the
 * initial system, like the initial equations of when-assigned variables (equations.c). */
static int run_list(exec *x, const alist *l);

int st_add_initial_algorithms(st_compiled *cm) {
  const st_flat_model *f = cm->p.flat;
  if (f->ninitial_algorithms == 0) return 0;
  cm->init_algs = st_arena_alloc(cm->p.arena, (size_t)f->ninitial_algorithms * sizeof *cm->init_algs);
  if (!cm->init_algs) return -1;
  for (int i = 0; i < f->ninitial_algorithms; i++) {
    st_algorithm *a = st_arena_alloc(cm->p.arena, sizeof *a);
    if (!a) return -1;
    memset(a, 0, sizeof *a);
    a->initial = 1;
    cm->init_algs[cm->ninit_algs++] = a;
    a->loc = f->initial_algorithms[i].n ? f->initial_algorithms[i].items[0]->loc : f->loc;
    if (compile_list(cm, a, &f->initial_algorithms[i], &a->body)) return -1;
  }
  return 0;
}

int st_run_initial_algorithms(st_compiled *cm) {
  for (int i = 0; i < cm->ninit_algs; i++) {
    exec x = {cm, 0, 0};
    if (run_list(&x, &cm->init_algs[i]->body)) return -1;
  }
  return 0;
}

static void pin_vars(const st_compiled *cm, const st_fexpr *e, unsigned char *pinned) {
  if (!e) return;
  if (e->kind == FX_VAR && e->index >= 0 && e->index < cm->p.nslots) pinned[e->index] = 1;
  if (e->kind == FX_BUILTIN && e->op == FB_DER && e->nargs == 1 && e->args[0]->kind == FX_VAR &&
      cm->p.slots[e->args[0]->index].der >= 0)
    pinned[cm->p.slots[e->args[0]->index].der] = 1;
  for (int i = 0; i < e->nargs; i++) pin_vars(cm, e->args[i], pinned);
}

/* What a section reads stays a variable of its own (alias.c): the statements are compiled
 * before alias elimination and run in the middle of a BLT pass, before st_sync_aliases would
 * refresh an alias (Clocked's RotationalClock asserted on its input and read 0). */
void st_algorithms_pin_reads(const st_compiled *cm, unsigned char *pinned) {
  for (int i = 0; i < cm->nalgs; i++)
    for (int r = 0; r < cm->algs[i]->nreads; r++) pin_vars(cm, cm->algs[i]->reads[r], pinned);
}

/* ------------------------------------------------------------------ blocks */

int st_algorithm_block(st_compiled *cm, st_block *b, const int *comp, int size) {
  int alg = 0, other = -1;
  for (int i = 0; i < size; i++)
    if (cm->p.eqs[comp[i]].algorithm && !alg) alg = cm->p.eqs[comp[i]].algorithm;
  for (int i = 0; i < size && other < 0; i++)
    if (cm->p.eqs[comp[i]].algorithm != alg) other = comp[i];
  if (other >= 0) {
    st_error(cm->diag, cm->algs[alg - 1]->loc, "this algorithm section is part of an algebraic "
             "loop with other equations, which is not supported");
    st_note(cm->diag, cm->p.eqs[other].loc, "an equation of the loop");
    return -1;
  }
  cm->algs[alg - 1]->has_block = 1;
  b->kind = BK_ALGORITHM;
  b->alg = alg - 1;
  b->n = 0;
  for (int i = 0; i < size; i++) {
    b->slots[b->n] = cm->p.eqs[comp[i]].target;
    b->eqs[b->n++] = comp[i];
  }
  return 0;
}

int st_algorithms_without_block(const st_compiled *cm, int *which) {
  int n = 0;
  for (int i = 0; i < cm->nalgs; i++)
    if (!cm->algs[i]->has_block) which[n++] = i;
  return n;
}

/* ------------------------------------------------------------------ execution */

static int run_list(exec *x, const alist *l);

static int fail(exec *x, st_loc loc, const char *msg) {
  x->cm->error_loc = loc;
  st_set_error(x->cm, "%s at time %.17g", msg, x->cm->vm.time);
  return -1;
}

static int run_when(exec *x, const astmt *s) {
  st_compiled *cm = x->cm;
  if (!cm->vm.event_mode) return 0; /* outputs keep pre(v) between events */
  int done = 0;
  for (int i = 0; i < s->nconds; i++) {
    int k = s->wc + i;
    cm->wc[k] = st_vm_eval(&cm->vm, &s->conds[i]) != 0;
    /* while initializing, active iff the condition names initial() (event_pass.c) */
    double pre = cm->vm.initial ? (s->has_initial[i] ? 0 : cm->wc[k]) : cm->wc_pre[k];
    if (done || !(cm->wc[k] && !pre)) continue;
    done = 1;
    if (run_list(x, &s->branches[i])) return -1;
  }
  return 0;
}

static int run_while(exec *x, const astmt *s) {
  for (long it = 0;; it++) {
    if (it > MAX_LOOP) return fail(x, s->loc, "while-loop of an algorithm section does not end");
    if (st_vm_eval(&x->cm->vm, &s->conds[0]) == 0) return 0;
    if (run_list(x, &s->branches[0])) return -1;
    if (x->brk) {
      x->brk = 0;
      return 0;
    }
  }
}

static int run_tuple(exec *x, const astmt *s) {
  st_compiled *cm = x->cm;
  double few[64], *v = s->nconds <= 64 ? few : malloc(sizeof *v * (size_t)s->nconds);
  if (!v) return fail(x, s->loc, "out of memory while assigning a tuple");
  for (int i = 0; i < s->nconds; i++)
    if (s->tslots[i] >= 0) v[i] = s->tsigns[i] * st_vm_eval(&cm->vm, &s->conds[i]);
  for (int i = 0; i < s->nconds; i++)
    if (s->tslots[i] >= 0)
      cm->x[s->tslots[i]] = cm->p.slots[s->tslots[i]].is_bool ? v[i] != 0 : v[i];
  if (v != few) free(v);
  return 0;
}

static int run_stmt(exec *x, const astmt *s) {
  st_compiled *cm = x->cm;
  switch (s->kind) {
  case FS_ASSIGN: {
    double v = s->sign * st_vm_eval(&cm->vm, &s->value);
    cm->x[s->slot] = cm->p.slots[s->slot].is_bool ? v != 0 : v;
    return 0;
  }
  case FS_IF:
    for (int i = 0; i < s->nconds; i++)
      if (st_vm_eval(&cm->vm, &s->conds[i]) != 0) return run_list(x, &s->branches[i]);
    return run_list(x, &s->branches[s->nconds]);
  case FS_WHILE: return run_while(x, s);
  case FS_TUPLE: return run_tuple(x, s);
  case FS_WHEN: return run_when(x, s);
  case FS_ASSERT:
    if (s->level == 0 && st_vm_eval(&cm->vm, &s->value) == 0) {
      char *text = s->built ? st_message_eval(cm, s->built) : NULL;
      cm->error_loc = s->loc; /* the message in full: no buffer of a fixed size cuts it */
      st_set_error(cm, "assertion failed: %s at time %.17g", text ? text : s->message, cm->vm.time);
      free(text);
      return -1;
    }
    return 0;
  case FS_TERMINATE:
    /* at an event or while initializing; the event pass ends the run after its iteration
     * (section 8.3.7). Between events a trial point of the integrator may pass a branch
     * whose relation has not switched yet: not a request. */
    if (cm->vm.event_mode || cm->vm.initial) cm->alg_terminate = s->message;
    return 0;
  case FS_BREAK: x->brk = 1; return 0;
  case FS_CALL:
    /* NaN: the call failed (an assert in the function, see st_fcall_eval) */
    if (isnan(st_vm_eval(&cm->vm, &s->value))) {
      const char *why = cm->fcalls ? st_fcalls_failure(cm->fcalls) : "";
      cm->error_loc = s->loc;
      st_set_error(cm, "the function call failed%s%s at time %.17g", *why ? ": " : "", why,
                   cm->vm.time);
      return -1;
    }
    return 0;
  default: return fail(x, s->loc, "unsupported statement");
  }
}

static int run_list(exec *x, const alist *l) {
  for (int i = 0; i < l->n && !x->brk; i++)
    if (run_stmt(x, &l->items[i])) return -1;
  return 0;
}

static int is_discrete(const st_compiled *cm, int s) {
  return cm->p.slots[s].kind == K_DISCRETE || cm->p.slots[s].kind == K_WHEN;
}

/* Between events the discrete outputs are frozen (model.h): they start from and are put
 * back to their current values, and only the continuous outputs are recomputed. */
int st_run_algorithm(st_compiled *cm, int index) {
  st_algorithm *a = cm->algs[index];
  int event = cm->vm.event_mode;
  for (int i = 0; i < a->nout; i++) {
    int s = a->out[i];
    if (is_discrete(cm, s)) a->saved[i] = cm->x[s] = event ? cm->pre[s] : cm->x[s];
    else cm->x[s] = cm->p.start_prog[s].n ? st_vm_eval(&cm->vm, &cm->p.start_prog[s]) : 0;
  }
  exec x = {cm, 0, 0};
  int rc = run_list(&x, &a->body);
  for (int i = 0; !event && i < a->nout; i++)
    if (is_discrete(cm, a->out[i])) cm->x[a->out[i]] = a->saved[i];
  return rc;
}

static void left_limits(st_compiled *cm, const alist *l) {
  for (int i = 0; i < l->n; i++) {
    const astmt *s = &l->items[i];
    for (int c = 0; s->kind == FS_WHEN && c < s->nconds; c++)
      cm->wc_pre[s->wc + c] = st_vm_eval(&cm->vm, &s->conds[c]) != 0;
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; b < nb; b++) left_limits(cm, &s->branches[b]);
  }
}

void st_algorithms_left_limits(st_compiled *cm) {
  for (int i = 0; i < cm->nalgs; i++) left_limits(cm, &cm->algs[i]->body);
}

/* ------------------------------------------------------------------ freeing */

static void free_list(alist *l) {
  for (int i = 0; l && i < l->n; i++) {
    astmt *s = &l->items[i];
    st_prog_free(&s->value);
    for (int c = 0; s->conds && c < s->nconds; c++) st_prog_free(&s->conds[c]);
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_WHEN ? s->nconds
             : s->kind == FS_WHILE ? 1 : 0;
    for (int b = 0; s->branches && b < nb; b++) free_list(&s->branches[b]);
  }
}

void st_algorithms_free(st_compiled *cm) {
  for (int i = 0; i < cm->nalgs; i++) free_list(&cm->algs[i]->body);
  for (int i = 0; i < cm->ninit_algs; i++) free_list(&cm->init_algs[i]->body);
}

/* Initial algorithms keep nothing between runs (no saved values): instances share them. */
int st_algorithms_clone(st_compiled *cm) {
  if (cm->nalgs == 0) return 0;
  st_algorithm **algs = st_arena_alloc(cm->iarena, (size_t)cm->nalgs * sizeof *algs);
  if (!algs) return -1;
  for (int i = 0; i < cm->nalgs; i++) {
    const st_algorithm *a = cm->algs[i];
    if (!(algs[i] = st_arena_alloc(cm->iarena, sizeof *a))) return -1;
    *algs[i] = *a;
    algs[i]->saved = st_arena_alloc(cm->iarena, (size_t)(a->nout + 1) * sizeof *a->saved);
    if (!algs[i]->saved) return -1;
  }
  cm->algs = algs;
  return 0;
}
