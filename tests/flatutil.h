/* Helpers of the front-end tests: flatten a class of a file in tests/data and look at the
 * flat model's variables, bindings and printed equations. The includer defines DATA, the
 * directory (under the source tree) put on the library path. */
#ifndef ST_TEST_FLATUTIL_H
#define ST_TEST_FLATUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "front/flat_expr.h"
#include "front/front.h"
#include "testutil.h"

typedef struct loaded {
  st_diag *diag;
  st_front *fe;
  st_flat_model *m;
  char *text; /* the printed flat model */
} loaded;

static inline char *print_model(const st_flat_model *m) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  st_flat_print(m, f);
  fclose(f);
  return buf;
}

static inline loaded load(const char *file, const char *cls) {
  loaded l = {0};
  l.diag = st_diag_new(NULL);
  l.fe = st_front_new(l.diag);
  ck_assert_ptr_nonnull(l.fe);
  st_front_add_library_path(l.fe, st_test_src(DATA));
  char path[4096];
  snprintf(path, sizeof path, "%s", st_test_src(file));
  ck_assert_int_eq(st_front_load_file(l.fe, path), 0);
  l.m = st_front_flatten(l.fe, cls ? cls : st_front_default_class(l.fe));
  if (l.m) l.text = print_model(l.m);
  return l;
}

static inline void unload(loaded *l) {
  free(l->text);
  st_flat_free(l->m);
  st_front_free(l->fe);
  st_diag_free(l->diag);
}

static inline loaded flat_ok(const char *file, const char *cls) {
  loaded l = load(file, cls);
  ck_assert_msg(l.m != NULL, "%s %s: %s", file, cls ? cls : "", st_diag_first_error(l.diag));
  return l;
}

static inline int var_index(const st_flat_model *m, const char *name) {
  for (int i = 0; i < m->nvars; i++)
    if (strcmp(m->vars[i].name, name) == 0) return i;
  return -1;
}

static inline st_fexpr *binding_of(void *ctx, int var) {
  const st_flat_model *m = ctx;
  return m->vars[var].binding ? m->vars[var].binding : m->vars[var].start;
}

/* The value of a parameter's binding (following other parameters). */
static inline double value_of(const st_flat_model *m, const char *name) {
  int k = var_index(m, name);
  ck_assert_msg(k >= 0, "no variable %s", name);
  double v = -12345;
  ck_assert_msg(st_fx_eval(m->vars[k].binding, binding_of, (void *)m, &v) == 0,
                "%s has no constant binding", name);
  return v;
}

static inline double start_of(const st_flat_model *m, const char *name) {
  int k = var_index(m, name);
  ck_assert_msg(k >= 0, "no variable %s", name);
  double v = -12345;
  ck_assert_int_eq(st_fx_eval(m->vars[k].start, binding_of, (void *)m, &v), 0);
  return v;
}

static inline void has_line(const loaded *l, const char *line) {
  char want[512];
  snprintf(want, sizeof want, "\n  %s\n", line);
  ck_assert_msg(strstr(l->text, want) != NULL, "missing line '%s' in:\n%s", line, l->text);
}

static inline void lacks(const loaded *l, const char *text) {
  ck_assert_msg(strstr(l->text, text) == NULL, "unexpected '%s' in:\n%s", text, l->text);
}

/* Runs `stiction flatten ARGS` from the source directory. */
static inline int run_flatten(char **out, const char *args) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "flatten %s", args);
  const char *src = getenv("STICTION_SRCDIR");
  if (src) ck_assert_int_eq(chdir(src), 0);
  return st_test_run(out, cmd);
}

#endif
