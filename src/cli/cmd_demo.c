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
typedef struct demo_args {
  const char *name;
  st_run_args run;          /* shared options (sim_common.h); output NULL: NAME_res.mat,
                               "-": CSV on standard output; params "name=value" */
  int list, list_params;
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
        "      --keep-partial     after a failed run, keep the rows computed before it\n"
        "      --list             list the demos and exit\n"
        "      --list-params      list NAME's parameters with their values and exit\n"
        "  -h, --help             display this help and exit\n\n"
        "Demos:\n", out);
  for (int i = 0; i < stiction_demo_count(); i++)
    fprintf(out, "  %-18s %s\n", stiction_demo_name(i), stiction_demo_description(i));
  fputs("\nEvery event gives two result rows with the same time (left and right limit).\n"
        "The result is written beside FILE and replaces it only when complete; after a\n"
        "failed run the previous file stays unless --keep-partial asks for the rows\n"
        "computed before the failure.\n"
        "Exit status: 0 success, 1 the simulation failed or a file could not be written,\n"
        "2 bad usage (unknown demo, option or parameter, bad value).\n", out);
}

static int bad_usage(const char *fmt, const char *arg) {
  return st_cli_bad_usage("stiction demo", fmt, arg);
}

enum { OPT_LIST = 256, OPT_LIST_PARAMS };

/* The options of demo alone (the run options are parsed by st_cli_parse). */
static int parse_option(void *ctx, int c, const char *arg) {
  demo_args *a = ctx;
  (void)arg;
  switch (c) {
  case OPT_LIST: a->list = 1; return 0;
  case OPT_LIST_PARAMS: a->list_params = 1; return 0;
  }
  return EXIT_USAGE;
}

/* Returns 0, EXIT_USAGE, or -1 for --help (already printed). */
static int parse_args(int argc, char **argv, demo_args *a) {
  static const struct option longs[] = {{"list", no_argument, NULL, OPT_LIST},
                                        {"list-params", no_argument, NULL, OPT_LIST_PARAMS},
                                        {NULL, 0, NULL, 0}};
  const st_cli_parser p = {"stiction demo",
                           ST_RUN_OUTPUT | ST_RUN_PARAM | ST_RUN_STOP | ST_RUN_TOL |
                               ST_RUN_INTERVAL | ST_RUN_SOLVER | ST_RUN_EVENTS | ST_RUN_STATS,
                           longs, NULL, parse_option, a, usage};
  int rc = st_cli_parse(&p, argc, argv, &a->run);
  if (rc || a->list) return rc;
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
  for (int i = 0; i < a->run.n_params; i++) {
    char name[128], msg[256];
    const char *eq = strchr(a->run.params[i], '=');
    size_t len = eq ? (size_t)(eq - a->run.params[i]) : 0;
    if (!eq || len == 0 || len >= sizeof name)
      return bad_usage("-p '%s': expected NAME=VALUE", a->run.params[i]);
    memcpy(name, a->run.params[i], len);
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
  st_cli_apply_run(&a->run, opt);
  opt->progress = 1;
}

static int simulate(stiction_demo *demo, const demo_args *a, const char *path) {
  stiction_options opt;
  set_options(demo, a, &opt);
  stiction_writer *w;
  st_event_log log;
  if (st_cli_check_outputs("stiction demo", &a->run, path, NULL, 0) ||
      st_cli_open_outputs("stiction demo", &a->run, path, stiction_demo_model(demo), &w, &log))
    return EXIT_RUN;
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(demo), stiction_demo_data(demo), &opt);
  if (!sim) {
    fprintf(stderr, "stiction demo: out of memory\n");
    st_cli_close_outputs("stiction demo", &a->run, path, w, &log, 1);
    return EXIT_RUN;
  }
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  stiction_sim_set_sink(sim, &sink);
  if (log.out.file) stiction_sim_set_event_listener(sim, st_event_log_write, &log);
  int rc = stiction_sim_run(sim);
  int status = st_cli_close_outputs("stiction demo", &a->run, path, w, &log, rc != 0);
  st_cli_report_run("stiction demo", a->name, sim, rc, path, opt.start_time, &a->run);
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
    rc = simulate(demo, &a, a.run.output ? a.run.output : path);
  }
  stiction_demo_free(demo);
  return rc < 0 ? 0 : rc;
}
