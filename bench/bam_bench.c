/* BAM rollout speed: steps per second of the reference simulator (doc/bam.md §1.3) on the 16
 * XL330 logs for M1..M6, the cost of one full 16-log MAE evaluation (one fitting trial), and
 * the ratio to a Python + NumPy baseline (bench/bam_python.py: the same simulator written from
 * doc/bam.md, checked against BAM's reference MAEs before it is timed; issue 6 asks for >= 50x
 * against BAM's Python). doc/bam.md states no speed figure of its own.
 * Usage: bam_bench SHARED_DIR [SECONDS_PER_MODEL [BASELINE_SCRIPT]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stiction/bam.h>

#include "bam/bam_eval.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int load(const char *refdir, stiction_bam_log ***logs, size_t *n) {
  char dir[4096], err[1024], **paths;
  snprintf(dir, sizeof dir, "%s/bam/xl330_2026-01-15/processed", refdir);
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

/* Steps/s of the Python baseline per model (index 1..6), one log at a time (as `bam.mae`
 * rolls out) and all logs as one batch (as BAM fits); 0 when python3 or NumPy is missing or
 * the baseline disagrees with the reference. */
static int python_baseline(const char *script, const char *refdir, double per_log[7],
                           double batched[7]) {
  char cmd[8192], line[256];
  /* Debian's python3-numpy belongs to /usr/bin/python3, which a python3 earlier on PATH
   * (pyenv, venv) may hide */
  int len = snprintf(cmd, sizeof cmd,
                     "python3 -c 'import numpy' 2>/dev/null && exec python3 '%s' '%s' 0.5 || "
                     "exec /usr/bin/python3 '%s' '%s' 0.5",
                     script, refdir, script, refdir);
  if (len < 0 || (size_t)len >= sizeof cmd) return 0;
  FILE *p = popen(cmd, "r");
  if (!p) return 0;
  int found = 0, m;
  double a, b;
  while (fgets(line, sizeof line, p))
    if (sscanf(line, "m%d per-log %lf batched %lf", &m, &a, &b) == 3 && m >= 1 && m <= 6) {
      per_log[m] = a;
      batched[m] = b;
      found++;
    }
  return pclose(p) == 0 && found == 6;
}

int main(int argc, char **argv) {
  const char *refdir = argc > 1 ? argv[1] : "tests/reference";
  double seconds = argc > 2 ? atof(argv[2]) : 1.0, checksum = 0.0;
  stiction_bam_log **logs;
  size_t n;
  if (load(refdir, &logs, &n)) return 1;
  double py_log[7] = {0}, py_batch[7] = {0};
  int have_py = argc > 3 && python_baseline(argv[3], refdir, py_log, py_batch);
  printf("BAM reference simulator, %zu XL330 logs, params_main/xl330\n", n);
  printf("%-4s %14s %18s", "model", "steps/s", "16-log MAE eval [ms]");
  if (have_py) printf(" %16s %8s %16s %8s", "python per-log", "ratio", "python batched", "ratio");
  printf("\n");
  for (int m = 1; m <= 6; m++) {
    char path[4096], err[1024];
    stiction_bam_params p;
    snprintf(path, sizeof path, "%s/bam/params_main/xl330/m%d.json", refdir, m);
    if (stiction_bam_params_read(path, &p, err, sizeof err)) {
      fprintf(stderr, "bam_bench: %s\n", err);
      return 1;
    }
    double trial, sps = time_model(&p, logs, n, seconds, &trial, &checksum);
    printf("m%-4d %14.3e %18.3f", m, sps, 1e3 * trial);
    if (have_py)
      printf(" %16.3e %8.0f %16.3e %8.0f", py_log[m], sps / py_log[m], py_batch[m],
             sps / py_batch[m]);
    printf("\n");
  }
  if (have_py)
    printf("baseline: bench/bam_python.py (doc/bam.md's simulator in Python + NumPy, matches the\n"
           "reference MAEs to 1e-12; BAM's own code adds objects around the same arithmetic,\n"
           "so these ratios are lower bounds; target >= 50x)\n");
  else
    printf("baseline: none (python3 with NumPy not found, or bench/bam_python.py failed)\n");
  printf("(checksum %.6g)\n", checksum);
  for (size_t i = 0; i < n; i++) stiction_bam_log_free(logs[i]);
  free(logs);
  return 0;
}
