/* `stiction parse FILE...`: syntax check of Modelica files, silent on success like
 * `cc -fsyntax-only`; `--dump` prints the parsed tree back as Modelica text. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "front/ast.h"
#include "util/arena.h"
#include "util/diag.h"

static void usage(FILE *out) {
  fputs("Usage: stiction parse [OPTION]... FILE...\n"
        "Check the syntax of Modelica files (Modelica 3.6 concrete syntax). Prints nothing\n"
        "when every file parses; otherwise prints each error as FILE:LINE:COL: error: ...\n"
        "with the source line and a caret, and exits with status 1.\n\n"
        "  -d, --dump   print each parsed file back as Modelica text (normalized layout)\n"
        "  -h, --help   display this help and exit\n\n"
        "Exit status: 0 if all files parse, 1 on syntax errors or unreadable files,\n"
        "2 on bad usage.\n", out);
}

static int bad_usage(const char *what, const char *arg) {
  fprintf(stderr, "stiction parse: %s%s%s%s\nTry 'stiction parse --help'.\n", what,
          arg ? " '" : "", arg ? arg : "", arg ? "'" : "");
  return 2;
}

/* Parses one file with its own arena and diagnostics (the diag borrows the file's text,
 * which lives in the arena). Returns the number of errors. */
static int parse_one(const char *path, int dump) {
  st_arena *arena = st_arena_new();
  st_diag *diag = st_diag_new(stderr);
  int errors = 1;
  if (!arena || !diag) {
    fprintf(stderr, "stiction parse: out of memory\n");
  } else {
    st_ast_stored_def *sd = st_parse_file(arena, diag, path);
    if (sd && dump) st_ast_dump(stdout, sd);
    errors = st_diag_errors(diag);
  }
  st_diag_free(diag);
  st_arena_free(arena);
  return errors;
}

int st_cmd_parse(int argc, char **argv) {
  static const struct option longs[] = {{"dump", no_argument, NULL, 'd'},
                                        {"help", no_argument, NULL, 'h'},
                                        {NULL, 0, NULL, 0}};
  int c, dump = 0;
  opterr = 0;
  optind = 1;
  while ((c = getopt_long(argc, argv, "dh", longs, NULL)) != -1) {
    switch (c) {
    case 'd': dump = 1; break;
    case 'h': usage(stdout); return 0;
    default: return bad_usage("unrecognized option", argv[optind - 1]);
    }
  }
  if (optind >= argc) return bad_usage("expected at least one FILE", NULL);
  int errors = 0;
  for (int i = optind; i < argc; i++) errors += parse_one(argv[i], dump);
  return errors ? 1 : 0;
}
