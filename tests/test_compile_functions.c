/* User functions in compiled equations (src/compile/func_calls.c, OP_CALL): a polynomial from
 * a table column summed in a for loop drives an ODE (closed form 1 - exp(-t)) and a nonlinear
 * equation solved by Newton through the call (closed form sqrt(2 + t)); a while-loop table
 * look-up with an early return; a default argument; and the MSL CoupledClutches example,
 * which calls Modelica.Math.tempInterpol1 with a parameter table. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXROWS 2048 /* CoupledClutches' rows */
#include "simtable.h"
#include "testutil.h"

/* The table {{0,0},{1,2},{2,2},{3,-1}} interpolated, clamped below at 0. */
static double table_value(double t) {
  if (t <= 0) return 0;
  if (t <= 1) return 2 * t;
  if (t <= 2) return 2;
  return 2 - 3 * (t - 2);
}

START_TEST(closed_forms) {
  static table t;
  run_ok("tests/data/compile/Functions.mo", "", "--stop-time 3 --interval 0.125", &t);
  ck_assert_int_eq(t.nrows, 25);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")], x = r[col(&t, "x")], z = r[col(&t, "z")];
    double w = r[col(&t, "w")], v = r[col(&t, "v")], nb = r[col(&t, "nb")];
    ck_assert_msg(fabs(x - (1 - exp(-tm))) < 1e-4, "x(%g) = %.10g", tm, x);
    ck_assert_msg(fabs(z - sqrt(2 + tm)) < 1e-8, "z(%g) = %.10g", tm, z);
    ck_assert_msg(fabs(w - table_value(tm)) < 1e-12, "w(%g) = %.10g", tm, w);
    ck_assert_msg(v == 0, "v(%g) = %.10g (early return)", tm, v);
    ck_assert_msg(nb == 4, "nb(%g) = %.10g (short-circuit and)", tm, nb);
  }
}
END_TEST

/* CoupledClutches: the friction characteristic of each clutch is a user function call on
 * a parameter table; before OP_CALL the compiler rejected the model. */
START_TEST(coupled_clutches_simulates) {
  static table t;
  char path[256], args[8192], *out = NULL;
  snprintf(path, sizeof path, "/tmp/stiction_test_functions_cc_%ld.csv", (long)getpid());
  snprintf(args, sizeof args,
           "simulate -L '%s' Modelica.Mechanics.Rotational.Examples.CoupledClutches -o '%s'",
           st_test_src("models"), path);
  ck_assert_msg(st_test_run(&out, args) == 0, "simulate failed: %s", out ? out : "");
  ck_assert_ptr_nonnull(strstr(out, "t = 0 .. 1.5 s"));
  free(out);
  read_csv(path, &t);
  unlink(path);
  ck_assert_int_gt(t.nrows, 1000);
}
END_TEST

/* A failed assert inside the function stops the run near t = 0.5 with a non-zero status. */
START_TEST(failing_function_stops) {
  char args[8192];
  snprintf(args, sizeof args, "simulate '%s' -o /dev/null",
           st_test_src("tests/data/compile/FunctionsBad.mo"));
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_int_ne(st, 0);
  const char *at = out ? strstr(out, " at t = ") : NULL;
  ck_assert_msg(at != NULL, "%s", out ? out : "");
  double t = strtod(at + 8, NULL);
  ck_assert_msg(t >= 0.5 && t < 0.51, "stopped at t = %g: %s", t, out);
  free(out);
}
END_TEST

/* One evaluator of function bodies for parameter bindings (flattening) and for calls at run
 * time (the function machine, src/func), FunctionsShared.mo: p = total(3, 2) = 12 while flattening, and
 * der(x) = total(3, time) = 6 t, x = 3 t^2, through an output sized by an input, a
 * protected array sized by size() and a column slice (the run-time evaluator had neither). */
START_TEST(shared_evaluator) {
  static table t;
  run_ok("tests/data/compile/FunctionsShared.mo", "", "--tolerance 1e-9", &t);
  ck_assert_int_eq(t.ncols, 4); /* time, x, y, der(x) */
  ck_assert_int_eq(t.nrows, 5);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[col(&t, "time")], x = r[col(&t, "x")], dx = r[col(&t, "der(x)")];
    ck_assert_msg(fabs(x - 3 * tm * tm) < 1e-8, "x(%g) = %.17g", tm, x);
    ck_assert_double_eq(r[col(&t, "y")], 12);
    ck_assert_msg(fabs(dx - 6 * tm) < 1e-12, "der(x)(%g) = %.17g", tm, dx);
  }
}
END_TEST

/* An external function stiction does not provide is rejected at compile time with a located
 * message naming the ones it does (src/func/external.c). */
START_TEST(external_function_error) {
  char args[8192];
  snprintf(args, sizeof args, "simulate '%s' -o /dev/null",
           st_test_src("tests/data/compile/FunctionsExternal.mo"));
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_int_eq(st, 1);
  ck_assert_msg(out && strstr(out, "FunctionsExternal.mo:11:12: error: external function "
                                   "'FunctionsExternal.g' (declared at ") &&
                strstr(out, "the C function 'extc_undefined_function' is defined neither"), "%s", out);
  free(out);
}
END_TEST

int main(void) {
  Suite *s = suite_create("compile_functions");
  st_test_case(s, "functions", 120, ST_TESTS(closed_forms, coupled_clutches_simulates,
               failing_function_stops, external_function_error, shared_evaluator));
  st_test_cache_home("compile_functions");
  int rc = st_test_main(s);
  st_test_cache_remove();
  return rc;
}
