/* Internals of the simulation handle (include/stiction/simulate.h).
 *
 * One stiction_sim owns everything a run needs: the SUNDIALS context, vectors, matrix, linear
 * solver and integrator memory, plus work arrays sized once in st_sim_prepare() so that the
 * integration loop allocates nothing per step. Two handles share nothing. */
#ifndef ST_RUNTIME_RUNTIME_H
#define ST_RUNTIME_RUNTIME_H

#include <stdarg.h>
#include <stiction/stiction.h>

#include "runtime/sundials_compat.h"
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

struct st_integrator_ops;

/* Why the integrator returned (st_integrator_ops.advance). */
enum { ST_ADV_REACHED = 0, ST_ADV_ROOT = 1 };

struct stiction_sim {
  const stiction_model *model;
  void *ud;
  stiction_options opt;
  stiction_sink sink;
  stiction_event_listener listener;
  void *listener_ud;
  char *error;                  /* the first failure of the run (malloc'd), NULL: none */
  int terminated;               /* the model called terminate(); its message below */
  char terminate_message[256];
  double t;
  stiction_stats stats;
  int ran;
  int stopped;                  /* the model terminated: stepping does nothing more */
  int ended;                    /* end of the run done (terminal pass, sink end) */

  /* sizes: states, unknowns (states + algebraic), indicators, discretes, result columns */
  int nx, n, ng, nd, ncols;

  /* SUNDIALS objects */
  const struct st_integrator_ops *ops;
  SUNContext ctx;
  N_Vector y, yp, id, atolv;
  SUNMatrix A;
  SUNLinearSolver LS;
  void *mem;
  /* CVODE: the time its last step reached (cvode.c cv_advance steps with CV_ONE_STEP and
   * interpolates the grid); a root found beyond the grid point, reported after the grid rows
   * before it; the stop time last given to CVodeSetStopTime (NaN: none since the (re)start) */
  int has_pending_root;
  double pending_root, t_step, t_stop_set;
  /* CVODE's Jacobian refresh (cv_watch_newton): steps and convergence failures at the start
   * of the current window (CVODE's counters since its last (re)start); fresh_jac: the
   * Jacobian is evaluated at every step from then on */
  long win_steps, win_fails;
  int fresh_jac;
  /* sampling.c, CVODE's root finding: the indicators are compared at the ends of each step
   * and, inside steps longer than sample_step (INFINITY: never), at samples of the
   * interpolant; smp_t: CVODE's last step is scanned up to there (t_step: all of it);
   * y_at_step: y holds CVODE's state at t_step; y_at_stop: that step ended at the stop time
   * (CV_TSTOP_RETURN: y is CVodeGetDky(t_step, 0), cvode.c cv_advance); smp_found: the fired indicators of the last
   * root (as CVodeGetRootInfo); smp_prev: the indicators at smp_prev_t (NaN: unknown);
   * smp_lo/hi/mid: scratch; ys: the interpolated state at a sample */
  double sample_step, smp_t, smp_prev_t;
  int y_at_step, y_at_stop;
  int *smp_found;
  double *smp_prev, *smp_lo, *smp_hi, *smp_mid;
  N_Vector ys;
  int use_klu;
  double *jac_dense;            /* n*n scratch for the KLU path */
  double *fd_f0, *fd_f1, *fd_yp; /* difference-quotient scratch (fd_yp: IDA's y') */
  int use_pattern;              /* the model's Jacobian pattern is used (jacfd.c) */
  const int *pat_cols, *pat_rows; /* that pattern: the ODE's or the DAE's (st_jacfd_choose) */
  int *fd_group, fd_ngroups;    /* column groups of the grouped difference quotients */
  double *jac_vals;             /* df/dy over the pattern (nnz) */
  int jac_vals_set;             /* jac_vals holds a Jacobian computed in this run */
  int jac_keep;                 /* the next ODE Jacobian may be jac_vals as they are: a restart
                                 * at clock ticks that moved no state (event_iteration.c) */
  long jac_kept;                /* Jacobians kept since the last harvest (not evaluations) */
  /* cvode.c fresh_jacobian: CVODE's Jacobian count when last seen, the step size it was
   * evaluated for, jac_kept then, and whether the next linear-solver setup was told to
   * evaluate one */
  long jac_seen, jac_kept_seen;
  double h_jac;
  int jac_asked;

  /* work arrays, allocated once */
  const char **names;           /* result column names, names[0] = "time" */
  double *row;                  /* ncols */
  double *row_left;             /* ncols: the left row of a time event, held until the event
                                   shows whether it was a clock tick only (event_iteration.c) */
  int row_left_set;             /* row_left holds a row computed for the sink */
  int rows_at_event;            /* the last event wrote its left/right rows */
  double *g;                    /* ng indicator values */
  int *rootsfound;              /* ng */
  int *fired, *fired_dir;       /* ng */
  int n_crossed;                /* fired indicators the event passes are told of (state events) */
  double *probe;                /* ng + n: indicators and y just after a time event (event_iteration.c) */
  double *yp_left;              /* n: the integrator's y' at a time event before its passes (cvode.c goes_on) */
  double *d_before, *d_prev, *d_cur;  /* nd each */
  int *changed;                 /* nd */

  /* schedule */
  double next_time_event;       /* INFINITY when none */
  double interval;
  long grid_index;              /* index of the next grid point not yet written */
  long grid_count;              /* grid points are start + k*interval, k < grid_count */

  /* chattering: a ring of the last chatter_max_events + 1 event times and fired flags */
  double *ring_t;
  unsigned char *ring_fired;    /* (ring_size) x (ng + 1); the last flag marks time events */
  int ring_size, ring_head, ring_count;

  /* a failure found inside a SUNDIALS callback (status and message already set) */
  int cb_status;
  /* a local failure of derivatives() at a trial point, not reported yet (callbacks.c) */
  int trial_failed, trial_rc, trial_streak;
  double trial_t;
  char solver_msg[256];         /* last message of the SUNDIALS error handler */

  /* wall-clock */
  double t_wall0;
  int progress_shown;
  double progress_last;
};

/* One integrator family (CVODE or IDA) behind one interface. */
typedef struct st_integrator_ops {
  int (*create)(stiction_sim *sim, double t0);    /* after y (and yp) hold consistent values */
  /* Restarts from y at t (CVODE keeps y and y'; IDA makes them consistent) */
  int (*reinit)(stiction_sim *sim, double t);
  /* Integrates towards tout <= tstop, never past tstop (time events and the stop time are
   * reached exactly; tout, a grid point, by interpolation). Returns a negative status on
   * failure, ST_ADV_REACHED (*t = tout) or ST_ADV_ROOT; sim->y (yp) hold the state at *t. */
  int (*advance)(stiction_sim *sim, double tout, double tstop, double *t);
  int (*root_info)(stiction_sim *sim, int *rootsfound);
  /* Fills sim->yp at t: exact = 1 re-evaluates the model (after an event), else the
   * integrator's own value (interpolated for CVODE, current for IDA). */
  int (*yp_at)(stiction_sim *sim, double t, int exact);
  void (*harvest)(stiction_sim *sim);              /* add solver counters to sim->stats */
  /* The indicators at t inside the last step, on the integrator's interpolant (sampling.c) */
  int (*sample_at)(stiction_sim *sim, double t, double *g);
  void (*destroy)(stiction_sim *sim);
  /* Whether the integrator may go on from its history at t, where only the right-hand side
   * jumped to sim->yp (a clock tick that changed held inputs); NULL: it restarts */
  int (*goes_on)(stiction_sim *sim, double t);
} st_integrator_ops;

extern const st_integrator_ops st_cvode_ops;
extern const st_integrator_ops st_ida_ops;

/* sim.c */
int st_sim_fail(stiction_sim *sim, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
double st_wall_now(void);

/* options.c */
int st_options_check(stiction_sim *sim);

/* callbacks.c: model calls with the runtime's checks (finite values, failure status). */
int st_call_start(stiction_sim *sim, double t, double *y, double *yp);
int st_call_derivatives(stiction_sim *sim, double t, const double *y, double *ydot);
/* The same at an integrator's trial point: a failure the model marks as local (model.h
 * report_failure) returns ST_TRIAL_FAILED and is noted, not reported; the integrator may
 * retry with a shorter step. st_report_trial_failure reports the noted one when the run
 * stops on it (STICTION_ERR_CALLBACK; STICTION_OK when none is noted). */
#define ST_TRIAL_FAILED 1
int st_call_derivatives_trial(stiction_sim *sim, double t, const double *y, double *ydot);
int st_report_trial_failure(stiction_sim *sim);
int st_call_residual(stiction_sim *sim, double t, const double *y, const double *yp, double *r);
int st_call_indicators(stiction_sim *sim, double t, const double *y, const double *yp, double *g);
int st_call_outputs(stiction_sim *sim, double t, const double *y, const double *yp, double *out);
int st_call_discrete(stiction_sim *sim, double *d);
int st_check_finite(stiction_sim *sim, double t, const double *v, int n, const char *what,
                    const char *const *names);

/* nvector_ops.c: optimized, bit-identical kernels in a serial vector's operation table (its
 * clones inherit them); other vector kinds are left alone */
void st_nvector_use_fast_ops(N_Vector v);
/* dense_ops.c: the same for a dense matrix (A <- cA + I, copy) and the dense LU solver's setup
 * and solve; other matrix and solver kinds are left alone */
void st_dense_use_fast_ops(SUNMatrix A, SUNLinearSolver LS);

/* linsol.c: matrix, linear solver and Jacobian for either integrator */
int st_linsol_create(stiction_sim *sim);
/* jacfd.c: df/dy by grouped difference quotients over the model's pattern; the step of
 * every difference quotient of the runtime */
double st_fd_increment(const stiction_sim *sim, int j, double yj);
int st_jacfd_choose(stiction_sim *sim);
int st_jacfd_nnz(const stiction_sim *sim);
int st_jacfd_setup(stiction_sim *sim);
int st_jacfd_ode(stiction_sim *sim, double t, const double *y, const double *fy);
int st_jacfd_dae(stiction_sim *sim, double t, double cj, const double *y, const double *yp,
                 const double *r);
void st_jacfd_to_dense(const stiction_sim *sim, double *J);
void st_jacfd_to_csc(const stiction_sim *sim, const double *J, SUNMatrix A);
int st_klu_ode_jacobian(stiction_sim *sim, double t, N_Vector y, N_Vector fy, SUNMatrix J);
int st_klu_dae_jacobian(stiction_sim *sim, double t, double cj, N_Vector y, N_Vector yp,
                        N_Vector r, SUNMatrix J);

/* output.c */
int st_output_begin(stiction_sim *sim);
int st_output_row(stiction_sim *sim, double t);
/* The row at t computed into row_left, not sent yet; st_output_left sends it. */
int st_output_hold_left(stiction_sim *sim, double t);
int st_output_left(stiction_sim *sim);

/* event_iteration.c */
/* The initial event iteration at t0, creation of the integrator and the t0 row(s). */
int st_event_initial(stiction_sim *sim, double t, int *terminate);
/* A state or time event at t: left row, event iteration, restart if needed, right row,
 * listener. Sets *terminate when the model asked to stop. */
int st_event_handle(stiction_sim *sim, double t, stiction_event_kind kind, int *terminate);
/* True when a time event at te falls on the state event found at t (te - t within the root
 * finder's resolution): the two are handled as one event at te (doc/events.md). */
int st_event_coincides(double t, double te);

/* The model's inputs were changed at t between two steps (stiction_sim_inputs_changed): an
 * event iteration with the new values and a restart of the integrator. */
int st_event_inputs(stiction_sim *sim, double t, int *terminate);

/* The terminal pass at the end of a successful run (model.h: terminal). */
int st_event_terminal(stiction_sim *sim, double t);

/* sampling.c (doc/events.md, "Frozen modes") */
/* Root finding over [a, b] inside the integrator's last step: the indicators at b (from yb,
 * the state there, when given, else interpolated) against those at a, and at samples no
 * further apart than sample_step in between. Returns 1 with *tc and smp_found at the first
 * sign change, located to the integrator's time resolution; 0 when none; negative on
 * failure. */
int st_sample_step(stiction_sim *sim, double a, double b, const double *yb, double *tc);
/* After an event or a restart: values kept from before it are stale. */
void st_sample_forget(stiction_sim *sim);

/* progress.c */
void st_progress_update(stiction_sim *sim, double t);
void st_progress_finish(stiction_sim *sim);

/* SUNDIALS 6.4's N_VClone dereferences a failed clone: before an integrator allocates its
 * vectors, room for them is tried once (malloc and free), so that running out of memory is
 * "out of memory while starting CVODE" (STICTION_ERR_NOMEM) rather than a crash. A probe,
 * not a guarantee; it covers the usual case, the vectors being the largest allocation. */
int st_reserve_vectors(stiction_sim *sim, const char *integrator);

#endif
