/* `stiction flatten FILE.mo [CLASS]`: load, instantiate and print the flat model. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "front/front.h"
#include "compile/extcall.h"

static void usage(FILE *out) {
  fputs("Usage: stiction flatten [OPTION]... FILE.mo [CLASS]\n"
        "  or:  stiction flatten [OPTION]... CLASS\n"
        "Print the flat model of CLASS (default: the only, else the last, model of FILE):\n"
        "scalar variables with their attributes, then the equations, and a count line\n"
        "\"N unknowns, M equations\". FILE may also be a package directory; CLASS alone is\n"
        "a full name looked up in the libraries.\n\n"
        "Libraries are found in -L directories, then in MODELICAPATH, then in stiction's\n"
        "own models/ directory.\n\n"
        "  -L, --library=DIR  add DIR to the library path (may be repeated)\n"
        "  -h, --help         display this help and exit\n\n"
        "Exit status: 0 on success, 1 when the model has errors, 2 on usage errors.\n",
        out);
}

static int usage_error(const char *msg, const char *arg) {
  fprintf(stderr, "stiction flatten: %s%s%s\nTry 'stiction flatten --help'.\n", msg,
          arg ? " " : "", arg ? arg : "");
  return 2;
}

typedef struct options {
  const char **libs; /* argc entries at most, malloc'd */
  int nlibs;
  const char *file, *cls;
} options;

static int parse_options(int argc, char **argv, options *o) {
  static const struct option longs[] = {
      {"library", required_argument, NULL, 'L'}, {"help", no_argument, NULL, 'h'}, {0}};
  int c;
  optind = 1;
  opterr = 0;
  while ((c = getopt_long(argc, argv, ":L:h", longs, NULL)) != -1) {
    if (c == 'h') {
      usage(stdout);
      return 0;
    }
    if (c == 'L') o->libs[o->nlibs++] = optarg;
    else if (c == ':') return usage_error("option needs an argument:", argv[optind - 1]);
    else if (c != 'L') return usage_error("unknown option", argv[optind - 1]);
  }
  if (optind >= argc) return usage_error("missing FILE.mo or CLASS", NULL);
  if (argc - optind > 2) return usage_error("too many arguments", NULL);
  if (st_cli_is_model_file(argv[optind])) {
    o->file = argv[optind];
    o->cls = optind + 1 < argc ? argv[optind + 1] : NULL;
  } else {
    if (optind + 1 < argc) return usage_error("not a file:", argv[optind]);
    o->cls = argv[optind];
  }
  return -1;
}

static int flatten(st_front *fe, const options *o) {
  for (int i = 0; i < o->nlibs; i++) st_front_add_library_path(fe, o->libs[i]);
  st_front_add_default_paths(fe);
  if (o->file && st_front_load_file(fe, o->file)) return 1;
  const char *name = o->cls ? o->cls : st_front_default_class(fe);
  if (!name) {
    fprintf(stderr, "stiction flatten: %s defines no model; name the class to flatten\n",
            o->file);
    return 1;
  }
  st_flat_model *m = st_front_flatten(fe, name);
  if (!m) return 1;
  st_flat_print(m, stdout);
  st_flat_free(m);
  return 0;
}

static int run(const options *o) {
  st_diag *diag = st_diag_new(stderr);
  st_front *fe = diag ? st_front_new(diag) : NULL;
  if (fe) st_front_set_externals(fe, st_extcall_front_externals());
  if (!fe) {
    fputs("stiction flatten: out of memory\n", stderr);
    st_diag_free(diag);
    return 1;
  }
  int rc = flatten(fe, o);
  if (rc == 0 && st_diag_errors(diag)) rc = 1;
  st_front_free(fe);
  st_diag_free(diag);
  return rc;
}

int st_cmd_flatten(int argc, char **argv) {
  options o = {0};
  o.libs = malloc((size_t)argc * sizeof *o.libs);
  if (!o.libs) {
    fputs("stiction flatten: out of memory\n", stderr);
    return 1;
  }
  int rc = parse_options(argc, argv, &o);
  if (rc < 0) rc = run(&o);
  free(o.libs);
  return rc;
}
