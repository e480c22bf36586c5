/* Language features of the compiler (issue 4, doc/compiler.md): terminal(), algorithm
 * sections in models, tuple equations, delay(). Models in tests/data/compile/, run through
 * `stiction simulate`; expected values are closed forms. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#define MAXROWS 512
#define MAXCOLS 16

typedef struct table {
  int nrows, ncols;
  char names[MAXCOLS][64];
  double v[MAXROWS][MAXCOLS];
} table;

static void read_csv(const char *path, table *t) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[8192];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  t->ncols = 0;
  for (char *tok = strtok(line, ",\r\n"); tok && t->ncols < MAXCOLS; tok = strtok(NULL, ",\r\n"))
    snprintf(t->names[t->ncols++], sizeof t->names[0], "%s", tok);
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

static int col(const table *t, const char *name) {
  for (int j = 0; j < t->ncols; j++)
    if (strcmp(t->names[j], name) == 0) return j;
  ck_abort_msg("no column %s", name);
  return -1;
}

/* Simulates tests/data/compile/MODEL.mo with extra options into t; returns the exit status
 * and leaves the output in *out when out is not NULL. */
static int simulate(const char *model, const char *opts, table *t, char **out) {
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

/* The terminal pass at the stop time: xEnd = x(2) = exp(-2) and n = 1 only in the extra last
 * row; every earlier row still has the start values (the when-clause never fired). */
START_TEST(terminal_at_stop_time) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/Terminal.mo", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), ce = col(&t, "xEnd"), cn = col(&t, "n");
  /* 9 grid rows, two rows at the (quiet) event of x < 0.5, the row after the terminal pass */
  ck_assert_int_eq(t.nrows, 12);
  for (int i = 0; i < t.nrows - 1; i++) {
    ck_assert_double_eq(t.v[i][ce], 0);
    ck_assert_double_eq(t.v[i][cn], 0);
  }
  const double *last = t.v[t.nrows - 1];
  ck_assert_double_eq(last[ct], 2);
  ck_assert_double_eq(t.v[t.nrows - 2][ct], 2);
  ck_assert_msg(fabs(last[cx] - exp(-2)) < 1e-5, "x(2) = %.10g", last[cx]);
  ck_assert_double_eq(last[ce], last[cx]);
  ck_assert_double_eq(last[cn], 1);
}
END_TEST

/* terminate() at x = 0.5 (t = ln 2): the terminal pass runs there, once. */
START_TEST(terminal_after_terminate) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/Terminal.mo", "-p b=1 --tolerance 1e-9", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), ce = col(&t, "xEnd"), cn = col(&t, "n");
  const double *last = t.v[t.nrows - 1];
  ck_assert_msg(fabs(last[ct] - log(2)) < 1e-6, "stopped at %.10g", last[ct]);
  ck_assert_msg(fabs(last[ce] - 0.5) < 1e-6, "xEnd = %.10g", last[ce]);
  ck_assert_double_eq(last[cn], 1);
  ck_assert_double_eq(t.v[t.nrows - 2][cn], 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("lang");
  TCase *tc = tcase_create("lang");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, terminal_at_stop_time);
  tcase_add_test(tc, terminal_after_terminate);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
