/* `stiction demo NAME`: simulates a built-in demo model (stiction/demos.h) and writes the
 * result file, optionally the event log and the run statistics. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/demos.h>
#include <stiction/results.h>
#include <stiction/stiction.h>

#include "cli/commands.h"
#include "cli/sim_common.h"

enum { EXIT_RUN = 1, EXIT_USAGE = 2 };
enum { MAX_PARAMS = 64 };

typedef struct demo_args {
  const char *name;
  const char *output;       /* NULL: NAME_res.mat; "-": CSV on standard output */
  const char *events;       /* event log CSV, or NULL */
  int stats, list, list_params;
  int have_stop, have_tol, have_interval, have_solver;
  double stop_time, rtol, interval;
  stiction_solver solver;
  const char *params[MAX_PARAMS]; /* "name=value" */
  int n_params;
} demo_args;

static void usage(FILE *out) {
  fputs("Usage: stiction demo NAME [OPTION]...\n"
        "       stiction demo --list\n"
        "Simulate the built-in demo model NAME and write its result file.\n\n"
        "  -o, --output FILE      result file: FILE.mat (MAT v4, Dymola/OpenModelica dsres\n"
        "                         layout) or FILE.csv; '-' writes CSV to standard output.\n"
        "                         Default: NAME_res.mat in the current directory, as\n"
        "                         OpenModelica names its results\n"
        "  -p, --param NAME=VALUE set a model parameter (repeatable)\n"
        "      --stop-time T      stop time in s (default: the demo's experiment)\n"
        "      --tolerance R      relative tolerance (default 1e-6)\n"
        "      --interval DT      output interval in s (also bounds the step size)\n"
        "      --solver S         cvode (BDF, default), cvode-adams or ida\n"
        "      --events FILE      write the event log as CSV: time, kind, indicators,\n"
        "                         iterations, changed discrete variables\n"
        "      --stats            print the run statistics\n"
        "      --list             list the demos and exit\n"
        "      --list-params      list NAME's parameters with their values and exit\n"
        "  -h, --help             display this help and exit\n\n"
        "Demos:\n", out);
  for (int i = 0; i < stiction_demo_count(); i++)
    fprintf(out, "  %-18s %s\n", stiction_demo_name(i), stiction_demo_description(i));
  fputs("\nEvery event gives two result rows with the same time (left and right limit).\n"
        "Exit status: 0 success, 1 the simulation failed (the rows computed before the\n"
        "failure are kept in the result file; none: no file) or a file could not be\n"
        "written, 2 bad usage\n"
        "(unknown demo, option or parameter, bad value).\n", out);
}

static int bad_usage(const char *fmt, const char *arg) {
  fputs("stiction demo: ", stderr);
  fprintf(stderr, fmt, arg ? arg : "");
  fputs("\nTry 'stiction demo --help'.\n", stderr);
  return EXIT_USAGE;
}

/* Parses a numeric option value; positive values only when `positive`. */
static int number_option(const char *opt, const char *text, int positive, double *out) {
  if (st_cli_number(text, out) || (positive && *out <= 0.0)) {
    fprintf(stderr, "stiction demo: %s: invalid value '%s' (expected a %snumber)\n", opt, text,
            positive ? "positive " : "finite ");
    return -1;
  }
  return 0;
}

enum { OPT_STOP = 256, OPT_TOL, OPT_INTERVAL, OPT_SOLVER, OPT_EVENTS, OPT_STATS, OPT_LIST,
       OPT_LIST_PARAMS };

static int parse_option(demo_args *a, int c, const char *arg) {
  switch (c) {
  case 'o': a->output = arg; return 0;
  case 'p':
    if (a->n_params == MAX_PARAMS) return bad_usage("too many -p options", NULL);
    a->params[a->n_params++] = arg;
    return 0;
  case OPT_STOP: a->have_stop = 1; return number_option("--stop-time", arg, 0, &a->stop_time) ? EXIT_USAGE : 0;
  case OPT_TOL: a->have_tol = 1; return number_option("--tolerance", arg, 1, &a->rtol) ? EXIT_USAGE : 0;
  case OPT_INTERVAL:
    a->have_interval = 1;
    return number_option("--interval", arg, 1, &a->interval) ? EXIT_USAGE : 0;
  case OPT_SOLVER:
    a->have_solver = 1;
    if (st_cli_solver(arg, &a->solver))
      return bad_usage("--solver: unknown solver '%s' (cvode, cvode-adams, ida)", arg);
    return 0;
  case OPT_EVENTS: a->events = arg; return 0;
  case OPT_STATS: a->stats = 1; return 0;
  case OPT_LIST: a->list = 1; return 0;
  case OPT_LIST_PARAMS: a->list_params = 1; return 0;
  }
  return EXIT_USAGE;
}

/* Returns 0, EXIT_USAGE, or -1 for --help (already printed). */
static int parse_args(int argc, char **argv, demo_args *a) {
  static const struct option longs[] = {
      {"output", required_argument, NULL, 'o'},    {"param", required_argument, NULL, 'p'},
      {"stop-time", required_argument, NULL, OPT_STOP},
      {"tolerance", required_argument, NULL, OPT_TOL},
      {"interval", required_argument, NULL, OPT_INTERVAL},
      {"solver", required_argument, NULL, OPT_SOLVER},
      {"events", required_argument, NULL, OPT_EVENTS},
      {"stats", no_argument, NULL, OPT_STATS},
      {"list", no_argument, NULL, OPT_LIST},
      {"list-params", no_argument, NULL, OPT_LIST_PARAMS},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0}};
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, ":o:p:h", longs, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return -1;
    }
    if (c == ':') return bad_usage("option '%s' needs an argument", argv[optind - 1]);
    if (c == '?') return bad_usage("unrecognized option '%s'", argv[optind - 1]);
    int rc = parse_option(a, c, optarg);
    if (rc) return rc;
  }
  if (a->list) return 0;
  if (optind >= argc) return bad_usage("missing demo NAME", NULL);
  if (argc - optind > 1) return bad_usage("unexpected argument '%s'", argv[optind + 1]);
  a->name = argv[optind];
  return 0;
}

static int list_demos(void) {
  for (int i = 0; i < stiction_demo_count(); i++)
    printf("%-18s %s\n", stiction_demo_name(i), stiction_demo_description(i));
  return 0;
}

static int list_params(const stiction_demo *demo) {
  for (int i = 0; i < stiction_demo_param_count(demo); i++) {
    double v = 0.0;
    stiction_demo_get(demo, stiction_demo_param_name(demo, i), &v);
    printf("%-8s %-12.10g %s\n", stiction_demo_param_name(demo, i), v,
           stiction_demo_param_description(demo, i));
  }
  return 0;
}

static int unknown_demo(const char *name) {
  fprintf(stderr, "stiction demo: unknown demo '%s' (known:", name);
  for (int i = 0; i < stiction_demo_count(); i++)
    fprintf(stderr, "%s %s", i ? "," : "", stiction_demo_name(i));
  fputs(")\n", stderr);
  return EXIT_USAGE;
}

/* Applies the -p NAME=VALUE assignments. */
static int apply_params(stiction_demo *demo, const demo_args *a) {
  for (int i = 0; i < a->n_params; i++) {
    char name[128], msg[256];
    const char *eq = strchr(a->params[i], '=');
    size_t len = eq ? (size_t)(eq - a->params[i]) : 0;
    if (!eq || len == 0 || len >= sizeof name)
      return bad_usage("-p '%s': expected NAME=VALUE", a->params[i]);
    memcpy(name, a->params[i], len);
    name[len] = 0;
    double v;
    if (st_cli_number(eq + 1, &v)) {
      fprintf(stderr, "stiction demo: -p %s: invalid value '%s' (expected a finite number)\n",
              name, eq + 1);
      return EXIT_USAGE;
    }
    int rc = stiction_demo_set(demo, name, v, msg, sizeof msg);
    if (rc == STICTION_ERR_NOT_FOUND) {
      fprintf(stderr, "stiction demo: %s (see 'stiction demo %s --list-params')\n", msg, a->name);
      return EXIT_USAGE;
    }
    if (rc) {
      fprintf(stderr, "stiction demo: %s\n", msg);
      return EXIT_USAGE;
    }
  }
  return 0;
}

/* ---- the run ------------------------------------------------------------------------------ */

static void set_options(const stiction_demo *demo, const demo_args *a, stiction_options *opt) {
  stiction_options_init(opt);
  stiction_demo_options(demo, opt);
  if (a->have_stop) opt->stop_time = a->stop_time;
  if (a->have_tol) opt->rtol = a->rtol;
  if (a->have_interval) opt->interval = a->interval;
  if (a->have_solver) opt->solver = a->solver;
  opt->progress = 1;
}

static int open_outputs(const demo_args *a, const char *path, const stiction_model *model,
                        stiction_writer **w, st_event_log *log) {
  const char *file = strcmp(path, "-") ? path : "/dev/stdout";
  if (stiction_writer_open(w, file, strcmp(path, "-") ? STICTION_FORMAT_AUTO : STICTION_FORMAT_CSV)) {
    fprintf(stderr, "stiction demo: %s: %s\n", path, strerror(errno));
    return EXIT_RUN;
  }
  stiction_writer_set_flush_interval(*w, ST_CLI_FLUSH_INTERVAL);
  if (a->events && st_event_log_open(log, a->events, model)) {
    fprintf(stderr, "stiction demo: %s: %s\n", a->events, strerror(errno));
    stiction_writer_close(*w);
    *w = NULL;
    return EXIT_RUN;
  }
  return 0;
}

/* Closes the files; returns EXIT_RUN if one of them could not be completed. */
static int close_outputs(const demo_args *a, const char *path, stiction_writer *w, st_event_log *log) {
  int status = 0;
  if (stiction_writer_close(w)) {
    fprintf(stderr, "stiction demo: %s: write error\n", path);
    status = EXIT_RUN;
  }
  if (st_event_log_close(log)) {
    fprintf(stderr, "stiction demo: %s: write error\n", a->events);
    status = EXIT_RUN;
  }
  return status;
}

static int simulate(stiction_demo *demo, const demo_args *a, const char *path) {
  stiction_options opt;
  set_options(demo, a, &opt);
  stiction_writer *w = NULL;
  st_event_log log = {NULL, NULL, 0};
  int status = open_outputs(a, path, stiction_demo_model(demo), &w, &log);
  if (status) return status;
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(demo), stiction_demo_data(demo), &opt);
  if (!sim) {
    fprintf(stderr, "stiction demo: out of memory\n");
    close_outputs(a, path, w, &log);
    return EXIT_RUN;
  }
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  stiction_sim_set_sink(sim, &sink);
  if (log.file) stiction_sim_set_event_listener(sim, st_event_log_write, &log);
  int rc = stiction_sim_run(sim);
  st_cli_report_run("stiction demo", a->name, sim, rc, path, opt.start_time, a->stats);
  status = close_outputs(a, path, w, &log);
  st_cli_discard_empty(path, rc, sim);
  stiction_sim_free(sim);
  return rc ? EXIT_RUN : status;
}

int st_cmd_demo(int argc, char **argv) {
  demo_args a = {0};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc < 0 ? 0 : rc;
  if (a.list) return list_demos();
  stiction_demo *demo;
  if (stiction_demo_new(&demo, a.name)) return unknown_demo(a.name);
  rc = apply_params(demo, &a);
  char path[4096];
  if (!rc && a.list_params) rc = list_params(demo) ? EXIT_RUN : -1;
  if (!rc) {
    snprintf(path, sizeof path, "%s_res.mat", a.name);
    rc = simulate(demo, &a, a.output ? a.output : path);
  }
  stiction_demo_free(demo);
  return rc < 0 ? 0 : rc;
}
