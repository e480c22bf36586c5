/*
 * Modelica models from C: load libraries and files, compile a class to a program, run
 * instances of it to the end or step them with inputs.
 *
 *   stiction_modelica *mo = stiction_modelica_new();
 *   stiction_modelica_add_library_path(mo, "models");      // directories of packages
 *   stiction_program *prog;
 *   if (stiction_modelica_compile(mo, "Modelica.Mechanics.Rotational.Examples.CoupledClutches",
 *                                 NULL, 0, &prog))
 *     ... stiction_modelica_diagnostic(mo, i, &d) for each of stiction_modelica_n_diagnostics(mo)
 *   stiction_instance *in = stiction_instance_new(prog);
 *   stiction_instance_set_by_name(in, "J1.J", 2);              // parameter, before the run
 *   stiction_options opt;
 *   stiction_program_options(prog, &opt);                     // the experiment annotation
 *   stiction_instance_run(in, &opt, &sink);                   // or start / advance / finish
 *   stiction_instance_free(in);
 *   stiction_program_free(prog);
 *   stiction_modelica_free(mo);
 *
 * Ownership and lifetimes: whoever calls a _new or _compile function owns the result and
 * frees it with the matching _free. A program borrows its stiction_modelica (names, source
 * locations): free programs first. An instance borrows its program: free instances first.
 * Strings returned are owned by the handle they come from and live as long as it.
 *
 * Threads: a stiction_modelica and its compile calls belong to one thread at a time. A
 * compiled program is immutable: any number of instances of it may be created and run at
 * the same time from different threads, each with its own parameters, inputs and results
 * (an instance itself is used by one thread at a time).
 *
 * Structs passed to be filled (stiction_diagnostic, stiction_variable) start with a `size`
 * the caller sets to sizeof(the struct) it was compiled with; fields added in later versions
 * go at the end and are left alone when the caller's struct is shorter.
 *
 * Status: functions return STICTION_OK (0) or a negative stiction_status (stiction.h);
 * functions returning an index return it (>= 0) or a negative status.
 */
#ifndef STICTION_MODELICA_H
#define STICTION_MODELICA_H

#include <stddef.h>
#include <stiction/simulate.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct stiction_modelica stiction_modelica;
typedef struct stiction_program stiction_program;
typedef struct stiction_instance stiction_instance;

/* ------------------------------------------------------------------ loading and compiling */

/* An empty workspace with no library path. NULL only when out of memory. */
stiction_modelica *stiction_modelica_new(void);
void stiction_modelica_free(stiction_modelica *mo); /* safe on NULL */

/* Adds a directory holding top-level packages (each `Name/package.mo` or `Name.mo`),
 * searched in the order added; packages load lazily when a name first needs them. */
int stiction_modelica_add_library_path(stiction_modelica *mo, const char *dir);
/* Adds the directories of MODELICAPATH, then stiction's own models/ (installed). */
int stiction_modelica_add_default_paths(stiction_modelica *mo);
/* Parses a .mo file (or a package directory) and adds its classes. STICTION_ERR_SYNTAX when
 * it cannot be read or is not well formed: the messages are in the diagnostics. */
int stiction_modelica_load_file(stiction_modelica *mo, const char *path);

/* The class a loaded file stands for when no class is named (as `stiction simulate FILE`
 * takes it): the only, else the last, top-level non-package class of the last file loaded,
 * with its full name. NULL when there is none. Owned by mo. */
const char *stiction_modelica_default_class(const stiction_modelica *mo);

/* Flattens and compiles class_name (a full name, "Modelica.Mechanics.Rotational.Examples.
 * CoupledClutches", or one of a loaded file) modified by modifiers[0 .. n_modifiers): each
 * the text of one argument of a modification of the class ("J1.J = 2", "N = 10"); they act
 * before the structure is built, so parameters that size arrays work too. On success *prog
 * is the program (STICTION_OK); otherwise *prog is NULL and the status is
 * STICTION_ERR_MODEL (errors in the diagnostics) or STICTION_ERR_NOMEM. */
int stiction_modelica_compile(stiction_modelica *mo, const char *class_name,
                              const char *const *modifiers, int n_modifiers,
                              stiction_program **prog);

/* ------------------------------------------------------------------ diagnostics */

typedef enum stiction_severity {
  STICTION_NOTE = 0,
  STICTION_WARNING = 1,
  STICTION_ERROR = 2
} stiction_severity;

/* One message, located in the Modelica text when it can be (line 0: no location). */
typedef struct stiction_diagnostic {
  size_t size;                 /* set by the caller: sizeof(stiction_diagnostic) */
  stiction_severity severity;
  const char *file;            /* NULL when not located in a file */
  int line, column;            /* from 1 */
  const char *message;         /* without location and severity */
} stiction_diagnostic;

/* The messages of loading and compiling, in the order reported (they accumulate over the
 * workspace's calls). */
int stiction_modelica_n_diagnostics(const stiction_modelica *mo);
int stiction_modelica_diagnostic(const stiction_modelica *mo, int i, stiction_diagnostic *d);

/* ------------------------------------------------------------------ programs */

void stiction_program_free(stiction_program *prog); /* safe on NULL; after its instances */

/* The full name of the class compiled. */
const char *stiction_program_name(const stiction_program *prog);

/* Options with the class's experiment annotation applied (start, stop, interval,
 * tolerance) over stiction_options_init()'s defaults. */
int stiction_program_options(const stiction_program *prog, stiction_options *opt);

typedef enum stiction_causality {
  STICTION_CAUSALITY_LOCAL = 0,
  STICTION_CAUSALITY_PARAMETER = 1,  /* can be set before a run */
  STICTION_CAUSALITY_INPUT = 2,      /* top-level input: set before a run and between steps */
  STICTION_CAUSALITY_OUTPUT = 3,     /* top-level output */
  STICTION_CAUSALITY_CONSTANT = 4    /* constant, or a parameter fixed at translation */
} stiction_causality;

typedef enum stiction_variability {
  STICTION_VARIABILITY_CONSTANT = 0,
  STICTION_VARIABILITY_PARAMETER = 1,
  STICTION_VARIABILITY_DISCRETE = 2,
  STICTION_VARIABILITY_CONTINUOUS = 3
} stiction_variability;

typedef struct stiction_variable {
  size_t size;                 /* set by the caller: sizeof(stiction_variable) */
  const char *name;            /* "J1.w", "der(J1.phi)" */
  const char *description;     /* "" when none */
  const char *unit;            /* "" when none */
  stiction_causality causality;
  stiction_variability variability;
  int is_state;                /* integrated by the solver */
  int is_derivative;           /* der() of a state */
  int is_boolean;              /* Boolean or Integer values are reported as doubles */
} stiction_variable;

/* Variables are numbered 0 .. n - 1 (the declared ones first, then derivatives). */
int stiction_program_n_variables(const stiction_program *prog);
int stiction_program_variable(const stiction_program *prog, int index, stiction_variable *v);
/* The index of the variable called name, or STICTION_ERR_NOT_FOUND. */
int stiction_program_find(const stiction_program *prog, const char *name);

/* ------------------------------------------------------------------ instances */

/* A run of prog with the parameter values of the compiled class. NULL when out of memory. */
stiction_instance *stiction_instance_new(const stiction_program *prog);
void stiction_instance_free(stiction_instance *in); /* safe on NULL */

/* Sets variable `index`: a parameter (before the run: its bindings' dependants follow), the
 * start value of any other variable that has one (before the run), or an input (before the
 * run and between steps). STICTION_ERR_STATE when the variable cannot be set now,
 * STICTION_ERR_ARG when it cannot be set at all (a constant, an eliminated variable). */
int stiction_instance_set(stiction_instance *in, int index, double value);
int stiction_instance_set_by_name(stiction_instance *in, const char *name, double value);
/* The current value of variable `index` (after a step: at the time reached). */
int stiction_instance_get(const stiction_instance *in, int index, double *value);
int stiction_instance_get_by_name(const stiction_instance *in, const char *name, double *value);

/* Events as they happen (the event log); set before the run. fn's user_data is borrowed. */
int stiction_instance_set_event_listener(stiction_instance *in, stiction_event_listener fn,
                                         void *user_data);

/* Runs from opt->start_time to opt->stop_time (NULL opt: stiction_program_options) and hands
 * the rows to sink (NULL: none; see stiction/results.h for writers). An instance runs once. */
int stiction_instance_run(stiction_instance *in, const stiction_options *opt,
                          const stiction_sink *sink);

/* Stepping: start initializes at opt->start_time; advance integrates to t (events inside,
 * inputs set since the last advance take effect at the current time); finish ends the run
 * (terminal pass, sink end). See stiction_sim_start() for the rules. */
int stiction_instance_start(stiction_instance *in, const stiction_options *opt,
                            const stiction_sink *sink);
int stiction_instance_advance(stiction_instance *in, double t);
int stiction_instance_finish(stiction_instance *in);
/* The time reached; 1 when the model terminated or the stop time was reached. */
double stiction_instance_time(const stiction_instance *in);
int stiction_instance_stopped(const stiction_instance *in);

/* The last failure of a run, "" when none (owned by in); statistics of the run (NULL
 * before it). */
const char *stiction_instance_error(const stiction_instance *in);
const stiction_stats *stiction_instance_stats(const stiction_instance *in);
/* Run-time messages (failed asserts, warnings, located errors), as for the workspace. */
int stiction_instance_n_diagnostics(const stiction_instance *in);
int stiction_instance_diagnostic(const stiction_instance *in, int i, stiction_diagnostic *d);

#ifdef __cplusplus
}
#endif

#endif
