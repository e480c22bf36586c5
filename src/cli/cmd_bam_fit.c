/* `stiction bam fit`: BAM identification (bam.md §4) with CMA-ES and restarts.
 *   stiction bam fit --model mN --actuator A --logdir DIR [--validation-kp K] [--trials N]
 *       [--seed S] [-j N] [--set NAME=VALUE]... [--from PARAMS.json] -o PARAMS.json
 *   stiction bam fit --all-models ... -o DIR        (m1.json .. m6.json and a summary table) */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <stiction/bam.h>
#include <stiction/stiction.h>

#include "bam/bam_eval.h"
#include "bam/bam_fit.h"
#include "cli/commands.h"
#include "util/outfile.h"

#define MAX_SETS 32

static void usage(FILE *out) {
  fputs("Usage: stiction bam fit --model mN --actuator A --logdir DIR -o PARAMS.json [options]\n"
        "       stiction bam fit --all-models --actuator A --logdir DIR -o OUTDIR [options]\n"
        "Fit a BAM friction model to processed logs: minimizes the mean per-log MAE of\n"
        "closed-loop rollouts (logs cut to the shortest, as BAM batches them) with CMA-ES and\n"
        "BIPOP restarts over BAM's parameter boxes. The best parameters so far are rewritten\n"
        "to -o during the run; progress lines go to stderr.\n\n"
        "  -m, --model mN          m1..m6\n"
        "      --all-models        fit m1..m6 (files OUTDIR/mN.json) and print the table\n"
        "  -a, --actuator A        xl330, mx64, mx106, xl320, erob80_50, erob80_100\n"
        "  -L, --logdir DIR        directory of processed logs (*.json)\n"
        "  -V, --validation-kp K   hold out the logs with kp == K (validation MAE)\n"
        "  -n, --trials N          evaluations per model (default 100000, BAM's default)\n"
        "  -s, --seed S            random seed (default 0)\n"
        "  -j, --threads N         threads (default: all processors); results do not depend\n"
        "                          on N\n"
        "  -S, --set NAME=VALUE    freeze a parameter (repeatable)\n"
        "  -f, --from FILE         start the first run from this parameter set (another\n"
        "                          model's too: M3's optimum embeds in M4..M6)\n"
        "  -r, --restarts KIND     bipop (default), ipop or none\n"
        "  -o, --output PATH       parameter file (directory with --all-models)\n"
        "  -q, --quiet             no progress lines\n"
        "  -h, --help              display this help and exit\n", out);
}

static int bad_usage(const char *msg, const char *arg) {
  fprintf(stderr, "stiction bam fit: %s%s%s\nTry 'stiction bam fit --help'.\n", msg,
          arg ? " " : "", arg ? arg : "");
  return 2;
}

typedef struct fit_opts {
  stiction_bam_model model;
  int all_models, quiet, threads, has_val;
  stiction_bam_actuator actuator;
  const char *logdir, *output, *from;
  double val_kp;
  long trials;
  unsigned long long seed;
  st_cmaes_restarts restarts;
  const char *set_names[MAX_SETS];
  double set_values[MAX_SETS];
  size_t nset;
} fit_opts;

/* A number with nothing after it (strtod/strtoll accept trailing text otherwise). */
static int parse_double(const char *s, double *v) {
  char *end;
  errno = 0;
  *v = strtod(s, &end);
  return end != s && !*end && !errno && isfinite(*v);
}

static int parse_long(const char *s, long long lo, long long *v) {
  char *end;
  errno = 0;
  *v = strtoll(s, &end, 10);
  return end != s && !*end && !errno && *v >= lo;
}

static int add_set(fit_opts *o, char *arg) {
  char *eq = strchr(arg, '=');
  if (!eq) return bad_usage("--set needs NAME=VALUE:", arg);
  if (o->nset == MAX_SETS) return bad_usage("too many --set", NULL);
  *eq = 0;
  if (!st_bam_param_field(&(stiction_bam_params){0}, arg))
    return bad_usage("--set: unknown parameter", arg);
  if (!parse_double(eq + 1, &o->set_values[o->nset]))
    return bad_usage("--set: not a finite number:", eq + 1);
  o->set_names[o->nset++] = arg;
  return 0;
}

static int parse_restarts(const char *s, st_cmaes_restarts *r) {
  if (!strcmp(s, "bipop")) *r = ST_CMAES_BIPOP;
  else if (!strcmp(s, "ipop")) *r = ST_CMAES_IPOP;
  else if (!strcmp(s, "none")) *r = ST_CMAES_NO_RESTART;
  else return 0;
  return 1;
}

/* One option; 0, or the exit status of a usage error. */
static int take_option(int c, char *arg, fit_opts *o) {
  long long v;
  switch (c) {
  case 'm':
    if (!(o->model = stiction_bam_model_from_name(arg))) return bad_usage("unknown model", arg);
    return 0;
  case 'A': o->all_models = 1; return 0;
  case 'a':
    if (!(o->actuator = stiction_bam_actuator_from_name(arg)))
      return bad_usage("unknown actuator", arg);
    return 0;
  case 'L': o->logdir = arg; return 0;
  case 'V':
    o->has_val = 1;
    return parse_double(arg, &o->val_kp) ? 0 : bad_usage("--validation-kp: not a number:", arg);
  case 'n':
    if (!parse_long(arg, 1, &v)) return bad_usage("--trials: not a positive integer:", arg);
    o->trials = (long)v;
    return 0;
  case 's':
    if (!parse_long(arg, 0, &v)) return bad_usage("--seed: not a non-negative integer:", arg);
    o->seed = (unsigned long long)v;
    return 0;
  case 'j':
    if (!parse_long(arg, 1, &v) || v > 1024) return bad_usage("-j: not a thread count:", arg);
    o->threads = (int)v;
    return 0;
  case 'S': return add_set(o, arg);
  case 'f': o->from = arg; return 0;
  case 'r':
    return parse_restarts(arg, &o->restarts) ? 0 : bad_usage("--restarts: bipop, ipop or none, not", arg);
  case 'o': o->output = arg; return 0;
  case 'q': o->quiet = 1; return 0;
  default: return bad_usage("invalid or incomplete option", NULL);
  }
}

static int parse_opts(int argc, char **argv, fit_opts *o, int *help) {
  static const struct option longs[] = {
      {"model", required_argument, 0, 'm'},      {"all-models", no_argument, 0, 'A'},
      {"actuator", required_argument, 0, 'a'},   {"logdir", required_argument, 0, 'L'},
      {"validation-kp", required_argument, 0, 'V'}, {"trials", required_argument, 0, 'n'},
      {"seed", required_argument, 0, 's'},       {"threads", required_argument, 0, 'j'},
      {"set", required_argument, 0, 'S'},        {"from", required_argument, 0, 'f'},
      {"restarts", required_argument, 0, 'r'},   {"output", required_argument, 0, 'o'},
      {"quiet", no_argument, 0, 'q'},            {"help", no_argument, 0, 'h'},
      {0, 0, 0, 0}};
  int c;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "m:a:L:V:n:s:j:S:f:r:o:qh", longs, NULL)) != -1) {
    if (c == 'h') return *help = 1, 0;
    int r = take_option(c, optarg, o);
    if (r) return r;
  }
  if (optind < argc) return bad_usage("unexpected argument", argv[optind]);
  if (!o->model == !o->all_models) return bad_usage("give either --model mN or --all-models", NULL);
  if (!o->actuator || !o->logdir || !o->output)
    return bad_usage("--actuator, --logdir and -o are required", NULL);
  if (o->all_models && o->from) return bad_usage("--from needs a single --model", NULL);
  return 0;
}

/* ---- logs ---------------------------------------------------------------------------------- */

typedef struct log_set {
  stiction_bam_log **all;
  size_t nall;
  const stiction_bam_log **train, **val;
  size_t ntrain, nval;
} log_set;

static void logs_free(log_set *ls) {
  for (size_t i = 0; i < ls->nall; i++) stiction_bam_log_free(ls->all[i]);
  free(ls->all);
  free(ls->train);
  free(ls->val);
}

/* Reads every log of the directory and splits them by kp (BAM's --validation_kp). */
static int logs_read(const fit_opts *o, log_set *ls) {
  char err[1024], **paths = NULL;
  size_t n = 0;
  int st = st_bam_expand_json(&o->logdir, 1, &paths, &n, err, sizeof err);
  if (!st) {
    ls->all = calloc(n, sizeof *ls->all);
    ls->train = calloc(n, sizeof *ls->train);
    ls->val = calloc(n, sizeof *ls->val);
    if (!ls->all || !ls->train || !ls->val) st = STICTION_ERR_NOMEM, snprintf(err, sizeof err, "out of memory");
  }
  for (size_t i = 0; !st && i < n; i++)
    if (st_same_file(o->output, paths[i])) {
      snprintf(err, sizeof err, "%s: -o names one of the logs; refusing to replace it", o->output);
      st = STICTION_ERR_ARG;
    }
  for (size_t i = 0; !st && i < n; i++) {
    st = stiction_bam_log_read(paths[i], &ls->all[i], err, sizeof err);
    if (st) break;
    ls->nall++;
    if (o->has_val && ls->all[i]->kp == o->val_kp) ls->val[ls->nval++] = ls->all[i];
    else ls->train[ls->ntrain++] = ls->all[i];
  }
  st_bam_paths_free(paths, n);
  if (st) fprintf(stderr, "stiction bam fit: %s\n", err);
  else if (!ls->ntrain) fprintf(stderr, "stiction bam fit: %s: no training log left\n", o->logdir), st = STICTION_ERR_ARG;
  else if (o->has_val && !ls->nval)
    fprintf(stderr, "stiction bam fit: %s: no log has kp %g\n", o->logdir, o->val_kp), st = STICTION_ERR_ARG;
  return st;
}

/* ---- one model ----------------------------------------------------------------------------- */

typedef struct model_row {
  stiction_bam_model model;
  size_t nparams;
  long trials;
  int restarts;
  double seconds, cpu;                        /* wall and process CPU time [s] */
  double train, val, train_x, val_x;          /* mean per-log MAE [rad]; _x: w/o up_and_down */
} model_row;

static double clock_seconds(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The search space of the model with the --set values (a name the model lacks is an error
 * for one model and skipped with --all-models). */
static int make_space(const fit_opts *o, stiction_bam_model m, st_bam_space *s) {
  if (st_bam_space_init(s, m, o->actuator)) {
    fprintf(stderr, "stiction bam fit: actuator '%s' is not simulated\n",
            stiction_bam_actuator_name(o->actuator));
    return 1;
  }
  for (size_t i = 0; i < o->nset; i++)
    if (st_bam_space_freeze(s, o->set_names[i], o->set_values[i]) && !o->all_models) {
      fprintf(stderr, "stiction bam fit: --set %s: model %s has no such parameter\n",
              o->set_names[i], stiction_bam_model_name(m));
      return 1;
    }
  return 0;
}

static int read_from(const fit_opts *o, stiction_bam_model m, stiction_bam_params *p) {
  char err[1024];
  if (stiction_bam_params_read(o->from, p, err, sizeof err)) {
    fprintf(stderr, "stiction bam fit: %s\n", err);
    return 1;
  }
  if (p->actuator != o->actuator) {
    fprintf(stderr, "stiction bam fit: %s: actuator '%s', not '%s'\n", o->from,
            stiction_bam_actuator_name(p->actuator), stiction_bam_actuator_name(o->actuator));
    return 1;
  }
  st_bam_params_embed(p, m);
  return 0;
}

static int fit_model(const fit_opts *o, stiction_bam_model m, const char *out, const log_set *ls,
                     st_pool *pool, model_row *row) {
  st_bam_space s;
  stiction_bam_params from;
  char err[1024];
  /* --set values live in the space; --from gives the start of the free ones only */
  if (make_space(o, m, &s) || (o->from && read_from(o, m, &from))) return 1;
  st_bam_fit_opts fo = {o->trials, (uint64_t)o->seed, o->restarts, o->from ? &from : NULL, out,
                        o->quiet ? NULL : stderr, 2.0};
  st_bam_fit_result res;
  double t0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
  if (st_bam_fit(&s, ls->train, ls->ntrain, ls->val, ls->nval, pool, &fo, &res, err, sizeof err)) {
    fprintf(stderr, "stiction bam fit: %s\n", err);
    return 1;
  }
  *row = (model_row){m, s.n, res.cmaes.evals, res.cmaes.restarts,
                     clock_seconds(CLOCK_MONOTONIC) - t0,
                     clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0,
                     st_bam_mean_mae(&res.best, ls->train, ls->ntrain, 0),
                     st_bam_mean_mae(&res.best, ls->val, ls->nval, 0),
                     st_bam_mean_mae(&res.best, ls->train, ls->ntrain, 1),
                     st_bam_mean_mae(&res.best, ls->val, ls->nval, 1)};
  return 0;
}

/* rad as mrad, "-" where no log counted */
static void print_mrad(double v) {
  if (isnan(v)) printf(" %10s", "-");
  else printf(" %10.2f", 1e3 * v);
}

/* The model-selection table (bam.md §4, §8.3: with and without the up_and_down logs). */
static void print_rows(const model_row *rows, size_t n, const log_set *ls) {
  printf("%-5s %6s %8s %8s %8s %8s %10s %10s %10s %10s   [mean per-log MAE, mrad; %zu train",
         "model", "params", "trials", "restarts", "wall s", "cpu s", "train", "validation",
         "train w/o", "valid w/o", ls->ntrain);
  printf(", %zu validation logs; w/o = without up_and_down]\n", ls->nval);
  for (size_t i = 0; i < n; i++) {
    printf("%-5s %6zu %8ld %8d %8.2f %8.2f", stiction_bam_model_name(rows[i].model),
           rows[i].nparams, rows[i].trials, rows[i].restarts, rows[i].seconds, rows[i].cpu);
    print_mrad(rows[i].train);
    print_mrad(rows[i].val);
    print_mrad(rows[i].train_x);
    print_mrad(rows[i].val_x);
    putchar('\n');
  }
}

/* OUTDIR/mN.json, creating OUTDIR if needed. */
static char *model_path(const char *dir, stiction_bam_model m) {
  size_t len = strlen(dir) + 16;
  char *p = malloc(len);
  if (p) snprintf(p, len, "%s/%s.json", dir, stiction_bam_model_name(m));
  return p;
}

static int run_all(const fit_opts *o, const log_set *ls, st_pool *pool) {
  model_row rows[6];
  if (mkdir(o->output, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "stiction bam fit: %s: %s\n", o->output, strerror(errno));
    return 1;
  }
  for (int m = STICTION_BAM_M1; m <= STICTION_BAM_M6; m++) {
    char *path = model_path(o->output, (stiction_bam_model)m);
    int r = path ? fit_model(o, (stiction_bam_model)m, path, ls, pool, &rows[m - 1]) : 1;
    free(path);
    if (r) return r;
  }
  print_rows(rows, 6, ls);
  return 0;
}

int st_cmd_bam_fit(int argc, char **argv) {
  fit_opts o = {.trials = 100000, .restarts = ST_CMAES_BIPOP};
  int help = 0, r = parse_opts(argc, argv, &o, &help);
  if (r || help) {
    if (help) usage(stdout);
    return r;
  }
  if (!o.threads) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    o.threads = n > 0 ? (int)n : 1;
  }
  log_set ls = {0};
  if (logs_read(&o, &ls)) {
    logs_free(&ls);
    return 1;
  }
  st_pool *pool = st_pool_new(o.threads);
  model_row row;
  if (!pool) fprintf(stderr, "stiction bam fit: cannot start %d threads\n", o.threads), r = 1;
  else if (o.all_models) r = run_all(&o, &ls, pool);
  else if (!(r = fit_model(&o, o.model, o.output, &ls, pool, &row))) print_rows(&row, 1, &ls);
  st_pool_free(pool);
  logs_free(&ls);
  return r;
}
