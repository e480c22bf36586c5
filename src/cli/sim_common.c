/* Option values and the event log of the simulation commands. */
#include "cli/sim_common.h"
#include "cli/commands.h"

#include <errno.h>
#include <sys/stat.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int st_cli_number(const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end || errno == ERANGE || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

/* ---- the shared run options --------------------------------------------------------------- */

enum { OPT_START = 1000, OPT_STOP, OPT_TOL, OPT_INTERVAL, OPT_SOLVER, OPT_EVENTS, OPT_STATS,
       OPT_MAX_STEP, OPT_KEEP_PARTIAL };

static const struct option run_longs[] = {
    {"output", required_argument, NULL, 'o'},       {"param", required_argument, NULL, 'p'},
    {"start-time", required_argument, NULL, OPT_START},
    {"stop-time", required_argument, NULL, OPT_STOP},
    {"tolerance", required_argument, NULL, OPT_TOL},
    {"interval", required_argument, NULL, OPT_INTERVAL},
    {"solver", required_argument, NULL, OPT_SOLVER},
    {"events", required_argument, NULL, OPT_EVENTS}, {"stats", no_argument, NULL, OPT_STATS},
    {"max-step", required_argument, NULL, OPT_MAX_STEP},
    {"keep-partial", no_argument, NULL, OPT_KEEP_PARTIAL}};
static const unsigned run_long_bits[] = {ST_RUN_OUTPUT, ST_RUN_PARAM, ST_RUN_START, ST_RUN_STOP,
                                         ST_RUN_TOL, ST_RUN_INTERVAL, ST_RUN_SOLVER,
                                         ST_RUN_EVENTS, ST_RUN_STATS, ST_RUN_MAX_STEP,
                                         ST_RUN_OUTPUT};
enum { N_RUN_LONGS = sizeof run_longs / sizeof run_longs[0], MAX_LONGS = 64 };

int st_cli_bad_usage(const char *cmd, const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", cmd);
  fprintf(stderr, fmt, arg ? arg : "");
  fprintf(stderr, "\nTry '%s --help'.\n", cmd);
  return ST_CLI_EXIT_USAGE;
}

static int number(const char *cmd, const char *opt, const char *text, int positive, double *out,
                  int *have) {
  if (st_cli_number(text, out) || (positive && *out <= 0)) {
    fprintf(stderr, "%s: %s: invalid value '%s' (expected a %snumber)\n", cmd, opt, text,
            positive ? "positive " : "finite ");
    return ST_CLI_EXIT_USAGE;
  }
  *have = 1;
  return 0;
}

static int push(const char *cmd, const char **list, int *n, const char *arg) {
  if (*n == ST_RUN_MAX_LIST) return st_cli_bad_usage(cmd, "too many repeated options", NULL);
  list[(*n)++] = arg;
  return 0;
}

/* A shared option: 0 or ST_CLI_EXIT_USAGE; 1 when c is not one of them. */
static int run_option(const char *cmd, st_run_args *r, int c, const char *arg) {
  switch (c) {
  case 'o': r->output = arg; return 0;
  case 'p': return push(cmd, r->params, &r->n_params, arg);
  case 'L': return push(cmd, r->libs, &r->n_libs, arg);
  case OPT_START: return number(cmd, "--start-time", arg, 0, &r->start_time, &r->have_start);
  case OPT_STOP: return number(cmd, "--stop-time", arg, 0, &r->stop_time, &r->have_stop);
  case OPT_TOL: return number(cmd, "--tolerance", arg, 1, &r->rtol, &r->have_tol);
  case OPT_INTERVAL: return number(cmd, "--interval", arg, 1, &r->interval, &r->have_interval);
  case OPT_SOLVER:
    r->have_solver = 1;
    if (st_cli_solver(arg, &r->solver))
      return st_cli_bad_usage(cmd, "--solver: unknown solver '%s' (cvode, cvode-adams, ida)", arg);
    return 0;
  case OPT_EVENTS: r->events = arg; return 0;
  case OPT_STATS: r->stats = 1; return 0;
  case OPT_KEEP_PARTIAL: r->keep_partial = 1; return 0;
  case OPT_MAX_STEP:
    if (!strcmp(arg, "inf")) { /* no bound at all, as Dymola steps */
      r->max_step = INFINITY;
      r->have_max_step = 1;
      return 0;
    }
    return number(cmd, "--max-step", arg, 1, &r->max_step, &r->have_max_step);
  default: return 1;
  }
}

/* The long options of p (shared ones it accepts, then its own) into longs; -1 if too many. */
static int merge_longs(const st_cli_parser *p, struct option *longs) {
  int n = 0;
  for (int i = 0; i < N_RUN_LONGS; i++)
    if (p->common & run_long_bits[i]) longs[n++] = run_longs[i];
  for (const struct option *o = p->longs; o && o->name; o++) {
    if (n == MAX_LONGS - 2) return -1;
    longs[n++] = *o;
  }
  longs[n++] = (struct option){"help", no_argument, NULL, 'h'};
  longs[n] = (struct option){NULL, 0, NULL, 0};
  return 0;
}

static void merge_shorts(const st_cli_parser *p, char *shorts, size_t size) {
  snprintf(shorts, size, ":%s%s%s%sh", p->common & ST_RUN_OUTPUT ? "o:" : "",
           p->common & ST_RUN_PARAM ? "p:" : "", p->common & ST_RUN_LIB ? "L:" : "",
           p->shorts ? p->shorts : "");
}

int st_cli_parse(const st_cli_parser *p, int argc, char **argv, st_run_args *run) {
  struct option longs[MAX_LONGS];
  char shorts[64];
  if (merge_longs(p, longs)) return st_cli_bad_usage(p->cmd, "too many options", NULL);
  merge_shorts(p, shorts, sizeof shorts);
  int c;
  optind = 1;
  while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
    if (c == 'h') {
      p->usage(stdout);
      return -1;
    }
    if (c == ':') return st_cli_bad_usage(p->cmd, "option '%s' needs an argument", argv[optind - 1]);
    if (c == '?') return st_cli_bad_usage(p->cmd, "unrecognized option '%s'", argv[optind - 1]);
    int rc = run_option(p->cmd, run, c, optarg);
    if (rc == 1) rc = p->option ? p->option(p->ctx, c, optarg) : ST_CLI_EXIT_USAGE;
    if (rc) return rc;
  }
  return 0;
}

void st_cli_apply_run(const st_run_args *run, stiction_options *opt) {
  if (run->have_start) opt->start_time = run->start_time;
  if (run->have_stop) opt->stop_time = run->stop_time;
  if (run->have_tol) opt->rtol = run->rtol;
  if (run->have_interval) opt->interval = run->interval;
  if (run->have_solver) opt->solver = run->solver;
  if (run->have_max_step) opt->max_step = run->max_step;
}

int st_cli_solver(const char *text, stiction_solver *out) {
  if (!strcmp(text, "cvode") || !strcmp(text, "cvode-bdf")) *out = STICTION_SOLVER_CVODE_BDF;
  else if (!strcmp(text, "cvode-adams")) *out = STICTION_SOLVER_CVODE_ADAMS;
  else if (!strcmp(text, "ida")) *out = STICTION_SOLVER_IDA;
  else return -1;
  return 0;
}

/* What a failed run left at path (see st_cli_report_run). */
static void report_failure(const char *cmd, const char *name, const stiction_sim *sim,
                           const char *path, int keep_partial) {
  long rows = stiction_sim_stats(sim)->rows;
  const char *err = stiction_sim_error(sim);
  size_t len = strlen(name);
  if (!strncmp(err, name, len) && !strncmp(err + len, ": ", 2)) err += len + 2; /* named below */
  double t = stiction_sim_time(sim);
  if (!strcmp(path, "-")) {
    fprintf(stderr, "%s: %s: %s (stopped at t = %.17g; %ld row%s on standard output)\n", cmd,
            name, err, t, rows, rows == 1 ? "" : "s");
  } else if (rows > 0 && keep_partial) {
    fprintf(stderr, "%s: %s: %s (stopped at t = %.17g; the %ld row%s before %s kept in %s)\n",
            cmd, name, err, t, rows, rows == 1 ? "" : "s", rows == 1 ? "is" : "are", path);
  } else {
    struct stat sb;
    int old = stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
    char rows_text[128] = " before the first row";
    if (rows > 0)
      snprintf(rows_text, sizeof rows_text, "; the %ld row%s before it %s not kept (--keep-partial "
               "keeps them)", rows, rows == 1 ? "" : "s", rows == 1 ? "is" : "are");
    fprintf(stderr, "%s: %s: %s (stopped at t = %.17g%s; %s%s%s)\n", cmd, name, err, t,
            rows_text, old ? "the previous " : "no result file written", old ? path : "",
            old ? " is left as it was" : "");
  }
}

void st_cli_report_run(const char *cmd, const char *name, const stiction_sim *sim, int rc,
                       const char *path, double start_time, const st_run_args *run) {
  const stiction_stats *st = stiction_sim_stats(sim);
  int to_stdout = !strcmp(path, "-");
  FILE *info = to_stdout ? stderr : stdout;
  const char *why = stiction_sim_terminated(sim);
  if (!rc && why)
    fprintf(info, "%s: terminated by the model at t = %.17g: %s\n", name, stiction_sim_time(sim),
            why[0] ? why : "(no message)");
  if (!rc)
    fprintf(info, "%s: t = %g .. %g s, %ld rows, %ld state and %ld time events -> %s\n", name,
            start_time, stiction_sim_time(sim), st->rows, st->state_events, st->time_events,
            to_stdout ? "standard output" : path);
  else
    report_failure(cmd, name, sim, path, run->keep_partial);
  if (run->stats) stiction_stats_print(st, info);
}

/* Inputs exist, so only outputs that exist already can be one of them: one stat per input
 * then, none at all for a new file (a run reads dozens of library files). */
int st_cli_check_outputs(const char *cmd, const st_run_args *run, const char *output,
                         const char *const *inputs, int ninputs) {
  struct stat so, se, si;
  int have_o = strcmp(output, "-") && stat(output, &so) == 0;
  int have_e = run->events && stat(run->events, &se) == 0;
  for (int i = 0; i < ninputs && (have_o || have_e); i++) {
    if (!inputs[i] || stat(inputs[i], &si)) continue;
    if (have_o && so.st_dev == si.st_dev && so.st_ino == si.st_ino)
      return st_cli_bad_usage(cmd, "-o '%s' names an input file; refusing to write over it",
                              output);
    if (have_e && se.st_dev == si.st_dev && se.st_ino == si.st_ino)
      return st_cli_bad_usage(cmd, "--events '%s' names an input file; refusing to write over it",
                              run->events);
  }
  if (run->events && st_same_file(output, run->events))
    return st_cli_bad_usage(cmd, "--events '%s' is also the result file (-o)", run->events);
  return 0;
}

int st_cli_open_outputs(const char *cmd, const st_run_args *run, const char *path,
                        const stiction_model *model, stiction_writer **w, st_event_log *log) {
  *w = NULL;
  *log = (st_event_log){{NULL, NULL, NULL}, NULL, 0};
  if (stiction_writer_open(w, path, strcmp(path, "-") ? STICTION_FORMAT_AUTO : STICTION_FORMAT_CSV)) {
    st_cli_open_failed(cmd, path);
    return ST_CLI_EXIT_RUN;
  }
  stiction_writer_set_flush_interval(*w, ST_CLI_FLUSH_INTERVAL);
  stiction_writer_keep_partial(*w, run->keep_partial);
  if (run->events && st_event_log_open(log, run->events, model)) {
    fprintf(stderr, "%s: %s: %s\n", cmd, run->events, strerror(errno));
    stiction_writer_close(*w);
    *w = NULL;
    return ST_CLI_EXIT_RUN;
  }
  return 0;
}

int st_cli_close_outputs(const char *cmd, const st_run_args *run, const char *path,
                         stiction_writer *w, st_event_log *log, int run_failed) {
  int status = 0;
  if (stiction_writer_close(w)) {
    fprintf(stderr, "%s: %s: write error; nothing written there\n", cmd, path);
    status = ST_CLI_EXIT_RUN;
  }
  if (st_event_log_close(log, !run_failed || run->keep_partial)) {
    fprintf(stderr, "%s: %s: write error; nothing written there\n", cmd, run->events);
    status = ST_CLI_EXIT_RUN;
  }
  return status;
}

int st_event_log_open(st_event_log *log, const char *path, const stiction_model *model) {
  log->model = model;
  log->failed = 0;
  if (st_outfile_open(&log->out, path, "w")) return -1;
  fputs("time,kind,indicators,iterations,changed,clock_ticks\n", log->out.file);
  return 0;
}

void st_cli_csv_field(FILE *f, const char *text) {
  if (!strpbrk(text, ",\"\n\r")) {
    fputs(text, f);
    return;
  }
  fputc('"', f);
  for (const char *p = text; *p; p++) {
    if (*p == '"') fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

static const char *kind_name(stiction_event_kind kind) {
  static const char *const names[] = {"initial", "state", "time", "step"};
  return kind >= 0 && kind <= STICTION_EVENT_STEP ? names[kind] : "unknown";
}

static const char *indexed_name(const char *const *names, int k, int n, char *buf, size_t size,
                                char prefix) {
  if (names && k >= 0 && k < n) return names[k];
  snprintf(buf, size, "%c[%d]", prefix, k);
  return buf;
}

/* "name(+); name(-)" for the indicators that fired. */
static void fired_text(const st_event_log *log, const stiction_event_record *e, char *buf,
                       size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < e->n_fired && n < size; i++) {
    char idx[32];
    const char *name = indexed_name(log->model->indicator_names, e->fired[i],
                                    log->model->n_indicators, idx, sizeof idx, 'g');
    n += (size_t)snprintf(buf + n, size - n, "%s%s(%c)", i ? "; " : "", name,
                          e->fired_direction && e->fired_direction[i] < 0 ? '-' : '+');
  }
}

/* "name: before -> after; ..." for the discrete variables that changed. */
static void changed_text(const st_event_log *log, const stiction_event_record *e, char *buf,
                         size_t size) {
  size_t n = 0;
  buf[0] = 0;
  for (int i = 0; i < e->n_changed && n < size; i++) {
    int k = e->changed[i];
    char idx[32];
    const char *name = indexed_name(log->model->discrete_names, k, log->model->n_discrete, idx,
                                    sizeof idx, 'd');
    if (e->before && e->after)
      n += (size_t)snprintf(buf + n, size - n, "%s%s: %.17g -> %.17g", i ? "; " : "", name,
                            e->before[k], e->after[k]);
    else
      n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "; " : "", name);
  }
}

int st_event_log_write(void *user_data, const stiction_event_record *e) {
  st_event_log *log = user_data;
  char fired[1024], changed[2048];
  fired_text(log, e, fired, sizeof fired);
  changed_text(log, e, changed, sizeof changed);
  fprintf(log->out.file, "%.17g,%s,", e->time, kind_name(e->kind));
  st_cli_csv_field(log->out.file, fired);
  fprintf(log->out.file, ",%d,", e->iterations);
  st_cli_csv_field(log->out.file, changed);
  fprintf(log->out.file, ",%d\n", e->clock_ticks);
  if (ferror(log->out.file)) log->failed = 1;
  return 0;
}

int st_event_log_close(st_event_log *log, int keep) {
  if (!log->out.file) return 0;
  if (keep && !log->failed && !ferror(log->out.file)) return st_outfile_commit(&log->out);
  st_outfile_abort(&log->out);
  return keep ? -1 : 0;
}
