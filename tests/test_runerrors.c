/* Run-time failures of compiled models (issue 4, doc/compiler.md "Run-time errors"): a NaN or
 * Inf names the equation that produced it with its source location, a Newton without a root
 * names its system, the exit status is 1 / the API status is STICTION_ERR_NONFINITE, the rows
 * computed before stay on disk, and a run that fails before its first row leaves no result
 * file and says so. Expected values are closed forms. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/results.h>
#include <stiction/stiction.h>

#include "compile/compile.h"
#include "front/front.h"
#include "testutil.h"

/* Runs `stiction simulate tests/data/compile/MODEL OPTS -o out` and returns the exit status;
 * *out gets the output (caller frees), path the result file name. */
static int simulate(const char *model, const char *opts, char **out, char *path, size_t size) {
  char args[8192];
  snprintf(path, size, "/tmp/stiction_test_runerrors_%ld.csv", (long)getpid());
  unlink(path);
  snprintf(args, sizeof args, "simulate '%s%s' %s -o '%s'", st_test_src("tests/data/compile/"),
           model, opts, path);
  return st_test_run(out, args);
}

/* text has "PREFIX<name>SUFFIX" with `name` mentioned in <name> (alias elimination may report
 * the variable under its representative: "der(z) (also y)"); returns what follows SUFFIX. */
static const char *located(const char *text, const char *prefix, const char *name,
                           const char *suffix) {
  const char *p = text ? strstr(text, prefix) : NULL;
  if (!p) return NULL;
  p += strlen(prefix);
  const char *end = strstr(p, suffix), *nl = strchr(p, '\n');
  if (!end || (nl && nl < end)) return NULL;
  size_t n = strlen(name);
  for (const char *q = p; q + n <= end; q++)
    if (!strncmp(q, name, n) && (q == p || q[-1] == ' ' || q[-1] == '(') &&
        (q[n] == ' ' || q[n] == ')' || q[n] == ',' || q + n == end))
      return end + strlen(suffix);
  return NULL;
}

/* The result table, or NULL when the file is missing. */
static stiction_table *read_table(const char *path) {
  stiction_table *t = NULL;
  char msg[256];
  if (stiction_table_read(&t, path, msg, sizeof msg)) return NULL;
  return t;
}

/* sqrt(1 - t) is NaN after t = 1: the message points at `y = sqrt(x);` and gives a time just
 * past 1; the rows before (t = 0 .. 0.75) are on disk with y = sqrt(1 - t) and
 * z = 2/3 (1 - (1 - t)^1.5). */
START_TEST(nan_names_the_equation) {
  char *out = NULL, path[256];
  int st = simulate("NonFiniteSqrt.mo", "--tolerance 1e-8 --keep-partial", &out, path,
                    sizeof path);
  ck_assert_msg(st == 1, "exit %d: %s", st, out ? out : "");
  const char *at = located(out, "NonFiniteSqrt.mo:8:3: error: the equation for ", "y",
                           " evaluated to NaN at t = ");
  ck_assert_msg(at, "%s", out ? out : "");
  double tf = strtod(at, NULL);
  ck_assert_msg(tf > 1 && tf <= 1.25, "failed at t = %.17g", tf);
  free(out);
  stiction_table *t = read_table(path);
  ck_assert_ptr_nonnull(t);
  int nr = stiction_table_rows(t), ct = stiction_table_find(t, "time");
  int cy = stiction_table_find(t, "y"), cz = stiction_table_find(t, "z");
  ck_assert_int_ge(nr, 4);
  const double *v = stiction_table_data(t);
  int nc = stiction_table_columns(t);
  for (int i = 0; i < nr; i++) {
    double tm = v[i * nc + ct], y = v[i * nc + cy], z = v[i * nc + cz];
    ck_assert_double_eq_tol(tm, 0.25 * i, 1e-12);
    ck_assert_msg(fabs(y - sqrt(1 - tm)) < 1e-9, "y(%g) = %.17g", tm, y);
    ck_assert_msg(fabs(z - 2.0 / 3 * (1 - pow(1 - tm, 1.5))) < 1e-6, "z(%g) = %.17g", tm, z);
  }
  stiction_table_free(t);
  unlink(path);
}
END_TEST

/* No real root of y^2 + y = 1 - 2t after t = 0.625: the located error of the nonlinear
 * system, and the rows before hold y = (sqrt(5 - 8t) - 1)/2. */
START_TEST(newton_without_root_names_the_system) {
  char *out = NULL, path[256];
  int st = simulate("NoRealRoot.mo", "--keep-partial", &out, path, sizeof path);
  ck_assert_msg(st == 1, "exit %d: %s", st, out ? out : "");
  /* y or its alias der(x), whichever alias elimination keeps */
  const char *pre = "NoRealRoot.mo:8:3: error: nonlinear system for ";
  const char *at = located(out, pre, "der(x)", " has no solution at time ");
  if (!at) at = located(out, pre, "y", " has no solution at time ");
  ck_assert_msg(at, "%s", out ? out : "");
  double tf = strtod(at, NULL);
  ck_assert_msg(tf > 0.625 && tf <= 0.75, "failed at t = %.17g", tf);
  free(out);
  stiction_table *t = read_table(path);
  ck_assert_ptr_nonnull(t);
  int nr = stiction_table_rows(t), nc = stiction_table_columns(t);
  int ct = stiction_table_find(t, "time"), cy = stiction_table_find(t, "y");
  const double *v = stiction_table_data(t);
  /* t = 0 .. 0.5; the row at 0.625 only if the integrator reached it without stepping past */
  ck_assert_int_ge(nr, 5);
  for (int i = 0; i < nr; i++) {
    double tm = v[i * nc + ct], y = v[i * nc + cy];
    ck_assert_double_eq_tol(tm, 0.125 * i, 1e-12);
    ck_assert_msg(fabs(y - (sqrt(5 - 8 * tm) - 1) / 2) < 1e-8, "y(%g) = %.17g", tm, y);
  }
  stiction_table_free(t);
  unlink(path);
}
END_TEST

/* The same through the library: stiction_sim_run returns STICTION_ERR_NONFINITE for
 * log(1 - t) at t = 1 (-Inf, or NaN just past it), the diagnostic names the equation. y is
 * read by no equation, only recorded: the run needs a sink that takes rows, since without one
 * the recorded variables are not evaluated (runtime/output.c). */
static int ignore_row(void *user_data, const double *values) { return 0; }

START_TEST(nonfinite_status_through_the_api) {
  FILE *msgs = tmpfile();
  ck_assert_ptr_nonnull(msgs);
  st_diag *diag = st_diag_new(msgs);
  st_front *fe = st_front_new(diag);
  ck_assert_int_eq(st_front_load_file(fe, st_test_src("tests/data/compile/NonFiniteLog.mo")), 0);
  st_flat_model *flat = st_front_flatten(fe, "NonFiniteLog");
  ck_assert_ptr_nonnull(flat);
  st_compiled *cm = st_compile(flat, diag);
  ck_assert_ptr_nonnull(cm);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  opt.interval = 0.25;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  stiction_sink sink = {sizeof(stiction_sink), NULL, ignore_row, NULL, NULL};
  stiction_sim_set_sink(sim, &sink);
  int rc = stiction_sim_run(sim);
  ck_assert_int_eq(rc, STICTION_ERR_NONFINITE);
  ck_assert_int_eq(stiction_sim_stats(sim)->rows, 4); /* t = 0 .. 0.75 */
  char text[4096] = "";
  rewind(msgs);
  size_t n = fread(text, 1, sizeof text - 1, msgs);
  text[n] = 0;
  /* x(1) is 0 up to the interpolant's rounding: -Inf, or NaN when it lands a hair below 0 */
  ck_assert_msg(strstr(text, "NonFiniteLog.mo:7:3: error: the equation for y evaluated to -Inf "
                             "at t = 1\n") ||
                    strstr(text, "NonFiniteLog.mo:7:3: error: the equation for y evaluated to NaN "
                                 "at t = 1\n"),
                "%s", text);
  stiction_sim_free(sim);
  st_compiled_free(cm);
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(diag);
  fclose(msgs);
}
END_TEST

/* The finiteness checks add a vector up first (util/finite.h): y1 + y2 = 3e308 overflows
 * to +Inf although both are finite, and that must not stop the run -- the exact scan that
 * follows finds no entry to blame. All five rows, y1 = y2 = 1.5e308 (x <= 1 is below half
 * an ulp of 1.5e308, so the sums round back to it). */
START_TEST(overflowing_sum_of_finite_values_is_no_error) {
  char *out = NULL, path[256];
  int st = simulate("LargeFinite.mo", "", &out, path, sizeof path);
  ck_assert_msg(st == 0, "exit %d: %s", st, out ? out : "");
  ck_assert_msg(out && !strstr(out, "error:"), "%s", out ? out : "");
  free(out);
  stiction_table *t = read_table(path);
  ck_assert_ptr_nonnull(t);
  int nr = stiction_table_rows(t), nc = stiction_table_columns(t);
  int c1 = stiction_table_find(t, "y1"), c2 = stiction_table_find(t, "y2");
  ck_assert_int_eq(nr, 5);
  ck_assert_int_ge(c1, 0);
  ck_assert_int_ge(c2, 0);
  const double *v = stiction_table_data(t);
  for (int i = 0; i < nr; i++) {
    ck_assert_msg(v[i * nc + c1] == 1.5e308, "y1 = %.17g", v[i * nc + c1]);
    ck_assert_msg(v[i * nc + c2] == 1.5e308, "y2 = %.17g", v[i * nc + c2]);
  }
  stiction_table_free(t);
  unlink(path);
}
END_TEST

static int exists(const char *path) { return access(path, F_OK) == 0; }

static const char *text_of(const char *path) {
  static char buf[256];
  FILE *f = fopen(path, "r");
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = 0;
  return buf;
}

/* A run that fails at t = 0 keeps no rows: no result file is written, an earlier result of
 * the same name stays as it was, and the message says which. */
START_TEST(failure_before_first_row_writes_no_file) {
  char *out = NULL, path[256];
  snprintf(path, sizeof path, "/tmp/stiction_test_runerrors_%ld.csv", (long)getpid());
  FILE *old = fopen(path, "w");
  ck_assert_ptr_nonnull(old);
  fputs("time,y\n0,1\n", old);
  fclose(old);
  char args[8192];
  snprintf(args, sizeof args, "simulate '%s' -o '%s'",
           st_test_src("tests/data/compile/InfAtStart.mo"), path);
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 1, "exit %d: %s", st, out ? out : "");
  ck_assert_msg(out && strstr(out, "InfAtStart.mo:5:3: error: the equation for y evaluated to "
                                   "+Inf at t = 0\n"), "%s", out ? out : "");
  ck_assert_msg(strstr(out, "before the first row; the previous "), "%s", out);
  ck_assert_msg(strstr(out, " is left as it was)"), "%s", out);
  ck_assert_msg(!strstr(out, "rows before"), "%s", out);
  ck_assert_str_eq(text_of(path), "time,y\n0,1\n"); /* the earlier result is kept */
  unlink(path);
  free(out);
  /* a parameter is named at its declaration */
  snprintf(args, sizeof args, "simulate '%s' -o '%s'",
           st_test_src("tests/data/compile/ParamInf.mo"), path);
  st = st_test_run(&out, args);
  ck_assert_msg(st == 1, "exit %d: %s", st, out ? out : "");
  ck_assert_msg(out && strstr(out, "ParamInf.mo:4:18: error: parameter p evaluated to +Inf\n"),
                "%s", out ? out : "");
  ck_assert_msg(!exists(path), "%s is still there", path);
  free(out);
  /* the same rule in `stiction demo`: a stop time before the start fails before any row */
  snprintf(args, sizeof args, "demo friction-block --stop-time -1 -o '%s'", path);
  st = st_test_run(&out, args);
  ck_assert_msg(st == 1, "exit %d: %s", st, out ? out : "");
  ck_assert_msg(out && strstr(out, "no result file written"), "%s", out ? out : "");
  ck_assert_msg(!exists(path), "%s is still there", path);
  free(out);
}
END_TEST

ST_TEST_MAIN("runerrors", "runerrors", 120,
             nan_names_the_equation, newton_without_root_names_the_system,
             nonfinite_status_through_the_api, failure_before_first_row_writes_no_file,
             overflowing_sum_of_finite_values_is_no_error)
