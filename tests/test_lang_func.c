/* Functions, expressions and equations of the Modelica language that the genuine Modelica
 * Standard Library needs (issue 15): external "builtin" functions, built-in array functions,
 * records in expressions and functions, initial algorithms. Models written here in
 * tests/data/lang/, run through `stiction simulate`; expected values are closed forms. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtable.h"
#include "testutil.h"

#define LANG(model) "tests/data/lang/" model

/* Simulates CLASS of tests/data/lang/FILE with OPTS into t and fails on a non-zero exit. */
static void run_ok(const char *file, const char *cls, const char *opts, table *t) {
  char o[1024];
  snprintf(o, sizeof o, "%s %s", cls, opts);
  char *out = NULL;
  int st = simulate(file, o, t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
}

/* external "builtin": sin, atan2 with a named and a default argument, exp through the default
 * external call, and a call inside a function body. */
START_TEST(external_builtin) {
  static table t;
  run_ok(LANG("ExternalBuiltin.mo"), "ExternalBuiltin.Test", "--tolerance 1e-10", &t);
  int ct = col(&t, "time"), cx = col(&t, "x"), cs = col(&t, "s"), ca = col(&t, "a");
  int ca1 = col(&t, "a1"), cw = col(&t, "w");
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    ck_assert_msg(fabs(r[cx] - exp(-tm)) < 1e-7, "x(%g) = %.17g", tm, r[cx]);
    ck_assert_msg(fabs(r[cs] - sin(tm)) < 1e-15, "s(%g) = %.17g", tm, r[cs]);
    ck_assert_msg(fabs(r[ca] - atan2(tm, 2)) < 1e-15, "a(%g) = %.17g", tm, r[ca]);
    ck_assert_msg(fabs(r[ca1] - atan2(tm, 1)) < 1e-15, "a1(%g) = %.17g", tm, r[ca1]);
    ck_assert_msg(fabs(r[cw] - 2 * sin(tm)) < 1e-15, "w(%g) = %.17g", tm, r[cw]);
  }
  expect_refused(LANG("ExternalBuiltinBad.mo"),
                 "ExternalBuiltinBad.mo:6:3: error: external \"builtin\" function 'j0' of "
                 "'ExternalBuiltinBad.besselJ0' is not a built-in function of stiction");
}
END_TEST

/* cardinality() of connector array elements, in equations, if-equations and bindings; an
 * if-expression on a for-index picks its branch (chain[i - 1] for i = 1 is never built). */
START_TEST(cardinality_counts_connections) {
  static table t;
  run_ok(LANG("Cardinality.mo"), "Cardinality.Test", "", &t);
  int ct = col(&t, "time");
  static const char *const counts[] = {"a.c[1]", "a.c[2]", "a.c[3]", "b.c[1]", "b.c[2]",
                                       "b.c[3]", "cy"};
  static const double want[] = {1, 1, 0, 0, 0, 1, 2};
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    for (int k = 0; k < 7; k++) ck_assert_double_eq(r[col(&t, counts[k])], want[k]);
    ck_assert_double_eq(r[col(&t, "a.u[3]")], -1);
    ck_assert_double_eq(r[col(&t, "b.u[1]")], -1);
    ck_assert_msg(fabs(r[col(&t, "a.chain[3]")] - (30 * tm - 1)) < 1e-12, "a.chain[3](%g)", tm);
    ck_assert_msg(fabs(r[col(&t, "b.chain[3]")] - (10 * tm - 2)) < 1e-12, "b.chain[3](%g)", tm);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("lang_func");
  TCase *tc = tcase_create("lang_func");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, external_builtin);
  tcase_add_test(tc, cardinality_counts_connections);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
