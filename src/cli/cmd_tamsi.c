/* Placeholder until the subcommand is implemented: says so and fails. */
#include <stdio.h>

#include "cli/commands.h"

int st_cmd_tamsi(int argc, char **argv) {
  (void)argc;
  fprintf(stderr, "stiction: '%s' is not implemented yet\n", argv[0]);
  return 2;
}
