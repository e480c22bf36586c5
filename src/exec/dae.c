/* The DAE form of a compiled model for IDA (issue 4, Backends): the unknowns are the states
 * and the real unknowns of the linear and nonlinear blocks that the ODE form solves inside
 * the right-hand side (mixed systems are still solved inside, see in_dae); the residual is
 *   r_i = yp_i - der(x_i)          for every state,
 *   r   = the block's equations    for every such block, at the algebraic values IDA holds,
 * with the explicit assignments evaluated in BLT order in between. IDA then iterates on the
 * algebraic unknowns together with the states instead of a Newton solve per evaluation;
 * after the start and every restart IDACalcIC makes them consistent (src/runtime/ida.c).
 * At events all blocks are solved exactly (mixed systems by fixed-point iteration) and the
 * solution goes back into y. CVODE keeps the ODE form. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

static int n_dae_states(const st_compiled *cm) { return cm->p.nstates > 0 ? cm->p.nstates : 1; }

/* Copies IDA's algebraic unknowns into x[] (they are not recomputed in DAE mode). */
static void load_alg(st_compiled *cm, const double *y) {
  const double *z = y + n_dae_states(cm);
  for (int k = 0; k < cm->nalg; k++) cm->x[cm->alg_slot[k]] = z[k];
}

static void store_alg(const st_compiled *cm, double *y) {
  double *z = y + n_dae_states(cm);
  for (int k = 0; k < cm->nalg; k++) z[k] = cm->x[cm->alg_slot[k]];
}

static int dae_start(void *ud, double t0, double *y, double *yp) {
  st_compiled *cm = ud;
  int rc = cm->ode.start_values(ud, t0, y, yp);
  if (!rc) store_alg(cm, y);
  return rc;
}

static int dae_residual(void *ud, double t, const double *y, const double *yp, double *r) {
  st_compiled *cm = ud;
  st_load_states(cm, y);
  load_alg(cm, y);
  cm->vm.time = t;
  cm->vm.initial = 0;
  if (st_eval_blocks(cm, 0)) {
    st_report_eval_failure(cm); /* the runtime stops on a failed callback: say where */
    return 1;
  }
  /* the last call at a time is the iterate IDA accepts (delay.h) */
  if (st_record_delays(cm, 0)) return -1;
  for (int i = 0; i < cm->p.nstates; i++)
    r[i] = yp[i] - cm->x[cm->p.slots[cm->p.state_slot[i]].der];
  if (cm->p.nstates == 0) r[0] = yp[0]; /* the dummy state (model.c) */
  memcpy(r + n_dae_states(cm), cm->dae_r, sizeof(double) * (size_t)cm->nalg);
  /* a NaN/Inf is returned as it is: the runtime stops with STICTION_ERR_NONFINITE */
  st_check_finite_results(cm, r, n_dae_states(cm) + cm->nalg, "the residuals");
  return 0;
}

/* The indicators see the blocks solved exactly (IDA's values as the first guess), as the
 * event iteration will: a relation on IDA's algebraic values, accurate only to the
 * tolerance, could cross while the exact one has not, and the event would find nothing to
 * switch (the 1e-10 hysteresis is far below IDA's error). */
static int dae_indicators(void *ud, double t, const double *y, const double *yp, double *g) {
  st_compiled *cm = ud;
  load_alg(cm, y);
  cm->dae = 0;
  int rc = cm->ode.indicators(ud, t, y, yp, g);
  cm->dae = 1;
  return rc;
}

static int dae_outputs(void *ud, double t, const double *y, const double *yp, double *out) {
  load_alg(ud, y);
  return ((st_compiled *)ud)->ode.outputs(ud, t, y, yp, out);
}

/* The exact solution of every block at (t, states y) between events (initial() false). */
static int solve_exactly(st_compiled *cm, double t, const double *y) {
  st_load_states(cm, y);
  cm->vm.time = t;
  cm->vm.initial = 0;
  return st_eval_blocks(cm, 0);
}

/* The time derivatives of the algebraic unknowns at a restart, into yp. Why: IDACalcIC
 * (IDA_YA_YDP_INIT) computes the algebraic values and the states' derivatives but leaves
 * the algebraic part of yp as given, and IDA's first step predicts every component as
 * y + h*yp and puts the algebraic ones into its error test. A stale slope there (the
 * Backlash example: the spring torque of ElastoBacklash, zero before contact, rises at
 * c*w = 1.3e6 N.m/s after it, but yp held 0) makes the predictor miss by h*1.3e6 against an
 * absolute tolerance of 1e-8 near zero, so no step above 1e-14 passes. The slope is a
 * forward difference of the blocks solved exactly along (1, x'): the right limit, with the
 * discrete values and relations of the event frozen. */
static void alg_slopes(st_compiled *cm, double t, const double *y, double *yp) {
  int ns = cm->p.nstates;
  double *z = yp + n_dae_states(cm);
  double delta = sqrt(DBL_EPSILON) * fmax(1.0, fabs(t));
  if (solve_exactly(cm, t, y)) return;
  for (int i = 0; i < ns; i++)
    cm->dae_y1[i] = y[i] + delta * cm->x[cm->p.slots[cm->p.state_slot[i]].der];
  for (int k = 0; k < cm->nalg; k++) z[k] = cm->x[cm->alg_slot[k]];
  if (solve_exactly(cm, t + delta, cm->dae_y1)) {
    for (int k = 0; k < cm->nalg; k++) z[k] = 0;
    return;
  }
  for (int k = 0; k < cm->nalg; k++) z[k] = (cm->x[cm->alg_slot[k]] - z[k]) / delta;
}

/* The blocks are solved exactly at the event; their solution is the new algebraic part, and
 * on the last pass (nothing changed) the algebraic slopes for the restart. x[] and the
 * machine's time and initial() flag are restored afterwards: the slopes are a side
 * computation. */
static int dae_event_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  st_compiled *cm = ud;
  load_alg(cm, y);
  int rc = cm->ode.event_update(ud, t, y, yp, info);
  if (rc) return rc;
  info->yp_set = 0; /* the residual form's y' is made consistent by the runtime (IDA) */
  store_alg(cm, y);
  if (info->discrete_changed || cm->nalg == 0 || !yp) return 0;
  memcpy(cm->dae_save, cm->x, sizeof(double) * (size_t)cm->p.nslots);
  double t_vm = cm->vm.time;
  int initial = cm->vm.initial;
  cm->dae = 0;
  alg_slopes(cm, t, y, yp);
  cm->dae = 1;
  memcpy(cm->x, cm->dae_save, sizeof(double) * (size_t)cm->p.nslots);
  cm->vm.time = t_vm;
  cm->vm.initial = initial;
  return 0;
}

/* Mixed systems stay inside: their relations decide modes, and a relation evaluated on
 * IDA's algebraic values (accurate to the tolerance) disagrees with the exact solution of the
 * event iteration within the 1e-10 hysteresis, so the friction block's events were missed. */
static int in_dae(const st_block *b) {
  return b->n > 0 && (b->kind == BK_SOLVE || b->kind == BK_MIXED);
}

/* The structure of dF/dy + cj dF/dy' (pattern.c): the columns are the states and the
 * algebraic unknowns, so that IDA gets grouped difference quotients and a sparse KLU matrix
 * as CVODE does, not n residual calls and a dense n x n matrix per Jacobian. */
static int dae_pattern(st_compiled *cm) {
  int ns = n_dae_states(cm), rc;
  int *col = malloc(sizeof(int) * ((size_t)cm->p.nslots + 1));
  if (!col) return -1;
  for (int s = 0; s < cm->p.nslots; s++)
    col[s] = cm->p.slots[s].kind == K_STATE && cm->p.nstates > 0 ? cm->p.slots[s].state : -1;
  for (int k = 0; k < cm->nalg; k++) col[cm->alg_slot[k]] = ns + k;
  rc = st_dae_pattern(cm, col, ns + cm->nalg, &cm->dae_jac_cols, &cm->dae_jac_rows);
  free(col);
  return rc;
}

/* Numbers the algebraic unknowns block by block; residuals come in the same order. */
static int number_unknowns(st_compiled *cm) {
  int n = 0;
  for (int b = 0; b < cm->nblocks; b++) n += in_dae(&cm->blocks[b]) ? cm->blocks[b].n : 0;
  int ns = n_dae_states(cm);
  cm->alg_slot = st_arena_alloc(cm->iarena, sizeof(int) * (size_t)(n + 1));
  cm->dae_r = st_arena_alloc(cm->iarena, sizeof(double) * (size_t)(n + 1));
  cm->dae_names = st_arena_alloc(cm->iarena, sizeof(char *) * (size_t)(ns + n));
  cm->dae_save = st_arena_alloc(cm->iarena, sizeof(double) * (size_t)(cm->p.nslots + 1));
  cm->dae_y1 = st_arena_alloc(cm->iarena, sizeof(double) * (size_t)ns);
  if (!cm->alg_slot || !cm->dae_r || !cm->dae_names || !cm->dae_save || !cm->dae_y1) return -1;
  for (int i = 0; i < ns; i++) cm->dae_names[i] = cm->ode.state_names[i];
  cm->nalg = 0;
  for (int b = 0; b < cm->nblocks; b++) {
    st_block *k = &cm->blocks[b];
    k->dae_off = -1;
    if (!in_dae(k)) continue;
    k->dae_off = cm->nalg;
    for (int i = 0; i < k->n; i++) {
      cm->dae_names[ns + cm->nalg] = cm->p.slots[k->slots[i]].name;
      cm->alg_slot[cm->nalg++] = k->slots[i];
    }
  }
  return dae_pattern(cm);
}

int st_compiled_set_dae(st_compiled *cm, int on) {
  stiction_model *m = &cm->model;
  if (!cm->ode.start_values) cm->ode = *m; /* the ODE table of st_model_setup */
  if (!on) {
    int nout = m->n_outputs;
    *m = cm->ode;
    m->n_outputs = nout; /* st_compiled_select_outputs may have run since */
    cm->dae = 0;
    return 0;
  }
  if (!cm->alg_slot && number_unknowns(cm)) return -1;
  cm->dae = 1;
  m->n_algebraic = cm->nalg;
  m->state_names = cm->dae_names;
  m->start_values = dae_start;
  m->residual = dae_residual;
  m->indicators = cm->ode.indicators ? dae_indicators : NULL;
  m->outputs = dae_outputs;
  m->event_update = dae_event_update;
  m->ode_jacobian = NULL;
  m->dae_jac_cols = cm->dae_jac_cols;
  m->dae_jac_rows = cm->dae_jac_rows;
  return cm->nalg;
}
