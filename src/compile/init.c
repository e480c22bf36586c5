/* Initialization: parameters, start values, and the initial system (initial equations for
 * the states whose start value is not fixed), solved by Newton from the start values with
 * initial() true. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

void st_apply_parameters(st_compiled *cm) {
  cm->vm.event_mode = 0;
  for (int k = 0; k < cm->nparams; k++) {
    int i = cm->param_order[k];
    if (!cm->param_overridden[i] && cm->param_prog[i].n)
      cm->x[i] = st_vm_eval(&cm->vm, &cm->param_prog[i]);
  }
}

static void apply_starts(st_compiled *cm) {
  for (int s = 0; s < cm->nslots; s++) {
    st_kind k = cm->slots[s].kind;
    if (k == K_PARAM || k == K_ALIAS) continue;
    double v = cm->start_prog[s].n ? st_vm_eval(&cm->vm, &cm->start_prog[s]) : 0;
    cm->x[s] = cm->slots[s].is_bool ? v != 0 : v;
  }
}

static int is_free_state(const st_compiled *cm, int i) {
  int s = cm->state_slot[i];
  return s >= cm->flat->nvars || cm->flat->vars[s].fixed != 1;
}

static int initial_residuals(st_compiled *cm, double *r) {
  if (st_eval_blocks(cm, 1)) return -1;
  for (int i = 0; i < cm->ninit; i++) r[i] = st_vm_eval(&cm->vm, &cm->init_res[i]);
  return 0;
}

static double max_abs(const double *v, int n) {
  double m = 0;
  for (int i = 0; i < n; i++)
    if (!(fabs(v[i]) <= m)) m = fabs(v[i]);
  return m;
}

/* Newton with a difference-quotient Jacobian (it runs once per simulation). */
static int solve_initial(st_compiled *cm, const int *unk, int n) {
  double *J = malloc(sizeof(double) * (size_t)(n * n + 3 * n + 1));
  int *piv = malloc(sizeof(int) * (size_t)(n + 1));
  if (!J || !piv) { free(J); free(piv); return -1; }
  double *r = J + n * n, *r1 = r + n, *dx = r1 + n;
  int rc = -1;
  for (int it = 0; it < 100; it++) {
    if (initial_residuals(cm, r)) break;
    double rn = max_abs(r, n);
    if (rn < 1e-10) { rc = 0; break; }
    for (int j = 0; j < n; j++) {
      double *xj = &cm->x[unk[j]], save = *xj, h = 1e-7 * (1 + fabs(save));
      *xj = save + h;
      if (initial_residuals(cm, r1)) break;
      *xj = save;
      for (int i = 0; i < n; i++) J[i + j * n] = (r1[i] - r[i]) / h;
    }
    for (int i = 0; i < n; i++) dx[i] = -r[i];
    if (st_lu_solve(J, n, piv, dx)) break;
    double lambda = 1;
    for (int k = 0; k < 30; k++, lambda *= 0.5) {
      for (int j = 0; j < n; j++) cm->x[unk[j]] += lambda * dx[j];
      if (!initial_residuals(cm, r1) && max_abs(r1, n) < rn) break;
      for (int j = 0; j < n; j++) cm->x[unk[j]] -= lambda * dx[j];
    }
    if (lambda < 1e-8) break;
  }
  free(J);
  free(piv);
  return rc;
}

static void report_count(st_compiled *cm, int nfree) {
  if (cm->ninit > nfree) {
    st_error(cm->diag, cm->init_eqs[0].loc, "the initial system is over-determined: %d initial "
             "equations for %d states without fixed = true", cm->ninit, nfree);
    for (int i = 0; i < cm->nstates; i++)
      if (!is_free_state(cm, i))
        st_note(cm->diag, cm->slots[cm->state_slot[i]].loc,
                "'%s' has fixed = true; setting fixed = false would balance it",
                cm->slots[cm->state_slot[i]].name);
    return;
  }
  st_error(cm->diag, cm->init_eqs[0].loc, "the initial system is under-determined: %d initial "
           "equations for %d states without fixed = true", cm->ninit, nfree);
  for (int i = 0; i < cm->nstates; i++)
    if (is_free_state(cm, i))
      st_note(cm->diag, cm->slots[cm->state_slot[i]].loc,
              "'%s' could be given fixed = true", cm->slots[cm->state_slot[i]].name);
}

static int count_free(const st_compiled *cm) {
  int nfree = 0;
  for (int i = 0; i < cm->nstates; i++) nfree += is_free_state(cm, i);
  return nfree;
}

/* Checked when compiling: initial equations must match the states without fixed = true.
 * With no initial equations at all the start values are used (as Modelica tools do). */
int st_check_initial_counts(st_compiled *cm) {
  int nfree = count_free(cm);
  if (cm->ninit == 0 || cm->ninit == nfree) return 0;
  report_count(cm, nfree);
  return -1;
}

int st_initialize(st_compiled *cm, double t0) {
  cm->gen++;
  cm->vm.time = t0;
  cm->vm.initial = 1;
  st_apply_parameters(cm);
  apply_starts(cm);
  memcpy(cm->pre, cm->x, (size_t)cm->nslots * sizeof *cm->x);
  memset(cm->wc, 0, (size_t)(cm->nwc > 0 ? cm->nwc : 1) * sizeof *cm->wc);
  int nfree = 0;
  int *unk = malloc(sizeof(int) * (size_t)(cm->nstates + 1));
  if (!unk) return -1;
  for (int i = 0; i < cm->nstates; i++)
    if (is_free_state(cm, i)) unk[nfree++] = cm->state_slot[i];
  int rc = 0;
  if (cm->ninit > 0 && cm->ninit != nfree) {
    report_count(cm, nfree);
    rc = -1;
  } else if (cm->ninit > 0 && solve_initial(cm, unk, nfree)) {
    st_error(cm->diag, cm->init_eqs[0].loc, "the initial system has no solution (Newton "
             "from the start values did not converge)");
    rc = -1;
  } else if (st_eval_blocks(cm, 1)) {
    st_fail(cm, cm->error_loc, "initialization failed: %s", cm->error);
    rc = -1;
  }
  cm->reported |= rc != 0;
  free(unk);
  return rc;
}
