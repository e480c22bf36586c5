/* The hand-written baselines as a stand-alone program, for the whole-process comparison of
 * `make bench`: handwritten MODEL RTOL STOP INTERVAL ADAMS OUT.csv
 * (MODEL friction-block or leine-belt; ADAMS 0 or 1). Prints one line of statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handwritten.h"

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: handwritten MODEL RTOL STOP INTERVAL ADAMS OUT.csv\n");
    return 2;
  }
  hw_options o = {atof(argv[2]), 1e-2 * atof(argv[2]), atof(argv[3]), atof(argv[4]), atoi(argv[5])};
  FILE *out = fopen(argv[6], "w");
  if (!out) {
    perror(argv[6]);
    return 1;
  }
  hw_stats s;
  int rc = !strcmp(argv[1], "leine-belt") ? hw_leine_belt_run(&o, &s, out)
                                          : hw_friction_block_run(&o, &s, out);
  if (fclose(out)) rc = -1;
  printf("%s: %ld steps, %ld f evals, %ld g evals, %ld events, %ld rows\n", argv[1], s.steps,
         s.nfe, s.nge, s.events, s.rows);
  return rc ? 1 : 0;
}
