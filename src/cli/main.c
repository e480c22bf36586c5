/* The `stiction` command: dispatches to one subcommand per file (src/cli/cmd_*.c). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <stiction/stiction.h>

#include "cli/commands.h"

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
  {"simulate", st_cmd_simulate, "compile and simulate a Modelica model"},
  {"demo", st_cmd_demo, "simulate a built-in demo model (friction-block, ...)"},
  {"plot", st_cmd_plot, "plot signals of a result file with gnuplot"},
  {"compare", st_cmd_compare, "compare a result with a reference (csv-compare tube)"},
  {"parse", st_cmd_parse, "check the syntax of Modelica files"},
  {"flatten", st_cmd_flatten, "print the flat model of a Modelica class"},
  {"study", st_cmd_study, "compare friction laws on one model"},
  {"sweep", st_cmd_sweep, "simulate a model for many parameter sets on all cores"},
  {"fmu", st_cmd_fmu, "export a Modelica class as an FMI 2.0 FMU (ME and CS)"},
  {"bam", st_cmd_bam, "BAM servo friction models: rollout, mae"},
  {"tamsi", st_cmd_tamsi, "solve one implicit-Stribeck (TAMSI) contact step from JSON"},
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out) {
  fputs("Usage: stiction COMMAND [OPTION]... [ARG]...\n"
        "Hybrid, event-driven simulation of Modelica-style models.\n\n"
        "Commands:\n", out);
  for (size_t i = 0; i < NCOMMANDS; i++)
    fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs("\nRun 'stiction COMMAND --help' for a command's options.\n"
        "  -h, --help     display this help and exit\n"
        "  -V, --version  output version information and exit\n", out);
}

void st_cli_open_failed(const char *cmd, const char *path) {
  int err = errno;
  int is_stdout = !strcmp(path, "-");
  if (is_stdout && fcntl(STDOUT_FILENO, F_GETFD) == -1) err = EBADF;
  fprintf(stderr, "%s: %s: %s\n", cmd, is_stdout ? "standard output" : path, strerror(err));
}

/* A command's text on standard output (a flat model, a dump, a report) that could not be
 * written is a failure, not exit 0: closed, or a full disk. */
static int flush_stdout(int rc) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return rc;
  int err = errno ? errno : EIO;
  if (fcntl(STDOUT_FILENO, F_GETFD) == -1) err = EBADF;
  fprintf(stderr, "stiction: standard output: %s\n", strerror(err));
  return rc ? rc : 1;
}

/* The front end and the compiler walk expressions recursively, and the parser accepts trees
 * as deep as the stack can walk (util/stack.h): a 64 MiB stack for the command, as GCC's
 * driver raises its own, takes a sum of 100 000 terms. The kernel grows the main thread's
 * stack up to the limit in force at the time of the fault. */
static void raise_stack_limit(void) {
  const rlim_t want = (rlim_t)64 << 20;
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
    return;
  rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > want ? want : rl.rlim_max;
  setrlimit(RLIMIT_STACK, &rl);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *name = argv[1];
  if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
    usage(stdout);
    return flush_stdout(0);
  }
  if (!strcmp(name, "--version") || !strcmp(name, "-V")) {
    printf("stiction %s\n", stiction_version());
    return flush_stdout(0);
  }
  for (size_t i = 0; i < NCOMMANDS; i++)
    if (!strcmp(name, commands[i].name)) {
      raise_stack_limit();
      return flush_stdout(commands[i].run(argc - 1, argv + 1));
    }
  fprintf(stderr, "stiction: unknown command '%s'\nTry 'stiction --help'.\n", name);
  return 2;
}
