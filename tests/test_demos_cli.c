/* `stiction demo` end to end ($STICTION_BIN): bad usage and its messages, result files in
 * CSV and MAT read back, the event log, statistics, the default result file and a run that
 * fails but keeps its rows. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stiction/results.h>
#include <stiction/stiction.h>

#include "testutil.h"

static char *tmp(const char *name) { return st_test_tmp("demo", name); }

/* Runs and expects exit status `want` and `text` in the output (one line for errors). */
static void expect(int want, const char *text, const char *args) {
  char *out = NULL;
  int st = st_test_runf(&out, "%s", args);
  ck_assert_msg(st == want, "'%s': exit %d, want %d: %s", args, st, want, out);
  ck_assert_msg(strstr(out, text) != NULL, "'%s': no '%s' in: %s", args, text, out);
  free(out);
}

START_TEST(bad_usage_exits_2_with_a_message) {
  expect(2, "unknown demo 'nope'", "demo nope");
  expect(2, "friction-block", "demo nope"); /* lists the known ones */
  expect(2, "missing demo NAME", "demo");
  expect(2, "unrecognized option '--frobnicate'", "demo friction-block --frobnicate");
  expect(2, "has no parameter 'mass'", "demo friction-block -p mass=2");
  expect(2, "expected NAME=VALUE", "demo friction-block -p m");
  expect(2, "invalid value 'abc'", "demo friction-block -p m=abc");
  expect(2, "invalid value 'nan'", "demo friction-block -p m=nan");
  expect(2, "out of range", "demo friction-block -p m=-1");
  expect(2, "out of range", "demo bouncing-ball -p e=2");
  expect(2, "unknown solver 'rk4'", "demo friction-block --solver rk4");
  expect(2, "--tolerance: invalid value '0'", "demo friction-block --tolerance 0");
  expect(2, "--stop-time: invalid value 'inf'", "demo friction-block --stop-time inf");
  expect(2, "needs an argument", "demo friction-block -o");
}
END_TEST

START_TEST(help_and_lists) {
  expect(0, "Usage: stiction demo NAME", "demo --help");
  expect(0, "leine-belt", "demo --list");
  expect(0, "bouncing-ball", "demo --list");
  expect(0, "f1", "demo friction-block --list-params");
}
END_TEST

static stiction_table *read_table(const char *path) {
  stiction_table *t = NULL;
  char msg[512];
  ck_assert_msg(stiction_table_read(&t, path, msg, sizeof msg) == 0, "%s", msg);
  return t;
}

/* The friction block's result file: the columns, the final row against the closed form,
 * and two rows (left/right limit) at each of its events. */
static void check_friction_result(const char *path) {
  stiction_table *t = read_table(path);
  const char *cols[] = {"time", "x", "v", "u", "f", "sa", "mode"};
  ck_assert_int_eq(stiction_table_columns(t), 7);
  for (int i = 0; i < 7; i++) ck_assert_int_eq(stiction_table_find(t, cols[i]), i);
  int rows = stiction_table_rows(t);
  const double *d = stiction_table_data(t), *last = d + 7 * (rows - 1);
  ck_assert_double_eq_tol(last[0], 10.0, 1e-12);
  ck_assert_double_eq_tol(last[1], 1.5415577928195034e-3, 5e-6); /* CVODE or IDA */
  ck_assert_double_eq_tol(last[2], -5.786542782997017e-2, 5e-6);
  int mode_steps = 0;
  for (int r = 1; r < rows; r++)
    if (d[7 * r + 6] != d[7 * (r - 1) + 6]) {
      ck_assert_double_eq(d[7 * r], d[7 * (r - 1)]); /* a mode changes between twin rows */
      mode_steps++;
    }
  ck_assert_int_eq(mode_steps, 19);
  stiction_table_free(t);
}

START_TEST(csv_and_mat_results) {
  char *out;
  const char *csv = tmp("fb.csv"), *mat = tmp("fb.mat");
  int st = st_test_runf(&out, "demo friction-block -o '%s'", csv);
  ck_assert_msg(st == 0, "%s", out);
  ck_assert_ptr_nonnull(strstr(out, csv)); /* says where the result is */
  free(out);
  check_friction_result(csv);
  st = st_test_runf(&out, "demo friction-block --solver ida -o '%s'", mat);
  ck_assert_msg(st == 0, "%s", out);
  free(out);
  FILE *f = fopen(mat, "rb");
  ck_assert_ptr_nonnull(f);
  char head[32];
  ck_assert_int_eq(fread(head, 1, 32, f), 32);
  fclose(f);
  ck_assert_int_eq(memcmp(head + 20, "Aclass", 7), 0); /* MAT v4: 5 int32 header, then the name */
  check_friction_result(mat);
  unlink(csv);
  unlink(mat);
}
END_TEST

/* Counts lines of a text file that contain `text` (all lines if NULL). */
static int count_lines(const char *path, const char *text, char *first, size_t size) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f))
    if (!text || strstr(line, text)) {
      if (n++ == 0 && first) snprintf(first, size, "%s", line);
    }
  fclose(f);
  return n;
}

START_TEST(event_log_file) {
  char *out, first[4096];
  const char *csv = tmp("ev_res.csv"), *ev = tmp("events.csv");
  int st = st_test_runf(&out, "demo friction-block -o '%s' --events '%s'", csv, ev);
  ck_assert_msg(st == 0, "%s", out);
  free(out);
  count_lines(ev, NULL, first, sizeof first);
  ck_assert_str_eq(first, "time,kind,indicators,iterations,changed,clock_ticks\n");
  ck_assert_int_eq(count_lines(ev, ",initial,", NULL, 0), 1);
  ck_assert_int_eq(count_lines(ev, "mode: ", NULL, 0), 19);
  ck_assert_int_eq(count_lines(ev, "mode: 0 -> 1", first, sizeof first), 5);
  ck_assert_msg(!strncmp(first, "0.2322", 6), "%s", first); /* after break-away at 0.23228 */
  ck_assert_ptr_nonnull(strstr(first, ",state,v(+),")); /* v crossed the hysteresis 1e-10 */
  ck_assert_int_eq(count_lines(ev, "startFor: 0 -> 1", first, sizeof first), 5);
  ck_assert_msg(!strncmp(first, "0.23227952", 10), "%s", first);
  ck_assert_ptr_nonnull(strstr(first, "sa - 1 (start forward)(+)"));
  ck_assert_int_eq(count_lines(ev, "startBack: 0 -> 1", NULL, 0), 5);
  ck_assert_int_eq(count_lines(ev, "mode: 1 -> 0", first, sizeof first), 5);
  ck_assert_ptr_nonnull(strstr(first, "v(-)"));
  unlink(csv);
  unlink(ev);
}
END_TEST

START_TEST(stats_output) {
  char *out;
  const char *csv = tmp("st.csv");
  int st = st_test_runf(&out, "demo leine-belt --stop-time 30 --stats -o '%s'", csv);
  ck_assert_msg(st == 0, "%s", out);
  ck_assert_ptr_nonnull(strstr(out, "steps"));
  ck_assert_ptr_nonnull(strstr(out, "state events"));
  ck_assert_ptr_nonnull(strstr(out, "restarts"));
  free(out);
  unlink(csv);
}
END_TEST

/* Without -o the result goes to NAME_res.mat in the current directory. */
START_TEST(default_result_file) {
  char dir[256], cwd[4096], *out;
  snprintf(dir, sizeof dir, "%s", tmp("dir"));
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(chdir(dir), 0);
  int st = st_test_runf(&out, "demo bouncing-ball --stop-time 1");
  ck_assert_int_eq(chdir(cwd), 0);
  ck_assert_msg(st == 0, "%s", out);
  free(out);
  char path[512];
  snprintf(path, sizeof path, "%s/bouncing-ball_res.mat", dir);
  stiction_table *t = read_table(path);
  ck_assert_int_eq(stiction_table_find(t, "h"), 1);
  stiction_table_free(t);
  unlink(path);
  rmdir(dir);
}
END_TEST

/* -o - writes CSV on standard output. */
START_TEST(csv_to_stdout) {
  char *out;
  int st = st_test_runf(&out, "demo bouncing-ball --stop-time 0.1 --interval 0.05 -o -");
  ck_assert_msg(st == 0, "%s", out);
  ck_assert_msg(!strncmp(out, "time,h,v\n0,1,0\n", 15), "%s", out);
  free(out);
}
END_TEST

/* A solver failure: one line naming where it stopped, exit 1, the rows so far kept when
 * asked for (--keep-partial). */
START_TEST(failed_run_keeps_rows) {
  char *out;
  const char *csv = tmp("fail.csv");
  int st = st_test_runf(&out, "demo friction-block --tolerance 1e-300 --keep-partial -o '%s'", csv);
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  ck_assert_ptr_nonnull(strstr(out, "stopped at t ="));
  free(out);
  ck_assert_int_ge(count_lines(csv, NULL, NULL, 0), 2); /* header and the row at t = 0 */
  unlink(csv);
}
END_TEST

START_TEST(unwritable_output) {
  expect(1, "/nonexistent/dir/x.csv", "demo friction-block -o /nonexistent/dir/x.csv");
  expect(1, "/nonexistent/dir/e.csv",
         "demo friction-block -o /dev/null --events /nonexistent/dir/e.csv");
}
END_TEST

ST_TEST_MAIN("demos_cli", "cli", 0,
             bad_usage_exits_2_with_a_message, help_and_lists, csv_and_mat_results,
             event_log_file, stats_output, default_result_file, csv_to_stdout,
             failed_run_keeps_rows, unwritable_output)
