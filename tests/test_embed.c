/* The public Modelica API (include/stiction/modelica.h): compiling from the library path,
 * instances of one program side by side and in threads (results equal to single-threaded
 * runs, bit for bit), parameters and start values by name, the variable list, diagnostics as
 * data, stepping with an input against the closed form, the event log, misuse. */
#include <check.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "testutil.h"

#define CC "Modelica.Mechanics.Rotational.Examples.CoupledClutches"

/* A sink keeping every row in memory. */
typedef struct rows {
  int ncols;
  size_t n, cap;
  double *v;
} rows;

static int rows_begin(void *ud, int ncols, const char *const *names) {
  (void)names;
  ((rows *)ud)->ncols = ncols;
  return 0;
}

static int rows_row(void *ud, const double *values) {
  rows *r = ud;
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 256;
    r->v = realloc(r->v, r->cap * (size_t)r->ncols * sizeof *r->v);
    if (!r->v) return -1;
  }
  memcpy(r->v + r->n++ * (size_t)r->ncols, values, (size_t)r->ncols * sizeof *values);
  return 0;
}

static stiction_sink rows_sink(rows *r) {
  memset(r, 0, sizeof *r);
  return (stiction_sink){sizeof(stiction_sink), rows_begin, rows_row, NULL, r};
}

static int rows_equal(const rows *a, const rows *b) {
  return a->ncols == b->ncols && a->n == b->n &&
         memcmp(a->v, b->v, a->n * (size_t)a->ncols * sizeof *a->v) == 0;
}

static stiction_modelica *workspace(void) {
  stiction_modelica *mo = stiction_modelica_new();
  ck_assert_ptr_nonnull(mo);
  ck_assert_int_eq(stiction_modelica_add_library_path(mo, st_test_src("models")), STICTION_OK);
  return mo;
}

/* tests/data/embed/InputLag.mo compiled. */
static stiction_program *input_lag(stiction_modelica *mo) {
  stiction_program *prog;
  ck_assert_int_eq(stiction_modelica_load_file(mo, st_test_src("tests/data/embed/InputLag.mo")),
                   STICTION_OK);
  ck_assert_int_eq(stiction_modelica_compile(mo, "InputLag", NULL, 0, &prog), STICTION_OK);
  return prog;
}

/* One run of prog, with J1.J set when J > 0, its rows into *out. */
typedef struct job {
  const stiction_program *prog;
  double J;
  rows out;
  int rc;
} job;

static void *run_job(void *arg) {
  job *j = arg;
  stiction_instance *in = stiction_instance_new(j->prog);
  stiction_sink sink = rows_sink(&j->out);
  j->rc = in ? STICTION_OK : STICTION_ERR_NOMEM;
  if (in && j->J > 0) j->rc = stiction_instance_set_by_name(in, "J1.J", j->J);
  if (in && !j->rc) j->rc = stiction_instance_run(in, NULL, &sink);
  stiction_instance_free(in);
  return NULL;
}

START_TEST(version_matches_header) {
  char v[64];
  snprintf(v, sizeof v, "%d.%d.%d", STICTION_VERSION_MAJOR, STICTION_VERSION_MINOR,
           STICTION_VERSION_PATCH);
  ck_assert_str_eq(stiction_version(), v);
}
END_TEST

/* Two instances of one program in two threads at once, one with J1.J = 2: each equals the
 * single-threaded run of the same instance bit for bit, and the parameter took effect. */
START_TEST(threads_equal_single_runs) {
  stiction_modelica *mo = workspace();
  stiction_program *prog;
  ck_assert_int_eq(stiction_modelica_compile(mo, CC, NULL, 0, &prog), STICTION_OK);
  job a1 = {prog, 0, {0}, 0}, b1 = {prog, 2, {0}, 0};
  run_job(&a1);
  run_job(&b1);
  ck_assert_int_eq(a1.rc, STICTION_OK);
  ck_assert_int_eq(b1.rc, STICTION_OK);
  ck_assert(a1.out.n > 500);
  ck_assert(!rows_equal(&a1.out, &b1.out));
  job a2 = {prog, 0, {0}, 0}, b2 = {prog, 2, {0}, 0};
  pthread_t ta, tb;
  ck_assert_int_eq(pthread_create(&ta, NULL, run_job, &a2), 0);
  ck_assert_int_eq(pthread_create(&tb, NULL, run_job, &b2), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  ck_assert_int_eq(a2.rc, STICTION_OK);
  ck_assert_int_eq(b2.rc, STICTION_OK);
  ck_assert(rows_equal(&a1.out, &a2.out));
  ck_assert(rows_equal(&b1.out, &b2.out));
  free(a1.out.v), free(b1.out.v), free(a2.out.v), free(b2.out.v);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
}
END_TEST

/* A modifier at compile time and a parameter set on the instance give the same run. */
START_TEST(modifier_equals_parameter) {
  stiction_modelica *mo = workspace();
  stiction_program *p0, *p2;
  const char *mods[] = {"J1.J = 2"};
  ck_assert_int_eq(stiction_modelica_compile(mo, CC, NULL, 0, &p0), STICTION_OK);
  ck_assert_int_eq(stiction_modelica_compile(mo, CC, mods, 1, &p2), STICTION_OK);
  job set = {p0, 2, {0}, 0}, mod = {p2, 0, {0}, 0};
  run_job(&set);
  run_job(&mod);
  ck_assert_int_eq(set.rc, STICTION_OK);
  ck_assert_int_eq(mod.rc, STICTION_OK);
  ck_assert(rows_equal(&set.out, &mod.out));
  free(set.out.v), free(mod.out.v);
  stiction_program_free(p0);
  stiction_program_free(p2);
  stiction_modelica_free(mo);
}
END_TEST

START_TEST(variables_listed) {
  stiction_modelica *mo = workspace();
  stiction_program *prog;
  ck_assert_int_eq(stiction_modelica_compile(mo, CC, NULL, 0, &prog), STICTION_OK);
  ck_assert_str_eq(stiction_program_name(prog), CC);
  int n = stiction_program_n_variables(prog), states = 0;
  ck_assert(n > 50);
  for (int i = 0; i < n; i++) {
    stiction_variable v = {.size = sizeof v};
    ck_assert_int_eq(stiction_program_variable(prog, i, &v), STICTION_OK);
    ck_assert_int_eq(stiction_program_find(prog, v.name), i);
    states += v.is_state;
  }
  ck_assert_int_eq(states, 8); /* CoupledClutches has 8 states */
  stiction_variable v = {.size = sizeof v};
  int j = stiction_program_find(prog, "J1.J");
  ck_assert_int_ge(j, 0);
  stiction_program_variable(prog, j, &v);
  ck_assert_int_eq(v.causality, STICTION_CAUSALITY_PARAMETER);
  ck_assert_int_eq(v.variability, STICTION_VARIABILITY_PARAMETER);
  ck_assert_str_eq(v.unit, "kg.m2");
  ck_assert_str_eq(v.description, "Moment of inertia");
  ck_assert_int_eq(stiction_program_find(prog, "J1.nothing"), STICTION_ERR_NOT_FOUND);
  stiction_variable small = {.size = 8};
  ck_assert_int_eq(stiction_program_variable(prog, j, &small), STICTION_ERR_ARG);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
}
END_TEST

START_TEST(diagnostics_located) {
  stiction_modelica *mo = workspace();
  ck_assert_int_eq(stiction_modelica_load_file(mo, st_test_src("tests/data/embed/Broken.mo")),
                   STICTION_OK);
  stiction_program *prog = (stiction_program *)1;
  ck_assert_int_eq(stiction_modelica_compile(mo, "Broken", NULL, 0, &prog), STICTION_ERR_MODEL);
  ck_assert_ptr_null(prog);
  int n = stiction_modelica_n_diagnostics(mo), errors = 0;
  ck_assert_int_gt(n, 0);
  for (int i = 0; i < n; i++) {
    stiction_diagnostic d = {.size = sizeof d};
    ck_assert_int_eq(stiction_modelica_diagnostic(mo, i, &d), STICTION_OK);
    if (d.severity != STICTION_ERROR) continue;
    errors++;
    ck_assert_ptr_nonnull(strstr(d.file, "Broken.mo"));
    ck_assert_int_eq(d.line, 5);
    ck_assert_int_eq(d.column, 13);
    ck_assert_ptr_nonnull(strstr(d.message, "k"));
  }
  ck_assert_int_ge(errors, 1);
  stiction_diagnostic d = {.size = sizeof d};
  ck_assert_int_eq(stiction_modelica_diagnostic(mo, n, &d), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_modelica_compile(mo, "NoSuchClass", NULL, 0, &prog),
                   STICTION_ERR_MODEL);
  stiction_modelica_free(mo);
}
END_TEST

static int count_events(void *ud, const stiction_event_record *e) {
  if (e->kind == STICTION_EVENT_STATE) ++*(int *)ud;
  return 0;
}

/* The input of a first-order lag T x' = u - x set at each of 1000 steps of 1 ms: x follows
 * the exact solution of the piecewise-constant input, and the crossings of x = 0.3 are
 * state events inside the steps; on CVODE and on IDA (the DAE form). */
static const stiction_solver solvers[] = {STICTION_SOLVER_CVODE_BDF, STICTION_SOLVER_IDA};

START_TEST(stepping_with_input) {
  stiction_modelica *mo = workspace();
  stiction_program *prog = input_lag(mo);
  stiction_instance *in = stiction_instance_new(prog);
  int u = stiction_program_find(prog, "u"), x = stiction_program_find(prog, "x");
  int y = stiction_program_find(prog, "y");
  stiction_variable v = {.size = sizeof v};
  stiction_program_variable(prog, u, &v);
  ck_assert_int_eq(v.causality, STICTION_CAUSALITY_INPUT);
  stiction_program_variable(prog, y, &v);
  ck_assert_int_eq(v.causality, STICTION_CAUSALITY_OUTPUT);
  int events = 0;
  ck_assert_int_eq(stiction_instance_set_event_listener(in, count_events, &events), STICTION_OK);
  stiction_options opt;
  stiction_program_options(prog, &opt);
  opt.rtol = 1e-9; /* each step restarts at order 1: local errors add up over the 1000 */
  opt.solver = solvers[_i];
  ck_assert_int_eq(stiction_instance_start(in, &opt, NULL), STICTION_OK);
  ck_assert_int_eq(stiction_instance_set_by_name(in, "T", 1), STICTION_ERR_STATE);
  const double h = 1e-3, decay = exp(-h / 0.05);
  double exact = 0, worst = 0;
  for (int k = 1; k <= 1000; k++) {
    double uk = 0.3 + 0.5 * sin(2 * M_PI * 3 * (k - 1) * h); /* crosses 0.3 both ways */
    ck_assert_int_eq(stiction_instance_set(in, u, uk), STICTION_OK);
    ck_assert_int_eq(stiction_instance_advance(in, k * h), STICTION_OK);
    exact = uk + (exact - uk) * decay;
    double xv, yv;
    stiction_instance_get(in, x, &xv);
    stiction_instance_get(in, y, &yv);
    ck_assert_double_eq(stiction_instance_time(in), k * h);
    if (fabs(xv - exact) > worst) worst = fabs(xv - exact);
    ck_assert(yv == (xv > 0.3 ? xv : 0));
  }
  ck_assert_msg(worst < 1e-7, "x off the closed form by %g", worst);
  ck_assert_int_ge(events, 4); /* three periods, up and down */
  ck_assert_int_eq(stiction_instance_stopped(in), 1);
  ck_assert_int_eq(stiction_instance_finish(in), STICTION_OK);
  ck_assert_int_eq(stiction_instance_advance(in, 1.0), STICTION_ERR_STATE);
  stiction_instance_free(in);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
}
END_TEST

/* Start values and parameters by name before the run; misuse is refused. */
START_TEST(start_values_and_misuse) {
  stiction_modelica *mo = workspace();
  stiction_program *prog = input_lag(mo);
  stiction_instance *in = stiction_instance_new(prog);
  ck_assert_int_eq(stiction_instance_set_by_name(in, "x", 2), STICTION_OK);
  ck_assert_int_eq(stiction_instance_set_by_name(in, "u", 1), STICTION_OK);
  ck_assert_int_eq(stiction_instance_set_by_name(in, "T", 0.5), STICTION_OK);
  ck_assert_int_eq(stiction_instance_set_by_name(in, "nothing", 1), STICTION_ERR_NOT_FOUND);
  ck_assert_int_eq(stiction_instance_advance(in, 0.1), STICTION_ERR_STATE);
  stiction_options opt;
  stiction_program_options(prog, &opt);
  opt.stop_time = 0.5;
  ck_assert_int_eq(stiction_instance_run(in, &opt, NULL), STICTION_OK);
  double xv;
  ck_assert_int_eq(stiction_instance_get_by_name(in, "x", &xv), STICTION_OK);
  ck_assert_double_eq_tol(xv, 1 + (2 - 1) * exp(-0.5 / 0.5), 1e-5);
  ck_assert_int_eq(stiction_instance_run(in, &opt, NULL), STICTION_ERR_STATE);
  stiction_instance_free(in);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
}
END_TEST

/* The README's example program (tests/embed_example.c) runs and says what it checked. */
START_TEST(example_program) {
  const char *build = getenv("STICTION_BUILDDIR");
  char cmd[8192], models[4096];
  snprintf(models, sizeof models, "%s", st_test_src("models"));
  snprintf(cmd, sizeof cmd, "'%s/tests/embed_example' '%s' '%s' 2>&1", build ? build : ".",
           models, st_test_src("tests/data/embed/InputLag.mo"));
  FILE *p = popen(cmd, "r");
  ck_assert_ptr_nonnull(p);
  char buf[4096] = "";
  size_t n = fread(buf, 1, sizeof buf - 1, p);
  buf[n] = 0;
  int st = pclose(p);
  ck_assert_msg(st == 0, "example failed: %s", buf);
  ck_assert_ptr_nonnull(strstr(buf, "J4.w(end) = "));
  ck_assert_ptr_nonnull(strstr(buf, "stepped lag off by"));
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("embed");
  TCase *tc = tcase_create("api");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, version_matches_header);
  tcase_add_test(tc, threads_equal_single_runs);
  tcase_add_test(tc, modifier_equals_parameter);
  tcase_add_test(tc, variables_listed);
  tcase_add_test(tc, diagnostics_located);
  tcase_add_loop_test(tc, stepping_with_input, 0, 2);
  tcase_add_test(tc, start_values_and_misuse);
  tcase_add_test(tc, example_program);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
