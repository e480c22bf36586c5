/* `make bench`: stiction's built-in demos against hand-written C + CVODE programs doing the
 * same numerical work (bench/handwritten.c). For each configuration it prints
 *   per run       wall time of one simulation inside a process (create, run, free), the
 *                 fastest of repeated runs for about SECONDS (and the ratio of the means);
 *   whole process wall time of `stiction demo NAME -o FILE.csv` against the stand-alone
 *                 hand-written program writing the same CSV, and the ratio;
 *   statistics    steps, f evaluations, g evaluations and state events of both sides.
 * Usage: demo_bench STICTION HANDWRITTEN [SECONDS]. Target: per-run ratio <= 1.2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/demos.h>
#include <stiction/stiction.h>

#include "clock.h"
#include "handwritten.h"

typedef struct config {
  const char *demo;
  const char *solver; /* stiction CLI spelling */
  int adams;
  double rtol, stop, interval;
} config;

static const config configs[] = {
    {"friction-block", "cvode", 0, 1e-6, 10.0, 0.02},
    {"friction-block", "cvode-adams", 1, 1e-6, 10.0, 0.02},
    {"leine-belt", "cvode", 0, 1e-6, 60.005, 60.005 / 500},
    {"leine-belt", "cvode", 0, 1e-4, 60.005, 60.005 / 500},
};

/* One stiction run without a result sink; fills *stats. Returns 0 or -1. */
static int stiction_once(const config *c, stiction_stats *stats) {
  stiction_demo *demo;
  if (stiction_demo_new(&demo, c->demo)) return -1;
  stiction_options opt;
  stiction_options_init(&opt);
  stiction_demo_options(demo, &opt);
  opt.stop_time = c->stop;
  opt.interval = c->interval;
  opt.rtol = c->rtol;
  opt.atol = 1e-2 * c->rtol;
  opt.solver = c->adams ? STICTION_SOLVER_CVODE_ADAMS : STICTION_SOLVER_CVODE_BDF;
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(demo), stiction_demo_data(demo), &opt);
  int rc = sim ? stiction_sim_run(sim) : -1;
  if (rc && sim) fprintf(stderr, "demo_bench: %s: %s\n", c->demo, stiction_sim_error(sim));
  if (sim) *stats = *stiction_sim_stats(sim);
  stiction_sim_free(sim);
  stiction_demo_free(demo);
  return rc ? -1 : 0;
}

static int handwritten_once(const config *c, hw_stats *stats) {
  hw_options o = {c->rtol, 1e-2 * c->rtol, c->stop, c->interval, c->adams};
  return strcmp(c->demo, "leine-belt") ? hw_friction_block_run(&o, stats, NULL)
                                       : hw_leine_belt_run(&o, stats, NULL);
}

/* Seconds per run, alternating the two sides in rounds so that machine noise hits both;
 * the fastest run of each side is kept (the least disturbed one: other processes only ever
 * add time), and the mean is returned as well. */
static int time_runs(const config *c, double seconds, double *t_st, double *t_hw,
                     double *mean_st, double *mean_hw, stiction_stats *sst, hw_stats *hst) {
  long n = 0;
  double st = 0.0, hw = 0.0;
  *t_st = *t_hw = INFINITY;
  while (st + hw < seconds || n < 3) {
    double t0 = bench_now();
    if (stiction_once(c, sst)) return -1;
    double t1 = bench_now();
    if (handwritten_once(c, hst)) return -1;
    double t2 = bench_now();
    st += t1 - t0;
    hw += t2 - t1;
    if (t1 - t0 < *t_st) *t_st = t1 - t0;
    if (t2 - t1 < *t_hw) *t_hw = t2 - t1;
    n++;
  }
  *mean_st = st / (double)n;
  *mean_hw = hw / (double)n;
  return 0;
}

/* Mean process times over `reps` alternating runs; -1 on a failure. */
static int time_processes(const config *c, const char *stiction, const char *handwritten,
                          int reps, double *p_st, double *p_hw) {
  char rtol[32], stop[32], interval[32], adams[8], out1[64], out2[64];
  snprintf(rtol, sizeof rtol, "%.17g", c->rtol);
  snprintf(stop, sizeof stop, "%.17g", c->stop);
  snprintf(interval, sizeof interval, "%.17g", c->interval);
  snprintf(adams, sizeof adams, "%d", c->adams);
  snprintf(out1, sizeof out1, "/tmp/stiction_bench_%ld_st.csv", (long)getpid());
  snprintf(out2, sizeof out2, "/tmp/stiction_bench_%ld_hw.csv", (long)getpid());
  char *st_argv[] = {(char *)stiction, "demo", (char *)c->demo, "--tolerance", rtol,
                     "--stop-time", stop, "--interval", interval, "--solver",
                     (char *)c->solver, "-o", out1, NULL};
  char *hw_argv[] = {(char *)handwritten, (char *)c->demo, rtol, stop, interval, adams, out2, NULL};
  double st = 0.0, hw = 0.0;
  for (int i = 0; i < reps; i++) {
    double a = bench_time_process(st_argv), b = bench_time_process(hw_argv);
    if (a < 0 || b < 0) return -1;
    st += a;
    hw += b;
  }
  unlink(out1);
  unlink(out2);
  *p_st = st / reps;
  *p_hw = hw / reps;
  return 0;
}

static void print_config(const config *c, const double t[4], double p_st, double p_hw,
                         const stiction_stats *s, const hw_stats *h) {
  printf("%-15s %-11s rtol %-6g per run (fastest) %7.1f us vs %7.1f us  ratio %.2f (mean %.2f)"
         " | process %6.2f ms vs %6.2f ms  ratio %.2f\n",
         c->demo, c->solver, c->rtol, 1e6 * t[0], 1e6 * t[1], t[0] / t[1], t[2] / t[3],
         1e3 * p_st, 1e3 * p_hw, p_st / p_hw);
  printf("    stiction:    steps %5ld  nfe %5ld (+%ld for Jacobians)  nge %5ld  state events %3ld  "
         "restarts %3ld\n",
         s->steps, s->nfe, s->nfe_fd, s->nge, s->state_events, s->restarts);
  printf("    handwritten: steps %5ld  nfe %5ld                nge %5ld  state events %3ld  "
         "restarts %3ld\n",
         h->steps, h->nfe, h->nge, h->events, h->restarts);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: demo_bench STICTION HANDWRITTEN [SECONDS]\n");
    return 2;
  }
  double seconds = argc > 3 ? atof(argv[3]) : 1.0;
  printf("stiction demos vs hand-written C + CVODE (same equations, indicators and events; "
         "atol = 1e-2 rtol, max step = output interval)\n");
  int failed = 0;
  for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++) {
    const config *c = &configs[i];
    stiction_stats s;
    hw_stats h;
    double t[4], p_st, p_hw;
    if (time_runs(c, seconds, &t[0], &t[1], &t[2], &t[3], &s, &h) ||
        time_processes(c, argv[1], argv[2], 20, &p_st, &p_hw)) {
      fprintf(stderr, "demo_bench: %s (%s) failed\n", c->demo, c->solver);
      failed = 1;
      continue;
    }
    print_config(c, t, p_st, p_hw, &s, &h);
  }
  return failed;
}
