/* `stiction simulate MODEL.mo [Class] | Class`: flattens a Modelica class, compiles it to a
 * stiction_model and simulates it, writing a CSV or MAT result file. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <stiction/results.h>
#include <stiction/stiction.h>

#include "cli/commands.h"
#include "cli/sim_common.h"
#include "compile/compile.h"
#include "front/front.h"
#include "runtime/runtime.h" /* st_wall_now */
#include "compile/extcall.h"

enum { EXIT_RUN = 1, EXIT_USAGE = 2 };
enum { MAX_LIST = 128 };

/* Wall and CPU time of the translation phases, printed by --stats before the run's
 * statistics (CPU time too because a shared machine stretches the wall time). */
typedef struct phase_times {
  double start, flattened, compiled;
  double cpu_start, cpu_flattened, cpu_compiled;
} phase_times;

static double cpu_now(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_phases(const phase_times *pt, FILE *out) {
  fprintf(out, "wall time load + flatten [s]: %.6f\n", pt->flattened - pt->start);
  fprintf(out, "wall time compile [s]: %.6f\n", pt->compiled - pt->flattened);
  fprintf(out, "cpu time load + flatten [s]: %.6f\n", pt->cpu_flattened - pt->cpu_start);
  fprintf(out, "cpu time compile [s]: %.6f\n", pt->cpu_compiled - pt->cpu_flattened);
}

typedef struct sim_args {
  const char *file, *class_name;
  st_run_args run; /* the options shared with demo (sim_common.h) */
  int dump;
  int tick_rows;
  int tick_restart;
  const char *vars[MAX_LIST];
  int n_vars;
  phase_times times;
} sim_args;

static void usage(FILE *out) {
  fputs("Usage: stiction simulate MODEL.mo [CLASS] [OPTION]...\n"
        "       stiction simulate CLASS [OPTION]...\n"
        "Flatten, compile and simulate a Modelica class; write its result file.\n\n"
        "  -o, --output FILE      FILE.mat (MAT v4, dsres layout) or FILE.csv; '-' writes CSV\n"
        "                         to standard output (default: CLASS_res.mat)\n"
        "      --start-time T     start time (default: experiment annotation, else 0)\n"
        "      --stop-time T      stop time (default: experiment annotation, else 1)\n"
        "      --interval DT      output interval (default: experiment, else 1/500 of the run)\n"
        "      --tolerance R      relative tolerance (default: experiment, else 1e-6)\n"
        "      --max-step H       largest integrator step, or 'inf' (default: CVODE steps\n"
        "                         freely and samples the event indicators 1/500 of the\n"
        "                         run apart inside longer steps; IDA: 1/500 of the run)\n"
        "      --solver S         cvode (BDF, default), cvode-adams or ida\n"
        "  -p, --param NAME=VALUE set a parameter (number, true, false; also one that sizes\n"
        "                         arrays; repeatable)\n"
        "      --vars PATTERN     record only variables matching the glob (repeatable)\n"
        "      --events FILE      write the event log as CSV\n"
        "      --stats            print the run statistics and the translation's wall and\n"
        "                         CPU time\n"
        "      --tick-rows        also write the left and right rows at a time event that\n"
        "                         only ticked clocks (default: the grid rows only there)\n"
        "      --tick-restart     restart the integrator at every clock tick that changed a\n"
        "                         held input (default: CVODE goes on from its history over\n"
        "                         a jump of the derivatives small against its error test)\n"
        "      --dump             print the translation log (states, BLT blocks, mixed\n"
        "                         systems, relations) before simulating\n"
        "      --keep-partial     after a failed run, keep the rows computed before the\n"
        "                         failure as the result (default: the previous result file,\n"
        "                         if any, is left as it was)\n"
        "  -L DIR                 add a library directory (repeatable)\n"
        "  -h, --help             display this help and exit\n\n"
        "The result is written beside FILE and replaces it only when complete. -o and\n"
        "--events may not name an input file.\n"
        "Exit status: 0 success, 1 the model has errors or the simulation failed, 2 bad\n"
        "usage.\n", out);
}

static int bad_usage(const char *fmt, const char *arg) {
  return st_cli_bad_usage("stiction simulate", fmt, arg);
}

enum { OPT_VARS = 256, OPT_DUMP, OPT_TICK_ROWS, OPT_TICK_RESTART };

/* The options of simulate alone (the run options are parsed by st_cli_parse). */
static int parse_option(void *ctx, int c, const char *arg) {
  sim_args *a = ctx;
  switch (c) {
  case OPT_VARS:
    if (a->n_vars == MAX_LIST) return bad_usage("too many repeated options", NULL);
    a->vars[a->n_vars++] = arg;
    return 0;
  case OPT_DUMP: a->dump = 1; return 0;
  case OPT_TICK_ROWS: a->tick_rows = 1; return 0;
  case OPT_TICK_RESTART: a->tick_restart = 1; return 0;
  }
  return EXIT_USAGE;
}

int st_cli_is_model_file(const char *arg) {
  struct stat st;
  size_t n = strlen(arg);
  return (n > 3 && strcmp(arg + n - 3, ".mo") == 0) || stat(arg, &st) == 0;
}

int st_cli_model_positionals(const char *cmd, int argc, char **argv, const char **file,
                             const char **class_name) {
  int n = argc - optind;
  if (n < 1) return st_cli_bad_usage(cmd, "missing MODEL.mo or CLASS", NULL);
  if (n > 2) return st_cli_bad_usage(cmd, "unexpected argument '%s'", argv[optind + 2]);
  if (st_cli_is_model_file(argv[optind])) {
    *file = argv[optind];
    *class_name = n == 2 ? argv[optind + 1] : NULL;
  } else {
    if (n == 2) return st_cli_bad_usage(cmd, "'%s' is not a file", argv[optind]);
    *class_name = argv[optind];
  }
  return 0;
}

/* Returns 0, EXIT_USAGE, or -1 for --help. */
static int parse_args(int argc, char **argv, sim_args *a) {
  static const struct option longs[] = {{"vars", required_argument, NULL, OPT_VARS},
                                        {"dump", no_argument, NULL, OPT_DUMP},
                                        {"tick-rows", no_argument, NULL, OPT_TICK_ROWS},
                                        {"tick-restart", no_argument, NULL, OPT_TICK_RESTART},
                                        {NULL, 0, NULL, 0}};
  const st_cli_parser p = {"stiction simulate",
                           ST_RUN_OUTPUT | ST_RUN_PARAM | ST_RUN_LIB | ST_RUN_START |
                               ST_RUN_STOP | ST_RUN_TOL | ST_RUN_INTERVAL | ST_RUN_SOLVER |
                               ST_RUN_EVENTS | ST_RUN_STATS | ST_RUN_MAX_STEP,
                           longs, NULL, parse_option, a, usage};
  int rc = st_cli_parse(&p, argc, argv, &a->run);
  return rc ? rc : st_cli_model_positionals(p.cmd, argc, argv, &a->file, &a->class_name);
}

static st_flat_model *flatten(const sim_args *a, st_front *fe) {
  /* -L directories come first: a library given on the command line overrides stiction's own
   * (the order `stiction flatten` and the MODELICAPATH convention use). */
  for (int i = 0; i < a->run.n_libs; i++) st_front_add_library_path(fe, a->run.libs[i]);
  st_front_add_default_paths(fe);
  if (a->file && st_front_load_file(fe, a->file)) return NULL;
  const char *cls = a->class_name ? a->class_name : st_front_default_class(fe);
  if (!cls) {
    fprintf(stderr, "stiction simulate: %s: no class to simulate\n", a->file);
    return NULL;
  }
  /* -p values go in as a modification of the model, so that parameters which fix the
   * structure (array sizes, for ranges, if-equations) take effect; apply_params then checks
   * each one names a settable parameter. */
  return st_front_flatten_modified(fe, cls, a->run.params, a->run.n_params, "-p");
}

/* Booleans are parameters too: `-p useSupport=true`. */
static int param_value(const char *text, double *v) {
  if (!strcmp(text, "true") || !strcmp(text, "false")) {
    *v = text[0] == 't';
    return 0;
  }
  return st_cli_number(text, v);
}

/* -p NAME=VALUE into name and *v; a usage error naming the parameter. The value is checked
 * here, before it becomes Modelica text: nan and inf are no Modelica literals, and a
 * parameter that is not a number is no result anyone wants (doc/compiler.md). */
static int split_param(const char *text, char name[256], double *v) {
  const char *eq = strchr(text, '=');
  size_t len = eq ? (size_t)(eq - text) : 0;
  if (!eq || len == 0 || len >= 256)
    return bad_usage("-p '%s': expected NAME=VALUE with a finite number, true or false", text);
  memcpy(name, text, len);
  name[len] = 0;
  if (param_value(eq + 1, v))
    return bad_usage("-p '%s': the value of a parameter must be a finite number, true or "
                     "false", text);
  return 0;
}

static int check_param_values(const sim_args *a) {
  char name[256];
  double v;
  for (int i = 0; i < a->run.n_params; i++) {
    int rc = split_param(a->run.params[i], name, &v);
    if (rc) return rc;
  }
  return 0;
}

static int apply_params(const sim_args *a, st_compiled *cm) {
  for (int i = 0; i < a->run.n_params; i++) {
    char name[256];
    double v;
    int rc = split_param(a->run.params[i], name, &v);
    if (rc) return rc;
    if (st_compiled_set_parameter(cm, name, v)) return EXIT_USAGE;
  }
  return 0;
}

static void set_options(const sim_args *a, const st_experiment *ex, stiction_options *opt) {
  stiction_options_init(opt);
  if (ex->has_start) opt->start_time = ex->start_time;
  if (ex->has_stop) opt->stop_time = ex->stop_time;
  if (ex->has_interval) opt->interval = ex->interval;
  if (ex->has_tolerance) opt->rtol = ex->tolerance;
  st_cli_apply_run(&a->run, opt);
  opt->tick_rows = a->tick_rows;
  opt->tick_restart = a->tick_restart;
}

/* The model file and every library file the front end read: none may be the result. */
static int check_outputs(const sim_args *a, const st_diag *diag, const char *path) {
  int n = st_diag_source_count(diag);
  const char **inputs = malloc((size_t)(n + 1) * sizeof *inputs);
  if (!inputs) return EXIT_RUN;
  inputs[0] = a->file;
  for (int i = 0; i < n; i++) inputs[i + 1] = st_diag_source_file(diag, i);
  int rc = st_cli_check_outputs("stiction simulate", &a->run, path, inputs, n + 1);
  free(inputs);
  return rc;
}

static int run(const sim_args *a, st_compiled *cm, const st_flat_model *flat, const char *path) {
  stiction_options opt;
  set_options(a, &flat->experiment, &opt);
  /* IDA integrates the true DAE (algebraic loops as unknowns); CVODE the ODE form */
  st_compiled_set_dae(cm, opt.solver == STICTION_SOLVER_IDA);
  const stiction_model *model = st_compiled_model(cm);
  stiction_writer *w;
  st_event_log log;
  if (st_cli_open_outputs("stiction simulate", &a->run, path, model, &w, &log)) return EXIT_RUN;
  stiction_sim *sim = stiction_sim_new(model, st_compiled_data(cm), &opt);
  int rc = STICTION_ERR_NOMEM;
  if (sim) {
    stiction_sink sink;
    stiction_writer_sink(w, &sink);
    stiction_sim_set_sink(sim, &sink);
    if (log.out.file) stiction_sim_set_event_listener(sim, st_event_log_write, &log);
    rc = stiction_sim_run(sim);
    if (a->run.stats) print_phases(&a->times, strcmp(path, "-") ? stdout : stderr);
  } else {
    fprintf(stderr, "stiction simulate: out of memory\n");
  }
  int status = st_cli_close_outputs("stiction simulate", &a->run, path, w, &log, rc != 0);
  if (sim)
    st_cli_report_run("stiction simulate", flat->name, sim, rc, path, opt.start_time, &a->run);
  stiction_sim_free(sim);
  return rc ? EXIT_RUN : status;
}

/* Does flat variable `var` belong to `name` (itself, an element x[i] or a field r.f)? */
static int names_variable(const char *name, size_t len, const char *var) {
  return !strncmp(var, name, len) && (!var[len] || var[len] == '[' || var[len] == '.');
}

/* A -p on a variable would have become a binding equation of the flat model: refuse it
 * before compiling, with the message the user needs rather than "over-determined". */
static int check_param_names(const sim_args *a, const st_flat_model *flat) {
  for (int i = 0; i < a->run.n_params; i++) {
    const char *p = a->run.params[i], *eq = strchr(p, '=');
    size_t len = eq ? (size_t)(eq - p) : strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1])) len--;
    int found = 0;
    for (int k = 0; k < flat->nvars; k++) {
      const st_fvar *v = &flat->vars[k];
      if (!names_variable(p, len, v->name)) continue;
      found = 1;
      if (v->variability != ST_V_PARAMETER)
        return bad_usage("-p '%s': not a parameter that can be set", p);
    }
    if (!found) return bad_usage("-p '%s': the model has no such parameter", p);
  }
  return 0;
}

static int compile_and_run(sim_args *a, st_flat_model *flat, st_diag *diag) {
  int bad = check_param_names(a, flat);
  if (bad) return bad;
  st_compiled *cm = st_compile(flat, diag);
  a->times.compiled = st_wall_now();
  a->times.cpu_compiled = cpu_now();
  if (!cm) return EXIT_RUN;
  int rc = apply_params(a, cm);
  if (!rc && a->n_vars && st_compiled_select_outputs(cm, a->vars, a->n_vars) == 0)
    fprintf(stderr, "stiction simulate: warning: no variable matches --vars\n");
  if (!rc && a->dump) st_compiled_dump(cm, stdout);
  if (!rc) {
    char path[4096];
    const char *base = strrchr(flat->name, '.');
    snprintf(path, sizeof path, "%s_res.mat", base ? base + 1 : flat->name);
    const char *out = a->run.output ? a->run.output : path;
    rc = check_outputs(a, diag, out);
    if (!rc) rc = run(a, cm, flat, out);
  }
  st_compiled_free(cm);
  return rc;
}

int st_cmd_simulate(int argc, char **argv) {
  sim_args a = {0};
  int rc = parse_args(argc, argv, &a);
  if (!rc) rc = check_param_values(&a);
  if (rc) return rc < 0 ? 0 : rc;
  st_diag *diag = st_diag_new(stderr);
  st_front *fe = diag ? st_front_new(diag) : NULL;
  if (fe) st_front_set_externals(fe, st_extcall_front_externals());
  if (!fe) {
    fprintf(stderr, "stiction simulate: out of memory\n");
    st_diag_free(diag);
    return EXIT_RUN;
  }
  a.times.start = st_wall_now();
  a.times.cpu_start = cpu_now();
  st_flat_model *flat = flatten(&a, fe);
  a.times.flattened = st_wall_now();
  a.times.cpu_flattened = cpu_now();
  rc = flat ? compile_and_run(&a, flat, diag) : EXIT_RUN;
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(diag);
  return rc;
}
