/* st_compile: the pipeline from the flat model to the compiled model, and its accessors. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "exec/delay.h"
#include "front/flat_expr.h"
#include "compile/model_impl.h"
#include "exec/sparse_block.h"

static double *doubles(st_compiled *cm, int n) {
  return st_arena_alloc(cm->p.arena, sizeof(double) * (size_t)(n > 0 ? n : 1));
}

static void point_vm(st_compiled *cm) {
  cm->vm.x = cm->x;
  cm->vm.pre = cm->pre;
  cm->vm.xd = cm->xd;
}

/* The values the parameters and start values are compiled with, before index reduction. On
 * the heap, widened in place when index reduction adds slots (a copy in the arena left the
 * first ones behind: 1.3 KB per component of ComponentChain), freed by free_proto. */
static int alloc_values(st_compiled *cm) {
  size_t n = (size_t)cm->p.nslots + 1;
  cm->x = calloc(n, sizeof(double));
  cm->pre = calloc(n, sizeof(double));
  cm->xd = calloc(n, sizeof(double));
  if (cm->p.stack_cap < ST_STACK_MIN) cm->p.stack_cap = ST_STACK_MIN;
  if (!cm->vm.stack) {
    cm->vm.stack = doubles(cm, cm->p.stack_cap);
    cm->vm.dstack = doubles(cm, cm->p.stack_cap);
  }
  cm->p.start_prog = calloc(n, sizeof(st_prog));
  if (!cm->x || !cm->pre || !cm->xd || !cm->vm.stack || !cm->vm.dstack || !cm->p.start_prog)
    return -1;
  cm->p.nstart_prog = cm->p.nslots;
  point_vm(cm);
  return 0;
}

/* Room for n items of size bytes in *a (heap), the items from `keep` on zeroed: 0 or -1. */
static int widen(void **a, size_t n, size_t keep, size_t size) {
  char *w = realloc(*a, n * size);
  if (!w) return -1;
  memset(w + keep * size, 0, (n - keep) * size);
  *a = w;
  return 0;
}

/* Index reduction adds derivative slots: widen the value arrays, keeping parameter values
 * and start programs (pre and xd start over at zero; the arrays only runs need come after,
 * in final_values). */
static int regrow_values(st_compiled *cm, int n0) {
  size_t n = (size_t)cm->p.nslots + 1;
  if (widen((void **)&cm->x, n, (size_t)n0, sizeof(double)) ||
      widen((void **)&cm->pre, n, 0, sizeof(double)) ||
      widen((void **)&cm->xd, n, 0, sizeof(double)) ||
      widen((void **)&cm->p.start_prog, n, (size_t)n0, sizeof(st_prog)))
    return -1;
  cm->p.nstart_prog = cm->p.nslots;
  point_vm(cm);
  return 0;
}

static int final_values(st_compiled *cm) {
  cm->init_pre = doubles(cm, cm->p.nslots);
  cm->init_view = doubles(cm, cm->p.nslots);
  cm->start_pre = doubles(cm, cm->p.nslots);
  return cm->init_pre && cm->init_view && cm->start_pre ? 0 : -1;
}

/* The start value without a start attribute is 0, but for an enumeration its min, by default
 * the first literal (Modelica 3.6 section 4.9.5): Digital's outputs start at Logic.'U' = 1. */
static const st_fexpr *default_start(st_compiled *cm, const st_fvar *v) {
  if (v->start || v->type != ST_T_ENUM) return v->start;
  return v->min ? v->min : st_fx_real(cm->p.arena, 1, v->loc);
}

static int compile_starts(st_compiled *cm) {
  for (int i = 0; i < cm->p.flat->nvars; i++) {
    const st_fvar *v = &cm->p.flat->vars[i];
    const st_fexpr *start = default_start(cm, v);
    st_kind k = cm->p.slots[i].kind; /* a String parameter's start is text */
    if (k == K_PARAM || k == K_IGNORED || !start) continue;
    if (st_emit(cm, &cm->p.start_prog[i], start, EMIT_PLAIN)) return -1;
  }
  return 0;
}

/* The nominal attribute of each slot's variable, or of a variable eliminated as its alias
 * (w_rel(nominal = 1e-4) may be kept under another name): it scales the integrator's
 * absolute tolerance of the state or unknown (model.c st_fill_nominals). */
static int compile_nominals(st_compiled *cm) {
  int n = cm->p.nslots;
  cm->p.nominal_prog = st_arena_alloc(cm->p.arena, sizeof(st_prog) * (size_t)n + 1);
  if (!cm->p.nominal_prog) return -1;
  memset(cm->p.nominal_prog, 0, sizeof(st_prog) * (size_t)n);
  cm->p.nnominal_prog = n;
  int nvars = cm->p.flat->nvars;
  for (int s = 0; s < n; s++) {
    int f = cm->p.slots[s].flat;
    if (f < 0 || f >= nvars || !cm->p.flat->vars[f].nominal) continue;
    int r = s;
    for (int hops = 0; cm->p.slots[r].kind == K_ALIAS && hops < n; hops++)
      r = cm->p.slots[r].alias_of;
    st_kind k = cm->p.slots[r].kind;
    if (k == K_PARAM || k == K_CONST || k == K_IGNORED || k == K_ALIAS) continue;
    if (cm->p.nominal_prog[r].n) continue; /* the representative's own, else the first alias's */
    if (r != s && cm->p.slots[r].flat >= 0 && cm->p.flat->vars[cm->p.slots[r].flat].nominal)
      continue;
    if (st_emit(cm, &cm->p.nominal_prog[r], cm->p.flat->vars[f].nominal, EMIT_PLAIN)) return -1;
  }
  return 0;
}

/* The dense scratch's sizes: J for the largest Jacobian factored by dense LU (a KLU block's
 * needs none, a torn block's is over its tear variables) and the mixed-system history for
 * the most discrete unknowns of one block (solve.c fixed_point: 2 nd + 11 rows of nd). A
 * loop of 10^5 unknowns solved by KLU would otherwise ask for 10^10 doubles of each. */
static void dense_sizes(st_compiled *cm) {
  cm->p.maxdense = cm->p.maxnd = 0;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    int dense = b->kind == BK_SOLVE || b->kind == BK_MIXED ? b->n : 0;
    if (dense && st_block_uses_klu(b)) dense = b->ntear;
    if (dense > cm->p.maxdense) cm->p.maxdense = dense;
    if (b->nd > cm->p.maxnd) cm->p.maxnd = b->nd;
  }
}

static size_t hist_size(const st_compiled *cm) {
  size_t nd = (size_t)cm->p.maxnd;
  return (2 * nd + 11) * nd; /* solve.c: 2 nd + 10 passes + 1 */
}

static int alloc_runtime(st_compiled *cm) {
  int n = cm->p.maxn > 0 ? cm->p.maxn : 1;
  dense_sizes(cm);
  cm->jdim = cm->p.maxdense;
  cm->J = st_arena_alloc(cm->p.arena, sizeof(double) * ((size_t)cm->jdim * (size_t)cm->jdim + 1));
  cm->r = doubles(cm, n);
  cm->dx = doubles(cm, n);
  cm->x0 = doubles(cm, n);
  cm->term_scale = doubles(cm, n);
  cm->xsave = doubles(cm, n);
  cm->piv = st_arena_alloc(cm->p.arena, sizeof(int64_t) * (size_t)n);
  cm->hist = doubles(cm, (int)hist_size(cm));
  cm->rel = doubles(cm, cm->p.nrels);
  cm->rel_pre = doubles(cm, cm->p.nrels);
  cm->wc = doubles(cm, cm->p.nwc);
  cm->wc_pre = doubles(cm, cm->p.nwc);
  cm->wc_start = doubles(cm, cm->p.nwc);
  cm->when_fired = st_arena_alloc(cm->p.arena, (size_t)cm->p.nwhens + 1);
  cm->init_fired = st_arena_alloc(cm->p.arena, (size_t)cm->p.nwc + 1);
  cm->vm.rel = cm->rel;
  cm->vm.rels = cm->p.vmrels;
  cm->vm.lambda = 1;
  cm->vm.active = st_arena_alloc(cm->p.arena, (size_t)cm->p.nrels + 1);
  if (cm->vm.active) memset(cm->vm.active, 1, (size_t)cm->p.nrels + 1); /* until the first event */
  cm->vm.crossed = st_arena_alloc(cm->p.arena, (size_t)cm->p.nrels + 1);
  if (cm->vm.crossed) memset(cm->vm.crossed, 0, (size_t)cm->p.nrels + 1);
  cm->vm.gap = doubles(cm, cm->p.nrels + 1);
  return cm->J && cm->r && cm->dx && cm->x0 && cm->term_scale && cm->xsave && cm->piv && cm->hist && cm->rel && cm->rel_pre &&
                 cm->wc && cm->wc_pre && cm->wc_start && cm->when_fired && cm->init_fired && cm->vm.active && cm->vm.crossed && cm->vm.gap ? 0 : -1;
}

static int setup_indicators(st_compiled *cm) {
  cm->p.ind_rel = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)cm->p.nrels + 1);
  cm->p.ind_names = st_arena_alloc(cm->p.arena, sizeof(char *) * (size_t)cm->p.nrels + 1);
  if (!cm->p.ind_rel || !cm->p.ind_names) return -1;
  for (int k = 0; k < cm->p.nrels; k++) {
    if (cm->rels[k].time_only) continue;
    cm->rels[k].indicator = cm->p.nind;
    const st_loc *l = &cm->rels[k].loc;
    cm->p.ind_names[cm->p.nind] = st_arena_printf(cm->p.arena, "relation %d (%s:%d:%d)", k,
                                              l->file ? l->file : "?", l->line, l->col);
    cm->p.ind_rel[cm->p.nind++] = k;
  }
  /* after the relations' indicators: one per dynamic state set (exec/dynset.c) */
  cm->p.dyn_ind_names = st_arena_alloc(cm->p.arena, sizeof(char *) * (size_t)(cm->p.nind + cm->p.ndyn) + 1);
  if (!cm->p.dyn_ind_names) return -1;
  for (int k = 0; k < cm->p.nind; k++) cm->p.dyn_ind_names[k] = cm->p.ind_names[k];
  for (int k = 0; k < cm->p.ndyn; k++)
    cm->p.dyn_ind_names[cm->p.nind + k] = st_arena_printf(cm->p.arena, "dynamic state set %d", k + 1);
  return 0;
}

static int setup_names(st_compiled *cm) {
  cm->p.disc_slot = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)cm->p.nslots + 1);
  cm->p.disc_names = st_arena_alloc(cm->p.arena, sizeof(char *) * (size_t)cm->p.nslots + 1);
  cm->p.state_names = st_arena_alloc(cm->p.arena, sizeof(char *) * (size_t)cm->p.nstates + 1);
  if (!cm->p.disc_slot || !cm->p.disc_names || !cm->p.state_names) return -1;
  for (int s = 0; s < cm->p.nslots; s++)
    if (cm->p.slots[s].kind == K_DISCRETE || cm->p.slots[s].kind == K_WHEN) {
      cm->p.disc_names[cm->p.ndisc] = cm->p.slots[s].name;
      cm->p.disc_slot[cm->p.ndisc++] = s;
    }
  for (int i = 0; i < cm->p.nstates; i++)
    cm->p.state_names[i] = cm->p.slots[cm->p.state_slot[i]].name;
  return 0; /* the recorded variables are chosen by each instance (own_run_state) */
}

/* An initial equation that no longer names a continuous unknown (nor a parameter with
 * fixed = false the initial system solves for) once aliases are resolved (`mediums[1].p =
 * p_start` where a boundary's pressure parameter gives that pressure) determines nothing: it is checked at the initialized values like the redundant ones
 * found before (equations.c), not counted against the free states. */
static int move_redundant_initial(st_compiled *cm) {
  int n = cm->p.ninit, m = cm->p.ninit_checks, kept = 0;
  st_ceq *checks = st_arena_alloc(cm->p.arena, sizeof *checks * (size_t)(n + m) + 1);
  if (!checks) return -1;
  if (m) memcpy(checks, cm->p.init_checks, sizeof *checks * (size_t)m);
  for (int i = 0; i < n; i++) {
    const st_ceq *q = &cm->p.init_eqs[i];
    int unknown = ((st_expr_deps(cm, q->lhs) | st_expr_deps(cm, q->rhs)) & DEP_CONT) != 0;
    for (int k = 0; !unknown && k < cm->p.ninit_params; k++) /* parameters it determines */
      unknown = st_sym_count(cm, q->lhs, cm->p.init_params[k]) ||
                st_sym_count(cm, q->rhs, cm->p.init_params[k]);
    if (unknown)
      cm->p.init_eqs[kept++] = *q;
    else
      checks[m++] = *q;
  }
  cm->p.ninit = kept;
  cm->p.init_checks = checks;
  cm->p.ninit_checks = m;
  return 0;
}

static int compile_initial(st_compiled *cm) {
  if (move_redundant_initial(cm)) return -1;
  cm->p.init_res = st_arena_alloc(cm->p.arena, sizeof(st_prog) * (size_t)cm->p.ninit + 1);
  if (!cm->p.init_res) return -1;
  for (int i = 0; i < cm->p.ninit; i++)
    if (st_emit_residual(cm, &cm->p.init_res[i], cm->p.init_eqs[i].lhs, cm->p.init_eqs[i].rhs))
      return -1;
  cm->p.init_check_res =
      st_arena_alloc(cm->p.arena, sizeof(st_prog) * (size_t)cm->p.ninit_checks + 1);
  if (!cm->p.init_check_res) return -1;
  for (int i = 0; i < cm->p.ninit_checks; i++)
    if (st_emit_residual(cm, &cm->p.init_check_res[i], cm->p.init_checks[i].lhs,
                         cm->p.init_checks[i].rhs))
      return -1;
  cm->p.init_assign_prog =
      st_arena_alloc(cm->p.arena, sizeof(st_prog) * (size_t)cm->p.ninit_assign + 1);
  if (!cm->p.init_assign_prog) return -1;
  memset(cm->p.init_assign_prog, 0, sizeof(st_prog) * (size_t)cm->p.ninit_assign);
  cm->p.init_assign_late = st_arena_alloc(cm->p.arena, (size_t)cm->p.ninit_assign + 1);
  if (!cm->p.init_assign_late) return -1;
  for (int i = 0; i < cm->p.ninit_assign; i++) {
    if (st_emit(cm, &cm->p.init_assign_prog[i], cm->p.init_assign[i].rhs, EMIT_NOEVENT)) return -1;
    cm->p.init_assign_late[i] = (st_expr_deps(cm, cm->p.init_assign[i].rhs) & DEP_CONT) != 0;
  }
  return st_check_initial_counts(cm);
}

/* Index reduction; when the states it chose are not independent (constraints.c: a linear
 * combination of the equations leaves states only), once more from the equations as they
 * were, with those combinations written out so that Pantelides differentiates them. */
static int reduce_index(st_compiled *cm) {
  st_index_saved sv;
  int rc = -1;
  if (st_index_save(cm, &sv) || st_index_reduce(cm)) goto out;
  int hidden = st_hidden_constraints(cm, 0);
  if (hidden <= 0) { rc = hidden; goto out; }
  st_index_restore(cm, &sv);
  rc = st_hidden_constraints(cm, 1) < 0 || st_index_reduce(cm) ? -1 : 0;
out:
  st_index_saved_free(&sv);
  return rc;
}

/* Classification, parameters, start values and the equations of cm's flat model. */
static int equations(st_compiled *cm) {
  if (st_classify(cm) || alloc_values(cm) || st_eval_parameters(cm)) return -1;
  st_apply_parameters(cm);
  return st_mark_zero_parameters(cm) || compile_starts(cm) || st_collect_equations(cm) ||
         st_fold_structural_zeros(cm);
}

static int pipeline(st_compiled *cm) {
  if (st_lower_state_machines(cm) || st_lower_clocks(cm) || equations(cm)) return -1;
  int n0 = cm->p.nslots;
  if (reduce_index(cm) || (cm->p.nslots > n0 && regrow_values(cm, n0)) || final_values(cm) ||
      st_dynset_emit(cm))
    return -1;
  if (st_eliminate_aliases(cm) || compile_nominals(cm)) return -1;
  st_report_state_select(cm);
  /* the values of variables bound to parameter expressions (a resistor's R_actual) decide
   * which factors tearing may divide by (tearing.c safe_factor) */
  st_eval_consts(cm);
  if (st_structure(cm)) return -1;
  for (int b = 0; b < cm->nblocks; b++)
    if (st_own_seeds(cm, cm->p.arena, &cm->blocks[b])) return -1;
  if (compile_initial(cm) || setup_indicators(cm) || setup_names(cm) || alloc_runtime(cm) ||
      st_jacobian_pattern(cm) || st_fuse_programs(cm))
    return -1;
  st_model_setup(cm);
  return 0;
}

static void free_prog_array(st_prog *p, int n) {
  for (int i = 0; p && i < n; i++) st_prog_free(&p[i]);
}

/* The prototype and everything it owns: the tables, the programs, the originals of the
 * per-run parts. */
static void free_proto(st_compiled *cm) {
  if (!cm) return;
  st_spec_free(cm, cm->spec);
  st_tapes_free(cm->tapes);
  st_fcalls_free(cm->fcalls);
  free(cm->error);
  st_delays_free(cm->delays);
  st_algorithms_free(cm);
  for (int b = 0; b < cm->nblocks; b++) {
    st_block *k = &cm->blocks[b];
    st_sparse_block_free(k->sparse);
    st_prog_free(&k->assign);
    if (k->kind != BK_ASSIGN) free_prog_array(k->res, k->n);
    st_tear_free(k);
    free_prog_array(k->dexpr, k->nd);
  }
  for (int k = 0; k < cm->p.nrels; k++) {
    st_prog_free(&cm->rels[k].ind);
    st_prog_free(&cm->rels[k].threshold);
  }
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches; i++) {
      st_when_branch *b = &cm->p.whens[w].branches[i];
      st_prog_free(&b->cond);
      for (int a = 0; a < b->nactions; a++) st_prog_free(&b->actions[a].value);
    }
  for (int i = 0; i < cm->nasserts; i++) st_prog_free(&cm->asserts[i].cond);
  for (int i = 0; i < cm->p.nsamples; i++) {
    st_prog_free(&cm->p.samples[i].start);
    st_prog_free(&cm->p.samples[i].interval);
  }
  for (int k = 0; cm->p.dyn && k < cm->p.ndyn; k++)
    free_prog_array(cm->p.dyn[k].res, cm->p.dyn[k].res ? cm->p.dyn[k].neq : 0);
  if (cm->p.param_prog) free_prog_array(cm->p.param_prog, cm->p.flat->nvars);
  /* not nslots: when index reduction fails after adding derivative slots, start_prog was
   * never widened (regrow_values) and has only the entries of the original slots */
  free_prog_array(cm->p.start_prog, cm->p.start_prog ? cm->p.nstart_prog : 0);
  free_prog_array(cm->p.nominal_prog, cm->p.nominal_prog ? cm->p.nnominal_prog : 0);
  free_prog_array(cm->p.init_res, cm->p.init_res ? cm->p.ninit : 0);
  free_prog_array(cm->p.init_check_res, cm->p.init_check_res ? cm->p.ninit_checks : 0);
  free_prog_array(cm->p.init_assign_prog, cm->p.init_assign_prog ? cm->p.ninit_assign : 0);
  free_prog_array(cm->p.const_prog, cm->p.nconsts);
  free(cm->p.slots); /* on the heap: classify.c, equations.c, index.c */
  free(cm->p.eqs);
  free(cm->x); /* on the heap: alloc_values */
  free(cm->pre);
  free(cm->xd);
  free(cm->p.start_prog);
  st_arena_free(cm->p.arena);
  free(cm);
}


/* The prototype's per-run parts become the program's originals (their programs stay there),
 * so that the prototype is never run: every instance, st_compile's too, is a copy. */
st_program *st_compile_program(const st_flat_model *flat, st_diag *diag) {
  st_compiled *cm = calloc(1, sizeof *cm);
  if (!cm) {
    st_error(diag, flat->loc, "out of memory while compiling the model");
    return NULL;
  }
  cm->p.arena = cm->iarena = st_arena_new();
  cm->diag = diag;
  cm->p.flat = flat;
  cm->specialize = 1;
  cm->spec_gen = cm->spec_defer_gen = -1;
  st_program *prog = NULL;
  int errors = st_diag_errors(diag);
  /* a NULL from the arena dropped on the way is no success either */
  if (!cm->p.arena || pipeline(cm) || st_arena_failed(cm->p.arena) ||
      !(prog = st_arena_alloc(cm->p.arena, sizeof *prog))) {
    if (st_diag_errors(diag) == errors)
      st_error(diag, flat->loc, "out of memory while compiling the model");
    free_proto(cm);
    return NULL;
  }
  cm->p.proto = cm;
  *prog = cm->p;
  return prog;
}

/* The equations of flat after index reduction alone (clocks.c: a continuous-time partition
 * that its clock's solverMethod discretizes is reduced as such first); NULL on failure
 * (reported). Its slots and equations are read, then it is freed (st_index_alone_free). */
st_compiled *st_index_alone(const st_flat_model *flat, st_diag *diag) {
  st_compiled *cm = calloc(1, sizeof *cm);
  if (!cm) return NULL;
  cm->p.arena = cm->iarena = st_arena_new();
  cm->diag = diag;
  cm->p.flat = flat;
  cm->spec_gen = cm->spec_defer_gen = -1;
  if (!cm->p.arena || equations(cm) || reduce_index(cm) || st_arena_failed(cm->p.arena)) {
    free_proto(cm);
    return NULL;
  }
  return cm;
}

void st_index_alone_free(st_compiled *cm) { free_proto(cm); }

void st_program_free(st_program *prog) {
  if (prog) free_proto(prog->proto);
}

/* Copies n items of the prototype's array (NULL: zeros) into the instance's arena. */
static void *own(st_compiled *in, const void *a, size_t n, size_t size) {
  void *c = st_arena_alloc(in->iarena, (n ? n : 1) * size);
  if (c && a && n) memcpy(c, a, n * size);
  return c;
}

/* Room for the cached factors of a linear block of n unknowns, zeroed; NULL when out of
 * memory. */
st_factors *st_factors_new(st_arena *a, int n) {
  size_t m = n > 0 ? (size_t)n : 1, mm = m * m;
  st_factors *f = st_arena_alloc(a, sizeof *f);
  if (!f) return NULL;
  f->lu = st_arena_alloc(a, mm * sizeof(double));
  f->lupiv = st_arena_alloc(a, m * sizeof(int64_t));
  f->sp_start = st_arena_alloc(a, (2 * m + 1) * sizeof(int));
  f->sp_idx = st_arena_alloc(a, mm * sizeof(int));
  f->sp_val = st_arena_alloc(a, mm * sizeof(double));
  f->sp_diag = st_arena_alloc(a, m * sizeof(double));
  f->sp_recip = st_arena_alloc(a, m);
  f->sp_perm = st_arena_alloc(a, m * sizeof(int));
  return f->lu && f->lupiv && f->sp_start && f->sp_idx && f->sp_val && f->sp_diag &&
                 f->sp_recip && f->sp_perm ? f : NULL;
}

/* The cached factors of a linear block with frozen coefficients (blocks.c); KLU keeps its
 * own (sparse_block.c, made at the first solve). */
static int own_factors(st_compiled *in, st_block *b) {
  if (!b->const_jac || st_block_uses_klu(b)) return 0;
  return (b->fac = st_factors_new(in->iarena, b->n)) ? 0 : -1;
}

/* The solutions a nonlinear block keeps as starting points (solve.c seed_from_past); where a
 * mixed block pins its singular real part (solve.c along_null_line). */
int st_own_seeds(st_compiled *cm, st_arena *a, st_block *b) {
  b->seed = b->seed_t = b->pin = NULL;
  b->nseed = b->seed_head = b->pinned = 0;
  if (b->kind == BK_MIXED && b->compared && b->n) {
    b->pin = st_arena_alloc(a, (size_t)b->n * sizeof(double));
    return b->pin ? 0 : -1;
  }
  if (b->kind != BK_SOLVE || b->linear) return 0;
  b->seed = st_arena_alloc(a, (size_t)ST_SEEDS * (size_t)b->n * sizeof(double));
  b->seed_t = st_arena_alloc(a, ST_SEEDS * sizeof(double));
  return b->seed && b->seed_t ? 0 : -1;
}

/* Everything a run writes gets its own copy; the tables stay shared (st_program). */
/* The prototype's array itself for the program's only instance (take), else a copy. */
static void *take(st_compiled *in, int sole, void *a, size_t n, size_t size) {
  return sole && a ? a : own(in, a, n, size);
}

/* Everything a run writes gets its own copy; the tables stay shared (st_program). The
 * program's only instance (sole: st_compile's, whose program nobody else sees) takes the
 * prototype's values, blocks, relations and asserts instead: the prototype is never run, and
 * the copies were a tenth of a large model's translation memory (doc/perf-log.md). */
static int own_run_state(st_compiled *in, int sole) {
  st_compiled *pr = in->p.proto;
  size_t ns = (size_t)in->p.nslots, nr = (size_t)in->p.nrels, nw = (size_t)in->p.nwc;
  size_t nm = (size_t)(in->p.maxn > 0 ? in->p.maxn : 1), nv = (size_t)in->p.flat->nvars;
  size_t nj = (size_t)in->p.maxdense;
  int ok = (in->x = take(in, sole, pr->x, ns, sizeof(double))) &&
           (in->pre = take(in, sole, pr->pre, ns, sizeof(double))) &&
           (in->xd = take(in, sole, pr->xd, ns, sizeof(double))) &&
           (in->init_pre = take(in, sole, pr->init_pre, ns, sizeof(double))) &&
           (in->init_view = take(in, sole, pr->init_view, ns, sizeof(double))) &&
           (in->start_pre = take(in, sole, pr->start_pre, ns, sizeof(double))) &&
           (in->vm.stack = own(in, NULL, (size_t)in->p.stack_cap, sizeof(double))) &&
           (in->vm.dstack = own(in, NULL, (size_t)in->p.stack_cap, sizeof(double))) &&
           (in->param_overridden = own(in, pr->param_overridden, nv + 1, 1)) &&
           (in->blocks = take(in, sole, pr->blocks, (size_t)in->nblocks, sizeof(st_block))) &&
           (in->rels = take(in, sole, pr->rels, nr, sizeof(st_relation))) &&
           (in->rel = own(in, pr->rel, nr, sizeof(double))) &&
           (in->rel_pre = own(in, pr->rel_pre, nr, sizeof(double))) &&
           (in->vm.active = own(in, pr->vm.active, nr + 1, 1)) &&
           (in->vm.crossed = own(in, pr->vm.crossed, nr + 1, 1)) &&
           (in->vm.gap = own(in, pr->vm.gap, nr + 1, sizeof(double))) &&
           (in->wc = own(in, pr->wc, nw, sizeof(double))) &&
           (in->wc_pre = own(in, pr->wc_pre, nw, sizeof(double))) &&
           (in->wc_start = own(in, NULL, nw, sizeof(double))) &&
           (in->when_fired = own(in, NULL, (size_t)in->p.nwhens + 1, 1)) &&
           (in->init_fired = own(in, NULL, nw + 1, 1)) &&
           (in->asserts = take(in, sole, pr->asserts, (size_t)in->nasserts, sizeof(st_assert))) &&
           st_compiled_select_outputs(in, NULL, 0) >= 0 &&
           (in->J = own(in, NULL, nj * nj, sizeof(double))) &&
           (in->r = own(in, NULL, nm, sizeof(double))) &&
           (in->dx = own(in, NULL, nm, sizeof(double))) &&
           (in->x0 = own(in, NULL, nm, sizeof(double))) &&
           (in->term_scale = own(in, NULL, nm, sizeof(double))) &&
           (in->xsave = own(in, NULL, nm, sizeof(double))) &&
           (in->piv = own(in, NULL, nm, sizeof(int64_t))) &&
           (in->hist = own(in, NULL, hist_size(in), sizeof(double))) &&
           !st_algorithms_clone(in);
  for (int b = 0; ok && !(sole && pr->blocks) && b < in->nblocks; b++)
    ok = !own_factors(in, &in->blocks[b]) && !st_own_seeds(in, in->iarena, &in->blocks[b]);
  in->fcalls = st_fcalls_clone(pr->fcalls);
  in->delays = st_delays_clone(pr->delays);
  if (!ok || (pr->fcalls && !in->fcalls) || (pr->delays && !in->delays)) return -1;
  in->vm.x = in->x;
  in->vm.pre = in->pre;
  in->vm.xd = in->xd;
  in->vm.rel = in->rel;
  in->vm.calls = in->fcalls;
  in->vm.delays = in->delays;
  in->model.output_names = in->out_names;
  return 0;
}

static st_compiled *new_instance(const st_program *prog, st_diag *diag, int sole) {
  st_compiled *in = malloc(sizeof *in);
  if (!in) return NULL;
  *in = *prog->proto;
  in->diag = diag;
  in->owned = NULL;
  in->error = NULL;
  in->fcalls = NULL;
  in->delays = NULL;
  in->blocks = NULL;
  in->spec = NULL;
  in->tapes = NULL;
  if (!(in->iarena = st_arena_new()) || own_run_state(in, sole)) {
    st_instance_free(in);
    return NULL;
  }
  return in;
}

st_compiled *st_instance_new(const st_program *prog, st_diag *diag) {
  return new_instance(prog, diag, 0);
}

void st_instance_free(st_compiled *in) {
  if (!in) return;
  st_spec_free(in, in->spec);
  st_tapes_free(in->tapes);
  st_fcalls_free(in->fcalls);
  st_delays_free(in->delays);
  for (int b = 0; in->blocks && b < in->nblocks; b++) { /* NULL: the sole instance's blocks */
    st_sparse_block_free(in->blocks[b].sparse);         /* are the prototype's */
    in->blocks[b].sparse = NULL;
  }
  free(in->error);
  st_arena_free(in->iarena);
  free(in);
}

/* The program's only instance takes over the prototype's call sites instead of a copy: no
 * second compilation of the functions (st_fcalls_clone compiles them again for its own
 * machine), which is most of the cost of an instance. */
static st_compiled *sole_instance(st_program *prog, st_diag *diag) {
  st_compiled *proto = prog->proto;
  st_fcalls *fc = proto->fcalls;
  proto->fcalls = NULL;
  st_compiled *cm = new_instance(prog, diag, 1);
  if (!cm) {
    proto->fcalls = fc;
    return NULL;
  }
  cm->fcalls = cm->vm.calls = fc;
  return cm;
}

st_compiled *st_compile(const st_flat_model *flat, st_diag *diag) {
  st_program *prog = st_compile_program(flat, diag);
  st_compiled *cm = prog ? sole_instance(prog, diag) : NULL;
  if (!cm) {
    if (prog && st_diag_errors(diag) == 0)
      st_error(diag, flat->loc, "out of memory while compiling the model");
    st_program_free(prog);
    return NULL;
  }
  cm->owned = prog;
  return cm;
}

void st_compiled_free(st_compiled *cm) {
  if (!cm) return;
  st_program *prog = cm->owned;
  st_instance_free(cm);
  st_program_free(prog);
}

void st_compiled_set_specialize(st_compiled *cm, int on) {
  cm->specialize = on != 0;
  cm->spec_gen = cm->spec_defer_gen = -1; /* hot programs and tapes made again (or not) */
}

void st_compiled_set_partial(st_compiled *cm, int on) { cm->partial_off = on == 0; }

const stiction_model *st_compiled_model(const st_compiled *cm) { return &cm->model; }
void *st_compiled_data(st_compiled *cm) { return cm; }

const char *st_compiled_state_name(const st_compiled *cm, int i) {
  return i >= 0 && i < cm->p.nstates ? cm->p.state_names[i] : NULL;
}

int st_compiled_set_parameter(st_compiled *cm, const char *name, double value) {
  for (int i = 0; i < cm->p.flat->nvars; i++) {
    if (strcmp(cm->p.slots[i].name, name) != 0) continue;
    if (st_instance_set_parameter(cm, i, value)) {
      st_error(cm->diag, cm->p.slots[i].loc, "'%s' is not a parameter that can be set", name);
      return -1;
    }
    return 0;
  }
  st_error(cm->diag, cm->p.flat->loc, "the model has no parameter '%s'", name);
  return -1;
}

/* 1: recorded by default; 2: a parameter, recorded when a pattern names it (or when the
 * model has no variable at all: a model that only reads parameters, MSL
 * Utilities.Examples.readRealParameterModel, whose reference compares them); 0: never. */
static int recordable(const st_compiled *cm, int s) {
  const st_slot *sl = &cm->p.slots[s];
  if (sl->kind == K_IGNORED) return 0;
  if (sl->name[0] == '$') return 0; /* the compiler's own (clocks.c latches) */
  if (sl->kind == K_PARAM) return s < cm->p.flat->nvars ? 2 : 0;
  if (s >= cm->p.flat->nvars) return sl->kind == K_DER;
  return 1; /* protected ones too, as in Dymola's results (MSL references compare them) */
}

static void select_slots(st_compiled *cm, const char *const *patterns, int n, int level) {
  cm->nout = 0;
  for (int s = 0; s < cm->p.nslots; s++) {
    int r = recordable(cm, s);
    if (!r || (n == 0 && r > level)) continue;
    int keep = n == 0;
    for (int p = 0; p < n && !keep; p++) keep = fnmatch(patterns[p], cm->p.slots[s].name, 0) == 0;
    if (!keep) continue;
    cm->out_names[cm->nout] = cm->p.slots[s].name;
    /* aliases are fixed once compiled: the chain is followed here, not at every row */
    int src = s;
    double sign = 1;
    for (; cm->p.slots[src].kind == K_ALIAS; src = cm->p.slots[src].alias_of)
      sign *= cm->p.slots[src].alias_sign;
    cm->out_src[cm->nout] = src;
    cm->out_sign[cm->nout] = sign;
    cm->out_slot[cm->nout++] = s;
  }
}

int st_compiled_select_outputs(st_compiled *cm, const char *const *patterns, int n) {
  if (!cm->out_slot) {
    cm->out_slot = st_arena_alloc(cm->iarena, sizeof(int) * (size_t)cm->p.nslots + 1);
    cm->out_src = st_arena_alloc(cm->iarena, sizeof(int) * (size_t)cm->p.nslots + 1);
    cm->out_sign = st_arena_alloc(cm->iarena, sizeof(double) * (size_t)cm->p.nslots + 1);
    cm->out_names = st_arena_alloc(cm->iarena, sizeof(char *) * (size_t)cm->p.nslots + 1);
    if (!cm->out_slot || !cm->out_src || !cm->out_sign || !cm->out_names) return -1;
  }
  select_slots(cm, patterns, n, 1);
  if (n == 0 && cm->nout == 0) select_slots(cm, patterns, n, 2);
  cm->model.n_outputs = cm->nout;
  return cm->nout;
}

void st_compiled_info(const st_compiled *cm, st_compile_info *info) {
  memset(info, 0, sizeof *info);
  info->n_states = cm->p.nstates;
  info->n_discrete = cm->p.ndisc;
  info->n_parameters = cm->p.nparams;
  info->n_aliases = cm->p.n_aliases;
  info->n_constants = cm->p.nconsts;
  info->n_blocks = cm->nblocks;
  info->n_indicators = cm->p.nind;
  info->n_whens = cm->p.nwhens;
  info->n_differentiated = cm->p.n_differentiated;
  info->hc_rows = cm->p.hc_rows;
  info->hc_skipped = cm->p.hc_skipped;
  info->mixed_iterations_max = cm->mixed_iter_max;
  info->specialized_programs = cm->spec_count;
  info->held_constants = cm->spec_held;
  info->tape_runs = cm->tape_runs;
  info->partial_evals = cm->partial_evals;
  info->partial_blocks = cm->partial_blocks;
  info->specializations = cm->spec_made;
  info->specializations_kept = cm->spec_kept;
  for (int s = 0; s < cm->p.nslots; s++) info->n_algebraic += cm->p.slots[s].kind == K_ALG;
  for (int k = 0; k < cm->p.nrels; k++) info->n_time_relations += cm->rels[k].time_only;
  for (int b = 0; b < cm->nblocks; b++) {
    const st_block *k = &cm->blocks[b];
    info->n_assign += k->kind == BK_ASSIGN;
    info->n_linear += k->kind == BK_SOLVE && k->linear;
    info->n_nonlinear += k->kind == BK_SOLVE && !k->linear;
    info->n_mixed += k->kind == BK_MIXED;
    info->n_discrete_blocks += k->kind == BK_DISCRETE;
    int klu = (k->kind == BK_SOLVE || k->kind == BK_MIXED) && st_block_uses_klu(k);
    info->n_klu += klu;
    if (k->const_jac && !klu) /* lu, sp_val; sp_idx */
      info->dense_bytes += (size_t)k->n * (size_t)k->n * (2 * sizeof(double) + sizeof(int));
  }
  info->dense_bytes += sizeof(double) * ((size_t)cm->jdim * (size_t)cm->jdim + hist_size(cm));
}
