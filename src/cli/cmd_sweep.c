/* `stiction sweep MODEL.mo [CLASS] | CLASS --grid|--table|--random ... --metric ...`: the
 * class is translated once, and the parameter sets run as instances of the one program on a
 * pool of threads (doc/sweep.md). Every run's results go to its own slot, and the summary is
 * written in run order afterwards, so it does not depend on the thread count. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stiction/modelica.h>
#include <stiction/stiction.h>

#include "cli/commands.h"
#include "cli/sim_common.h"
#include "cli/sweep.h"
#include "io/shortest.h"
#include "util/outfile.h"
#include "util/pool.h"

#ifdef STICTION_HAVE_MPI
#include <mpi.h>
#endif

#define CMD "stiction sweep"
enum { MAX_SPECS = 64 };
enum { OPT_GRID = 300, OPT_TABLE, OPT_RANDOM, OPT_SEED, OPT_METRIC, OPT_RESULTS };

typedef struct sweep_args {
  st_run_args run;
  const char *file, *class_name, *table, *results;
  const char *grids[MAX_SPECS], *randoms[MAX_SPECS], *metric_texts[MAX_SPECS];
  int ngrids, nrandoms, nmetrics, jobs;
  long n;
  unsigned long long seed;
} sweep_args;

static void usage(FILE *out) {
  fputs("Usage: stiction sweep MODEL.mo [CLASS] | CLASS SETS [OPTION]...\n"
        "Translate a Modelica class once and simulate it for many parameter sets on all\n"
        "cores; write one summary row per run.\n\n"
        "Parameter sets (one kind):\n"
        "      --grid NAME=a:step:b | NAME=v1,v2,...   an axis of a full grid (repeatable;\n"
        "                         the first axis varies slowest)\n"
        "      --table FILE.csv   one set per row under a header of parameter names\n"
        "      --random NAME=normal(mu,sigma) | NAME=uniform(a,b)   Monte-Carlo draws\n"
        "                         (repeatable) with -n N runs and --seed S (default 1)\n\n"
        "      --metric M         a summary column: final(x), min(x), max(x), mean(x)\n"
        "                         (the time average), period(x); of a friction element E:\n"
        "                         stick_fraction(E), transitions(E), dissipated(E); repeatable\n"
        "  -j N                   threads (default: all cores)\n"
        "  -o, --output FILE      the summary CSV (default: standard output)\n"
        "      --results DIR      also each run's result, DIR/run_NNNNNN.csv (DIR must exist)\n"
        "      --start-time T, --stop-time T, --interval DT, --tolerance R, --solver S,\n"
        "      --max-step H       as for stiction simulate\n"
        "  -L DIR                 add a library directory (repeatable)\n"
        "  -h, --help             display this help and exit\n\n"
        "Summary columns: run, the parameters (as named), status (ok or failed), steps,\n"
        "state_events, time_events, the metrics (as written), message. A failed run is a row\n"
        "with its message; the sweep goes on. Exit status: 0 all runs ok, 1 a run failed or\n"
        "the model has errors, 2 bad usage.\n", out);
}

static int bad_usage(const char *fmt, const char *arg) { return st_cli_bad_usage(CMD, fmt, arg); }

static int push(const char **list, int *n, const char *arg, const char *opt) {
  if (*n == MAX_SPECS) return bad_usage("too many %s options", opt);
  list[(*n)++] = arg;
  return 0;
}

static int parse_option(void *ctx, int c, const char *arg) {
  sweep_args *a = ctx;
  char *end;
  switch (c) {
  case OPT_GRID: return push(a->grids, &a->ngrids, arg, "--grid");
  case OPT_RANDOM: return push(a->randoms, &a->nrandoms, arg, "--random");
  case OPT_METRIC: return push(a->metric_texts, &a->nmetrics, arg, "--metric");
  case OPT_TABLE: a->table = arg; return 0;
  case OPT_RESULTS: a->results = arg; return 0;
  case 'n':
    errno = 0;
    a->n = strtol(arg, &end, 10);
    return *end || errno || a->n < 1 ? bad_usage("-n '%s': expected a positive count", arg) : 0;
  case OPT_SEED:
    errno = 0;
    a->seed = strtoull(arg, &end, 10);
    return *end || errno ? bad_usage("--seed '%s': expected a whole number", arg) : 0;
  case 'j':
    errno = 0;
    a->jobs = (int)strtol(arg, &end, 10);
    return *end || errno || a->jobs < 1 || a->jobs > 1024
               ? bad_usage("-j '%s': expected 1 to 1024 threads", arg) : 0;
  default: return ST_CLI_EXIT_USAGE;
  }
}

static int parse_args(int argc, char **argv, sweep_args *a) {
  static const struct option longs[] = {
      {"grid", required_argument, NULL, OPT_GRID},     {"table", required_argument, NULL, OPT_TABLE},
      {"random", required_argument, NULL, OPT_RANDOM}, {"seed", required_argument, NULL, OPT_SEED},
      {"metric", required_argument, NULL, OPT_METRIC},
      {"results", required_argument, NULL, OPT_RESULTS}, {NULL, 0, NULL, 0}};
  st_cli_parser p = {CMD,
                     ST_RUN_OUTPUT | ST_RUN_LIB | ST_RUN_START | ST_RUN_STOP | ST_RUN_TOL |
                         ST_RUN_INTERVAL | ST_RUN_SOLVER | ST_RUN_MAX_STEP,
                     longs, "n:j:", parse_option, a, usage};
  a->seed = 1;
  int rc = st_cli_parse(&p, argc, argv, &a->run);
  if (rc) return rc;
  int npos = argc - optind;
  if (npos < 1 || npos > 2) return bad_usage("expected MODEL.mo [CLASS] or CLASS%s", "");
  if (st_cli_is_model_file(argv[optind])) {
    a->file = argv[optind];
    a->class_name = npos == 2 ? argv[optind + 1] : NULL;
  } else if (npos == 2) {
    return bad_usage("'%s' is not a file", argv[optind]);
  } else {
    a->class_name = argv[optind];
  }
  int kinds = (a->ngrids > 0) + (a->table != NULL) + (a->nrandoms > 0);
  if (kinds != 1) return bad_usage("give the parameter sets one way: --grid, --table or --random%s", "");
  if (a->nrandoms && !a->n) return bad_usage("--random needs -n N%s", "");
  if (!a->nrandoms && a->n) return bad_usage("-n goes with --random%s", "");
  if (!a->jobs) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    a->jobs = cores > 0 ? (int)cores : 1;
  }
  return 0;
}

static int make_sets(const sweep_args *a, st_sweep_sets *s) {
  char msg[512];
  int rc = 0;
  for (int i = 0; !rc && i < a->ngrids; i++) rc = st_sweep_add_axis(s, a->grids[i], msg, sizeof msg);
  if (!rc && a->table) rc = st_sweep_read_table(s, a->table, msg, sizeof msg);
  if (!rc && a->nrandoms)
    rc = st_sweep_random(s, a->randoms, a->nrandoms, (size_t)a->n, a->seed, msg, sizeof msg);
  return rc ? bad_usage("%s", msg) : 0;
}

/* ------------------------------------------------------------------ translation */

static void print_diagnostics(const stiction_modelica *mo) {
  static const char *const sev[] = {"note", "warning", "error"};
  for (int i = 0; i < stiction_modelica_n_diagnostics(mo); i++) {
    stiction_diagnostic d = {.size = sizeof d};
    if (stiction_modelica_diagnostic(mo, i, &d)) continue;
    if (d.file && d.line > 0)
      fprintf(stderr, "%s:%d:%d: %s: %s\n", d.file, d.line, d.column, sev[d.severity], d.message);
    else
      fprintf(stderr, "%s: %s: %s\n", CMD, sev[d.severity], d.message);
  }
}

static stiction_program *translate(const sweep_args *a, stiction_modelica *mo) {
  int rc = 0;
  for (int i = 0; !rc && i < a->run.n_libs; i++) rc = stiction_modelica_add_library_path(mo, a->run.libs[i]);
  if (!rc) rc = stiction_modelica_add_default_paths(mo);
  if (!rc && a->file) rc = stiction_modelica_load_file(mo, a->file);
  const char *cls = a->class_name ? a->class_name : stiction_modelica_default_class(mo);
  stiction_program *prog = NULL;
  if (!rc && !cls) fprintf(stderr, "%s: %s: no class to simulate\n", CMD, a->file);
  else if (!rc) rc = stiction_modelica_compile(mo, cls, NULL, 0, &prog);
  print_diagnostics(mo);
  return rc ? NULL : prog;
}

/* Every swept name must be a parameter the runs can set. */
static int check_names(const stiction_program *prog, const st_sweep_sets *s) {
  for (int k = 0; k < s->nparams; k++) {
    int i = stiction_program_find(prog, s->names[k]);
    stiction_variable v = {.size = sizeof v};
    if (i < 0 || stiction_program_variable(prog, i, &v) ||
        v.causality != STICTION_CAUSALITY_PARAMETER)
      return bad_usage("'%s' is not a parameter of the model that can be set", s->names[k]);
  }
  return 0;
}

/* ------------------------------------------------------------------ runs */

typedef struct run_result {
  int failed;
  char message[256];
  stiction_stats stats;
  double *metrics; /* nmetrics values, in the shared block */
} run_result;

typedef struct sweep {
  const sweep_args *a;
  const stiction_program *prog;
  const st_sweep_sets *sets;
  const st_sweep_metric *metrics;
  stiction_options opt;
  run_result *results;
} sweep;

typedef struct run_sink { /* the meter, and the run's result file when asked for */
  st_sweep_meter meter;
  stiction_sink file;
  int has_file;
} run_sink;

static int sink_begin(void *ud, int ncols, const char *const *names) {
  run_sink *s = ud;
  if (st_sweep_meter_begin(&s->meter, ncols, names)) return STICTION_ERR_NOT_FOUND;
  return s->has_file ? s->file.begin(s->file.user_data, ncols, names) : 0;
}

static int sink_row(void *ud, const double *values) {
  run_sink *s = ud;
  st_sweep_meter_row(&s->meter, values);
  return s->has_file ? s->file.row(s->file.user_data, values) : 0;
}

static int sink_end(void *ud, int status) {
  run_sink *s = ud;
  st_sweep_meter_finish(&s->meter);
  return s->has_file ? s->file.end(s->file.user_data, status) : 0;
}

static void run_failed(run_result *r, const char *what, const char *detail) {
  r->failed = 1;
  snprintf(r->message, sizeof r->message, "%.120s%s%.120s", what, *detail ? ": " : "", detail);
}

/* Runs set `item` into *r. */
static void one_run_as(sweep *sw, size_t item, run_result *r) {
  const st_sweep_sets *s = sw->sets;
  stiction_instance *in = stiction_instance_new(sw->prog);
  run_sink rs = {.has_file = sw->a->results != NULL};
  stiction_writer *w = NULL;
  if (!in || st_sweep_meter_init(&rs.meter, sw->metrics, sw->a->nmetrics)) {
    run_failed(r, "out of memory", "");
    goto done;
  }
  for (int k = 0; k < s->nparams; k++)
    if (stiction_instance_set_by_name(in, s->names[k], s->values[item * (size_t)s->nparams + (size_t)k])) {
      run_failed(r, "cannot set", s->names[k]);
      goto done;
    }
  if (rs.has_file) {
    char path[4096];
    snprintf(path, sizeof path, "%s/run_%06zu.csv", sw->a->results, item + 1);
    if (stiction_writer_open(&w, path, STICTION_FORMAT_CSV)) {
      run_failed(r, "cannot write", path);
      goto done;
    }
    stiction_writer_keep_partial(w, 1); /* a failed run's rows are what explains it */
    stiction_writer_sink(w, &rs.file);
  }
  stiction_sink sink = {sizeof(stiction_sink), sink_begin, sink_row, sink_end, &rs};
  int rc = stiction_instance_run(in, &sw->opt, &sink);
  if (rc) run_failed(r, rs.meter.missing[0] ? rs.meter.missing : stiction_instance_error(in), "");
  if (stiction_instance_stats(in)) r->stats = *stiction_instance_stats(in);
  memcpy(r->metrics, rs.meter.value, sizeof(double) * (size_t)sw->a->nmetrics);
done:
  if (w && stiction_writer_close(w) && !r->failed) run_failed(r, "write error", "");
  st_sweep_meter_free(&rs.meter);
  stiction_instance_free(in);
}

static void one_run(void *ctx, size_t item) {
  sweep *sw = ctx;
  one_run_as(sw, item, &sw->results[item]);
}

/* ------------------------------------------------------------------ summary */

static void put_number(FILE *f, double v) {
  char buf[ST_SHORTEST_MAX + 8];
  st_format_shortest(buf, v);
  fputs(buf, f);
}

static void write_summary(FILE *f, const sweep *sw) {
  const st_sweep_sets *s = sw->sets;
  fputs("run", f);
  for (int k = 0; k < s->nparams; k++) fputc(',', f), st_cli_csv_field(f, s->names[k]);
  fputs(",status,steps,state_events,time_events", f);
  for (int m = 0; m < sw->a->nmetrics; m++) fputc(',', f), st_cli_csv_field(f, sw->metrics[m].text);
  fputs(",message\n", f);
  for (size_t i = 0; i < s->nruns; i++) {
    const run_result *r = &sw->results[i];
    fprintf(f, "%zu", i + 1);
    for (int k = 0; k < s->nparams; k++) fputc(',', f), put_number(f, s->values[i * (size_t)s->nparams + (size_t)k]);
    fprintf(f, ",%s,%ld,%ld,%ld", r->failed ? "failed" : "ok", r->stats.steps,
            r->stats.state_events, r->stats.time_events);
    for (int m = 0; m < sw->a->nmetrics; m++) fputc(',', f), put_number(f, r->metrics[m]);
    fputc(',', f);
    st_cli_csv_field(f, r->message);
    fputc('\n', f);
  }
}

/* The number of processes mpirun started this one among (OpenMPI's and PMI's variables);
 * 1 outside mpirun. */
static int launched_ranks(void) {
  const char *n = getenv("OMPI_COMM_WORLD_SIZE");
  if (!n) n = getenv("PMI_SIZE");
  return n ? atoi(n) : 1;
}

#ifdef STICTION_HAVE_MPI
/* Under MPI with K > 1 ranks, rank 0 hands out the runs one at a time to whichever rank
 * asks (long and short runs mixed), collects each result and writes the summary; ranks
 * 1..K-1 run one run at a time. A result travels as doubles (index, failed, steps, state
 * and time events, the metrics) and the message text. Returns 1 on rank 0, 0 elsewhere. */
enum { TAG_RESULT = 1, TAG_MESSAGE, TAG_WORK };

static int mpi_share_runs(sweep *sw, size_t nruns) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int nm = sw->a->nmetrics, nd = 5 + nm;
  double *buf = malloc(sizeof *buf * (size_t)nd);
  if (!buf) MPI_Abort(MPI_COMM_WORLD, ST_CLI_EXIT_RUN);
  if (rank == 0) {
    size_t next = 0;
    int active = size - 1;
    while (active > 0) {
      MPI_Status st;
      MPI_Recv(buf, nd, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
      if (buf[0] >= 0) { /* a finished run (the first request carries -1) */
        run_result *r = &sw->results[(size_t)buf[0]];
        r->failed = buf[1] != 0;
        r->stats.steps = (long)buf[2];
        r->stats.state_events = (long)buf[3];
        r->stats.time_events = (long)buf[4];
        memcpy(r->metrics, buf + 5, sizeof *buf * (size_t)nm);
        MPI_Recv(r->message, (int)sizeof r->message, MPI_CHAR, st.MPI_SOURCE, TAG_MESSAGE,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      long item = next < nruns ? (long)next++ : -1;
      if (item < 0) active--;
      MPI_Send(&item, 1, MPI_LONG, st.MPI_SOURCE, TAG_WORK, MPI_COMM_WORLD);
    }
  } else {
    buf[0] = -1;
    for (;;) {
      MPI_Send(buf, nd, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
      if (buf[0] >= 0)
        MPI_Send(sw->results[0].message, (int)sizeof sw->results[0].message, MPI_CHAR, 0,
                 TAG_MESSAGE, MPI_COMM_WORLD);
      long item;
      MPI_Recv(&item, 1, MPI_LONG, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (item < 0) break;
      /* every run of this rank goes to slot 0, sent before the next one starts */
      run_result *r = &sw->results[0];
      memset(r->message, 0, sizeof r->message);
      r->failed = 0;
      r->stats = (stiction_stats){0};
      one_run_as(sw, (size_t)item, r);
      buf[0] = (double)item;
      buf[1] = r->failed;
      buf[2] = (double)r->stats.steps;
      buf[3] = (double)r->stats.state_events;
      buf[4] = (double)r->stats.time_events;
      memcpy(buf + 5, r->metrics, sizeof *buf * (size_t)nm);
    }
  }
  free(buf);
  return rank == 0;
}
#endif

static int run_sweep(const sweep_args *a, const stiction_program *prog, const st_sweep_sets *s,
                     const st_sweep_metric *metrics) {
  sweep sw = {.a = a, .prog = prog, .sets = s, .metrics = metrics,
              .results = calloc(s->nruns, sizeof(run_result))};
  double *values = calloc(s->nruns * (size_t)(a->nmetrics + 1), sizeof(double));
  st_pool *pool = st_pool_new(a->jobs);
  if (!sw.results || !values || !pool) {
    fprintf(stderr, "%s: out of memory\n", CMD);
    free(sw.results);
    free(values);
    st_pool_free(pool);
    return ST_CLI_EXIT_RUN;
  }
  for (size_t i = 0; i < s->nruns; i++) sw.results[i].metrics = values + i * (size_t)a->nmetrics;
  stiction_program_options(prog, &sw.opt);
  st_cli_apply_run(&a->run, &sw.opt);
  int ranks = 1;
#ifdef STICTION_HAVE_MPI
  if (launched_ranks() > 1) {
    MPI_Init(NULL, NULL);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  }
  if (ranks > 1 && !mpi_share_runs(&sw, s->nruns)) { /* a worker rank: rank 0 reports */
    MPI_Finalize();
    st_pool_free(pool);
    free(sw.results);
    free(values);
    return 0;
  }
#endif
  if (ranks == 1) st_pool_run(pool, s->nruns, one_run, &sw);
  st_pool_free(pool);
  st_outfile out;
  const char *path = a->run.output ? a->run.output : "-";
  int status = 0;
  if (st_outfile_open(&out, path, "w")) {
    st_cli_open_failed(CMD, path);
    status = ST_CLI_EXIT_RUN;
  } else {
    write_summary(out.file, &sw);
    if (ferror(out.file)) st_outfile_abort(&out), status = ST_CLI_EXIT_RUN;
    else if (st_outfile_commit(&out)) status = ST_CLI_EXIT_RUN;
    if (status) fprintf(stderr, "%s: %s: write error\n", CMD, path);
  }
  size_t failed = 0;
  for (size_t i = 0; i < s->nruns; i++) failed += sw.results[i].failed != 0;
  if (ranks > 1)
    fprintf(stderr, "%s: %zu runs on %d MPI ranks, %zu failed\n", CMD, s->nruns, ranks - 1, failed);
  else
    fprintf(stderr, "%s: %zu runs on %d thread%s, %zu failed\n", CMD, s->nruns, a->jobs,
            a->jobs == 1 ? "" : "s", failed);
#ifdef STICTION_HAVE_MPI
  if (launched_ranks() > 1) MPI_Finalize();
#endif
  free(sw.results);
  free(values);
  return status ? status : failed ? ST_CLI_EXIT_RUN : 0;
}

int st_cmd_sweep(int argc, char **argv) {
  sweep_args a = {0};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc < 0 ? 0 : rc;
#ifndef STICTION_HAVE_MPI
  if (launched_ranks() > 1) /* each rank would run the whole sweep and write the summary */
    return bad_usage("started by mpirun, but built without MPI: ./configure --with-mpi "
                     "(Debian packages libopenmpi-dev, openmpi-bin)%s", "");
#endif
  st_sweep_sets sets = {0, NULL, 0, NULL};
  st_sweep_metric metrics[MAX_SPECS] = {{0}};
  char msg[512];
  rc = make_sets(&a, &sets);
  for (int m = 0; !rc && m < a.nmetrics; m++)
    if (st_sweep_parse_metric(a.metric_texts[m], &metrics[m], msg, sizeof msg)) rc = bad_usage("%s", msg);
  if (!rc && a.results) {
    struct stat sb;
    if (stat(a.results, &sb) || !S_ISDIR(sb.st_mode)) rc = bad_usage("--results '%s': not a directory", a.results);
  }
  stiction_modelica *mo = rc ? NULL : stiction_modelica_new();
  stiction_program *prog = mo ? translate(&a, mo) : NULL;
  if (!rc && !prog) rc = ST_CLI_EXIT_RUN;
  if (!rc) rc = check_names(prog, &sets);
  if (!rc) rc = run_sweep(&a, prog, &sets, metrics);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
  for (int m = 0; m < a.nmetrics; m++) free(metrics[m].signal);
  st_sweep_sets_free(&sets);
  return rc;
}
