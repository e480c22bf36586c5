/*
 * Simulating a stiction_model: options, result sinks, event records, statistics and the
 * simulation handle.
 *
 *   stiction_options opt;
 *   stiction_options_init(&opt);
 *   opt.stop_time = 10;
 *   stiction_sim *sim = stiction_sim_new(&model, my_data, &opt);
 *   stiction_sim_set_sink(sim, &sink);          // where rows go (see stiction/results.h)
 *   int rc = stiction_sim_run(sim);
 *   if (rc) fprintf(stderr, "%s\n", stiction_sim_error(sim));
 *   stiction_sim_free(sim);
 *
 * Output rows: one at every output-grid point, and two at every event instant (the left
 * limit before the event iteration and the right limit after it, same time), as Dymola does.
 * Rows are handed to the sink as they are produced, so a run that fails keeps everything
 * computed before the failure.
 */
#ifndef STICTION_SIMULATE_H
#define STICTION_SIMULATE_H

#include <stddef.h>
#include <stiction/model.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum stiction_solver {
  STICTION_SOLVER_CVODE_BDF = 0,   /* default: variable-order BDF, Newton, for stiff models */
  STICTION_SOLVER_CVODE_ADAMS = 1, /* Adams-Moulton, Newton; non-stiff models */
  STICTION_SOLVER_IDA = 2          /* DAE form F(t, y, y') = 0 (also runs ODE models) */
} stiction_solver;

typedef enum stiction_linear_solver {
  STICTION_LINSOL_AUTO = 0,        /* dense, KLU above STICTION_KLU_THRESHOLD unknowns */
  STICTION_LINSOL_DENSE = 1,
  STICTION_LINSOL_KLU = 2          /* sparse direct; sparse with the model's df/dy pattern */
} stiction_linear_solver;

#define STICTION_KLU_THRESHOLD 100

/* The most output grid points (stop - start) / interval a run accepts: each is a result row,
 * and 10^7 rows are gigabytes of results already. */
#define STICTION_MAX_OUTPUT_POINTS 10000000

typedef struct stiction_options {
  size_t size;                /* sizeof(stiction_options), set by stiction_options_init():
                                 a struct with another size is refused by the run (fields
                                 are only added at the end, see stiction_model.size) */
  double start_time;          /* default 0 */
  double stop_time;           /* default 1; == start_time: the initialized model's row only */
  double interval;            /* output interval; <= 0: (stop - start) / 500. At most
                                 STICTION_MAX_OUTPUT_POINTS points (rows) on the grid */
  double rtol;                /* relative tolerance, default 1e-6 */
  double atol;                /* absolute tolerance; <= 0: rtol * 1e-2 * nominal */
  double max_step;            /* <= 0: no span longer than (stop - start) / 500 without a
                                 look at the indicators, whatever the output interval (so
                                 frozen modes cannot step over a pair of crossings, see
                                 doc/events.md): CVODE steps freely and samples the
                                 indicators inside longer steps; IDA and a model without
                                 indicators bound the step. > 0: bounds the step;
                                 INFINITY: neither */
  stiction_solver solver;
  stiction_linear_solver linear_solver;
  int max_event_iterations;   /* passes of event_update per event, default 100 */
  int chatter_max_events;     /* more than this many events ... (default 100) */
  double chatter_window;      /* ... within this much model time stops the run (1e-9 s) */
  int record_events;          /* write left/right limit rows at events (default 1) */
  int progress;               /* 1: progress bar on stderr if it is a terminal (default 0) */
  int tick_rows;              /* 1: left/right rows also at a time event that only ticked
                                 clocks (stiction_event_info.ticks_only); default 0: there
                                 only the grid row, if the instant is one (a 1 kHz clock
                                 would otherwise write two rows per millisecond) */
  int tick_restart;           /* 1: restart the integrator at every clock tick that changed
                                 an input of the plant; default 0: CVODE goes on from its
                                 history over a jump of y' small against its error test
                                 (doc/events.md, "Clock ticks") */
} stiction_options;

/* Fills opt with the defaults above, size included. */
void stiction_options_init(stiction_options *opt);

/* Where result rows go. begin() is called once with the column names (names[0] is "time"),
 * row() once per row with ncols values (values[0] is the time), end() once with the final
 * status of the run (also after a failure, so a writer can flush what it has). Any callback
 * may be NULL. Without a row() the model's outputs() is not called at all (the rows are
 * only counted): a non-finite value in a variable that is only recorded then goes unseen.
 * A non-zero return from begin()/row() stops the run with STICTION_ERR_IO. */
typedef struct stiction_sink {
  size_t size;                /* sizeof(stiction_sink): set it (stiction_writer_sink() does) */
  int (*begin)(void *user_data, int ncols, const char *const *names);
  int (*row)(void *user_data, const double *values);
  int (*end)(void *user_data, int status);
  void *user_data;
} stiction_sink;

typedef enum stiction_event_kind {
  STICTION_EVENT_INITIAL = 0,
  STICTION_EVENT_STATE = 1,       /* an indicator changed sign */
  STICTION_EVENT_TIME = 2,        /* a scheduled time event (hit exactly) */
  STICTION_EVENT_STEP = 3         /* the model asked for an event after a step (future) */
} stiction_event_kind;

/* One event, as reported to the event listener (all arrays borrowed for the call). */
typedef struct stiction_event_record {
  double time;
  stiction_event_kind kind;
  int n_fired;                    /* indicators that changed sign (state events) */
  const int *fired;               /* their indices, with direction in fired_direction */
  const int *fired_direction;     /* +1 rising, -1 falling */
  int iterations;                 /* passes of event_update */
  int n_changed;                  /* discrete variables that differ after the event */
  const int *changed;             /* their indices */
  const double *before;           /* discrete values before (length n_discrete, or NULL) */
  const double *after;            /* discrete values after */
  int restarted;                  /* the solver was re-initialized */
  int clock_ticks;                /* clock ticks at this event (stiction_event_info) */
} stiction_event_record;

typedef int (*stiction_event_listener)(void *user_data, const stiction_event_record *event);

/* Run statistics, counters summed over solver restarts. Names follow
 * doc/benchmarks.md section 5 (Dymola/OpenModelica vocabulary). */
typedef struct stiction_stats {
  long steps;                 /* accepted integrator steps */
  long nfe;                   /* right-hand side / residual evaluations */
  long nfe_fd;                /* evaluations spent on difference-quotient Jacobians */
  long njac;                  /* Jacobian evaluations */
  long nge;                   /* indicator (root function) evaluations */
  long state_events;
  long time_events;
  long event_iterations;      /* total passes of event_update over all events */
  long max_event_iterations;  /* most passes at a single event */
  long restarts;              /* solver re-initializations after events */
  long err_test_fails;
  long conv_fails;            /* nonlinear solver convergence failures */
  long rows;                  /* result rows written */
  double h_min, h_max;        /* smallest / largest step actually taken */
  double wall_init;           /* wall-clock seconds: set-up and initial event */
  double wall_integrate;      /* in the integrator between events (total - the others) */
  double wall_events;         /* in event handling */
  double wall_output;         /* computing rows and in the sink */
  double wall_total;
  long clock_ticks;           /* ticks of clocked partitions (at time or state events) */
  long ticks_gone_on;         /* time events of clock ticks that changed held inputs only,
                                 integrated through without a restart (cvode.c goes_on) */
  long event_block_evals;     /* blocks of equations evaluated by the event passes
                                 (stiction_event_info.block_evals) */
  long event_yp_evals;        /* derivatives() evaluated by the event handling (y' after
                                 the passes, after a restart) */
  long event_left_evals;      /* event passes that evaluated the equations at the left
                                 limit themselves (stiction_event_info.left_evals; the
                                 others took the left row's evaluation) */
} stiction_stats;

/* Prints the statistics in a readable table (one "name: value" per line). */
void stiction_stats_print(const stiction_stats *stats, void *file /* FILE* */);

typedef struct stiction_sim stiction_sim;

/* Creates a simulation of `model` with `user_data` passed to its callbacks. The model table
 * and user_data are borrowed and must outlive the handle; opt is copied (NULL = defaults).
 * Returns NULL only when out of memory; a bad model or option makes stiction_sim_run()
 * fail with a message. */
stiction_sim *stiction_sim_new(const stiction_model *model, void *user_data,
                               const stiction_options *opt);
void stiction_sim_free(stiction_sim *sim);

/* The sink and listener are copied; their user_data is borrowed. A sink whose size is
 * not set (or larger than this library's) is refused with STICTION_ERR_ARG. */
int stiction_sim_set_sink(stiction_sim *sim, const stiction_sink *sink);
int stiction_sim_set_event_listener(stiction_sim *sim, stiction_event_listener fn,
                                    void *user_data);

/* Runs from start_time to stop_time (or until the model terminates). Returns STICTION_OK or
 * an error status; in both cases every row produced has been handed to the sink. */
int stiction_sim_run(stiction_sim *sim);

/* Stepping, instead of stiction_sim_run(), for a program that drives the model (inputs,
 * co-simulation):
 *
 *   stiction_sim_start(sim);                   // initialization at start_time
 *   for (k = 1; k <= 1000; k++) {
 *     set the model's inputs (through its user_data), then stiction_sim_inputs_changed(sim);
 *     stiction_sim_advance(sim, k * 1e-3);     // events inside are handled
 *     read the model's outputs and states
 *   }
 *   stiction_sim_finish(sim);                  // terminal pass, the sink's end()
 *
 * Rows go to the sink as in stiction_sim_run (grid points and events passed). A failure ends
 * the run (terminal pass skipped, sink's end() called with the status) and is returned;
 * later stepping calls return STICTION_ERR_STATE. Inputs are held constant between two
 * stiction_sim_advance() calls: every advance ends exactly at its t (a stop time of the
 * integrator).
 * stiction_sim_start: STICTION_OK, or the status of a failure (then the run has ended). */
int stiction_sim_start(stiction_sim *sim);
/* Integrates to t (the current time <= t <= stop_time), then calls the model's outputs() at
 * t, so that the model's own values (its user_data) are those at t. After the model
 * terminated (Modelica terminate(); stiction_sim_terminated() says so) it does nothing and
 * returns STICTION_OK. */
int stiction_sim_advance(stiction_sim *sim, double t);
/* The model's inputs were changed since the last advance: an event at the current time with
 * the new values (its discrete equations and relations see them) and a restart of the
 * integrator (the right-hand side jumped). */
int stiction_sim_inputs_changed(stiction_sim *sim);
/* Ends a stepped run: the terminal pass (Modelica terminal()) and the sink's end(). */
int stiction_sim_finish(stiction_sim *sim);
/* 1 when stepping cannot go further: the run ended, the model terminated or stop_time was
 * reached. */
int stiction_sim_stopped(const stiction_sim *sim);

/* A one-line description of the last failure ("" when none); owned by sim. */
const char *stiction_sim_error(const stiction_sim *sim);
/* The model time reached (where it stopped, after a failure). */
double stiction_sim_time(const stiction_sim *sim);
/* When the model ended the run (Modelica terminate()): its message ("" when it gave none),
 * owned by sim; NULL when the run ended otherwise. */
const char *stiction_sim_terminated(const stiction_sim *sim);
const stiction_stats *stiction_sim_stats(const stiction_sim *sim);

#ifdef __cplusplus
}
#endif

#endif
