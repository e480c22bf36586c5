/* `stiction study MODEL`: simulates one model with its exact (event-driven) friction element
 * and with each regularized law x width, and prints accuracy against the exact run (period,
 * trajectory RMS) next to the cost of each run (statistics of the runtime). doc/study.md.
 *
 * The model comes from a "study source" (cli/study.h): something that can hand out a
 * runnable stiction_model for the reference and for (law, width): the built-in demos
 * (leine-belt + leine-belt-smooth, here) or a Modelica model whose element NAME is switched
 * by modifiers (`stiction study MODEL.mo --element NAME`, study_modelica.c). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/demos.h>
#include <stiction/stiction.h>

#include "cli/commands.h"
#include "cli/sim_common.h"
#include "cli/study.h"
#include "cli/sweep.h"

enum { EXIT_RUN = 1, EXIT_USAGE = 2 };
enum { MAX_LIST = 32 };

/* ---- laws -------------------------------------------------------------------------------- */

enum { LAW_ARCTAN = ST_LAW_ARCTAN, LAW_TANH = ST_LAW_TANH, LAW_KARNOPP = ST_LAW_KARNOPP,
       LAW_LUGRE = ST_LAW_LUGRE };

static const char *const law_names[] = {"", "arctan", "tanh", "karnopp", "lugre"};

static int law_from_name(const char *name) {
  if (!strcmp(name, "atan")) return LAW_ARCTAN;
  for (int i = LAW_ARCTAN; i <= LAW_LUGRE; i++)
    if (!strcmp(name, law_names[i])) return i;
  return -1;
}

/* ---- the model behind a study ------------------------------------------------------------ */

typedef st_study_model study_model;
typedef st_study_source study_source;

static void demo_close(study_model *m) {
  stiction_demo_free(m->handle);
  m->handle = NULL;
}

/* How a study width maps onto the smooth demo: arctan/tanh slope eps; Karnopp band
 * DV = 1/width (so larger is sharper for every law); LuGre sigma0 = width with the bristle
 * critically damped on the unit mass, sigma1 = 2 sqrt(sigma0 m) (20 at Leine's sigma0 = 100). */
static int demo_set_law(stiction_demo *demo, int law, double width, char *msg, size_t size) {
  double m = 1.0;
  stiction_demo_get(demo, "m", &m);
  int rc = stiction_demo_set(demo, "law", law, msg, size);
  if (!rc && law == LAW_KARNOPP) rc = stiction_demo_set(demo, "eps", 1.0 / width, msg, size);
  else if (!rc && law != LAW_LUGRE) rc = stiction_demo_set(demo, "eps", width, msg, size);
  if (!rc && law == LAW_LUGRE) rc = stiction_demo_set(demo, "sigma0", width, msg, size);
  if (!rc && law == LAW_LUGRE)
    rc = stiction_demo_set(demo, "sigma1", 2.0 * sqrt(width * m), msg, size);
  return rc;
}

static int demo_open(const study_source *src, int law, double width, study_model *out,
                     char *msg, size_t size) {
  stiction_demo *demo;
  const char *name = law ? src->smooth_demo : src->exact_demo;
  if (stiction_demo_new(&demo, name)) {
    snprintf(msg, size, "cannot create demo '%s'", name);
    return -1;
  }
  if (law && demo_set_law(demo, law, width, msg, size)) {
    stiction_demo_free(demo);
    return -1;
  }
  stiction_options_init(&out->opt);
  stiction_demo_options(demo, &out->opt);
  out->model = stiction_demo_model(demo);
  out->user_data = stiction_demo_data(demo);
  out->handle = demo;
  return 0;
}

static const study_source sources[] = {
    {"leine-belt", "x", demo_open, demo_close, "leine-belt", "leine-belt-smooth", NULL},
};

static const study_source *find_source(const char *name) {
  for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
    if (!strcmp(sources[i].name, name)) return &sources[i];
  return NULL;
}

/* ---- arguments --------------------------------------------------------------------------- */

enum { METRIC_PERIOD = 1, METRIC_RMS = 2, METRIC_ALL = 3 };

typedef struct study_args {
  const char *model, *element, *signal, *events;
  const char *const *libs; /* the -L directories, in the shared run options */
  int n_libs;
  int laws[MAX_LIST], n_laws;
  double widths[MAX_LIST];
  int n_widths;
  int have_stop, have_tol, have_laws, csv, metric;
  double stop_time, rtol, atol, interval;
  stiction_solver solver;
} study_args;

static void usage(FILE *out) {
  fputs("Usage: stiction study DEMO [OPTION]...\n"
        "       stiction study MODEL.mo|CLASS --element NAME [OPTION]...\n"
        "Simulate a model with its exact, event-driven friction element and with each\n"
        "regularized friction law and width; print the accuracy of every regularized run\n"
        "against the event-driven one and the cost of every run.\n\n"
        "  -e, --element NAME     the friction element of a Modelica model: a component with\n"
        "                         the parameters law (Stiction.Types.FrictionLaw), eps,\n"
        "                         sigma0, sigma1, switched by modifiers for every run; or an\n"
        "                         MSL BearingFriction, Brake, Clutch, SupportFriction or\n"
        "                         Translational Brake, replaced in the regularized runs by\n"
        "                         the Stiction element of the same kind (every law)\n"
        "      --signal VAR       the variable whose period and RMS are measured (default x)\n"
        "  -L DIR                 add a Modelica library directory (repeatable)\n"
        "  -l, --laws LIST        comma-separated laws (default arctan,tanh,karnopp,lugre):\n"
        "                         arctan (also atan)  F = -g (2/pi) atan(W gamma)\n"
        "                         tanh                F = -g tanh(W gamma)\n"
        "                         karnopp             velocity band |gamma| < 1/W\n"
        "                         lugre               sigma0 = W, sigma1 = 2 sqrt(sigma0 m)\n"
        "  -w, --widths LIST      comma-separated sharpness values W > 0, larger = closer to\n"
        "                         the exact law (default 1e2,1e3,1e4,1e5,1e6)\n"
        "      --stop-time T      stop time in s (default: the model's experiment, else\n"
        "                         60.005, five Leine periods)\n"
        "      --tolerance R      relative tolerance of every run (default: the model's\n"
        "                         experiment, else 1e-6)\n"
        "      --atol A           absolute tolerance (default 1e-3 R, as doc/benchmarks.md §1.3)\n"
        "      --interval DT      common output grid for the RMS error (default 0.01 s)\n"
        "      --solver S         cvode (BDF, default), cvode-adams or ida\n"
        "      --metric M         accuracy columns: period, rms or all (default)\n"
        "      --csv              comma-separated output instead of an aligned table\n"
        "      --events FILE      write the event log of the event-driven run as CSV (the\n"
        "                         format of `stiction simulate --events`)\n"
        "  -h, --help             display this help and exit\n\n"
        "Demos: leine-belt (Leine's block on a belt; exact model: the built-in demo\n"
        "leine-belt, regularized: leine-belt-smooth). Modelica: e.g.\n"
        "  stiction study Stiction.Examples.LeineBelt --element friction\n"
        "A Modelica element gets eps = 1/W (arctan, tanh, Karnopp band) or sigma0 = W,\n"
        "sigma1 = 2 sqrt(W) (LuGre).\n\n"
        "Columns: law, width W, period (regularized: mean spacing of the upward zero\n"
        "crossings of the signal, linearly interpolated; event-driven: mean spacing of the\n"
        "first events after those crossings), period_error (s, against the event-driven\n"
        "run), rms (of the signal\n"
        "against the event-driven run on the common output grid), wall_s, steps, nfe\n"
        "(right-hand sides, including difference quotients), njac, events (state + time).\n"
        "Exit status: 0 success, 1 a simulation failed (its row shows '-'), 2 bad usage.\n",
        out);
}

/* One line saying what is wrong, then the GNU hint; returns the usage exit status. */
static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_usage(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("stiction study: ", stderr);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputs("\nTry 'stiction study --help'.\n", stderr);
  return EXIT_USAGE;
}

static int parse_number(const char *text, double *out) { return st_cli_number(text, out); }

/* Splits a comma list into a scratch copy; calls item() on every element. */
static int parse_list(const char *opt, const char *text, study_args *a,
                      int (*item)(const char *opt, const char *word, study_args *a)) {
  char buf[1024];
  if (strlen(text) >= sizeof buf) return bad_usage("%s: list too long", opt);
  strcpy(buf, text);
  char *save = NULL, *word = strtok_r(buf, ",", &save);
  if (!word) return bad_usage("%s: empty list", opt);
  for (; word; word = strtok_r(NULL, ",", &save)) {
    int rc = item(opt, word, a);
    if (rc) return rc;
  }
  return 0;
}

static int law_item(const char *opt, const char *word, study_args *a) {
  int law = law_from_name(word);
  if (law < 0) return bad_usage("%s: unknown law '%s' (arctan, tanh, karnopp, lugre)", opt, word);
  if (a->n_laws == MAX_LIST) return bad_usage("%s: too many laws (at most %d)", opt, MAX_LIST);
  a->laws[a->n_laws++] = law;
  return 0;
}

static int width_item(const char *opt, const char *word, study_args *a) {
  double w;
  if (parse_number(word, &w) || w <= 0.0)
    return bad_usage("%s: invalid width '%s' (expected a positive number)", opt, word);
  if (a->n_widths == MAX_LIST) return bad_usage("%s: too many widths (at most %d)", opt, MAX_LIST);
  a->widths[a->n_widths++] = w;
  return 0;
}

static int parse_metric(const char *text, int *out) {
  if (!strcmp(text, "period")) *out = METRIC_PERIOD;
  else if (!strcmp(text, "rms")) *out = METRIC_RMS;
  else if (!strcmp(text, "all")) *out = METRIC_ALL;
  else return bad_usage("--metric: unknown metric '%s' (period, rms, all)", text);
  return 0;
}

enum { OPT_ATOL = 256, OPT_METRIC, OPT_CSV, OPT_SIGNAL };

/* One of study's own options (st_cli_parser.option); the run options it shares with
 * simulate (-L, --stop-time, --tolerance, --interval, --solver, --events) are parsed by
 * st_cli_parse. */
static int parse_option(void *ctx, int c, const char *arg) {
  study_args *a = ctx;
  double v;
  switch (c) {
  case 'l': a->n_laws = 0; a->have_laws = 1; return parse_list("--laws", arg, a, law_item);
  case 'w': a->n_widths = 0; return parse_list("--widths", arg, a, width_item);
  case OPT_ATOL:
    if (parse_number(arg, &v) || v <= 0)
      return bad_usage("--atol: invalid value '%s' (expected a positive number)", arg);
    a->atol = v;
    return 0;
  case OPT_METRIC: return parse_metric(arg, &a->metric);
  case OPT_CSV: a->csv = 1; return 0;
  case 'e': a->element = arg; return 0;
  case OPT_SIGNAL: a->signal = arg; return 0;
  }
  return EXIT_USAGE;
}

static void default_args(study_args *a) {
  *a = (study_args){.n_laws = 4, .laws = {LAW_ARCTAN, LAW_TANH, LAW_KARNOPP, LAW_LUGRE},
                    .n_widths = 5, .widths = {1e2, 1e3, 1e4, 1e5, 1e6}, .stop_time = 60.005,
                    .rtol = 1e-6, .interval = 0.01, .metric = METRIC_ALL,
                    .solver = STICTION_SOLVER_CVODE_BDF};
}

/* The shared run options over study's defaults (the experiment comes later, check_source). */
static int take_run(const st_run_args *run, study_args *a) {
  if (run->have_stop && run->stop_time <= 0)
    return bad_usage("--stop-time: invalid value '%g' (expected a positive number)",
                     run->stop_time);
  a->have_stop = run->have_stop;
  if (run->have_stop) a->stop_time = run->stop_time;
  a->have_tol = run->have_tol;
  if (run->have_tol) a->rtol = run->rtol;
  if (run->have_interval) a->interval = run->interval;
  if (run->have_solver) a->solver = run->solver;
  a->events = run->events;
  a->libs = run->libs;
  a->n_libs = run->n_libs;
  return 0;
}

/* Returns 0, EXIT_USAGE, or -1 for --help (already printed). run holds the -L list. */
static int parse_args(int argc, char **argv, study_args *a, st_run_args *run) {
  static const struct option longs[] = {
      {"laws", required_argument, NULL, 'l'},       {"widths", required_argument, NULL, 'w'},
      {"atol", required_argument, NULL, OPT_ATOL},
      {"metric", required_argument, NULL, OPT_METRIC},
      {"csv", no_argument, NULL, OPT_CSV},
      {"element", required_argument, NULL, 'e'},
      {"signal", required_argument, NULL, OPT_SIGNAL},
      {NULL, 0, NULL, 0}};
  const st_cli_parser p = {"stiction study",
                           ST_RUN_LIB | ST_RUN_STOP | ST_RUN_TOL | ST_RUN_INTERVAL |
                               ST_RUN_SOLVER | ST_RUN_EVENTS,
                           longs, "l:w:e:", parse_option, a, usage};
  default_args(a);
  *run = (st_run_args){0};
  int rc = st_cli_parse(&p, argc, argv, run);
  if (!rc) rc = take_run(run, a);
  if (rc) return rc;
  if (optind >= argc) return bad_usage("missing MODEL");
  if (argc - optind > 1) return bad_usage("unexpected argument '%s'", argv[optind + 1]);
  a->model = argv[optind];
  return 0;
}

/* ---- one run: the studied signal over time ---------------------------------------------- */

typedef struct series {
  const char *signal;
  int column;          /* of the signal in the result rows, -1 until begin() */
  double *t, *x;
  size_t n, cap;
} series;

static int series_begin(void *ud, int ncols, const char *const *names) {
  series *s = ud;
  for (int i = 1; i < ncols; i++)
    if (!strcmp(names[i], s->signal)) s->column = i;
  return s->column < 0;
}

static int series_row(void *ud, const double *values) {
  series *s = ud;
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 1024;
    double *t = realloc(s->t, cap * sizeof *t);
    if (t) s->t = t;
    double *x = t ? realloc(s->x, cap * sizeof *x) : NULL;
    if (!x) return -1;
    s->x = x;
    s->cap = cap;
  }
  s->t[s->n] = values[0];
  s->x[s->n++] = values[s->column];
  return 0;
}

static void series_free(series *s) {
  free(s->t);
  free(s->x);
}

/* The period measures of st_period (sweep.h) over the rows: the crossings' spacing for
 * the regularized runs, the events' (break-aways) for the event-driven one. */
static st_period series_periods(const series *s) {
  st_period p;
  st_period_init(&p, 0.0);
  for (size_t i = 0; i < s->n; i++) st_period_add(&p, s->t[i], s->x[i]);
  return p;
}

static double series_period(const series *s) {
  st_period p = series_periods(s);
  return st_period_crossings(&p);
}

/* The signal at time t: the last row at exactly t (the right limit at an event), else
 * linear interpolation; NAN outside the rows. *hint speeds up increasing t. */
static double series_at(const series *s, double t, size_t *hint) {
  size_t i = *hint;
  if (s->n == 0 || t < s->t[0] || t > s->t[s->n - 1]) return NAN;
  while (i + 1 < s->n && s->t[i + 1] <= t) i++;
  *hint = i;
  if (s->t[i] == t || i + 1 == s->n) return s->x[i];
  double a = (t - s->t[i]) / (s->t[i + 1] - s->t[i]);
  return s->x[i] + a * (s->x[i + 1] - s->x[i]);
}

/* RMS of (s - ref) on the grid t0 + k dt that both runs cover. */
static double series_rms(const series *s, const series *ref, double t0, double t1, double dt) {
  size_t hs = 0, hr = 0;
  double sum = 0.0;
  long n = 0;
  for (long k = 0; t0 + k * dt <= t1 + fabs(t1) * 1e-12; k++) {
    double t = t0 + k * dt, a = series_at(s, t, &hs), b = series_at(ref, t, &hr);
    if (isnan(a) || isnan(b)) return NAN;
    sum += (a - b) * (a - b);
    n++;
  }
  return n ? sqrt(sum / n) : NAN;
}

typedef struct run_result {
  int law;
  double width;
  int failed;
  char error[256];
  series s;
  stiction_stats stats;
  double period, period_error, rms;
} run_result;

static void apply_options(const study_args *a, stiction_options *opt) {
  opt->stop_time = a->stop_time;
  opt->rtol = a->rtol;
  opt->atol = a->atol > 0 ? a->atol : 1e-3 * a->rtol;
  opt->interval = a->interval;
  opt->solver = a->solver;
  /* The output grid only samples the dense output; it must not limit the step size, or the
   * cost columns would measure the grid instead of the law. */
  opt->max_step = INFINITY;
}

/* Simulates one configuration into r (r->failed and r->error on failure). */
static void run_one(const study_source *src, const study_args *a, run_result *r) {
  study_model m = {0};
  r->s = (series){.signal = a->signal ? a->signal : src->signal, .column = -1};
  if (src->open(src, r->law, r->width, &m, r->error, sizeof r->error)) {
    r->failed = 1;
    return;
  }
  apply_options(a, &m.opt);
  stiction_sim *sim = stiction_sim_new(m.model, m.user_data, &m.opt);
  stiction_sink sink = {sizeof(stiction_sink), series_begin, series_row, NULL, &r->s};
  int rc = sim ? stiction_sim_set_sink(sim, &sink) : STICTION_ERR_NOMEM;
  st_event_log log = {0};
  const char *events = r->law == ST_LAW_EXACT ? a->events : NULL;
  if (!rc && events && st_event_log_open(&log, events, m.model)) {
    snprintf(r->error, sizeof r->error, "cannot write %s", events);
    rc = -1;
  }
  if (!rc && events) rc = stiction_sim_set_event_listener(sim, st_event_log_write, &log);
  if (!rc) rc = stiction_sim_run(sim);
  if (st_event_log_close(&log, rc == 0) && !rc) {
    snprintf(r->error, sizeof r->error, "cannot write %s", events);
    rc = -1;
  }
  if (rc && r->s.column < 0 && !*r->error)
    snprintf(r->error, sizeof r->error, "'%s' is not a recorded variable of the model "
             "(--signal)", r->s.signal);
  if (rc) {
    r->failed = 1;
    if (!*r->error)
      snprintf(r->error, sizeof r->error, "%s", sim ? stiction_sim_error(sim) : "out of memory");
  }
  if (sim) r->stats = *stiction_sim_stats(sim);
  stiction_sim_free(sim);
  src->close(&m);
}

static void measure(run_result *r, const run_result *ref, const study_args *a) {
  r->period = r->failed ? NAN : series_period(&r->s);
  r->period_error = r->period - ref->period;
  r->rms = r->failed ? NAN : series_rms(&r->s, &ref->s, 0.0, a->stop_time, a->interval);
}

/* ---- the table ----------------------------------------------------------------------------- */

static void print_header(const study_args *a) {
  int p = a->metric & METRIC_PERIOD, q = a->metric & METRIC_RMS;
  if (a->csv) {
    printf("law,width%s%s,wall_s,steps,nfe,njac,events\n", p ? ",period,period_error" : "",
           q ? ",rms" : "");
    return;
  }
  printf("%-12s %8s", "law", "width");
  if (p) printf(" %12s %12s", "period", "period_error");
  if (q) printf(" %11s", "rms");
  printf(" %10s %7s %7s %6s %6s\n", "wall_s", "steps", "nfe", "njac", "events");
}

/* One number column: "-" (plain) or empty (CSV) for NaN. */
static void print_num(const study_args *a, int width, const char *fmt, double v) {
  char buf[64];
  if (isnan(v)) snprintf(buf, sizeof buf, "%s", a->csv ? "" : "-");
  else snprintf(buf, sizeof buf, fmt, v);
  if (a->csv) printf(",%s", buf);
  else printf(" %*s", width, buf);
}

static void print_row(const study_args *a, const run_result *r) {
  const char *law = r->law ? law_names[r->law] : "event-driven";
  if (a->csv) printf("%s,", law);
  else printf("%-12s ", law);
  if (a->csv) {
    if (r->law) printf("%g", r->width);
  } else if (r->law) {
    printf("%8g", r->width);
  } else {
    printf("%8s", "-");
  }
  if (a->metric & METRIC_PERIOD) {
    print_num(a, 12, "%.6f", r->period);
    print_num(a, 12, "%+.6f", r->law ? r->period_error : NAN);
  }
  if (a->metric & METRIC_RMS) print_num(a, 11, "%.4e", r->law ? r->rms : NAN);
  const stiction_stats *st = &r->stats;
  print_num(a, 10, "%.6f", st->wall_total);
  if (a->csv)
    printf(",%ld,%ld,%ld,%ld\n", st->steps, st->nfe + st->nfe_fd, st->njac,
           st->state_events + st->time_events);
  else
    printf(" %7ld %7ld %6ld %6ld\n", st->steps, st->nfe + st->nfe_fd, st->njac,
           st->state_events + st->time_events);
}

/* ---- the command ----------------------------------------------------------------------------- */

static int run_study(const study_source *src, const study_args *a) {
  run_result ref = {.law = 0};
  run_one(src, a, &ref);
  if (ref.failed) {
    fprintf(stderr, "stiction study: %s, event-driven run: %s\n", src->name, ref.error);
    series_free(&ref.s);
    return EXIT_RUN;
  }
  st_period p = series_periods(&ref.s);
  ref.period = st_period_events(&p);
  if (isnan(ref.period)) ref.period = st_period_crossings(&p);
  print_header(a);
  print_row(a, &ref);
  int status = 0;
  for (int i = 0; i < a->n_laws; i++)
    for (int j = 0; j < a->n_widths; j++) {
      run_result r = {.law = a->laws[i], .width = a->widths[j]};
      run_one(src, a, &r);
      measure(&r, &ref, a);
      if (r.failed) {
        fprintf(stderr, "stiction study: %s %g: %s\n", law_names[r.law], r.width, r.error);
        status = EXIT_RUN;
      }
      print_row(a, &r);
      fflush(stdout);
      series_free(&r.s);
    }
  series_free(&ref.s);
  return status;
}

static int unknown_model(const char *name) {
  fprintf(stderr, "stiction study: unknown model '%s' (built-in models: leine-belt; a Modelica "
                  "model needs --element NAME)\n", name);
  return EXIT_USAGE;
}

static int is_mo_file(const char *name) {
  size_t len = strlen(name);
  return len > 3 && !strcmp(name + len - 3, ".mo");
}

/* An MSL element is replaced by a Stiction element that has some of the laws only
 * (st_study_modelica_has_law): those of the default list are the default then, and asking
 * for another is a usage error. */
static int check_laws(const study_source *src, study_args *a) {
  const char *replacement = NULL;
  if (!a->have_laws) {
    int n = 0;
    for (int i = 0; i < a->n_laws; i++)
      if (st_study_modelica_has_law(src, a->laws[i], &replacement)) a->laws[n++] = a->laws[i];
    a->n_laws = n;
  }
  for (int i = 0; i < a->n_laws; i++)
    if (!st_study_modelica_has_law(src, a->laws[i], &replacement))
      return bad_usage("--laws: '%s' is not available for '%s': the regularized runs use "
                       "%s, which does not have it", law_names[a->laws[i]],
                       a->element, replacement);
  return 0;
}

/* MODEL.mo or a class name with --element: the Modelica source. The model's experiment
 * replaces the demo defaults of the options the user did not give. */
static int study_modelica(study_args *a) {
  study_source src = {.signal = "x"};
  stiction_options ex;
  stiction_options_init(&ex);
  ex.stop_time = a->stop_time;
  ex.rtol = a->rtol;
  int file = is_mo_file(a->model);
  if (st_study_modelica_init(&src, file ? a->model : NULL, file ? NULL : a->model, a->element,
                             a->libs, a->n_libs, &ex))
    return EXIT_RUN;
  if (!a->have_stop) a->stop_time = ex.stop_time;
  if (!a->have_tol) a->rtol = ex.rtol;
  int rc = check_laws(&src, a);
  if (!rc) rc = run_study(&src, a);
  st_study_modelica_free(&src);
  return rc;
}

int st_cmd_study(int argc, char **argv) {
  study_args a;
  st_run_args run;
  int rc = parse_args(argc, argv, &a, &run);
  if (rc) return rc < 0 ? 0 : rc;
  if (a.element) return study_modelica(&a);
  if (is_mo_file(a.model))
    return bad_usage("%s: a Modelica model needs --element NAME (its friction element)", a.model);
  const study_source *src = find_source(a.model);
  if (!src) return unknown_model(a.model);
  return run_study(src, &a);
}
