/* `stiction tamsi`: problem files of the spec's scenarios solved through the command (values
 * against the values of Drake's own tests), GNU option handling, one-line errors for malformed or
 * inconsistent input, and the box demo. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "testutil.h"

/* Runs `stiction tamsi ARGS`; returns the exit status, output in *out (caller frees). */
static int tamsi(char **out, const char *args) { return st_test_runf(out, "tamsi %s", args); }

static char *data(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "tests/data/tamsi/%s", name);
  return strdup(st_test_src(rel));
}

static double member(json_object *o, const char *key, int idx) {
  json_object *m;
  ck_assert_msg(json_object_object_get_ex(o, key, &m), "no key %s", key);
  if (idx < 0) return json_object_get_double(m);
  ck_assert_int_gt((int)json_object_array_length(m), idx);
  return json_object_get_double(json_object_array_get_idx(m, (size_t)idx));
}

static json_object *solve_file(const char *name, int expect_status) {
  char *path = data(name), *out = NULL, args[4096];
  snprintf(args, sizeof args, "'%s'", path);
  int st = tamsi(&out, args);
  ck_assert_msg(st == expect_status, "exit %d: %s", st, out ? out : "");
  json_object *o = json_tokener_parse(out);
  ck_assert_msg(o != NULL, "output is not JSON: %s", out);
  free(out);
  free(path);
  return o;
}

static const char *result_of(json_object *o) {
  json_object *r;
  ck_assert(json_object_object_get_ex(o, "result", &r));
  return json_object_get_string(r);
}

START_TEST(cli_cylinder_stiction) {
  json_object *o = solve_file("cylinder_stiction.json", 0);
  ck_assert_str_eq(result_of(o), "success");
  const double ref[3] = {0.2500002940506068, 0.001994329585210411, -0.2499997059493932};
  for (int j = 0; j < 3; j++) ck_assert_double_eq_tol(member(o, "v", j), ref[j], 1e-12);
  ck_assert_double_eq_tol(member(o, "fn", 0), 3010.994329585211, 3e-9);
  ck_assert_double_eq_tol(member(o, "vn", 0), ref[1], 1e-12);
  ck_assert_double_lt(fabs(member(o, "vt", 0)), 1e-6);
  ck_assert_double_lt(member(o, "vt_residual", -1), 1e-8);
  ck_assert_int_ge((int)member(o, "iterations", -1), 1);
  json_object_put(o);
}
END_TEST

START_TEST(cli_cylinder_sliding_with_fn0) {
  json_object *o = solve_file("cylinder_sliding.json", 0);
  ck_assert_str_eq(result_of(o), "success");
  const double ref[3] = {0.39890056704148047, 0.001994329585210411, -0.3010994329585195};
  for (int j = 0; j < 3; j++) ck_assert_double_eq_tol(member(o, "v", j), ref[j], 1e-12);
  ck_assert_double_eq_tol(member(o, "ft", 0), -301.0994329585195, 3e-10);
  json_object_put(o);
}
END_TEST

START_TEST(cli_pizza_one_way) {
  json_object *o = solve_file("pizza_small.json", 0);
  ck_assert_str_eq(result_of(o), "success");
  ck_assert_double_eq_tol(member(o, "v", 2), 3.67486369835958e-7, 1e-18);
  ck_assert_double_eq_tol(member(o, "tau_f", 2), -2.99963251328353, 1e-12);
  ck_assert_double_lt(member(o, "vt_residual", -1), 1e-10);
  json_object_put(o);
}
END_TEST

/* Writes text to a temporary file; returns its malloc'd path. */
static char *tmp_file(const char *text) {
  char *path = strdup("/tmp/stiction-tamsi-XXXXXX");
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

static const char *valid_one_way =
    "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],\n"
    " \"p_star\": [0.1, 0], \"dt\": 0.01, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [10]";

/* Runs the command on text; expects exit 1 and one line containing every needle. */
static void expect_input_error(const char *text, const char *needle1, const char *needle2) {
  char *path = tmp_file(text), *out = NULL, args[512];
  snprintf(args, sizeof args, "'%s'", path);
  int st = tamsi(&out, args);
  ck_assert_msg(st == 1, "exit %d for %s: %s", st, text, out);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1, "not one line: %s", out);
  ck_assert_msg(strstr(out, path) != NULL, "no file name: %s", out);
  ck_assert_msg(strstr(out, needle1) != NULL, "no '%s' in: %s", needle1, out);
  if (needle2) ck_assert_msg(strstr(out, needle2) != NULL, "no '%s' in: %s", needle2, out);
  unlink(path);
  free(path);
  free(out);
}

static char *with(const char *tail) {
  static char buf[2048];
  snprintf(buf, sizeof buf, "%s%s}\n", valid_one_way, tail);
  return buf;
}

START_TEST(cli_valid_one_way_baseline) {
  /* the base text of the error cases is itself valid: dt mu fn = 0.05 < 0.1, so it slides */
  char *path = tmp_file(with("")), *out = NULL, args[512];
  snprintf(args, sizeof args, "-c '%s'", path);
  ck_assert_int_eq(tamsi(&out, args), 0);
  json_object *o = json_tokener_parse(out);
  ck_assert_ptr_nonnull(o);
  /* Coulomb: v = 0.1 - dt mu fn = 0.05; the soft norm (eps = 1e-6) changes it by
   * dt mu fn eps^2 / (2 v^2) = 1e-11 */
  ck_assert_double_eq_tol(member(o, "v", 0), 0.05, 1e-10);
  json_object_put(o);
  unlink(path);
  free(path);
  free(out);
}
END_TEST

START_TEST(cli_malformed_json) {
  expect_input_error("{\"nv\": 2,\n \"M\": [[1, 0], [0 1]]}", ":2:", "invalid JSON");
  expect_input_error("", "invalid JSON", "end of input");
  expect_input_error("{\"nv\": 2", "invalid JSON", NULL);
  expect_input_error("[1, 2, 3]", "must be a JSON object", NULL);
  expect_input_error("{\"nv\": 1} trailing", "invalid JSON", ":1:11:");
  /* json-c accepts the NaN/Infinity literals; they are rejected as non-finite numbers */
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, 0], \"dt\": NaN, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "dt", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, -Infinity], \"dt\": 1, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "p_star", NULL);
}
END_TEST

START_TEST(cli_inconsistent_input) {
  expect_input_error("{\"mu\": []}", "missing key 'nv'", NULL);
  expect_input_error("{\"nv\": -1, \"mu\": []}", "'nv' must be in", NULL);
  expect_input_error("{\"nv\": 1.5, \"mu\": []}", "'nv' must be an integer", NULL);
  expect_input_error(with(", \"x0\": [1]"), "'fn'", "cannot be combined");
  expect_input_error(with(", \"bogus\": 1"), ":2:", "unknown key 'bogus'");
  expect_input_error(with(", \"parameters\": {\"theta_max\": 7}"), "theta_max", "(0, pi]");
  expect_input_error(with(", \"parameters\": {\"max_iterations\": 0}"), "max_iterations", NULL);
  expect_input_error(with(", \"parameters\": {\"tol\": 1}"), "unknown key 'tol'", NULL);
  expect_input_error(
      "{\"nv\": 1, \"M\": [[1]], \"Jn\": [[0]], \"Jt\": [[1], [0]], \"p_star\": [0],"
      " \"dt\": 0.01, \"v_guess\": [0], \"mu\": [0.5], \"fn0\": [1], \"x0\": [1],"
      " \"stiffness\": [1], \"dissipation\": [0]}",
      "either 'fn0' or 'x0'", NULL);
  expect_input_error(
      "{\"nv\": 1, \"M\": [[1]], \"Jn\": [[0]], \"Jt\": [[1], [0]], \"p_star\": [0],"
      " \"dt\": 0.01, \"v_guess\": [0], \"mu\": [0.5], \"x0\": [1], \"stiffness\": [1]}",
      "missing key 'dissipation'", NULL);
  /* sizes: Jt needs 2 nc rows, M nv x nv, fn nc entries */
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0]],"
      " \"p_star\": [0, 0], \"dt\": 0.01, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "'Jt' must have 2 rows", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, 0], \"dt\": 0.01, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "row 1 of 'M' must have 2 entries", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, 0], \"dt\": 0.01, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1, 2]}",
      "'fn' must have 1 entries", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, \"x\"]],"
      " \"p_star\": [0, 0], \"dt\": 0.01, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "row 1 of 'Jt'[1] must be a number", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, 0], \"dt\": \"0.01\", \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "'dt' must be a number", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, 0], \"dt\": 0, \"v_guess\": [0, 0], \"mu\": [0.5], \"fn\": [1]}",
      "'dt' must be > 0", NULL);
  expect_input_error(
      "{\"nv\": 2, \"M\": [[1, 0], [0, 1]], \"Jn\": [[0, 1]], \"Jt\": [[1, 0], [0, 0]],"
      " \"p_star\": [0, 0], \"dt\": 0.01, \"v_guess\": [0, 0], \"mu\": [0.5]}",
      "missing 'fn'", NULL);
}
END_TEST

START_TEST(cli_solver_failure_prints_json_and_exits_3) {
  char *path = tmp_file(with(", \"parameters\": {\"max_iterations\": 1}")), *out = NULL;
  char args[512];
  snprintf(args, sizeof args, "'%s'", path);
  ck_assert_int_eq(tamsi(&out, args), 3);
  json_object *o = json_tokener_parse(out);
  ck_assert_ptr_nonnull(o);
  ck_assert_str_eq(result_of(o), "max_iterations_reached");
  ck_assert_int_eq((int)member(o, "iterations", -1), 1);
  json_object_put(o);
  unlink(path);
  free(path);
  free(out);
}
END_TEST

START_TEST(cli_reads_stdin) {
  char *path = data("pizza_small.json"), *out = NULL, args[4096];
  snprintf(args, sizeof args, "- < '%s'", path);
  ck_assert_int_eq(tamsi(&out, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "\"result\": \"success\""));
  free(out);
  free(path);
}
END_TEST

START_TEST(cli_usage) {
  st_test_expect(0, "tamsi --help", "Usage: stiction tamsi", "--demo box");
  st_test_expect(2, "tamsi --frobnicate x.json", "unrecognized option '--frobnicate'",
                    "Try 'stiction tamsi --help'");
  st_test_expect(2, "tamsi -x", "invalid option '-x'");
  st_test_expect(2, "tamsi ", "missing PROBLEM.json");
  st_test_expect(2, "tamsi a.json b.json");
  st_test_expect(2, "tamsi --angle 5 a.json", "need --demo box");
  st_test_expect(1, "tamsi /nonexistent/problem.json",
                    "/nonexistent/problem.json: No such file");
}
END_TEST

START_TEST(cli_box_demo) {
  char *out = NULL;
  st_test_expect(0, "tamsi --demo box", "sticks at t = 0.798 s",
                    "Coulomb closed form t* = 0.797464 s");
  char *trace = tmp_file(""), args[512];
  snprintf(args, sizeof args, "--demo box --angle 30 --mu 0.4 --t-end 0.01 --trace '%s'", trace);
  ck_assert_int_eq(tamsi(&out, args), 0);
  ck_assert_ptr_nonnull(strstr(out, "does not stick"));
  free(out);
  FILE *f = fopen(trace, "r");
  char line[256];
  int rows = 0;
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_str_eq(line, "t,x,v,vn,fn,ft\n");
  while (fgets(line, sizeof line, f)) rows++;
  fclose(f);
  ck_assert_int_eq(rows, 10);
  unlink(trace);
  free(trace);
  st_test_expect(2, "tamsi --demo box --angle 95", "angle must be in");
  st_test_expect(2, "tamsi --demo box --mu abc", "invalid number 'abc'");
  st_test_expect(0, "tamsi --demo box --v0 2 --t-end 2 --max-iterations 4",
                    "redone in sub-steps");
  st_test_expect(3, "tamsi --demo box --v0 2 --t-end 2 --max-iterations 3",
                    "also with up to 20 sub-steps");
  st_test_expect(2, "tamsi --demo box --max-iterations 0");
  st_test_expect(2, "tamsi --demo sphere", "unknown demo 'sphere'");
}
END_TEST

ST_TEST_MAIN("tamsi_cli", "cli", 0,
             cli_cylinder_stiction, cli_cylinder_sliding_with_fn0, cli_pizza_one_way,
             cli_valid_one_way_baseline, cli_malformed_json, cli_inconsistent_input,
             cli_solver_failure_prints_json_and_exits_3, cli_reads_stdin, cli_usage, cli_box_demo)
