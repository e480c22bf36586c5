/* libFuzzer harness: the BAM JSON readers (stiction_bam_params_read, stiction_bam_log_read)
 * on the same input; when both accept it, the closed-loop rollout and its MAE over the log. */
#define _GNU_SOURCE
#include <stdlib.h>

#include <stiction/bam.h>

#include "fuzz/fuzz_util.h"

/* Longer logs only repeat the same steps; bounded so that one input stays fast. */
enum { MAX_STEPS = 2000 };

static void rollout(const stiction_bam_params *p, const stiction_bam_log *log) {
  if (log->n > MAX_STEPS) return;
  double *q = malloc(log->n * sizeof *q);
  if (q) (void)stiction_bam_rollout(p, log, q, NULL);
  free(q);
  double mae;
  (void)stiction_bam_mae(p, log, &mae);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64], err[512];
  int fd = st_fuzz_memfile(data, size, path, sizeof path);
  if (fd < 0) return 0;
  stiction_bam_params p;
  int params_ok = stiction_bam_params_read(path, &p, err, sizeof err) == 0;
  stiction_bam_log *log = NULL;
  if (stiction_bam_log_read(path, &log, err, sizeof err) == 0 && params_ok) rollout(&p, log);
  stiction_bam_log_free(log);
  close(fd);
  return 0;
}
