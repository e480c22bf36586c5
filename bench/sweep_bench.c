/* `make bench-sweep`: 1000 runs of the friction block (tests/data/compile/FrictionBlock.mo,
 * the amplitude U over 0.5..2.498, so stuck-heavy and sliding runs mix) four ways:
 *   single     one run in process after one compile (include/stiction/modelica.h), its
 *              output rows made and dropped, the mean over all 1000 parameter sets: the
 *              simulation itself;
 *   sweep -j N `stiction sweep --grid U=...` with N threads: translation once, runs shared;
 *   processes  1000 `stiction simulate -p U=...` processes, P at a time (what a shell loop or
 *              xargs -P does today).
 * The target (issue: many runs): sweep -j N <= 1.1 x (1000 x single / N) for N up to the
 * cores; printed as that ratio. On a machine whose cores other work is using, the wall
 * times measure that work too: the CPU time of each command is printed beside it, and the
 * CPU ratio (sweep's CPU over 1000 single runs' CPU: translation, threads and metrics
 * together) is what the sweep costs beyond the runs whatever the load.
 * Usage: sweep_bench STICTION SRCDIR [JOBS...] (default JOBS: 1 2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "clock.h"

enum { RUNS = 1000, REPEATS = 5 }; /* each measurement: the fastest of REPEATS turns */

static double amplitude(int run) { return 0.5 + 0.002 * run; }

static double thread_cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Rows are made as in a simulate run (the sweep's metrics read them), then dropped. */
static int drop_begin(void *ud, int ncols, const char *const *names) {
  (void)ud, (void)ncols, (void)names;
  return 0;
}
static int drop_row(void *ud, const double *values) {
  (void)values;
  ++*(long *)ud;
  return 0;
}
static int drop_end(void *ud, int status) {
  (void)ud, (void)status;
  return 0;
}

/* The FrictionBlock program, compiled once (NULL when it does not compile). */
static stiction_program *compile_block(const char *models, const char *model,
                                       stiction_modelica **mo) {
  stiction_program *prog = NULL;
  *mo = stiction_modelica_new();
  stiction_modelica_add_library_path(*mo, models);
  if (stiction_modelica_load_file(*mo, model) ||
      stiction_modelica_compile(*mo, "FrictionBlock", NULL, 0, &prog))
    return NULL;
  return prog;
}

/* One pass over the RUNS parameter sets in process: the wall time, its CPU time in *cpu;
 * -1 when a run fails. */
static double single_pass(const stiction_program *prog, double *cpu) {
  stiction_options opt;
  stiction_program_options(prog, &opt);
  double total = 0, total_cpu = 0;
  for (int r = 0; r < RUNS; r++) {
    stiction_instance *in = stiction_instance_new(prog);
    double t0 = bench_now(), c0 = thread_cpu();
    int rc = stiction_instance_set_by_name(in, "U", amplitude(r));
    long rows = 0;
    stiction_sink drop = {sizeof(stiction_sink), drop_begin, drop_row, drop_end, &rows};
    if (!rc) rc = stiction_instance_run(in, &opt, &drop);
    total += bench_now() - t0;
    total_cpu += thread_cpu() - c0;
    stiction_instance_free(in);
    if (rc) return -1;
  }
  *cpu = total_cpu;
  return total;
}

static double cpu_of_children(void) {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + 1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* Wall time of RUNS `stiction simulate` processes, at most `parallel` at a time; -1 when one
 * fails. */
static double processes(const char *stiction, const char *model, const char *out, int parallel) {
  int started = 0, running = 0, failed = 0;
  double t0 = bench_now();
  while (started < RUNS || running > 0) {
    while (running < parallel && started < RUNS && !failed) {
      char p[64];
      snprintf(p, sizeof p, "U=%.17g", amplitude(started));
      char *argv[] = {(char *)stiction, "simulate", (char *)model, "-p", p, "-o", (char *)out,
                      "--keep-partial", NULL};
      /* every process writes the same file: what is measured is the run, not the result */
      if (bench_spawn_quiet(argv) < 0) failed = 1;
      else running++, started++;
    }
    if (running == 0) break;
    int status;
    if (wait(&status) < 0) break;
    running--;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
  }
  return failed ? -1 : bench_now() - t0;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: sweep_bench STICTION SRCDIR [JOBS...]\n");
    return 2;
  }
  const char *stiction = argv[1];
  char models[4096], model[4096], tmpl[] = "/tmp/sweep_bench.XXXXXX", out[4200];
  snprintf(models, sizeof models, "%s/models", argv[2]);
  snprintf(model, sizeof model, "%s/tests/data/compile/FrictionBlock.mo", argv[2]);
  if (!mkdtemp(tmpl)) return perror("mkdtemp"), 1;
  snprintf(out, sizeof out, "%s/run.csv", tmpl);
  int jobs[8], njobs = 0;
  for (int i = 3; i < argc && njobs < 8; i++) jobs[njobs++] = atoi(argv[i]);
  if (njobs == 0) jobs[njobs++] = 1, jobs[njobs++] = 2;

  stiction_modelica *mo;
  stiction_program *prog = compile_block(models, model, &mo);
  double single = INFINITY, single_cpu = INFINITY, c;
  double wall[8], cpu[8];
  for (int k = 0; k < njobs; k++) wall[k] = cpu[k] = INFINITY;
  /* the machine's speed drifts over seconds: the measurements take turns, the fastest of
   * each counts */
  if (!prog || single_pass(prog, &c) < 0)
    return fprintf(stderr, "sweep_bench: FrictionBlock does not run\n"), 1;
  for (int rep = 0; rep < REPEATS; rep++) {
    double w = single_pass(prog, &c);
    if (w < single) single = w, single_cpu = c;
    for (int k = 0; k < njobs; k++) {
      char j[16];
      snprintf(j, sizeof j, "%d", jobs[k]);
      char *sweep[] = {(char *)stiction, "sweep", model, "--grid", "U=0.5:0.002:2.498", "-j", j,
                       "-o", "/dev/null", NULL};
      w = bench_time_process_cpu(sweep, &c);
      if (w < 0) return fprintf(stderr, "sweep_bench: stiction sweep failed\n"), 1;
      if (w < wall[k]) wall[k] = w, cpu[k] = c;
    }
  }
  stiction_program_free(prog);
  stiction_modelica_free(mo);
  single /= RUNS, single_cpu /= RUNS;
  printf("friction block, %d runs (U = 0.5 .. %.3f), %ld cores online\n", RUNS,
         amplitude(RUNS - 1), sysconf(_SC_NPROCESSORS_ONLN));
  printf("  single run in process: %.3f ms wall, %.3f ms CPU (means over the %d sets)\n"
         "  (each figure: the fastest of %d turns)\n", 1e3 * single, 1e3 * single_cpu, RUNS, REPEATS);
  int status = 0;
  for (int k = 0; k < njobs; k++) {
    double ideal = RUNS * single / jobs[k];
    printf("  sweep -j %d: %.3f s wall, %.3f s CPU; ideal %.3f s; ratio %.2f (target <= 1.1); "
           "CPU ratio %.2f\n", jobs[k], wall[k], cpu[k], ideal, wall[k] / ideal,
           cpu[k] / (RUNS * single_cpu));
  }
  for (int k = 0; k < njobs; k++) {
    double cpu0 = cpu_of_children();
    double pwall = processes(stiction, model, out, jobs[k]);
    double pcpu = cpu_of_children() - cpu0;
    if (pwall < 0) {
      fprintf(stderr, "sweep_bench: a stiction simulate process failed\n");
      status = 1;
      continue;
    }
    printf("  %d processes, %d at a time: %.3f s wall, %.3f s CPU (%.2f ms a process)\n", RUNS,
           jobs[k], pwall, pcpu, 1e3 * pwall * jobs[k] / RUNS);
  }
  unlink(out);
  rmdir(tmpl);
  return status;
}
