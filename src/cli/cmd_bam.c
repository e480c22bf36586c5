/* `stiction bam`: BAM reference simulator on BAM logs (doc/bam.md §1, §4, §6).
 *   stiction bam rollout --params FILE.json --log FILE.json [-o out.csv]
 *   stiction bam mae --params DIR|FILE... --logdir DIR [--json OUT]
 *   stiction bam fit ... (cmd_bam_fit.c) */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/bam.h>
#include <stiction/stiction.h>

#include "cli/commands.h"
#include "bam/bam_eval.h"
#include "util/outfile.h"

static void usage(FILE *out) {
  fputs("Usage: stiction bam rollout --params FILE.json --log FILE.json [-o OUT.csv]\n"
        "       stiction bam mae --params DIR|FILE... --logdir DIR [--json OUT]\n"
        "       stiction bam fit --model mN --actuator A --logdir DIR -o OUT.json [...]\n"
        "Reproduce the BAM (Better Actuator Models) reference simulator on its logs.\n\n"
        "  rollout      closed-loop rollout of one log; writes the per-step trace as CSV\n"
        "               (stdout unless -o) and prints the MAE on stderr\n"
        "  mae          per-log MAE of every parameter file on every log in DIR; prints\n"
        "               mean and population std (mrad) per parameter set\n"
        "  fit          identify a model's parameters (see 'stiction bam fit --help')\n\n"
        "  -p, --params PATH   parameter JSON file, or a directory of them (mae: repeatable)\n"
        "  -l, --log FILE      processed log (rollout)\n"
        "  -L, --logdir DIR    directory of processed logs (mae)\n"
        "  -o, --output FILE   CSV output of rollout\n"
        "  -j, --json FILE     JSON results of mae\n"
        "  -h, --help          display this help and exit\n", out);
}

static int bad_usage(const char *msg, const char *arg) {
  fprintf(stderr, "stiction bam: %s%s%s\nTry 'stiction bam --help'.\n", msg, arg ? " " : "",
          arg ? arg : "");
  return 2;
}

typedef struct bam_opts {
  const char *params[64];
  size_t nparams;
  const char *log, *logdir, *output, *json;
} bam_opts;

static int parse_opts(int argc, char **argv, bam_opts *o, int *help) {
  static const struct option longs[] = {
      {"params", required_argument, 0, 'p'}, {"log", required_argument, 0, 'l'},
      {"logdir", required_argument, 0, 'L'}, {"output", required_argument, 0, 'o'},
      {"json", required_argument, 0, 'j'},   {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "p:l:L:o:j:h", longs, NULL)) != -1) {
    switch (c) {
    case 'p':
      if (o->nparams == sizeof o->params / sizeof o->params[0]) return bad_usage("too many --params", NULL);
      o->params[o->nparams++] = optarg;
      break;
    case 'l': o->log = optarg; break;
    case 'L': o->logdir = optarg; break;
    case 'o': o->output = optarg; break;
    case 'j': o->json = optarg; break;
    case 'h': *help = 1; return 0;
    default: return bad_usage("invalid or incomplete option", argv[optind - 1]);
    }
  }
  /* extra operands after --params DIR are more parameter paths (--params DIR|FILES) */
  while (optind < argc && o->nparams < sizeof o->params / sizeof o->params[0])
    o->params[o->nparams++] = argv[optind++];
  if (optind < argc) return bad_usage("too many arguments", NULL);
  return 0;
}

/* The trace to FILE (or stdout when NULL); a failure is reported with the reason. */
static int write_csv(const char *path, const stiction_bam_log *log,
                     const stiction_bam_step_info *info) {
  st_outfile out;
  if (st_outfile_open(&out, path ? path : "-", "w")) {
    fprintf(stderr, "stiction bam: %s: %s\n", path ? path : "standard output", strerror(errno));
    return STICTION_ERR_IO;
  }
  st_bam_write_rollout_csv(out.file, log, info);
  if (ferror(out.file)) {
    st_outfile_abort(&out);
  } else if (!st_outfile_commit(&out)) {
    return STICTION_OK;
  }
  fprintf(stderr, "stiction bam: %s: write error\n", path ? path : "standard output");
  return STICTION_ERR_IO;
}

static int run_rollout(const bam_opts *o) {
  char err[ST_MSG_MAX];
  stiction_bam_params p;
  stiction_bam_log *log = NULL;
  if (o->nparams != 1 || !o->log) return bad_usage("rollout needs one --params FILE and --log FILE", NULL);
  if (o->output && (st_same_file(o->output, o->log) || st_same_file(o->output, o->params[0])))
    return bad_usage("-o names an input file; refusing to write over it:", o->output);
  if (stiction_bam_params_read(o->params[0], &p, err, sizeof err) ||
      stiction_bam_log_read(o->log, &log, err, sizeof err)) {
    fprintf(stderr, "stiction bam: %s\n", err);
    return 1;
  }
  stiction_bam_step_info *info = malloc(log->n * sizeof *info);
  int st = info ? stiction_bam_rollout(&p, log, NULL, info) : STICTION_ERR_NOMEM;
  double mae = 0.0;
  if (st == STICTION_ERR_UNSUPPORTED)
    fprintf(stderr, "stiction bam: %s: actuator '%s' is not simulated (its servo model is not "
            "specified in doc/bam.md)\n", o->params[0], stiction_bam_actuator_name(p.actuator));
  else if (st)
    fprintf(stderr, "stiction bam: %s\n", stiction_strerror(st));
  if (!st) st = stiction_bam_mae(&p, log, &mae);
  if (!st) st = write_csv(o->output, log, info);
  if (!st) fprintf(stderr, "MAE = %.17g rad (%zu samples)\n", mae, log->n);
  free(info);
  stiction_bam_log_free(log);
  return st ? 1 : 0;
}

/* MAE mean and population std in mrad; with up_and_down logs present, also without them
 * (doc/bam.md §6.3 asks benchmarks to report both). */
static void print_table(const st_bam_eval *ev) {
  int both = ev->nlogs_x < ev->nlogs && ev->nlogs_x > 0;
  printf("%-40s %10s %10s", "parameters", "MAE mean", "std");
  if (both) printf("  %10s %10s", "mean w/o", "std w/o");
  printf("   [mrad; %zu logs", ev->nlogs);
  if (both) printf(", w/o = without the %zu up_and_down logs", ev->nlogs - ev->nlogs_x);
  printf("]\n");
  for (size_t i = 0; i < ev->nsets; i++) {
    printf("%-40s %10.4f %10.4f", ev->set_keys[i], 1e3 * ev->mean[i], 1e3 * ev->std[i]);
    if (both) printf("  %10.4f %10.4f", 1e3 * ev->mean_x[i], 1e3 * ev->std_x[i]);
    printf("\n");
  }
}

static int run_mae(const bam_opts *o) {
  char err[ST_MSG_MAX];
  char **pp = NULL, **lp = NULL;
  size_t np = 0, nl = 0;
  st_bam_eval ev = {0};
  if (!o->nparams || !o->logdir) return bad_usage("mae needs --params and --logdir", NULL);
  int st = st_bam_expand_json(o->params, o->nparams, &pp, &np, err, sizeof err);
  if (!st) st = st_bam_expand_json(&o->logdir, 1, &lp, &nl, err, sizeof err);
  for (size_t i = 0; !st && o->json && i < np + nl; i++)
    if (st_same_file(o->json, i < np ? pp[i] : lp[i - np])) {
      snprintf(err, sizeof err, "--json %s names an input file; refusing to write over it",
               o->json);
      st = STICTION_ERR_ARG;
    }
  if (!st) st = st_bam_evaluate(pp, np, lp, nl, &ev, err, sizeof err);
  if (!st) print_table(&ev);
  if (!st && o->json) st = st_bam_eval_write_json(&ev, o->json, err, sizeof err);
  if (st) fprintf(stderr, "stiction bam: %s\n", err);
  st_bam_eval_free(&ev);
  st_bam_paths_free(pp, np);
  st_bam_paths_free(lp, nl);
  return st ? 1 : 0;
}

int st_cmd_bam(int argc, char **argv) {
  bam_opts o = {0};
  int help = 0;
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  if (argc < 2) return bad_usage("missing subcommand (rollout, mae or fit)", NULL);
  const char *sub = argv[1];
  if (!strcmp(sub, "fit")) return st_cmd_bam_fit(argc - 1, argv + 1);
  if (strcmp(sub, "rollout") && strcmp(sub, "mae")) return bad_usage("unknown subcommand", sub);
  int r = parse_opts(argc - 1, argv + 1, &o, &help);
  if (r) return r;
  if (help) {
    usage(stdout);
    return 0;
  }
  return !strcmp(sub, "rollout") ? run_rollout(&o) : run_mae(&o);
}
