/* Simulating a test model through the command and reading its CSV result by column name:
 * shared by the language tests (test_lang.c, test_lang_func.c, test_hybrid.c, ...). */
#ifndef ST_TESTS_SIMTABLE_H
#define ST_TESTS_SIMTABLE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#ifndef MAXROWS /* a test of wider or longer results defines its own before including */
#define MAXROWS 512
#endif
#ifndef MAXCOLS
#define MAXCOLS 128
#endif

typedef struct table {
  int nrows, ncols;
  char names[MAXCOLS][64];
  double v[MAXROWS][MAXCOLS];
} table;

static inline void read_csv(const char *path, table *t) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  static char line[1 << 16]; /* a header of MAXCOLS names */
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  t->ncols = 0;
  /* names with a comma ("A[1,2]") are quoted */
  for (char *p = line; *p && *p != '\n' && *p != '\r' && t->ncols < MAXCOLS;) {
    int quoted = *p == '"';
    char *end = quoted ? strchr(p + 1, '"') : p + strcspn(p, ",\r\n");
    ck_assert_ptr_nonnull(end);
    char *from = p + quoted;
    snprintf(t->names[t->ncols++], sizeof t->names[0], "%.*s", (int)(end - from), from);
    p = end + quoted;
    if (*p == ',') p++;
  }
  t->nrows = 0;
  while (t->nrows < MAXROWS && fgets(line, sizeof line, f)) {
    char *p = line;
    for (int j = 0; j < t->ncols; j++) {
      t->v[t->nrows][j] = strtod(p, &p);
      if (*p == ',') p++;
    }
    t->nrows++;
  }
  fclose(f);
}

static inline int col(const table *t, const char *name) {
  for (int j = 0; j < t->ncols; j++)
    if (strcmp(t->names[j], name) == 0) return j;
  ck_abort_msg("no column %s", name);
  return -1;
}

/* Simulates MODEL (a .mo file under the source tree) with extra options into t; returns the
 * exit status and leaves the output in *out when out is not NULL. */
static inline int simulate(const char *model, const char *opts, table *t, char **out) {
  char path[256], args[8192];
  snprintf(path, sizeof path, "/tmp/stiction_test_lang_%ld.csv", (long)getpid());
  unlink(path);
  snprintf(args, sizeof args, "simulate '%s' %s -o '%s'",
           st_test_src(model), opts, path);
  char *o = NULL;
  int st = st_test_run(&o, args);
  if (st == 0) read_csv(path, t);
  unlink(path);
  if (out) *out = o;
  else free(o);
  return st;
}

/* Simulates CLASS of FILE with OPTS into t and fails on a non-zero exit. */
static inline void run_ok(const char *file, const char *cls, const char *opts, table *t) {
  char o[1024];
  snprintf(o, sizeof o, "%s %s", cls, opts);
  char *out = NULL;
  int st = simulate(file, o, t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
}

/* MODEL is refused: exit status 1 and EXPECTED (a located message) in the output. */
static inline void expect_refused(const char *model, const char *expected) {
  static table t;
  char *out = NULL;
  int st = simulate(model, "", &t, &out);
  ck_assert_int_eq(st, 1);
  ck_assert_msg(out && strstr(out, expected), "%s", out ? out : "");
  free(out);
}

#endif
