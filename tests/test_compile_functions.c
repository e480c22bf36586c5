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

#include "testutil.h"

#define MAXROWS 64

/* Reads the columns time,x,z,w,v of the Functions result (header order checked). */
static int read_rows(const char *path, double rows[][6]) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[4096];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_msg(strncmp(line, "time,x,z,w,v,nb", 15) == 0, "header %s", line);
  int n = 0;
  while (n < MAXROWS && fgets(line, sizeof line, f)) {
    char *p = line;
    for (int j = 0; j < 6; j++) {
      rows[n][j] = strtod(p, &p);
      if (*p == ',') p++;
    }
    n++;
  }
  fclose(f);
  return n;
}

/* The table {{0,0},{1,2},{2,2},{3,-1}} interpolated, clamped below at 0. */
static double table_value(double t) {
  if (t <= 0) return 0;
  if (t <= 1) return 2 * t;
  if (t <= 2) return 2;
  return 2 - 3 * (t - 2);
}

START_TEST(closed_forms) {
  char path[256], args[8192];
  snprintf(path, sizeof path, "/tmp/stiction_test_functions_%ld.csv", (long)getpid());
  snprintf(args, sizeof args, "simulate '%s' --stop-time 3 --interval 0.125 -o '%s'",
           st_test_src("tests/data/compile/Functions.mo"), path);
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "simulate failed: %s", out ? out : "");
  free(out);
  static double rows[MAXROWS][6];
  int n = read_rows(path, rows);
  unlink(path);
  ck_assert_int_eq(n, 25);
  for (int i = 0; i < n; i++) {
    double t = rows[i][0];
    ck_assert_msg(fabs(rows[i][1] - (1 - exp(-t))) < 1e-4, "x(%g) = %.10g", t, rows[i][1]);
    ck_assert_msg(fabs(rows[i][2] - sqrt(2 + t)) < 1e-8, "z(%g) = %.10g", t, rows[i][2]);
    ck_assert_msg(fabs(rows[i][3] - table_value(t)) < 1e-12, "w(%g) = %.10g", t, rows[i][3]);
    ck_assert_msg(rows[i][4] == 0, "v(%g) = %.10g (early return)", t, rows[i][4]);
    ck_assert_msg(rows[i][5] == 4, "nb(%g) = %.10g (short-circuit and)", t, rows[i][5]);
  }
}
END_TEST

/* CoupledClutches: the friction characteristic of each clutch is a user function call on
 * a parameter table; before OP_CALL the compiler rejected the model. */
START_TEST(coupled_clutches_simulates) {
  char path[256], args[8192];
  snprintf(path, sizeof path, "/tmp/stiction_test_functions_cc_%ld.csv", (long)getpid());
  snprintf(args, sizeof args,
           "simulate -L '%s' Modelica.Mechanics.Rotational.Examples.CoupledClutches -o '%s'",
           st_test_src("models"), path);
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "simulate failed: %s", out ? out : "");
  ck_assert_ptr_nonnull(strstr(out, "t = 0 .. 1.5 s"));
  free(out);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[16384];
  int rows = 0;
  while (fgets(line, sizeof line, f)) rows++;
  fclose(f);
  unlink(path);
  ck_assert_int_gt(rows, 1000);
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
  char path[256], args[8192];
  snprintf(path, sizeof path, "/tmp/stiction_test_functions_shared_%ld.csv", (long)getpid());
  snprintf(args, sizeof args, "simulate '%s' --tolerance 1e-9 -o '%s'",
           st_test_src("tests/data/compile/FunctionsShared.mo"), path);
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "simulate failed: %s", out ? out : "");
  free(out);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[1024];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_str_eq(line, "time,x,y,der(x)\n");
  int n = 0;
  double t, x, y, dx;
  while (fgets(line, sizeof line, f) && sscanf(line, "%lf,%lf,%lf,%lf", &t, &x, &y, &dx) == 4) {
    ck_assert_msg(fabs(x - 3 * t * t) < 1e-8, "x(%g) = %.17g", t, x);
    ck_assert_double_eq(y, 12);
    ck_assert_msg(fabs(dx - 6 * t) < 1e-12, "der(x)(%g) = %.17g", t, dx);
    n++;
  }
  fclose(f);
  unlink(path);
  ck_assert_int_eq(n, 5);
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
