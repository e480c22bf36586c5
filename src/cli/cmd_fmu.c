/* `stiction fmu MODEL.mo [CLASS] | CLASS -o CLASS.fmu`: translates a Modelica class and
 * writes an FMI 2.0 FMU for Model Exchange and Co-Simulation (src/fmi, doc/fmi.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/sim_common.h"
#include "compile/compile.h"
#include "fmi/export.h"
#include "front/front.h"
#include "front/libpath.h"
#include "compile/extcall.h"

enum { EXIT_RUN = 1, EXIT_USAGE = 2 };
enum { OPT_ID = 256, OPT_LIBRARY };

typedef struct fmu_args {
  const char *file, *class_name, *model_identifier, *library;
  st_run_args run;
} fmu_args;

static void usage(FILE *out) {
  fputs("Usage: stiction fmu MODEL.mo [CLASS] [OPTION]...\n"
        "       stiction fmu CLASS [OPTION]...\n"
        "Translate a Modelica class and write an FMI 2.0 FMU (Model Exchange and\n"
        "Co-Simulation) for linux64.\n\n"
        "  -o, --output FILE        the FMU (default: CLASS.fmu, CLASS's last name part)\n"
        "  -p, --param NAME=VALUE   a modification of the class: the parameter's default in\n"
        "                           the FMU (repeatable)\n"
        "  -L DIR                   add a library directory (repeatable)\n"
        "      --model-identifier ID  the FMU's model identifier (default: CLASS's last\n"
        "                           name part)\n"
        "      --fmi-library FILE   the FMU library to put in the FMU (default: the\n"
        "                           stiction_fmi2.so built or installed with stiction)\n"
        "  -h, --help               display this help and exit\n\n"
        "The FMU carries the Modelica text the class was translated from and translates it\n"
        "again when instantiated (doc/fmi.md). It replaces FILE only when complete.\n"
        "Exit status: 0 success, 1 the model has errors or the FMU could not be written,\n"
        "2 bad usage.\n", out);
}

static int parse_option(void *ctx, int c, const char *arg) {
  fmu_args *a = ctx;
  switch (c) {
  case OPT_ID: a->model_identifier = arg; return 0;
  case OPT_LIBRARY: a->library = arg; return 0;
  }
  return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, fmu_args *a) {
  static const struct option longs[] = {{"model-identifier", required_argument, NULL, OPT_ID},
                                        {"fmi-library", required_argument, NULL, OPT_LIBRARY},
                                        {NULL, 0, NULL, 0}};
  const st_cli_parser p = {"stiction fmu", ST_RUN_OUTPUT | ST_RUN_PARAM | ST_RUN_LIB, longs,
                           NULL, parse_option, a, usage};
  int rc = st_cli_parse(&p, argc, argv, &a->run);
  return rc ? rc : st_cli_model_positionals(p.cmd, argc, argv, &a->file, &a->class_name);
}

/* The front end's library path as st_front_add_default_paths builds it after the -L
 * directories: MODELICAPATH's entries, then stiction's models/. */
static int library_dirs(const fmu_args *a, const char ***out, char **copy) {
  const char *mp = getenv("MODELICAPATH");
  *copy = strdup(mp ? mp : "");
  const char **dirs = malloc(sizeof *dirs * (size_t)(a->run.n_libs + 2 + (mp ? strlen(mp) : 0)));
  if (!*copy || !dirs) {
    free(dirs);
    return -1;
  }
  int n = 0;
  for (int i = 0; i < a->run.n_libs; i++) dirs[n++] = a->run.libs[i];
  for (char *s = strtok(*copy, ":"); s; s = strtok(NULL, ":")) dirs[n++] = s;
  dirs[n++] = st_libpath_models_dir();
  *out = dirs;
  return n;
}

static int export_fmu(const fmu_args *a, const st_flat_model *flat, st_diag *diag,
                      const st_program *prog) {
  const char *cls = flat->name;
  const char **dirs = NULL;
  char *mp = NULL, *err = NULL, *out = NULL;
  int n = library_dirs(a, &dirs, &mp);
  if (!a->run.output) {
    const char *last = strrchr(cls, '.');
    out = st_format("%s.fmu", last ? last + 1 : cls);
  }
  const char *path = a->run.output ? a->run.output : out;
  int rc = n < 0 || !path ? EXIT_RUN : 0;
  const char *inputs[] = {a->file, a->library};
  if (!rc) rc = st_cli_check_outputs("stiction fmu", &a->run, path, inputs, 2);
  if (!rc) {
    st_fmu_export ex = {cls, a->run.params, a->run.n_params, a->file, dirs, n, a->library,
                        a->model_identifier, flat};
    if (st_fmu_export_write(&ex, diag, prog, path, &err)) {
      fprintf(stderr, "stiction fmu: %s\n", err ? err : "out of memory");
      rc = EXIT_RUN;
    } else {
      printf("stiction fmu: wrote %s (%s, FMI 2.0 Model Exchange and Co-Simulation)\n", path, cls);
    }
  }
  free(err);
  free(out);
  free(dirs);
  free(mp);
  return rc;
}

int st_cmd_fmu(int argc, char **argv) {
  fmu_args a = {0};
  int rc = parse_args(argc, argv, &a);
  if (rc) return rc < 0 ? 0 : rc;
  st_diag *diag = st_diag_new(stderr);
  st_front *fe = diag ? st_front_new(diag) : NULL;
  if (fe) st_front_set_externals(fe, st_extcall_front_externals());
  if (!fe) {
    fprintf(stderr, "stiction fmu: out of memory\n");
    st_diag_free(diag);
    return EXIT_RUN;
  }
  for (int i = 0; i < a.run.n_libs; i++) st_front_add_library_path(fe, a.run.libs[i]);
  st_front_add_default_paths(fe);
  rc = EXIT_RUN;
  if (!a.file || st_front_load_file(fe, a.file) == 0) {
    const char *cls = a.class_name ? a.class_name : st_front_default_class(fe);
    st_flat_model *flat =
        cls ? st_front_flatten_modified(fe, cls, a.run.params, a.run.n_params, "-p") : NULL;
    st_program *prog = flat ? st_compile_program(flat, diag) : NULL; /* reads flat only */
    if (!cls) fprintf(stderr, "stiction fmu: %s: no class to export\n", a.file);
    if (prog) rc = export_fmu(&a, flat, diag, prog);
    st_program_free(prog);
    st_flat_free(flat);
  }
  st_front_free(fe);
  st_diag_free(diag);
  return rc;
}
