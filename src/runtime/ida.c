/* The IDA driver: DAE form F(t, y, y') = 0, or an ODE model as F = y' - f(t, y). After the
 * start and after every restart IDACalcIC makes the algebraic unknowns and the derivatives
 * of the states consistent (IDA_YA_YDP_INIT, the states held fixed). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "runtime/runtime.h"

#define ST_IDA_MAX_STEPS 100000

static int ida_res(sunrealtype t, N_Vector y, N_Vector yp, N_Vector r, void *ud) {
  stiction_sim *sim = ud;
  int rc = st_call_residual(sim, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                            N_VGetArrayPointer(r));
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

static int ida_roots(sunrealtype t, N_Vector y, N_Vector yp, sunrealtype *g, void *ud) {
  stiction_sim *sim = ud;
  int rc = st_call_indicators(sim, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), g);
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

/* An ODE model's analytic df/dy turned into the IDA iteration matrix -df/dy + cj I. */
/* IDA's y' stands in for f(t, y): they agree on the corrector's solution. */
static int ode_as_dae(stiction_sim *sim, double t, double cj, const double *y, const double *yp,
                      double *J) {
  int n = sim->n;
  int rc = sim->model->ode_jacobian(sim->ud, t, y, yp, J);
  if (rc) return rc;
  for (int i = 0; i < n * n; i++) J[i] = -J[i];
  for (int i = 0; i < n; i++) J[i + i * n] += cj;
  return 0;
}

static int ida_jac_dense(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector r,
                         SUNMatrix J, void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  stiction_sim *sim = ud;
  double *Jd = SUNDenseMatrix_Data(J);
  int rc = sim->model->dae_jacobian
               ? sim->model->dae_jacobian(sim->ud, t, cj, N_VGetArrayPointer(y),
                                          N_VGetArrayPointer(yp), Jd)
               : ode_as_dae(sim, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), Jd);
  if (rc) rc = st_sim_fail(sim, STICTION_ERR_CALLBACK, "Jacobian callback failed at t = %.17g", t);
  else rc = st_check_finite(sim, t, Jd, sim->n * sim->n, "jacobian", NULL);
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

/* Dense matrix, no analytic Jacobian, but a pattern: grouped difference quotients. */
static int ida_jac_grouped(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector r,
                           SUNMatrix J, void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  stiction_sim *sim = ud;
  int rc = st_jacfd_dae(sim, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                        N_VGetArrayPointer(r));
  if (!rc) st_jacfd_to_dense(sim, SUNDenseMatrix_Data(J));
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

static int ida_jac_klu(sunrealtype t, sunrealtype cj, N_Vector y, N_Vector yp, N_Vector r,
                       SUNMatrix J, void *ud, N_Vector t1, N_Vector t2, N_Vector t3) {
  stiction_sim *sim = ud;
  int rc = st_klu_dae_jacobian(sim, t, cj, y, yp, r, J);
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

#if SUNDIALS_VERSION_MAJOR >= 7
static void ida_err(int line, const char *func, const char *file, const char *msg,
                    SUNErrCode code, void *ud, SUNContext ctx) {
  stiction_sim *sim = ud;
  snprintf(sim->solver_msg, sizeof sim->solver_msg, "%s", msg ? msg : "");
}
#else
static void ida_err(int code, const char *module, const char *function, char *msg, void *ud) {
  stiction_sim *sim = ud;
  snprintf(sim->solver_msg, sizeof sim->solver_msg, "%s", msg ? msg : "");
}
#endif

static int ida_quiet(stiction_sim *sim) {
#if SUNDIALS_VERSION_MAJOR >= 7
  SUNContext_ClearErrHandlers(sim->ctx);
  return SUNContext_PushErrHandler(sim->ctx, ida_err, sim);
#else
  return IDASetErrHandlerFn(sim->mem, ida_err, sim);
#endif
}

static int setup_fail(stiction_sim *sim, const char *what, int flag) {
  if (sim->cb_status) return sim->cb_status;
  char *name = IDAGetReturnFlagName(flag);
  st_sim_fail(sim, STICTION_ERR_SOLVER, "IDA failed in %s at t = %.17g: %s%s%s", what, sim->t,
              name ? name : "unknown flag", sim->solver_msg[0] ? ": " : "", sim->solver_msg);
  free(name);
  return STICTION_ERR_SOLVER;
}

/* For an ODE model y' = f(t, y) is exact and needs no IDACalcIC. */
static int ida_ode_yp(stiction_sim *sim, double t) {
  if (sim->model->residual) return STICTION_OK;
  return st_call_derivatives(sim, t, N_VGetArrayPointer(sim->y), N_VGetArrayPointer(sim->yp));
}

/* Consistent algebraic values and state derivatives of a residual model at t (after the
 * start or a restart), the states held fixed. */
static int ida_consistent(stiction_sim *sim, double t) {
  if (!sim->model->residual) return STICTION_OK;
  /* tout1 gives IDACalcIC the direction and scale of the first step only; at an event at
   * the stop time the span left is zero, which IDA refuses (IDA_ILL_INPUT), so the output
   * interval stands in for it there */
  double span = sim->opt.stop_time - t;
  double tout1 = t + (sim->interval < span || !(span > 1e-3 * sim->interval) ? sim->interval : span);
  if (!(tout1 > t)) tout1 = t + 1e-6 * fmax(1, fabs(t)); /* a run of one instant */
  int flag = IDACalcIC(sim->mem, IDA_YA_YDP_INIT, tout1);
  if (flag < 0) {
    if (sim->cb_status) return sim->cb_status;
    char *name = IDAGetReturnFlagName(flag);
    st_sim_fail(sim, STICTION_ERR_INIT, "IDA found no consistent values at t = %.17g: %s%s%s", t,
                name ? name : "unknown flag", sim->solver_msg[0] ? ": " : "", sim->solver_msg);
    free(name);
    return STICTION_ERR_INIT;
  }
  flag = IDAGetConsistentIC(sim->mem, sim->y, sim->yp);
  return flag ? setup_fail(sim, "IDAGetConsistentIC", flag) : STICTION_OK;
}

static int ida_attach(stiction_sim *sim) {
  void *m = sim->mem;
  int flag;
  if ((flag = IDASetLinearSolver(m, sim->LS, sim->A))) return setup_fail(sim, "IDASetLinearSolver", flag);
  if (sim->use_klu) flag = IDASetJacFn(m, ida_jac_klu);
  else if (sim->model->dae_jacobian || (!sim->model->residual && sim->model->ode_jacobian))
    flag = IDASetJacFn(m, ida_jac_dense);
  else if (sim->use_pattern) flag = IDASetJacFn(m, ida_jac_grouped);
  if (flag) return setup_fail(sim, "IDASetJacFn", flag);
  if (sim->ng > 0 && (flag = IDARootInit(m, sim->ng, ida_roots)))
    return setup_fail(sim, "IDARootInit", flag);
  return STICTION_OK;
}

static int ida_create(stiction_sim *sim, double t0) {
  int rc = ida_ode_yp(sim, t0);
  if (rc) return rc;
  if (st_reserve_vectors(sim, "IDA")) return STICTION_ERR_NOMEM;
  sim->mem = IDACreate(sim->ctx);
  if (!sim->mem) return st_sim_fail(sim, STICTION_ERR_NOMEM, "cannot create IDA");
  void *m = sim->mem;
  int flag = ida_quiet(sim);
  if (!flag) flag = IDAInit(m, ida_res, t0, sim->y, sim->yp);
  if (!flag) flag = IDASetUserData(m, sim);
  if (!flag) flag = IDASVtolerances(m, sim->opt.rtol, sim->atolv);
  if (!flag) flag = IDASetId(m, sim->id);
  if (!flag && isfinite(sim->opt.max_step)) flag = IDASetMaxStep(m, sim->opt.max_step);
  if (!flag) flag = IDASetMaxNumSteps(m, ST_IDA_MAX_STEPS);
  if (flag) return setup_fail(sim, "IDAInit", flag);
  rc = ida_attach(sim);
  return rc ? rc : ida_consistent(sim, t0);
}

/* IDA keeps y' itself; after an event without restart an ODE model's y' is re-evaluated
 * because the right limit may differ (the equations did not change, so it rarely does). */
static int ida_yp_at(stiction_sim *sim, double t, int exact) {
  if (exact && !sim->model->residual) return ida_ode_yp(sim, t);
  return STICTION_OK;
}

/* IDAReInit zeroes IDA's counters, so harvest() must run before it. */
static int ida_reinit(stiction_sim *sim, double t) {
  int rc = ida_ode_yp(sim, t);
  if (rc) return rc;
  int flag = IDAReInit(sim->mem, t, sim->y, sim->yp);
  if (flag) return setup_fail(sim, "IDAReInit", flag);
  return ida_consistent(sim, t);
}

static void note_step(stiction_sim *sim) {
  double h;
  if (IDAGetLastStep(sim->mem, &h) || h == 0) return;
  h = fabs(h);
  if (h < sim->stats.h_min || sim->stats.h_min == 0) sim->stats.h_min = h;
  if (h > sim->stats.h_max) sim->stats.h_max = h;
}

/* IDA_NORMAL towards tout, never past tstop (see cvode.c). */
static int ida_advance(stiction_sim *sim, double tout, double tstop, double *t) {
  sunrealtype tret = sim->t;
  int flag = IDASetStopTime(sim->mem, tstop);
  if (flag) return setup_fail(sim, "IDASetStopTime", flag);
  flag = IDASolve(sim->mem, tout, &tret, sim->y, sim->yp, IDA_NORMAL);
  if (flag < 0) {
    if (!IDAGetCurrentTime(sim->mem, &tret)) sim->t = tret;
    return setup_fail(sim, "IDASolve", flag);
  }
  note_step(sim);
  *t = tret;
  if (flag == IDA_ROOT_RETURN) return ST_ADV_ROOT;
  *t = tout;
  return ST_ADV_REACHED;
}

static int ida_root_info(stiction_sim *sim, int *rootsfound) {
  return IDAGetRootInfo(sim->mem, rootsfound) ? STICTION_ERR_SOLVER : STICTION_OK;
}

/* As for CVODE (cvode.c): skip a segment in which nothing was done yet. */
static void ida_harvest(stiction_sim *sim) {
  long v, nst = 0, nre = 0;
  stiction_stats *s = &sim->stats;
  void *m = sim->mem;
  if (IDAGetNumSteps(m, &nst) || IDAGetNumResEvals(m, &nre) || (nst == 0 && nre == 0)) return;
  s->steps += nst;
  s->nfe += nre;
  if (!IDAGetNumLinResEvals(m, &v)) s->nfe_fd += v;
  if (!IDAGetNumJacEvals(m, &v)) s->njac += v;
  if (sim->ng > 0 && !IDAGetNumGEvals(m, &v)) s->nge += v;
  if (!IDAGetNumErrTestFails(m, &v)) s->err_test_fails += v;
  if (!IDAGetNumNonlinSolvConvFails(m, &v)) s->conv_fails += v;
}

static void ida_destroy(stiction_sim *sim) { IDAFree(&sim->mem); }

const st_integrator_ops st_ida_ops = {ida_create, ida_reinit, ida_advance, ida_root_info, ida_yp_at,
                                      ida_harvest, NULL, ida_destroy, NULL};
