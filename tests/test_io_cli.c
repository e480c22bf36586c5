/* `stiction plot` and `stiction compare` end to end: exit statuses, messages, the image files
 * (and, in an SVG, the vertical segment that an event's two rows must produce). */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <stiction/stiction.h>
#include <stiction/results.h>

#include "testutil.h"

#define CC_DIR "msl/Modelica.Mechanics.Rotational.Examples.CoupledClutches"

static char cc_csv[4200];

static void setup(void) {
  snprintf(cc_csv, sizeof cc_csv, "%s/CoupledClutches.csv", st_test_ref(CC_DIR));
}

static char *tmp(const char *name) {
  static char buf[8][256];
  static int k;
  char *b = buf[k++ % 8];
  snprintf(b, 256, "/tmp/stiction_test_cli_%ld_%s", (long)getpid(), name);
  return b;
}

static long file_size(const char *path) {
  struct stat sb;
  return stat(path, &sb) ? -1 : (long)sb.st_size;
}

static int run(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int run(char **out, const char *fmt, ...) {
  char args[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(args, sizeof args, fmt, ap);
  va_end(ap);
  return st_test_run(out, args);
}

START_TEST(plot_png_with_stacked_panels) {
  const char *png = tmp("cc.png");
  char *out;
  int st = run(&out, "plot '%s' J1.w clutch1.w_rel,clutch2.w_rel clutch1.mode,clutch2.mode,clutch3.mode "
                     "-o '%s' --title 'Coupled clutches'", cc_csv, png);
  ck_assert_msg(st == 0, "%s", out);
  ck_assert_ptr_nonnull(strstr(out, png)); /* prints the written path */
  ck_assert_int_gt(file_size(png), 20000);
  FILE *f = fopen(png, "rb");
  unsigned char magic[8] = {0};
  ck_assert_int_eq(fread(magic, 1, 8, f), 8);
  fclose(f);
  ck_assert_int_eq(memcmp(magic, "\x89PNG\r\n\x1a\n", 8), 0);
  free(out);
  unlink(png);
}
END_TEST

/* Reads the points of every subpath of every SVG path and looks for the plotted step
 * 0,0 -> 1,0 -> 1,1 -> 2,1: four points with the middle two at the same x. */
static int svg_has_vertical_step(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  static char text[1 << 20];
  size_t n = fread(text, 1, sizeof text - 1, f);
  text[n] = 0;
  fclose(f);
  for (char *d = strstr(text, "d='M"); d; d = strstr(d + 1, "d='M")) {
    for (char *m = strchr(d, 'M'); m && m < strchr(d + 3, '\''); m = strchr(m + 1, 'M')) {
      double x[8], y[8];
      int k = 0;
      char *p = m + 1;
      while (k < 8 && sscanf(p, "%lf,%lf", &x[k], &y[k]) == 2) {
        k++;
        p = strpbrk(p, "LMZ'");
        if (!p || *p != 'L') break;
        p++;
      }
      if (k == 4 && x[0] < x[1] && x[1] == x[2] && x[2] < x[3] && y[0] == y[1] &&
          y[1] != y[2] && y[2] == y[3])
        return 1;
    }
  }
  return 0;
}

START_TEST(plot_svg_draws_events_as_vertical_steps) {
  const char *svg = tmp("step.svg");
  char *out;
  int st = run(&out, "plot '%s' x -o '%s'", st_test_src("tests/data/io/step.csv"), svg);
  ck_assert_msg(st == 0, "%s", out);
  ck_assert_int_gt(file_size(svg), 1000);
  ck_assert_msg(svg_has_vertical_step(svg), "no vertical step in %s", svg);
  free(out);
  unlink(svg);
}
END_TEST

START_TEST(plot_errors) {
  char *out;
  const char *png = tmp("bad.png");
  ck_assert_int_eq(run(&out, "plot '%s' J1.w,J1.ww -o '%s'", cc_csv, png), 2);
  ck_assert_ptr_nonnull(strstr(out, "unknown signal 'J1.ww'"));
  ck_assert_ptr_nonnull(strstr(out, "close names: J1.w"));
  ck_assert_int_eq(file_size(png), -1);
  free(out);
  ck_assert_int_eq(run(&out, "plot '%s' J1.w -o /tmp/x.pdf", cc_csv), 2);
  ck_assert_ptr_nonnull(strstr(out, ".png or .svg"));
  free(out);
  ck_assert_int_eq(run(&out, "plot '%s' J1.w", cc_csv), 2);
  ck_assert_ptr_nonnull(strstr(out, "Try 'stiction plot --help'"));
  free(out);
  ck_assert_int_eq(run(&out, "plot --frobnicate"), 2);
  ck_assert_ptr_nonnull(strstr(out, "Try 'stiction plot --help'"));
  free(out);
  ck_assert_int_eq(run(&out, "plot /nonexistent.csv J1.w -o '%s'", png), 2);
  ck_assert_ptr_nonnull(strstr(out, "/nonexistent.csv"));
  free(out);
  /* No gnuplot: the message names the Debian package. */
  setenv("STICTION_GNUPLOT", "/nonexistent/gnuplot", 1);
  ck_assert_int_eq(run(&out, "plot '%s' J1.w -o '%s'", cc_csv, png), 1);
  unsetenv("STICTION_GNUPLOT");
  ck_assert_ptr_nonnull(strstr(out, "gnuplot-nox"));
  free(out);
  unlink(png);
  ck_assert_int_eq(run(&out, "plot --help"), 0);
  ck_assert_ptr_nonnull(strstr(out, "Usage: stiction plot"));
  free(out);
}
END_TEST

/* Writes the CoupledClutches reference back through our CSV writer with times shifted by dt
 * (and optionally one column renamed), as a result file. */
static void shifted_copy(const char *path, double dt, const char *rename_from, const char *rename_to) {
  stiction_table *t;
  char msg[256];
  ck_assert_int_eq(stiction_table_read(&t, cc_csv, msg, sizeof msg), 0);
  int cols = stiction_table_columns(t);
  const char *names[64];
  for (int c = 0; c < cols; c++) {
    names[c] = stiction_table_name(t, c);
    if (rename_from && !strcmp(names[c], rename_from)) names[c] = rename_to;
  }
  stiction_writer *w;
  ck_assert_int_eq(stiction_writer_open(&w, path, STICTION_FORMAT_AUTO), 0);
  stiction_sink sink;
  stiction_writer_sink(w, &sink);
  ck_assert_int_eq(sink.begin(sink.user_data, cols, names), 0);
  double row[64];
  for (int r = 0; r < stiction_table_rows(t); r++) {
    memcpy(row, stiction_table_data(t) + (size_t)r * (size_t)cols, (size_t)cols * sizeof(double));
    row[0] += dt;
    ck_assert_int_eq(sink.row(sink.user_data, row), 0);
  }
  ck_assert_int_eq(stiction_writer_close(w), 0);
  stiction_table_free(t);
}

START_TEST(compare_exit_statuses) {
  char *out;
  const char *ok = tmp("ok.mat"), *late = tmp("late.csv"), *renamed = tmp("renamed.csv");
  shifted_copy(ok, 0.002, NULL, NULL);
  shifted_copy(late, 0.005, NULL, NULL);
  shifted_copy(renamed, 0, "clutch2.mode", "clutch2.state");
  ck_assert_int_eq(run(&out, "compare '%s' '%s'", ok, cc_csv), 0); /* MAT result, 2 ms shift */
  ck_assert_ptr_nonnull(strstr(out, "msl-v4.1.0/comparisonSignals.txt"));
  ck_assert_ptr_nonnull(strstr(out, "pass J1.w"));
  ck_assert_ptr_nonnull(strstr(out, "PASSED: 11 of 11 signals pass"));
  ck_assert_ptr_null(strstr(out, "startForward")); /* the 4.1.0 list drops them */
  free(out);
  ck_assert_int_eq(run(&out, "compare '%s' '%s'", late, cc_csv), 1);
  ck_assert_ptr_nonnull(strstr(out, "FAIL J1.w: "));
  ck_assert_ptr_nonnull(strstr(out, "samples outside the tube; worst at t = "));
  ck_assert_ptr_nonnull(strstr(out, "FAILED: 0 of 11 signals pass"));
  free(out);
  ck_assert_int_eq(run(&out, "compare '%s' '%s' --signals '%s/comparisonSignals.txt' -v", renamed,
                       cc_csv, st_test_ref(CC_DIR)), 1);
  ck_assert_ptr_nonnull(strstr(out, "FAIL clutch2.mode: not in the result file"));
  ck_assert_ptr_nonnull(strstr(out, "pass clutch1.startForward (3021 samples, Y = "));
  ck_assert_ptr_nonnull(strstr(out, "16 of 17 signals pass (0 outside the tube, 1 missing"));
  free(out);
  ck_assert_int_eq(run(&out, "compare --compat 2.0.3 --tolerance 0.01 '%s' '%s'", late, cc_csv), 0);
  ck_assert_ptr_nonnull(strstr(out, "X = 0.015 s, epsilon 1e-12 (csv-compare 2.0.3)"));
  free(out);
  unlink(ok);
  unlink(late);
  unlink(renamed);
}
END_TEST

START_TEST(compare_bad_input) {
  char *out;
  ck_assert_int_eq(run(&out, "compare /nonexistent.csv '%s'", cc_csv), 2);
  ck_assert_ptr_nonnull(strstr(out, "/nonexistent.csv: cannot open"));
  free(out);
  ck_assert_int_eq(run(&out, "compare '%s' '%s'", st_test_src("tests/data/io/short_row.csv"), cc_csv), 2);
  ck_assert_ptr_nonnull(strstr(out, "short_row.csv:3:"));
  free(out);
  ck_assert_int_eq(run(&out, "compare '%s' '%s' --signals /nonexistent.txt", cc_csv, cc_csv), 2);
  ck_assert_ptr_nonnull(strstr(out, "/nonexistent.txt"));
  free(out);
  ck_assert_int_eq(run(&out, "compare --tolerance -1 a b"), 2);
  ck_assert_ptr_nonnull(strstr(out, "Try 'stiction compare --help'"));
  free(out);
  ck_assert_int_eq(run(&out, "compare --compat 3 a b"), 2);
  free(out);
  ck_assert_int_eq(run(&out, "compare onlyone"), 2);
  free(out);
  ck_assert_int_eq(run(&out, "compare --help"), 0);
  ck_assert_ptr_nonnull(strstr(out, "Usage: stiction compare"));
  free(out);
}
END_TEST

int main(void) {
  Suite *s = suite_create("io_cli");
  TCase *tc = tcase_create("commands");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, plot_png_with_stacked_panels);
  tcase_add_test(tc, plot_svg_draws_events_as_vertical_steps);
  tcase_add_test(tc, plot_errors);
  tcase_add_test(tc, compare_exit_statuses);
  tcase_add_test(tc, compare_bad_input);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
