/* BAM rollout speed: steps per second of the reference simulator (bam.md §1.3) on the 16
 * XL330 logs for M1..M6, and the cost of one full 16-log MAE evaluation (one fitting trial).
 * bam.md gives no speed figure for BAM's Python, so there is no baseline ratio to print.
 * Usage: bam_bench SHARED_DIR [SECONDS_PER_MODEL] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stiction/bam.h>

#include "friction/bam_eval.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int load(const char *shared, stiction_bam_log ***logs, size_t *n) {
  char dir[4096], err[1024], **paths;
  snprintf(dir, sizeof dir, "%s/reference/bam/xl330_2026-01-15/processed", shared);
  const char *arg = dir;
  if (st_bam_expand_json(&arg, 1, &paths, n, err, sizeof err)) {
    fprintf(stderr, "bam_bench: %s\n", err);
    return 1;
  }
  *logs = calloc(*n, sizeof **logs);
  for (size_t i = 0; i < *n; i++)
    if (stiction_bam_log_read(paths[i], &(*logs)[i], err, sizeof err)) {
      fprintf(stderr, "bam_bench: %s\n", err);
      return 1;
    }
  st_bam_paths_free(paths, *n);
  return 0;
}

/* Repeats 16-log evaluations for about `seconds`; returns steps/s, *trial = s per evaluation. */
static double time_model(const stiction_bam_params *p, stiction_bam_log **logs, size_t n,
                         double seconds, double *trial, double *checksum) {
  size_t steps = 0, reps = 0;
  double t0 = now(), t;
  do {
    for (size_t i = 0; i < n; i++) {
      double mae;
      stiction_bam_mae(p, logs[i], &mae);
      *checksum += mae;
      steps += logs[i]->n;
    }
    reps++;
  } while ((t = now() - t0) < seconds);
  *trial = t / (double)reps;
  return (double)steps / t;
}

int main(int argc, char **argv) {
  const char *shared = argc > 1 ? argv[1] : "../shared";
  double seconds = argc > 2 ? atof(argv[2]) : 1.0, checksum = 0.0;
  stiction_bam_log **logs;
  size_t n;
  if (load(shared, &logs, &n)) return 1;
  printf("BAM reference simulator, %zu XL330 logs, params_main/xl330\n", n);
  printf("%-4s %14s %18s\n", "model", "steps/s", "16-log MAE eval [ms]");
  for (int m = 1; m <= 6; m++) {
    char path[4096], err[1024];
    stiction_bam_params p;
    snprintf(path, sizeof path, "%s/reference/bam/params_main/xl330/m%d.json", shared, m);
    if (stiction_bam_params_read(path, &p, err, sizeof err)) {
      fprintf(stderr, "bam_bench: %s\n", err);
      return 1;
    }
    double trial, sps = time_model(&p, logs, n, seconds, &trial, &checksum);
    printf("m%-4d %14.3e %18.3f\n", m, sps, 1e3 * trial);
  }
  printf("baseline: none (bam.md states no speed figure for BAM's Python simulator)\n");
  printf("(checksum %.6g)\n", checksum);
  for (size_t i = 0; i < n; i++) stiction_bam_log_free(logs[i]);
  free(logs);
  return 0;
}
