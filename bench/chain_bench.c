/* `make bench-chain`: the Burridge-Knopoff chain (Stiction.Examples.BurridgeKnopoff,
 * doc/benchmarks.md section 4) at growing N, through the whole pipeline in one process. For each
 * N it prints the translate time (parse + flatten + compile, N given as a modification), the
 * run's statistics, the cost per simulated second and per event, and two ratios against the
 * smallest N scaled linearly: translate and cost per event divided by N/N0. A ratio near 1 is
 * linear scaling; above it, the cost grows faster than the model (dense Jacobians grow as N^2
 * f-evaluations per Jacobian, dense LU as N^3).
 * Usage: chain_bench STOP_TIME N1 [N2 ...] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <stiction/stiction.h>

#include "compile/compile.h"
#include "front/front.h"
#include "clock.h"

typedef struct chain_run {
  int n;
  double translate_s, run_s;
  stiction_stats stats;
} chain_run;

static st_compiled *translate(int n, st_diag *diag, st_front **fe, st_flat_model **flat) {
  char mod[64];
  snprintf(mod, sizeof mod, "N = %d", n);
  const char *mods[] = {mod};
  *fe = st_front_new(diag);
  if (!*fe || st_front_add_default_paths(*fe)) return NULL;
  *flat = st_front_flatten_modified(*fe, "Stiction.Examples.BurridgeKnopoff", mods, 1, "bench");
  return *flat ? st_compile(*flat, diag) : NULL;
}

/* Fastest of three translations (the first pays for cold caches and page faults). */
static double time_translate(int n, st_diag *diag) {
  double best = INFINITY;
  for (int k = 0; k < 3; k++) {
    st_front *fe = NULL;
    st_flat_model *flat = NULL;
    double t0 = bench_now();
    st_compiled *cm = translate(n, diag, &fe, &flat);
    double dt = bench_now() - t0;
    if (cm && dt < best) best = dt;
    st_compiled_free(cm);
    st_flat_free(flat);
    st_front_free(fe);
  }
  return best;
}

static int measure(int n, double stop, chain_run *r) {
  st_diag *diag = st_diag_new(stderr);
  st_front *fe = NULL;
  st_flat_model *flat = NULL;
  r->n = n;
  r->translate_s = diag ? time_translate(n, diag) : INFINITY;
  st_compiled *cm = diag ? translate(n, diag, &fe, &flat) : NULL;
  int rc = -1;
  if (cm) {
    stiction_options opt;
    stiction_options_init(&opt);
    opt.stop_time = stop;
    opt.interval = 0.1;
    stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
    double t1 = bench_now();
    rc = sim ? stiction_sim_run(sim) : -1;
    r->run_s = bench_now() - t1;
    if (sim) r->stats = *stiction_sim_stats(sim);
    if (rc && sim) fprintf(stderr, "chain_bench: N = %d: %s\n", n, stiction_sim_error(sim));
    stiction_sim_free(sim);
  }
  st_compiled_free(cm);
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(diag);
  return rc;
}

static void print_run(const chain_run *r, const chain_run *base, double stop) {
  double scale = (double)r->n / base->n;
  long events = r->stats.state_events + r->stats.time_events;
  double per_event = events ? r->run_s / events : NAN;
  double base_per_event = base->stats.state_events ? base->run_s / base->stats.state_events : NAN;
  printf("N %5d | translate %8.2f ms (ratio %5.2f) | run %8.3f s, %6.4f s per simulated s | "
         "events %6ld (%.1f per s) | %8.2f ms per event (ratio %5.2f)\n", r->n,
         1e3 * r->translate_s, r->translate_s / (base->translate_s * scale), r->run_s,
         r->run_s / stop, events, events / stop, 1e3 * per_event,
         per_event / (base_per_event * scale));
  printf("        steps %ld  nfe %ld (+%ld for Jacobians)  njac %ld  nge %ld  convergence "
         "failures %ld\n", r->stats.steps, r->stats.nfe, r->stats.nfe_fd, r->stats.njac,
         r->stats.nge, r->stats.conv_fails);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: chain_bench STOP_TIME N1 [N2 ...]\n");
    return 2;
  }
  double stop = atof(argv[1]);
  printf("Burridge-Knopoff chain (l = 10, alpha = 2.5, nu = 0.01) to t = %g; ratios against "
         "N = %s scaled linearly\n", stop, argv[2]);
  chain_run base = {0};
  for (int i = 2; i < argc; i++) {
    chain_run r = {0};
    if (measure(atoi(argv[i]), stop, &r)) return 1;
    if (i == 2) base = r;
    print_run(&r, &base, stop);
    fflush(stdout);
  }
  return 0;
}
