/* `make bench-study`: Leine's belt, event-driven (demo leine-belt) against the regularized
 * laws (demo leine-belt-smooth), doc/benchmarks.md §1.3-§1.4 and issue 6:
 *   1. cost at equal accuracy: for each target period error, the cheapest (width, rtol) of
 *      each law that meets it, and its cost relative to the cheapest event-driven run that
 *      meets it;
 *   2. rtol 1e-4, where the stiff regularizations go qualitatively wrong: period, crossings
 *      and the fraction of time spent (nearly) stuck to the belt.
 * Usage: study_bench [SCALE]  (SCALE multiplies the repetitions of the timed runs). Times are
 * machine-dependent; compare ratios. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stiction/demos.h>
#include <stiction/stiction.h>

#define LEINE_PERIOD 12.001031295
#define STOP 60.005

typedef struct meas {
  int xcol, vcol, rows, n;
  double tprev, xprev, vprev, first, last, stuck;
} meas;

static int m_begin(void *ud, int ncols, const char *const *names) {
  meas *m = ud;
  for (int i = 0; i < ncols; i++) {
    if (!strcmp(names[i], "x")) m->xcol = i;
    if (!strcmp(names[i], "v")) m->vcol = i;
  }
  return !(m->xcol > 0 && m->vcol > 0);
}

/* Upward zero crossings of x (interpolated) and time with |v - 0.2| < 1e-3 ("stuck"). */
static int m_row(void *ud, const double *r) {
  meas *m = ud;
  double t = r[0], x = r[m->xcol], v = r[m->vcol];
  if (m->rows++ && t > m->tprev) {
    if (m->xprev < 0 && x >= 0) {
      double tc = t - (t - m->tprev) * x / (x - m->xprev);
      if (m->n++ == 0) m->first = tc;
      m->last = tc;
    }
    if (fabs(m->vprev - 0.2) < 1e-3) m->stuck += t - m->tprev;
  }
  m->tprev = t;
  m->xprev = x;
  m->vprev = v;
  return 0;
}

typedef struct config {
  int law;        /* 0: event-driven, 1 arctan, 2 tanh, 3 Karnopp, 4 LuGre */
  double width;   /* eps (arctan/tanh), 1/DV (Karnopp), sigma0 (LuGre) */
  double sigma1;  /* LuGre; 0: 2 sqrt(sigma0) */
  double rtol;
} config;

typedef struct outcome {
  int ok;
  double period, stuck_fraction, cpu_us;
  int crossings;
  stiction_stats stats;
} outcome;

static const char *const law_names[] = {"event-driven", "arctan", "tanh", "karnopp", "lugre"};

static stiction_demo *make(const config *c) {
  stiction_demo *d;
  if (stiction_demo_new(&d, c->law ? "leine-belt-smooth" : "leine-belt")) return NULL;
  if (!c->law) return d;
  stiction_demo_set(d, "law", c->law, NULL, 0);
  if (c->law == 4) {
    stiction_demo_set(d, "sigma0", c->width, NULL, 0);
    stiction_demo_set(d, "sigma1", c->sigma1 > 0 ? c->sigma1 : 2 * sqrt(c->width), NULL, 0);
  } else {
    stiction_demo_set(d, "eps", c->law == 3 ? 1.0 / c->width : c->width, NULL, 0);
  }
  return d;
}

/* CPU time of the process: the machine running `make bench` may be shared, and the ratios
 * should not depend on what else runs. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* One run, creation and freeing included in the time (as doc/benchmarks.md §1.4). */
static outcome run_once(const config *c) {
  outcome o = {0};
  meas m = {0};
  double t0 = now();
  stiction_demo *d = make(c);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = STOP;
  opt.interval = 0.01;
  opt.rtol = c->rtol;
  opt.atol = 1e-3 * c->rtol;
  opt.max_step = INFINITY;
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(d), stiction_demo_data(d), &opt);
  stiction_sink sink = {sizeof(stiction_sink), m_begin, m_row, NULL, &m};
  stiction_sim_set_sink(sim, &sink);
  o.ok = stiction_sim_run(sim) == STICTION_OK;
  o.stats = *stiction_sim_stats(sim);
  stiction_sim_free(sim);
  stiction_demo_free(d);
  o.cpu_us = 1e6 * (now() - t0);
  o.crossings = m.n;
  o.period = m.n >= 2 ? (m.last - m.first) / (m.n - 1) : NAN;
  o.stuck_fraction = m.stuck / STOP;
  return o;
}

/* The run's numbers with the median CPU time of `reps` repetitions. */
static outcome run_timed(const config *c, int reps) {
  double w[64];
  outcome o = run_once(c);
  if (reps > 64) reps = 64;
  w[0] = o.cpu_us;
  for (int i = 1; i < reps; i++) w[i] = run_once(c).cpu_us;
  for (int i = 1; i < reps; i++) /* insertion sort, reps is small */
    for (int j = i; j > 0 && w[j] < w[j - 1]; j--) {
      double tmp = w[j];
      w[j] = w[j - 1];
      w[j - 1] = tmp;
    }
  o.cpu_us = w[reps / 2];
  return o;
}

static double period_error(const outcome *o) {
  return o->ok && !isnan(o->period) ? fabs(o->period - LEINE_PERIOD) : INFINITY;
}

static const double rtols[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
static const double widths[] = {1e2, 1e3, 1e4, 1e5, 1e6};
enum { NR = sizeof rtols / sizeof rtols[0], NW = sizeof widths / sizeof widths[0] };

/* The cheapest configuration of `law` (by f-evaluations) with period error <= target. */
static int cheapest(int law, double target, const outcome grid[][NW][NR], config *best) {
  long best_nfe = -1;
  for (int w = 0; w < (law ? NW : 1); w++)
    for (int r = 0; r < NR; r++) {
      const outcome *o = &grid[law][w][r];
      long nfe = o->stats.nfe + o->stats.nfe_fd;
      if (period_error(o) > target || (best_nfe >= 0 && nfe >= best_nfe)) continue;
      best_nfe = nfe;
      *best = (config){law, law ? widths[w] : 0, 0, rtols[r]};
    }
  return best_nfe >= 0;
}

/* "1e+06", or "-" for the event-driven run, which has no width. */
static const char *width_text(const config *c, char *buf, size_t size) {
  if (c->law) snprintf(buf, size, "%.0e", c->width);
  else snprintf(buf, size, "-");
  return buf;
}

static void print_line(const config *c, const outcome *o, const outcome *ref) {
  char w[32];
  printf("  %-12s %8s %6.0e %12.6f %10.2e %7ld %7ld %9.0f %6.2f %6.2f\n", law_names[c->law],
         width_text(c, w, sizeof w), c->rtol, o->period, fabs(o->period - LEINE_PERIOD),
         o->stats.steps, o->stats.nfe + o->stats.nfe_fd, o->cpu_us,
         (double)(o->stats.nfe + o->stats.nfe_fd) / (ref->stats.nfe + ref->stats.nfe_fd),
         o->cpu_us / ref->cpu_us);
}

static void equal_accuracy(int reps) {
  static outcome grid[5][NW][NR];
  for (int law = 0; law <= 4; law++)
    for (int w = 0; w < (law ? NW : 1); w++)
      for (int r = 0; r < NR; r++)
        grid[law][w][r] = run_once(&(config){law, widths[w], 0, rtols[r]});
  const double targets[] = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5};
  puts("1. Cost at equal accuracy: cheapest (width, rtol) per law whose period error meets the"
       "\n   target (widths 1e2..1e6, rtol 1e-4..1e-9, atol 1e-3 rtol, 60.005 s); ratios are"
       "\n   against the cheapest event-driven run meeting the same target.");
  for (size_t k = 0; k < sizeof targets / sizeof targets[0]; k++) {
    config ec, c;
    printf("\n target |period error| <= %g s\n", targets[k]);
    printf("  %-12s %8s %6s %12s %10s %7s %7s %9s %6s %6s\n", "law", "width", "rtol", "period",
           "error", "steps", "nfe", "cpu_us", "nfe_x", "cpu_x");
    if (!cheapest(0, targets[k], grid, &ec)) continue;
    outcome ref = run_timed(&ec, reps);
    print_line(&ec, &ref, &ref);
    for (int law = 1; law <= 4; law++) {
      if (!cheapest(law, targets[k], grid, &c)) {
        printf("  %-12s not reached by any width up to 1e6\n", law_names[law]);
        continue;
      }
      outcome o = run_timed(&c, reps);
      print_line(&c, &o, &ref);
    }
  }
}

static void loose_tolerance(int reps) {
  const config cs[] = {{0, 0, 0, 1e-4},   {1, 1e6, 0, 1e-4},           {2, 1e6, 0, 1e-4},
                       {3, 1e6, 0, 1e-4}, {4, 1e2, 20, 1e-4},          {4, 1e5, sqrt(1e5), 1e-4},
                       {1, 1e6, 0, 1e-6}, {4, 1e5, sqrt(1e5), 1e-6}};
  puts("\n2. rtol 1e-4 (and two rtol 1e-6 runs for comparison): the exact cycle has period"
       "\n   12.00103 s, 5 upward crossings of x in 60 s and is stuck 64 % of the time"
       "\n   (|v - v_dr| < 1e-3). LuGre sigma1: 20 at sigma0 = 1e2, sqrt(1e5) at 1e5.");
  printf("  %-12s %8s %6s %12s %9s %7s %7s %7s %9s %s\n", "law", "width", "rtol", "period",
         "crossings", "stuck%", "steps", "nfe", "cpu_us", "run");
  for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
    outcome o = run_timed(&cs[i], reps);
    char w[32];
    printf("  %-12s %8s %6.0e %12.6f %9d %7.1f %7ld %7ld %9.0f %s\n", law_names[cs[i].law],
           width_text(&cs[i], w, sizeof w), cs[i].rtol, o.period, o.crossings,
           100 * o.stuck_fraction, o.stats.steps, o.stats.nfe + o.stats.nfe_fd, o.cpu_us,
           o.ok ? "ok" : "FAILED");
  }
}

int main(int argc, char **argv) {
  double scale = argc > 1 ? atof(argv[1]) : 1.0;
  int reps = (int)(9 * scale);
  if (reps < 1) reps = 1;
  printf("Leine belt: event-driven vs regularized friction (CPU time, median of %d runs)\n\n",
         reps);
  equal_accuracy(reps);
  loose_tolerance(reps);
  return 0;
}
