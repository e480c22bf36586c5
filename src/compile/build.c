/* st_compile: the pipeline from the flat model to the compiled model, and its accessors. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "compile/delay.h"
#include "compile/model_impl.h"
#include "compile/sparse_block.h"

static double *doubles(st_compiled *cm, int n) {
  return st_arena_alloc(cm->arena, sizeof(double) * (size_t)(n > 0 ? n : 1));
}

static int alloc_values(st_compiled *cm) {
  cm->x = doubles(cm, cm->nslots);
  cm->pre = doubles(cm, cm->nslots);
  cm->xd = doubles(cm, cm->nslots);
  cm->vm.stack = doubles(cm, ST_STACK_MAX);
  cm->vm.dstack = doubles(cm, ST_STACK_MAX);
  cm->start_prog = st_arena_alloc(cm->arena, sizeof(st_prog) * (size_t)cm->nslots + 1);
  if (!cm->x || !cm->pre || !cm->xd || !cm->vm.stack || !cm->vm.dstack || !cm->start_prog)
    return -1;
  cm->nstart_prog = cm->nslots;
  cm->vm.x = cm->x;
  cm->vm.pre = cm->pre;
  cm->vm.xd = cm->xd;
  return 0;
}

/* Index reduction adds derivative slots: widen the value arrays, keeping parameter values. */
static int regrow_values(st_compiled *cm, int n0) {
  double *x = cm->x;
  st_prog *sp = cm->start_prog;
  if (alloc_values(cm)) return -1;
  memcpy(cm->x, x, sizeof(double) * (size_t)n0);
  memcpy(cm->start_prog, sp, sizeof(st_prog) * (size_t)n0);
  return 0;
}

static int compile_starts(st_compiled *cm) {
  for (int i = 0; i < cm->flat->nvars; i++) {
    const st_fvar *v = &cm->flat->vars[i];
    if (cm->slots[i].kind == K_PARAM || !v->start) continue;
    if (st_emit(cm, &cm->start_prog[i], v->start, EMIT_PLAIN)) return -1;
  }
  return 0;
}

static int alloc_runtime(st_compiled *cm) {
  int n = cm->maxn > 0 ? cm->maxn : 1;
  cm->J = doubles(cm, n * n);
  cm->r = doubles(cm, n);
  cm->dx = doubles(cm, n);
  cm->x0 = doubles(cm, n);
  cm->piv = st_arena_alloc(cm->arena, sizeof(int) * (size_t)n);
  cm->hist = doubles(cm, (2 * n + 11) * n); /* solve.c: 2 nd + 10 passes + 1 */
  cm->rel = doubles(cm, cm->nrels);
  cm->rel_pre = doubles(cm, cm->nrels);
  cm->wc = doubles(cm, cm->nwc);
  cm->wc_pre = doubles(cm, cm->nwc);
  cm->vm.rel = cm->rel;
  cm->vm.rels = cm->vmrels;
  cm->vm.active = st_arena_alloc(cm->arena, (size_t)cm->nrels + 1);
  if (cm->vm.active) memset(cm->vm.active, 1, (size_t)cm->nrels + 1); /* until the first event */
  return cm->J && cm->r && cm->dx && cm->x0 && cm->piv && cm->hist && cm->rel && cm->rel_pre &&
                 cm->wc && cm->wc_pre && cm->vm.active ? 0 : -1;
}

static int setup_indicators(st_compiled *cm) {
  cm->ind_rel = st_arena_alloc(cm->arena, sizeof(int) * (size_t)cm->nrels + 1);
  cm->ind_names = st_arena_alloc(cm->arena, sizeof(char *) * (size_t)cm->nrels + 1);
  if (!cm->ind_rel || !cm->ind_names) return -1;
  for (int k = 0; k < cm->nrels; k++) {
    if (cm->rels[k].time_only) continue;
    cm->rels[k].indicator = cm->nind;
    const st_loc *l = &cm->rels[k].loc;
    cm->ind_names[cm->nind] = st_arena_printf(cm->arena, "relation %d (%s:%d:%d)", k,
                                              l->file ? l->file : "?", l->line, l->col);
    cm->ind_rel[cm->nind++] = k;
  }
  return 0;
}

static int setup_names(st_compiled *cm) {
  cm->disc_slot = st_arena_alloc(cm->arena, sizeof(int) * (size_t)cm->nslots + 1);
  cm->disc_names = st_arena_alloc(cm->arena, sizeof(char *) * (size_t)cm->nslots + 1);
  cm->state_names = st_arena_alloc(cm->arena, sizeof(char *) * (size_t)cm->nstates + 1);
  if (!cm->disc_slot || !cm->disc_names || !cm->state_names) return -1;
  for (int s = 0; s < cm->nslots; s++)
    if (cm->slots[s].kind == K_DISCRETE || cm->slots[s].kind == K_WHEN) {
      cm->disc_names[cm->ndisc] = cm->slots[s].name;
      cm->disc_slot[cm->ndisc++] = s;
    }
  for (int i = 0; i < cm->nstates; i++) cm->state_names[i] = cm->slots[cm->state_slot[i]].name;
  return st_compiled_select_outputs(cm, NULL, 0) < 0 ? -1 : 0;
}

static int compile_initial(st_compiled *cm) {
  cm->init_res = st_arena_alloc(cm->arena, sizeof(st_prog) * (size_t)cm->ninit + 1);
  if (!cm->init_res) return -1;
  for (int i = 0; i < cm->ninit; i++)
    if (st_emit_residual(cm, &cm->init_res[i], cm->init_eqs[i].lhs, cm->init_eqs[i].rhs))
      return -1;
  cm->init_check_res = st_arena_alloc(cm->arena, sizeof(st_prog) * (size_t)cm->ninit_checks + 1);
  if (!cm->init_check_res) return -1;
  for (int i = 0; i < cm->ninit_checks; i++)
    if (st_emit_residual(cm, &cm->init_check_res[i], cm->init_checks[i].lhs,
                         cm->init_checks[i].rhs))
      return -1;
  cm->init_assign_prog = st_arena_alloc(cm->arena, sizeof(st_prog) * (size_t)cm->ninit_assign + 1);
  if (!cm->init_assign_prog) return -1;
  memset(cm->init_assign_prog, 0, sizeof(st_prog) * (size_t)cm->ninit_assign);
  for (int i = 0; i < cm->ninit_assign; i++)
    if (st_emit(cm, &cm->init_assign_prog[i], cm->init_assign[i].rhs, EMIT_NOEVENT)) return -1;
  return st_check_initial_counts(cm);
}

static int pipeline(st_compiled *cm) {
  if (st_classify(cm) || alloc_values(cm) || st_eval_parameters(cm)) return -1;
  st_apply_parameters(cm);
  if (compile_starts(cm) || st_collect_equations(cm)) return -1;
  int n0 = cm->nslots;
  if (st_index_reduce(cm) || (cm->nslots > n0 && regrow_values(cm, n0))) return -1;
  st_report_state_select(cm);
  if (st_eliminate_aliases(cm) || st_structure(cm)) return -1;
  if (compile_initial(cm) || setup_indicators(cm) || setup_names(cm) || alloc_runtime(cm) ||
      st_jacobian_pattern(cm) || st_fuse_programs(cm))
    return -1;
  st_model_setup(cm);
  return 0;
}

st_compiled *st_compile(const st_flat_model *flat, st_diag *diag) {
  st_compiled *cm = calloc(1, sizeof *cm);
  if (!cm) return NULL;
  cm->arena = st_arena_new();
  cm->diag = diag;
  cm->flat = flat;
  cm->specialize = 1;
  cm->spec_gen = cm->spec_defer_gen = -1;
  if (!cm->arena || pipeline(cm)) {
    if (cm->arena && st_diag_errors(diag) == 0)
      st_error(diag, flat->loc, "out of memory while compiling the model");
    st_compiled_free(cm);
    return NULL;
  }
  return cm;
}

static void free_prog_array(st_prog *p, int n) {
  for (int i = 0; p && i < n; i++) st_prog_free(&p[i]);
}

void st_compiled_free(st_compiled *cm) {
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
    free_prog_array(k->dexpr, k->nd);
  }
  for (int k = 0; k < cm->nrels; k++) {
    st_prog_free(&cm->rels[k].ind);
    st_prog_free(&cm->rels[k].threshold);
  }
  for (int w = 0; w < cm->nwhens; w++)
    for (int i = 0; i < cm->whens[w].nbranches; i++) {
      st_when_branch *b = &cm->whens[w].branches[i];
      st_prog_free(&b->cond);
      for (int a = 0; a < b->nactions; a++) st_prog_free(&b->actions[a].value);
    }
  for (int i = 0; i < cm->nasserts; i++) st_prog_free(&cm->asserts[i].cond);
  for (int i = 0; i < cm->nsamples; i++) {
    st_prog_free(&cm->samples[i].start);
    st_prog_free(&cm->samples[i].interval);
  }
  if (cm->param_prog) free_prog_array(cm->param_prog, cm->flat->nvars);
  /* not nslots: when index reduction fails after adding derivative slots, start_prog was
   * never widened (regrow_values) and has only the entries of the original slots */
  free_prog_array(cm->start_prog, cm->start_prog ? cm->nstart_prog : 0);
  free_prog_array(cm->init_res, cm->init_res ? cm->ninit : 0);
  free_prog_array(cm->init_check_res, cm->init_check_res ? cm->ninit_checks : 0);
  free_prog_array(cm->init_assign_prog, cm->init_assign_prog ? cm->ninit_assign : 0);
  free_prog_array(cm->const_prog, cm->nconsts);
  st_arena_free(cm->arena);
  free(cm);
}

void st_compiled_set_specialize(st_compiled *cm, int on) {
  cm->specialize = on != 0;
  cm->spec_gen = cm->spec_defer_gen = -1; /* hot programs and tapes made again (or not) */
}

const stiction_model *st_compiled_model(const st_compiled *cm) { return &cm->model; }
void *st_compiled_data(st_compiled *cm) { return cm; }

const char *st_compiled_state_name(const st_compiled *cm, int i) {
  return i >= 0 && i < cm->nstates ? cm->state_names[i] : NULL;
}

int st_compiled_set_parameter(st_compiled *cm, const char *name, double value) {
  for (int i = 0; i < cm->flat->nvars; i++) {
    if (strcmp(cm->slots[i].name, name) != 0) continue;
    if (cm->slots[i].kind != K_PARAM || cm->flat->vars[i].variability == ST_V_CONSTANT) {
      st_error(cm->diag, cm->slots[i].loc, "'%s' is not a parameter that can be set", name);
      return -1;
    }
    cm->param_overridden[i] = 1;
    cm->x[i] = value;
    cm->gen++;
    return 0;
  }
  st_error(cm->diag, cm->flat->loc, "the model has no parameter '%s'", name);
  return -1;
}

static int recordable(const st_compiled *cm, int s) {
  const st_slot *sl = &cm->slots[s];
  if (sl->kind == K_PARAM || sl->kind == K_IGNORED) return 0;
  if (s >= cm->flat->nvars) return sl->kind == K_DER;
  return 1; /* protected ones too, as in Dymola's results (MSL references compare them) */
}

int st_compiled_select_outputs(st_compiled *cm, const char *const *patterns, int n) {
  if (!cm->out_slot) {
    cm->out_slot = st_arena_alloc(cm->arena, sizeof(int) * (size_t)cm->nslots + 1);
    cm->out_src = st_arena_alloc(cm->arena, sizeof(int) * (size_t)cm->nslots + 1);
    cm->out_sign = st_arena_alloc(cm->arena, sizeof(double) * (size_t)cm->nslots + 1);
    cm->out_names = st_arena_alloc(cm->arena, sizeof(char *) * (size_t)cm->nslots + 1);
    if (!cm->out_slot || !cm->out_src || !cm->out_sign || !cm->out_names) return -1;
  }
  cm->nout = 0;
  for (int s = 0; s < cm->nslots; s++) {
    if (!recordable(cm, s)) continue;
    int keep = n == 0;
    for (int p = 0; p < n && !keep; p++) keep = fnmatch(patterns[p], cm->slots[s].name, 0) == 0;
    if (!keep) continue;
    cm->out_names[cm->nout] = cm->slots[s].name;
    /* aliases are fixed once compiled: the chain is followed here, not at every row */
    int src = s;
    double sign = 1;
    for (; cm->slots[src].kind == K_ALIAS; src = cm->slots[src].alias_of)
      sign *= cm->slots[src].alias_sign;
    cm->out_src[cm->nout] = src;
    cm->out_sign[cm->nout] = sign;
    cm->out_slot[cm->nout++] = s;
  }
  cm->model.n_outputs = cm->nout;
  return cm->nout;
}

void st_compiled_info(const st_compiled *cm, st_compile_info *info) {
  memset(info, 0, sizeof *info);
  info->n_states = cm->nstates;
  info->n_discrete = cm->ndisc;
  info->n_parameters = cm->nparams;
  info->n_aliases = cm->n_aliases;
  info->n_constants = cm->nconsts;
  info->n_blocks = cm->nblocks;
  info->n_indicators = cm->nind;
  info->n_whens = cm->nwhens;
  info->n_differentiated = cm->n_differentiated;
  info->mixed_iterations_max = cm->mixed_iter_max;
  info->specialized_programs = cm->spec_count;
  info->held_constants = cm->spec_held;
  info->tape_runs = cm->tape_runs;
  for (int s = 0; s < cm->nslots; s++) info->n_algebraic += cm->slots[s].kind == K_ALG;
  for (int k = 0; k < cm->nrels; k++) info->n_time_relations += cm->rels[k].time_only;
  for (int b = 0; b < cm->nblocks; b++) {
    const st_block *k = &cm->blocks[b];
    info->n_assign += k->kind == BK_ASSIGN;
    info->n_linear += k->kind == BK_SOLVE && k->linear;
    info->n_nonlinear += k->kind == BK_SOLVE && !k->linear;
    info->n_mixed += k->kind == BK_MIXED;
    info->n_discrete_blocks += k->kind == BK_DISCRETE;
  }
}
