/* The CVODE driver (BDF or Adams, Newton iteration with the dense or KLU linear solver). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "runtime/runtime.h"

/* Steps per call of CVode (one output interval at most): generous, because a failing model
 * should stop on its own error, not on a step budget. */
#define ST_CVODE_MAX_STEPS 100000
/* Steps in a row that each began with a local failure of the model (cv_one_step) */
#define ST_TRIAL_STREAK_MAX 30

/* SUNDIALS callbacks return -1 (unrecoverable) after the runtime recorded why in sim; the
 * right-hand side returns 1 (recoverable: CVODE shortens the step) for a local failure of
 * the model at a trial point. */
static int cv_rhs(sunrealtype t, N_Vector y, N_Vector ydot, void *ud) {
  stiction_sim *sim = ud;
  int rc = st_call_derivatives_trial(sim, t, N_VGetArrayPointer(y), N_VGetArrayPointer(ydot));
  if (rc == ST_TRIAL_FAILED) return 1;
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

static int cv_jac_dense(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                        N_Vector t1, N_Vector t2, N_Vector t3) {
  stiction_sim *sim = ud;
  int rc = sim->model->ode_jacobian(sim->ud, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy),
                                    SUNDenseMatrix_Data(J));
  if (rc) rc = st_sim_fail(sim, STICTION_ERR_CALLBACK, "ode_jacobian() failed at t = %.17g", t);
  else rc = st_check_finite(sim, t, SUNDenseMatrix_Data(J), sim->n * sim->n, "ode_jacobian", NULL);
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

static int cv_jac_klu(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                      N_Vector t1, N_Vector t2, N_Vector t3) {
  stiction_sim *sim = ud;
  int rc = st_klu_ode_jacobian(sim, t, y, fy, J);
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

/* Dense matrix, no analytic Jacobian, but a pattern: grouped difference quotients. */
static int cv_jac_grouped(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                          N_Vector t1, N_Vector t2, N_Vector t3) {
  stiction_sim *sim = ud;
  int rc = st_jacfd_ode(sim, t, N_VGetArrayPointer(y), N_VGetArrayPointer(fy));
  if (!rc) st_jacfd_to_dense(sim, SUNDenseMatrix_Data(J));
  if (rc) sim->cb_status = rc;
  return rc ? -1 : 0;
}

#if SUNDIALS_VERSION_MAJOR >= 7
static void cv_err(int line, const char *func, const char *file, const char *msg,
                   SUNErrCode code, void *ud, SUNContext ctx) {
  stiction_sim *sim = ud;
  snprintf(sim->solver_msg, sizeof sim->solver_msg, "%s", msg ? msg : "");
}
#else
static void cv_err(int code, const char *module, const char *function, char *msg, void *ud) {
  stiction_sim *sim = ud;
  snprintf(sim->solver_msg, sizeof sim->solver_msg, "%s", msg ? msg : "");
}
#endif

/* SUNDIALS prints errors on stderr by default; the runtime reports them in its own message. */
static int cv_quiet(stiction_sim *sim) {
#if SUNDIALS_VERSION_MAJOR >= 7
  SUNContext_ClearErrHandlers(sim->ctx);
  return SUNContext_PushErrHandler(sim->ctx, cv_err, sim);
#else
  return CVodeSetErrHandlerFn(sim->mem, cv_err, sim);
#endif
}

static int setup_fail(stiction_sim *sim, const char *what, int flag) {
  return st_sim_fail(sim, STICTION_ERR_SOLVER, "CVODE set-up failed in %s (flag %d)%s%s", what,
                     flag, sim->solver_msg[0] ? ": " : "", sim->solver_msg);
}

static int cv_attach(stiction_sim *sim) {
  void *m = sim->mem;
  int flag;
  if ((flag = CVodeSetLinearSolver(m, sim->LS, sim->A))) return setup_fail(sim, "CVodeSetLinearSolver", flag);
  if (sim->use_klu) flag = CVodeSetJacFn(m, cv_jac_klu);
  else if (sim->model->ode_jacobian) flag = CVodeSetJacFn(m, cv_jac_dense);
  else if (sim->use_pattern) flag = CVodeSetJacFn(m, cv_jac_grouped);
  /* no CVodeRootInit: the runtime finds the roots itself (sampling.c, cv_scan) */
  return flag ? setup_fail(sim, "CVodeSetJacFn", flag) : STICTION_OK;
}

static int cv_create(stiction_sim *sim, double t0) {
  int lmm = sim->opt.solver == STICTION_SOLVER_CVODE_ADAMS ? CV_ADAMS : CV_BDF;
  if (st_reserve_vectors(sim, "CVODE")) return STICTION_ERR_NOMEM;
  sim->mem = CVodeCreate(lmm, sim->ctx);
  if (!sim->mem) return st_sim_fail(sim, STICTION_ERR_NOMEM, "cannot create CVODE");
  void *m = sim->mem;
  int flag = cv_quiet(sim);
  if (!flag) flag = CVodeInit(m, cv_rhs, t0, sim->y);
  if (!flag) flag = CVodeSetUserData(m, sim);
  if (!flag) flag = CVodeSVtolerances(m, sim->opt.rtol, sim->atolv);
  if (!flag && sim->opt.max_step > 0 && isfinite(sim->opt.max_step))
    flag = CVodeSetMaxStep(m, sim->opt.max_step);
  if (!flag) flag = CVodeSetMaxNumSteps(m, ST_CVODE_MAX_STEPS);
#if SUNDIALS_VERSION_MAJOR > 6 || (SUNDIALS_VERSION_MAJOR == 6 && SUNDIALS_VERSION_MINOR >= 6)
  /* y at tstop interpolated there, as before 6.6 (cv_advance takes it as the state at tstop) */
  if (!flag) flag = CVodeSetInterpolateStopTime(m, SUNTRUE);
#endif
  if (flag) return setup_fail(sim, "CVodeInit", flag);
  sim->t_step = sim->smp_t = t0;
  sim->win_steps = sim->win_fails = 0;
  sim->fresh_jac = 0;
  sim->trial_failed = sim->trial_streak = 0;
  sim->t_stop_set = NAN;
  sim->has_pending_root = 0;
  st_sample_forget(sim);
  sim->jac_seen = -1;
  sim->jac_kept_seen = 0;
  sim->jac_asked = 0;
  return cv_attach(sim);
}

/* CVodeReInit zeroes CVODE's counters, so harvest() must run before it. */
static int cv_reinit(stiction_sim *sim, double t) {
  int flag = CVodeReInit(sim->mem, t, sim->y);
  sim->t_step = sim->smp_t = t;
  sim->trial_failed = sim->trial_streak = 0;
  sim->t_stop_set = NAN;
  sim->has_pending_root = 0;
  st_sample_forget(sim);
  sim->jac_seen = -1;
  sim->jac_kept_seen = sim->jac_kept;
  return flag ? setup_fail(sim, "CVodeReInit", flag) : STICTION_OK;
}

/* Where it stopped: the integrator's last internal time (the callback that failed was
 * evaluated at or after it). */
static int cv_solver_fail(stiction_sim *sim, int flag) {
  sunrealtype t = sim->t;
  if (!CVodeGetCurrentTime(sim->mem, &t)) sim->t = t;
  if (sim->cb_status) return sim->cb_status;
  /* CVODE gave up after local failures of the model (CV_REPTD_RHSFUNC_ERR, or one at its
   * first call): the model's failure is the reason */
  if (sim->trial_failed) return st_report_trial_failure(sim);
  char *name = CVodeGetReturnFlagName(flag);
  st_sim_fail(sim, STICTION_ERR_SOLVER, "CVODE failed at t = %.17g: %s%s%s",
              t, name ? name : "unknown flag", sim->solver_msg[0] ? ": " : "", sim->solver_msg);
  free(name);
  return STICTION_ERR_SOLVER;
}

/* CVODE keeps a Jacobian for up to 50 steps and a Newton matrix for 20; a model whose stiff
 * directions turn as it moves (the fast mode of a rotor-frame current, through a rotation by
 * the rotor angle, against a stator-frame one) makes even a one-step-old matrix diverge: its
 * error is scaled by h*lambda times the angle turned. When a window of steps sees a Newton
 * convergence failure in every ST_FRESH_RATIO steps, the Jacobian is evaluated at every step
 * for the rest of the run (optional inputs survive CVodeReInit). */
enum { ST_FRESH_WINDOW = 40, ST_FRESH_RATIO = 4 };

static int fresh_jacobians(stiction_sim *sim) {
  if (CVodeSetJacEvalFrequency(sim->mem, 1) || CVodeSetLSetupFrequency(sim->mem, 1)) return 0;
  return sim->fresh_jac = 1;
}

static void cv_watch_newton(stiction_sim *sim) {
  long nst = 0, ncf = 0;
  if (sim->fresh_jac || CVodeGetNumSteps(sim->mem, &nst) ||
      CVodeGetNumNonlinSolvConvFails(sim->mem, &ncf))
    return;
  if (nst < sim->win_steps) sim->win_steps = sim->win_fails = 0; /* restarted: counters zeroed */
  if (nst - sim->win_steps < ST_FRESH_WINDOW) return;
  if (ST_FRESH_RATIO * (ncf - sim->win_fails) >= nst - sim->win_steps) fresh_jacobians(sim);
  sim->win_steps = nst;
  sim->win_fails = ncf;
}

static void note_step(stiction_sim *sim) {
  double h;
  if (CVodeGetLastStep(sim->mem, &h) || h == 0) return;
  h = fabs(h);
  if (h < sim->stats.h_min || sim->stats.h_min == 0) sim->stats.h_min = h;
  if (h > sim->stats.h_max) sim->stats.h_max = h;
}

/* The state at tout inside the last step (CVODE's dense output), reported as reached. */
static int cv_interp(stiction_sim *sim, double tout, double *t) {
  sim->y_at_step = 0;
  if (CVodeGetDky(sim->mem, tout, 0, sim->y))
    return st_sim_fail(sim, STICTION_ERR_SOLVER, "CVodeGetDky failed at t = %.17g", tout);
  *t = tout;
  return ST_ADV_REACHED;
}

/* A root beyond the grid point tout: the grid rows before it first. */
static int cv_pending(stiction_sim *sim, double tout, double *t) {
  if (sim->pending_root > tout) return cv_interp(sim, tout, t);
  sim->has_pending_root = 0;
  if (cv_interp(sim, sim->pending_root, t) < 0) return STICTION_ERR_SOLVER;
  return ST_ADV_ROOT;
}

/* CVODE keeps a Jacobian for up to 51 steps and re-evaluates it early only after a Newton
 * failure. One taken during a fast transient (a vessel filling from nearly empty: the
 * eigenvalue -m_flow/m at m -> 0) is far too stiff for the steps that follow once the
 * transient has died: Newton's corrections then shrink by that ratio, the first one passes
 * the convergence test as tiny, and the step keeps the predictor -- the state drifts along
 * its old slope while the model's derivative says otherwise, and no test notices. So when
 * the step has grown ST_JAC_H_GROWTH-fold since the Jacobian was taken, the next setup is
 * told to evaluate a new one (msbj 1), and told back to the default once it has. A
 * Jacobian kept over a restart at clock ticks keeps the step it was taken for: the steps
 * growing again after the restart do not make it stale. */
#define ST_JAC_H_GROWTH 100.0

static void jacobian_after_growth(stiction_sim *sim) {
  long nje;
  double h;
  if (CVodeGetNumJacEvals(sim->mem, &nje) || CVodeGetLastStep(sim->mem, &h)) return;
  h = fabs(h);
  if (nje != sim->jac_seen) {
    /* a Jacobian kept over a restart (jacfd.c) is the one of the steps before it */
    if (sim->jac_kept <= sim->jac_kept_seen) sim->h_jac = h;
    sim->jac_seen = nje;
    sim->jac_kept_seen = sim->jac_kept;
    if (sim->jac_asked) CVodeSetJacEvalFrequency(sim->mem, 0);
    sim->jac_asked = 0;
  } else if (!sim->jac_asked && h > ST_JAC_H_GROWTH * sim->h_jac) {
    sim->jac_asked = !CVodeSetJacEvalFrequency(sim->mem, 1);
  }
}

/* One CVODE step towards tstop (CV_ONE_STEP). The step does not look at the output grid, so
 * grid points neither shorten steps nor cost indicator evaluations: with CV_NORMAL CVODE
 * evaluates the indicators again at every tout it interpolates, and bounds the first step
 * after each (re)start by a tenth of the distance to tout (the h0 estimate of the CVODE guide,
 * section 2.1), which made the step sequence depend on --interval (doc/study.md). */
static int cv_one_step(stiction_sim *sim, double tstop) {
  sunrealtype tret = sim->t_step;
  int flag = CVode(sim->mem, tstop, sim->y, &tret, CV_ONE_STEP);
  if ((flag == CV_ERR_FAILURE || flag == CV_CONV_FAILURE) && !sim->fresh_jac &&
      !sim->trial_failed && !sim->cb_status && fresh_jacobians(sim)) {
    tret = sim->t_step;
    flag = CVode(sim->mem, tstop, sim->y, &tret, CV_ONE_STEP);
  }
  if (flag < 0) return cv_solver_fail(sim, flag);
  /* Shortened below the rounding of t, the step got nowhere; or step after step failed
   * first: the run creeps towards a point past which the model cannot be evaluated (the
   * steps shrink geometrically and CVODE would go on for ever). A trial point too far
   * ahead costs a few steps at most. */
  if (sim->trial_failed && (tret == sim->t_step || ++sim->trial_streak > ST_TRIAL_STREAK_MAX))
    return st_report_trial_failure(sim);
  if (!sim->trial_failed) sim->trial_streak = 0;
  sim->trial_failed = 0; /* a shorter step got past it */
  note_step(sim);
  cv_watch_newton(sim);
  /* after cv_watch_newton: a run with a Jacobian at every step keeps that frequency */
  if (sim->opt.solver != STICTION_SOLVER_CVODE_ADAMS && !sim->fresh_jac) jacobian_after_growth(sim);
  sim->t_step = tret;
  sim->y_at_step = 1;
  sim->y_at_stop = flag == CV_TSTOP_RETURN;
  return STICTION_OK;
}

/* Root finding over the part of the last step not scanned yet, [smp_t, t_step] (all of it
 * after a step; the rest of it after an event at a root that did not restart CVODE). The
 * runtime does this instead of CVODE (no CVodeRootInit) because it also samples inside long
 * steps (sampling.c), and CVODE's own check at every step end then only repeated the work.
 * A root beyond tout waits in pending_root until the grid has caught up. Returns 1 when a
 * root at or before tout was found (*t, sim->y), 0 otherwise, negative on failure. */
static int cv_scan(stiction_sim *sim, double tout, double *t) {
  double tc;
  const double *yb = sim->y_at_step ? N_VGetArrayPointer(sim->y) : NULL;
  int r = st_sample_step(sim, sim->smp_t, sim->t_step, yb, &tc);
  if (r <= 0) {
    if (r == 0) sim->smp_t = sim->t_step;
    return r;
  }
  sim->smp_t = tc;
  if (tc > tout) {
    sim->has_pending_root = 1;
    sim->pending_root = tc;
    return 0;
  }
  return cv_interp(sim, tc, t) < 0 ? STICTION_ERR_SOLVER : 1;
}

/* Steps until the last step passed tout (then the state at tout comes from CVODE's dense
 * output, CVodeGetDky) or a root was found. tstop = the next time event or the stop time,
 * which CVODE reaches exactly and never steps past. */
static int cv_advance(stiction_sim *sim, double tout, double tstop, double *t) {
  if (sim->has_pending_root) return cv_pending(sim, tout, t);
  if (tstop != sim->t_stop_set) { /* once per time event, not per grid point */
    int flag = CVodeSetStopTime(sim->mem, tstop);
    if (flag) return setup_fail(sim, "CVodeSetStopTime", flag);
    sim->t_stop_set = tstop;
  }
  for (;;) {
    if (sim->smp_t < sim->t_step) {
      int r = cv_scan(sim, tout, t);
      if (r) return r < 0 ? r : ST_ADV_ROOT;
    }
    if (sim->has_pending_root || sim->t_step >= tout) break;
    int r = cv_one_step(sim, tstop);
    if (r < 0) return r;
  }
  /* also when the last step ended on tout: sim->y may since hold an earlier grid point;
   * not when it ended on the stop time tout and y is still its state: CVODE returned y as
   * CVodeGetDky(tstop, 0) (CV_TSTOP_RETURN; SUNDIALS 6.6 and later when told so, cv_create),
   * the same call again (a 1 kHz clock stops the integrator at every tick) */
  if (sim->y_at_step && sim->y_at_stop && sim->t_step == tout) {
    sim->y_at_step = 0;
    *t = tout;
    return ST_ADV_REACHED;
  }
  return cv_interp(sim, tout, t);
}

static int cv_root_info(stiction_sim *sim, int *rootsfound) {
  memcpy(rootsfound, sim->smp_found, sizeof(int) * (size_t)sim->ng);
  return STICTION_OK;
}

static int cv_yp_at(stiction_sim *sim, double t, int exact) {
  if (exact || !sim->mem)
    return st_call_derivatives(sim, t, N_VGetArrayPointer(sim->y), N_VGetArrayPointer(sim->yp));
  return CVodeGetDky(sim->mem, t, 1, sim->yp) ? st_sim_fail(sim, STICTION_ERR_SOLVER,
                                                             "CVodeGetDky failed at t = %.17g", t)
                                              : STICTION_OK;
}

/* CVodeReInit zeroes the integrator's counters at once but the linear solver's only at the
 * next CVode call: nothing done since the (re)start means nothing to add, and the linear
 * solver's counters would still hold the previous segment's values. */
static void cv_harvest(stiction_sim *sim) {
  long v, nst = 0, nfe = 0;
  stiction_stats *s = &sim->stats;
  void *m = sim->mem;
  if (CVodeGetNumSteps(m, &nst) || CVodeGetNumRhsEvals(m, &nfe) || (nst == 0 && nfe == 0)) return;
  s->steps += nst;
  s->nfe += nfe;
  if (!CVodeGetNumLinRhsEvals(m, &v)) s->nfe_fd += v;
  if (!CVodeGetNumJacEvals(m, &v)) s->njac += v - sim->jac_kept;
  sim->jac_kept = 0;
  if (!CVodeGetNumErrTestFails(m, &v)) s->err_test_fails += v;
  if (!CVodeGetNumNonlinSolvConvFails(m, &v)) s->conv_fails += v;
}

/* The indicators at t inside the last step, on CVODE's dense output (as its root finder). */
static int cv_sample_at(stiction_sim *sim, double t, double *g) {
  if (CVodeGetDky(sim->mem, t, 0, sim->ys))
    return st_sim_fail(sim, STICTION_ERR_SOLVER, "CVodeGetDky failed at t = %.17g", t);
  return st_call_indicators(sim, t, N_VGetArrayPointer(sim->ys), NULL, g);
}

/* A clock tick that changed only inputs of the plant (held controller outputs) leaves y as it
 * was and makes y' jump by d = f_new(t, y) - y'_history(t). CVodeReInit would throw the
 * history away (order 1, a new h0 estimate, a step or two more per tick, a 1 kHz controller
 * pays that 1000 times a second). Going on from the history instead is integrating through a
 * kink of y: the next steps' local error grows by about h d, which CVODE's error test sees
 * like any other error. So the history is kept when that addition is small against the
 * error test, ||h d||_wrms <= ST_KINK_WRMS (h the next step, to the next time event at most;
 * weights 1 / (rtol |y| + atol) as CVODE's); a
 * larger jump restarts (a held input jumping far, tests/data/clocks/HeldInputPlant.mo, made
 * CVODE fail its error test at hmin when gone through). sim->yp holds f_new, sim->yp_left
 * the history's y' at t (taken before the passes). */
#define ST_KINK_WRMS 0.1

static int cv_goes_on(stiction_sim *sim, double t) {
  double h = 0, sum = 0;
  if (sim->opt.tick_restart || CVodeGetCurrentStep(sim->mem, &h) || h == 0) return 0;
  h = fmin(fabs(h), sim->next_time_event - t); /* the next step ends at the next tick at most */
  const double *y = N_VGetArrayPointer(sim->y), *f = N_VGetArrayPointer(sim->yp),
               *fh = sim->yp_left, *atol = N_VGetArrayPointer(sim->atolv);
  for (int i = 0; i < sim->n; i++) {
    double e = h * (f[i] - fh[i]) / (sim->opt.rtol * fabs(y[i]) + atol[i]);
    sum += e * e;
  }
  return sim->n > 0 && sqrt(sum / sim->n) <= ST_KINK_WRMS;
}

static void cv_destroy(stiction_sim *sim) { CVodeFree(&sim->mem); }

const st_integrator_ops st_cvode_ops = {cv_create, cv_reinit, cv_advance, cv_root_info, cv_yp_at,
                                        cv_harvest, cv_sample_at, cv_destroy,
                                        cv_goes_on};
