/*
 * The hybrid model interface: what a model must provide for stiction's runtime to simulate it.
 *
 * It is shaped after FMI 2.0 Model Exchange so that FMUs can be wrapped (and exported) later
 * with the same event loop. A model is a constant table of callbacks (`stiction_model`) plus
 * a `void *user_data` that the callbacks receive; the runtime never looks inside user_data.
 *
 * Vectors:
 *   y   continuous unknowns, length n_states + n_algebraic. The first n_states entries are
 *       the states (their derivatives appear in the model); the rest are algebraic unknowns
 *       (DAE form only, n_algebraic == 0 for a pure ODE model).
 *   yp  derivatives of y, same length. residual() ignores the algebraic part, but IDA
 *       predicts its first step after a (re)start as y + h*yp for every component, and
 *       IDACalcIC computes only the states' part: a DAE model should fill the algebraic
 *       part with the time derivatives of its algebraic unknowns in event_update() (a
 *       stale slope there makes the first step after an event fail its error test).
 *   g   event indicators, length n_indicators: real functions whose sign change is an event.
 *   d   discrete variables, length n_discrete, reported as doubles (Booleans as 0/1).
 *
 * Continuous-time contract. Between events the discrete variables, and the truth values of
 * the relations that guard mode switches, are frozen: derivatives()/residual()/indicators()
 * must be continuous functions of (t, y, yp) for fixed discrete values. A model changes its
 * discrete state only inside event_update().
 *
 * Indicators and hysteresis. An indicator should change sign exactly when a relation of the
 * model would change its value. Where a relation is exactly on its threshold when integration
 * restarts (a stuck friction element that has just been released has w == 0 and waits for
 * w > 0), a plain indicator w would start at zero, and a solver cannot see a sign change that
 * starts at zero. Such a model should shift the indicator by a tiny hysteresis towards the
 * side it is on (w - eps while "w > 0" is false): that is what Dymola does (eps ~ 1e-10).
 * See doc/events.md.
 *
 * Every callback returns 0 on success and non-zero on failure; the runtime then stops with
 * STICTION_ERR_CALLBACK and keeps the results written so far (except for a failure of
 * derivatives() that report_failure() marks as local: see there). Callbacks must not
 * longjmp.
 */
#ifndef STICTION_MODEL_H
#define STICTION_MODEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Filled in by event_update(): what one pass of the discrete equations did. The runtime
 * zeroes the outputs before each call. */
typedef struct stiction_event_info {
  /* inputs */
  int initial;             /* 1 in the passes that initialize (Modelica initial()); at t0
                              the runtime then iterates again with 0 before integrating */
  int iteration;           /* 0 for the first pass of this event, then 1, 2, ... */
  /* outputs */
  int discrete_changed;    /* a discrete variable changed in this pass: iterate again */
  int states_changed;      /* y was assigned (reinit): the solver must restart from y */
  int equations_changed;   /* a mode switch changed the continuous equations (restart) */
  int next_time_defined;   /* a time event is scheduled at next_time (> t) */
  double next_time;
  int terminate;           /* the model asks to stop (terminate()) after this event */
  const char *message;     /* optional, static or owned by the model: why it terminated */
  int clock_ticks;         /* optional: clock ticks in this pass (clocked partitions of a
                              compiled model that ticked, those at the start time with the
                              first initial pass); counted apart in the statistics */
  /* inputs, at a state event (else 0 / NULL): the indicators the root finder found crossing
   * at t and their directions (+1: from negative to positive). The model may let a relation
   * whose operands are within rounding of each other take the crossed side. */
  int n_crossed;
  const int *crossed, *crossed_dir;
  /* output, optional: this pass did nothing but tick clocks (no other when-clause fired, no
   * relation switched, no reinit, no terminate). An event whose passes all set it is a clock
   * tick only: the runtime writes no left and right rows there unless asked
   * (stiction_options.tick_rows). */
  int ticks_only;
  /* output, optional: blocks of equations this pass evaluated (the statistics' "event block
   * evaluations"; a compiled model re-evaluates after when-clauses fired only the blocks
   * that read what they assigned) */
  int block_evals;
  /* output, optional: yp holds f(t, y) of the equations as this pass left them (ODE form).
   * At a time event whose passes only ticked clocks and moved no state, the runtime then
   * takes that y' instead of evaluating derivatives() again (doc/events.md, "Clock ticks"). */
  int yp_set;
  /* output, optional: 1 when this pass evaluated the equations at the left limit itself;
   * 0 when it took the evaluation that outputs() just made at the same (t, y) (the left row
   * of the event; the statistics' "event left-limit evaluations") */
  int left_evals;
} stiction_event_info;

typedef struct stiction_model {
  /* sizeof(stiction_model) as the model's code was compiled: set it (.size =
   * sizeof(stiction_model)). The runtime refuses a table whose size it does not know.
   * Fields are only ever added at the end, so a later library can tell an older table
   * by its size and treat the missing fields as NULL / 0. */
  size_t size;
  const char *name;        /* for messages; may be NULL */

  /* Sizes. */
  int n_states;
  int n_algebraic;         /* > 0 requires residual() and a DAE solver (IDA) */
  int n_indicators;
  int n_discrete;
  int n_outputs;           /* recorded variables (time is added by the runtime) */

  /* Names (arrays of the sizes above, borrowed for the model's lifetime). output_names is
   * required when n_outputs > 0; the others may be NULL, then indices are printed. */
  const char *const *output_names;
  const char *const *state_names;
  const char *const *indicator_names;
  const char *const *discrete_names;

  /* Start values at t0, before the initial event iteration: fills y and, if the model can,
   * yp (yp is pre-zeroed). Required. */
  int (*start_values)(void *user_data, double t0, double *y, double *yp);

  /* ODE form: dy/dt = f(t, y) for y of length n_states. Required for CVODE. IDA uses it
   * too when residual() is NULL (residual = yp - f). */
  int (*derivatives)(void *user_data, double t, const double *y, double *ydot);

  /* DAE form: F(t, y, yp) = 0, length n_states + n_algebraic. Optional for ODE models. */
  int (*residual)(void *user_data, double t, const double *y, const double *yp, double *r);

  /* Event indicators g(t, y, yp). Required when n_indicators > 0. In the ODE form yp holds
   * the derivatives at (t, y) when the runtime has them, else NULL. */
  int (*indicators)(void *user_data, double t, const double *y, const double *yp, double *g);

  /* One pass of the discrete equations at an event instant t, with pre(v) = the values
   * before this pass. May change discrete variables, and y (reinit; then set
   * states_changed). The runtime repeats the pass while discrete_changed is set. Required
   * when the model has events (indicators, time events or discrete variables). */
  int (*event_update)(void *user_data, double t, double *y, double *yp,
                      stiction_event_info *info);

  /* Current discrete values (length n_discrete), for the event log and for naming the
   * variables that keep changing when event iteration does not converge. Optional. */
  int (*get_discrete)(void *user_data, double *d);

  /* Recorded variables at (t, y, yp). Required when n_outputs > 0. yp is passed as for
   * indicators(): on CVODE (ODE form) it is NULL. */
  int (*outputs)(void *user_data, double t, const double *y, const double *yp, double *out);

  /* Optional analytic Jacobians, dense, column-major (J[i + j*n]). If NULL the solver
   * uses difference quotients.
   *   ODE:  J = df/dy, n = n_states.
   *   DAE:  J = dF/dy + cj * dF/dyp, n = n_states + n_algebraic. */
  int (*ode_jacobian)(void *user_data, double t, const double *y, const double *ydot,
                      double *J);
  int (*dae_jacobian)(void *user_data, double t, double cj, const double *y,
                      const double *yp, double *J);

  /* Optional nominal magnitudes of y (length n_states + n_algebraic) for absolute
   * tolerances: atol_i = rtol * nominal_i * atol_scale. NULL means 1. Read again after
   * start_values(), which may set it (a nominal from the model's parameters). */
  const double *nominal;

  /* Optional structure of df/dy (ODE form) in compressed sparse columns: the entries of
   * column j (state j) that may be non-zero are the rows ode_jac_rows[ode_jac_cols[j]] ..
   * ode_jac_rows[ode_jac_cols[j + 1] - 1], the diagonal included; ode_jac_cols has
   * n_states + 1 entries. NULL means dense. Borrowed for the model's lifetime. Without an
   * analytic ode_jacobian the runtime then perturbs columns that share no row together
   * (one derivatives() call per group, Curtis, Powell and Reid 1974), and KLU gets a
   * matrix with this pattern. IDA uses it too when n_algebraic is 0, as the pattern of
   * dF/dy + cj dF/dyp (one residual() call per group): a residual() is then expected to
   * have the structure of yp - f. A pattern that misses an entry makes the Newton
   * iteration slower or fail, never the result wrong. */
  const int *ode_jac_cols, *ode_jac_rows;

  /* Optional: the terminal pass (Modelica terminal()). Called once the simulation has ended
   * successfully, at the stop time or at the event where the model asked to terminate, with
   * the same contract as event_update() except that terminal() is true: when-clauses whose
   * condition becomes true through terminal() fire, and the final values are computed. The
   * runtime repeats it while discrete_changed is set (as an event iteration, but it schedules
   * nothing and never restarts the integrator) and then, when the passes changed a discrete
   * variable or y, writes one more row at the final time with the values after them. NULL:
   * no terminal pass. */
  int (*terminal)(void *user_data, double t, double *y, double *yp, stiction_event_info *info);

  /* Optional structure of dF/dy + cj dF/dyp (DAE form, residual()) in compressed sparse
   * columns over all n_states + n_algebraic unknowns, as ode_jac_cols/ode_jac_rows are for
   * df/dy (the diagonal included; n_states + n_algebraic + 1 column starts). IDA then
   * perturbs columns that share no row together (one residual() call per group) and KLU
   * gets a matrix with this pattern; without it a model with algebraic unknowns gets n
   * residual() calls and a dense n x n matrix per Jacobian. NULL means dense. */
  const int *dae_jac_cols, *dae_jac_rows;

  /* Optional. With it, a positive return of derivatives() says that the model cannot be
   * evaluated at this (t, y) only -- an algebraic loop without a solution near an
   * integrator's trial point far from the last accepted one -- and that the model kept
   * quiet about it: CVODE then retries with a shorter step. When the run stops on such a
   * failure after all (and wherever the runtime cannot retry), the runtime calls
   * report_failure() for the model to say why, in the user's terms. NULL: every failure of
   * derivatives() stops the run at once. */
  void (*report_failure)(void *user_data);
} stiction_model;

/* Checks the size field, sizes, required callbacks and names; returns STICTION_OK or STICTION_ERR_ARG and,
 * if message is not NULL, writes a one-line reason (at most size bytes). */
int stiction_model_validate(const stiction_model *model, char *message, unsigned long size);

#ifdef __cplusplus
}
#endif

#endif
