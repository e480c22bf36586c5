/* `stiction sweep` (doc/sweep.md): parameter sets from grids, tables and random draws, the
 * metrics, failed runs as rows, and summaries that do not depend on the thread count and
 * equal single `stiction simulate` runs. Files are written in this test's own directory. */
#include "config.h"

#include <check.h>
#include <sys/wait.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/sweep.h"
#include "testutil.h"

static char dir[256];

static void make_dir(void) {
  snprintf(dir, sizeof dir, "%s/stiction_sweep_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}

static int run(char **out, const char *fmt, const char *a, const char *b) {
  char args[4096];
  snprintf(args, sizeof args, fmt, a, b);
  return st_test_run(out, args);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  ck_assert_msg(f != NULL, "%s", path);
  static char buf[1 << 16];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = 0;
  fclose(f);
  return strdup(buf);
}

START_TEST(grid_axes_and_their_product) {
  st_sweep_sets s = {0};
  char msg[256];
  ck_assert_int_eq(st_sweep_add_axis(&s, "a=0:0.1:0.3", msg, sizeof msg), 0);
  ck_assert_int_eq((int)s.nruns, 4); /* 0.3 is three steps of 0.1 up to rounding */
  ck_assert_double_eq(s.values[3], 3 * 0.1);
  ck_assert_int_eq(st_sweep_add_axis(&s, "b=10,20", msg, sizeof msg), 0);
  ck_assert_int_eq((int)s.nruns, 8);
  ck_assert_int_eq(s.nparams, 2);
  /* the first axis varies slowest */
  ck_assert_double_eq(s.values[0], 0);
  ck_assert_double_eq(s.values[1], 10);
  ck_assert_double_eq(s.values[2], 0);
  ck_assert_double_eq(s.values[3], 20);
  ck_assert_double_eq(s.values[4], 0.1);
  ck_assert_int_ne(st_sweep_add_axis(&s, "a=1,2", msg, sizeof msg), 0); /* a twice */
  ck_assert_int_ne(st_sweep_add_axis(&s, "c=1:-1:3", msg, sizeof msg), 0);
  ck_assert_int_ne(st_sweep_add_axis(&s, "c=1,x", msg, sizeof msg), 0);
  ck_assert_int_ne(st_sweep_add_axis(&s, "=1", msg, sizeof msg), 0);
  st_sweep_sets_free(&s);
}
END_TEST

/* Draws depend on the seed, the run and the parameter only; their moments are right. */
START_TEST(random_draws_reproducible) {
  const char *specs[] = {"k=normal(10,2)", "u=uniform(-1,3)"};
  st_sweep_sets s1 = {0}, s2 = {0}, s3 = {0};
  char msg[256];
  ck_assert_int_eq(st_sweep_random(&s1, specs, 2, 4000, 7, msg, sizeof msg), 0);
  ck_assert_int_eq(st_sweep_random(&s2, specs, 2, 4000, 7, msg, sizeof msg), 0);
  ck_assert_int_eq(st_sweep_random(&s3, specs, 2, 4000, 8, msg, sizeof msg), 0);
  ck_assert(!memcmp(s1.values, s2.values, sizeof(double) * 8000));
  ck_assert(memcmp(s1.values, s3.values, sizeof(double) * 8000));
  double m = 0, v = 0, umin = 1e9, umax = -1e9;
  for (int r = 0; r < 4000; r++) {
    m += s1.values[2 * r];
    umin = fmin(umin, s1.values[2 * r + 1]);
    umax = fmax(umax, s1.values[2 * r + 1]);
  }
  m /= 4000;
  for (int r = 0; r < 4000; r++) v += (s1.values[2 * r] - m) * (s1.values[2 * r] - m);
  v /= 3999;
  ck_assert_msg(fabs(m - 10) < 0.2 && fabs(sqrt(v) - 2) < 0.15, "mean %g sd %g", m, sqrt(v));
  ck_assert(umin >= -1 && umax <= 3 && umin < -0.9 && umax > 2.9);
  st_sweep_sets_free(&s1);
  st_sweep_sets_free(&s2);
  st_sweep_sets_free(&s3);
  st_sweep_sets s4 = {0};
  const char *bad[] = {"k=gauss(1,2)"};
  ck_assert_int_ne(st_sweep_random(&s4, bad, 1, 10, 1, msg, sizeof msg), 0);
  st_sweep_sets_free(&s4);
}
END_TEST

/* The same summary with 1 and 3 threads; each row as `stiction simulate -p` gives it, the
 * metrics as the closed form of Drain.mo; the run that fails (a = 4: x < 0 at t = 0.25) is a
 * row with its message and the sweep goes on. */
START_TEST(summary_independent_of_threads_and_equal_to_simulate) {
  make_dir();
  char *out = NULL, s1[512], s3[512];
  const char *model = st_test_src("tests/data/sweep/Drain.mo");
  snprintf(s1, sizeof s1, "%s/s1.csv", dir);
  snprintf(s3, sizeof s3, "%s/s3.csv", dir);
  const char *sets = "--grid a=0.5,1,4 --grid b=0,0.25 --metric 'final(x)' --metric 'mean(x)' "
                     "--metric 'max(y)'";
  char args[2048];
  snprintf(args, sizeof args, "sweep '%s' %s -j 1 -o '%s'", model, sets, s1);
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 1, "exit %d: %s", st, out); /* a run failed */
  ck_assert_msg(strstr(out, "6 runs on 1 thread, 2 failed"), "%s", out);
  free(out);
  snprintf(args, sizeof args, "sweep '%s' %s -j 3 -o '%s'", model, sets, s3);
  st = st_test_run(&out, args);
  ck_assert_msg(st == 1, "exit %d: %s", st, out);
  free(out);
  char *t1 = slurp(s1), *t3 = slurp(s3);
  ck_assert_str_eq(t1, t3);
  const char *header = "run,a,b,status,steps,state_events,time_events,final(x),mean(x),max(y),"
                       "message\n";
  ck_assert_msg(!strncmp(t1, header, strlen(header)), "%s", t1);
  /* rows: (a, b) = (0.5, 0), (0.5, 0.25), (1, 0), (1, 0.25), (4, 0), (4, 0.25) */
  char *line = strchr(t1, '\n') + 1;
  for (int r = 0; r < 6; r++) {
    double a = r < 2 ? 0.5 : r < 4 ? 1 : 4, b = r % 2 ? 0.25 : 0;
    int run_no;
    double pa, pb, fx, mx, my;
    char status[16];
    ck_assert_int_eq(sscanf(line, "%d,%lf,%lf,%15[a-z],%*d,%*d,%*d,%lf,%lf,%lf", &run_no, &pa, &pb,
                            status, &fx, &mx, &my), 7);
    ck_assert_int_eq(run_no, r + 1);
    ck_assert_double_eq(pa, a);
    ck_assert_double_eq(pb, b);
    double rate = a + b;
    if (rate * 0.5 > 1) {
      ck_assert_str_eq(status, "failed");
      ck_assert_msg(strstr(line, "NaN") || strstr(line, "nan"), "%s", line);
    } else {
      ck_assert_str_eq(status, "ok");
      ck_assert_msg(fabs(fx - (1 - rate * 0.5)) < 1e-9, "final %.17g", fx);
      ck_assert_msg(fabs(mx - (1 - rate * 0.25)) < 1e-9, "mean %.17g", mx);
      ck_assert_double_eq(my, 1);
      /* the same number as a single run with -p */
      char res[512], p[128];
      snprintf(res, sizeof res, "%s/one.csv", dir);
      snprintf(p, sizeof p, "-p a=%.17g -p b=%.17g", a, b);
      snprintf(args, sizeof args, "simulate '%s' %s -o '%s'", model, p, res);
      ck_assert_int_eq(st_test_run(&out, args), 0);
      free(out);
      char *csv = slurp(res), *last = csv + strlen(csv) - 1;
      while (last > csv && last[-1] != '\n') last--;
      double t, x;
      ck_assert_int_eq(sscanf(last, "%lf,%lf", &t, &x), 2); /* time,x,... */
      ck_assert_msg(x == fx, "simulate %.17g, sweep %.17g", x, fx);
      free(csv);
    }
    line = strchr(line, '\n') + 1;
  }
  free(t1);
  free(t3);
  remove_dir();
}
END_TEST

/* Sets from a table; --results writes each run; bad usage says why. */
START_TEST(table_results_and_usage) {
  make_dir();
  char *out = NULL, table[512], args[2048];
  const char *model = st_test_src("tests/data/sweep/Drain.mo");
  snprintf(table, sizeof table, "%s/sets.csv", dir);
  FILE *f = fopen(table, "w");
  ck_assert_ptr_nonnull(f);
  fputs("a,b\n0.5,0\n1,0.5\n", f);
  fclose(f);
  snprintf(args, sizeof args, "sweep '%s' --table '%s' --results '%s' --metric 'final(x)'", model,
           table, dir);
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  ck_assert_msg(strstr(out, "\n1,0.5,0,ok,") && strstr(out, "\n2,1,0.5,ok,"), "%s", out);
  free(out);
  char path[600];
  snprintf(path, sizeof path, "%s/run_000002.csv", dir);
  ck_assert_int_eq(access(path, F_OK), 0);
  ck_assert_int_eq(run(&out, "sweep '%s' --grid a=1 --table '%s'", model, table), 2);
  free(out);
  ck_assert_int_eq(run(&out, "sweep '%s' --grid nope=1%s", model, ""), 2);
  ck_assert_msg(strstr(out, "'nope' is not a parameter"), "%s", out);
  free(out);
  ck_assert_int_eq(run(&out, "sweep '%s' --random 'a=normal(1,0.1)'%s", model, ""), 2);
  free(out);
  /* a metric on a variable that is not recorded: every run fails and says so */
  st = run(&out, "sweep '%s' --grid a=1 --metric 'max(zz)'%s", model, "");
  ck_assert_int_eq(st, 1);
  ck_assert_msg(strstr(out, "no recorded variable 'zz'"), "%s", out);
  free(out);
  remove_dir();
}
END_TEST

/* st_period on a sampled sine: the crossings' spacing is the sine's period; with the
 * time written twice just after each crossing (an event), the events' spacing is exact. */
START_TEST(period_of_crossings_and_events) {
  const double T = 2.5, dt = 0.01;
  st_period p, q;
  st_period_init(&p, 0.0);
  st_period_init(&q, 0.0);
  for (int i = 0; i <= 1000; i++) {
    double t = i * dt, x = sin(2 * M_PI * t / T - 0.3);
    st_period_add(&p, t, x);
    st_period_add(&q, t, x);
    if (i > 0 && sin(2 * M_PI * (t - dt) / T - 0.3) < 0 && x >= 0) st_period_add(&q, t, x);
  }
  ck_assert_msg(fabs(st_period_crossings(&p) - T) < 1e-6, "%.17g", st_period_crossings(&p));
  ck_assert(isnan(st_period_events(&p)));
  ck_assert_msg(fabs(st_period_events(&q) - T) < 1e-12, "%.17g", st_period_events(&q));
  st_period_init(&p, 0.0);
  st_period_add(&p, 0, -1);
  st_period_add(&p, 1, 1);
  ck_assert(isnan(st_period_crossings(&p))); /* one crossing: no period */
  /* period(x) in a sweep: the crossings of the middle of the range, any offset */
  st_sweep_metric mt;
  char msg[256];
  ck_assert_int_eq(st_sweep_parse_metric("period(y)", &mt, msg, sizeof msg), 0);
  st_sweep_meter m;
  ck_assert_int_eq(st_sweep_meter_init(&m, &mt, 1), 0);
  const char *names[] = {"time", "y"};
  ck_assert_int_eq(st_sweep_meter_begin(&m, 2, names), 0);
  for (int i = 0; i <= 1000; i++) {
    double row[2] = {i * dt, 5 + 0.1 * sin(2 * M_PI * i * dt / T)};
    st_sweep_meter_row(&m, row);
  }
  st_sweep_meter_finish(&m);
  ck_assert_msg(fabs(m.value[0] - T) < 1e-6, "%.17g", m.value[0]);
  st_sweep_meter_free(&m);
  free(mt.signal);
}
END_TEST

/* The friction metrics on rows of a made-up element: stuck on [0,1), slipping at
 * v_rel = -2 with F = 1 on [1,3) (events written twice), stuck on [3,4]. */
START_TEST(friction_metrics_closed_form) {
  const char *texts[] = {"stick_fraction(fr)", "transitions(fr)", "dissipated(fr)"};
  st_sweep_metric mt[3];
  char msg[256];
  for (int k = 0; k < 3; k++) ck_assert_int_eq(st_sweep_parse_metric(texts[k], &mt[k], msg, sizeof msg), 0);
  ck_assert_int_eq(mt[0].kind, ST_METRIC_STICK_FRACTION);
  st_sweep_metric bad;
  ck_assert_int_ne(st_sweep_parse_metric("slip(fr)", &bad, msg, sizeof msg), 0);
  st_sweep_meter m;
  ck_assert_int_eq(st_sweep_meter_init(&m, mt, 3), 0);
  const char *names[] = {"time", "fr.mode", "fr.v_rel", "fr.F"};
  ck_assert_int_eq(st_sweep_meter_begin(&m, 4, names), 0);
  const double rows[][4] = {{0, 0, 0, 0.5},   {0.5, 0, 0, 0.7}, {1, 0, 0, 0.9},
                            {1, -1, -2, 1},   {2, -1, -2, 1},   {3, -1, -2, 1},
                            {3, 0, 0, 0.2},   {4, 0, 0, 0.1}};
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) st_sweep_meter_row(&m, rows[r]);
  st_sweep_meter_finish(&m);
  ck_assert_double_eq_tol(m.value[0], 2.0 / 4.0, 1e-15);
  ck_assert_double_eq(m.value[1], 2);
  ck_assert_double_eq_tol(m.value[2], 1 * 2 * 2.0, 1e-15); /* |F v_rel| x 2 s */
  /* an element without a recorded mode is named in the message */
  const char *bare[] = {"time", "fr.v_rel"};
  ck_assert_int_ne(st_sweep_meter_begin(&m, 2, bare), 0);
  ck_assert_msg(strstr(m.missing, "fr.mode"), "%s", m.missing);
  st_sweep_meter_free(&m);
  for (int k = 0; k < 3; k++) free(mt[k].signal);
}
END_TEST

/* Leine's belt (doc/study.md): exact period 12.001031 s, 4.296 s of slip per period from a
 * break-away at t = 0. Over 54 s: five break-aways and five re-sticks, stuck 54 - 5 x 4.296 s.
 * The dissipated energy from the energy balance: the friction force F = m a + k x, so
 * int -F v_rel = v_dr k int x dt + v_dr m (v1 - v0) - (E1 - E0), E = m v^2/2 + k x^2/2. */
START_TEST(friction_metrics_of_leine_belt) {
  char *out = NULL, args[2048];
  const char *model = st_test_src("models/Stiction/Examples/LeineBelt.mo");
  snprintf(args, sizeof args, "sweep '%s' --grid v_dr=0.2 --tolerance 1e-8 --stop-time 54 "
           "--metric 'period(x)' --metric 'stick_fraction(friction)' --metric "
           "'transitions(friction)' --metric 'dissipated(friction)' --metric 'mean(x)' "
           "--metric 'final(x)' --metric 'final(v)'", model);
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  const char *row = strstr(out, "\n1,0.2,ok,");
  ck_assert_msg(row != NULL, "%s", out);
  double period, stick, trans, diss, mean_x, x1, v1;
  ck_assert_int_eq(sscanf(row + 1, "1,0.2,ok,%*d,%*d,%*d,%lf,%lf,%lf,%lf,%lf,%lf,%lf", &period,
                          &stick, &trans, &diss, &mean_x, &x1, &v1), 7);
  ck_assert_msg(fabs(period - 12.001031) < 1e-4, "period %.9g", period);
  ck_assert_msg(fabs(stick - (1 - 5 * 4.296 / 54)) < 1e-4, "stick fraction %.9g", stick);
  ck_assert_double_eq(trans, 10);
  const double m = 1, k = 1, v_dr = 0.2, x0 = 1, v0 = 0.2, span = 54;
  double balance = v_dr * k * mean_x * span + v_dr * m * (v1 - v0) -
                   (0.5 * m * (v1 * v1 - v0 * v0) + 0.5 * k * (x1 * x1 - x0 * x0));
  ck_assert_msg(fabs(diss - balance) < 1e-3 * balance, "dissipated %.9g, balance %.9g", diss,
                balance);
  free(out);
}
END_TEST

/* stiction plot --sweep: the gnuplot script of a diagram (one parameter) and a map (two),
 * through a stand-in gnuplot that records its script and writes the image; and with the
 * real gnuplot when installed, a PNG. */
START_TEST(plot_sweep_summary) {
  make_dir();
  char *out = NULL, args[4096], summary[600], fake[600], script[600], png[600];
  const char *model = st_test_src("tests/data/sweep/Drain.mo");
  snprintf(summary, sizeof summary, "%s/summary.csv", dir);
  snprintf(fake, sizeof fake, "%s/fake-gnuplot", dir);
  snprintf(script, sizeof script, "%s/script.gp", dir);
  snprintf(png, sizeof png, "%s/map.png", dir);
  snprintf(args, sizeof args, "sweep '%s' --grid a=0.5,1,4 --grid b=0,0.25 --metric 'final(x)' "
           "-o '%s'", model, summary);
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 1, "exit %d: %s", st, out); /* two runs fail: NaN cells */
  free(out);
  FILE *f = fopen(fake, "w");
  ck_assert_ptr_nonnull(f);
  fprintf(f, "#!/bin/sh\ncat > '%s'\nout=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" '%s')\n"
          "printf 'image' > \"$out\"\n", script, script);
  fclose(f);
  ck_assert_int_eq(chmod(fake, 0755), 0);
  setenv("STICTION_GNUPLOT", fake, 1);
  snprintf(args, sizeof args, "plot '%s' --sweep 'final(x)' --x a --y b -o '%s'", summary, png);
  st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  free(out);
  ck_assert_int_eq(access(png, F_OK), 0);
  char *gp = slurp(script);
  ck_assert_msg(strstr(gp, "with image") && strstr(gp, "set xlabel 'a'") &&
                strstr(gp, "set ylabel 'b'") && strstr(gp, "set cblabel 'final(x)'"), "%s", gp);
  free(gp);
  snprintf(args, sizeof args, "plot '%s' --sweep 'final(x)' --x a -o '%s'", summary, png);
  st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  free(out);
  gp = slurp(script);
  ck_assert_msg(strstr(gp, "using 1:2 with linespoints") && !strstr(gp, "with image"), "%s", gp);
  free(gp);
  /* a column that is not in the summary: exit 2, named; the image is left as it was */
  snprintf(args, sizeof args, "plot '%s' --sweep 'max(x)' --x a -o '%s'", summary, png);
  ck_assert_int_eq(st_test_run(&out, args), 2);
  ck_assert_msg(strstr(out, "no column 'max(x)'"), "%s", out);
  free(out);
  char *img = slurp(png);
  ck_assert_str_eq(img, "image");
  free(img);
  unsetenv("STICTION_GNUPLOT");
  if (access("/usr/bin/gnuplot", X_OK) == 0) {
    snprintf(args, sizeof args, "plot '%s' --sweep 'final(x)' --x a --y b -o '%s'", summary, png);
    st = st_test_run(&out, args);
    ck_assert_msg(st == 0, "exit %d: %s", st, out);
    free(out);
    img = slurp(png);
    ck_assert_msg(!memcmp(img, "\x89PNG", 4), "not a PNG");
    free(img);
  }
  remove_dir();
}
END_TEST

/* Under mpirun (built --with-mpi): rank 0 shares the runs out and writes the same summary as
 * -j 2. Built without MPI, a command started by mpirun says how to get it instead of running
 * the whole sweep once per rank. */
START_TEST(mpi_summary_equals_threads) {
  make_dir();
  char *out = NULL, args[4096], s2[600], sm[600];
  const char *model = st_test_src("tests/data/sweep/Drain.mo");
  const char *sets = "--grid a=0.5,1,4 --grid b=0,0.25,0.5 --metric 'final(x)' --metric 'mean(x)'";
  snprintf(s2, sizeof s2, "%s/j2.csv", dir);
  snprintf(sm, sizeof sm, "%s/mpi.csv", dir);
#ifdef STICTION_HAVE_MPI
  snprintf(args, sizeof args, "sweep '%s' %s -j 2 -o '%s'", model, sets, s2);
  ck_assert_int_eq(st_test_run(&out, args), 1); /* failed runs are rows */
  free(out);
  const char *bin = getenv("STICTION_BIN");
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "mpirun --oversubscribe --allow-run-as-root -n 2 '%s' sweep '%s' %s "
           "-o '%s' > '%s/mpi.log' 2>&1", bin ? bin : "./stiction", model, sets, sm, dir);
  int st = system(cmd);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 1, "mpirun status %d", st);
  char *t2 = slurp(s2), *tm = slurp(sm);
  ck_assert_str_eq(t2, tm);
  free(t2);
  free(tm);
#else
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  snprintf(args, sizeof args, "sweep '%s' %s -o '%s'", model, sets, sm);
  int st = st_test_run(&out, args);
  unsetenv("OMPI_COMM_WORLD_SIZE");
  ck_assert_msg(st == 2 && strstr(out, "--with-mpi"), "exit %d: %s", st, out);
  ck_assert_int_ne(access(sm, F_OK), 0);
  free(out);
#endif
  remove_dir();
}
END_TEST

int main(void) {
  Suite *s = suite_create("sweep");
  TCase *tc = tcase_create("sweep");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, grid_axes_and_their_product);
  tcase_add_test(tc, random_draws_reproducible);
  tcase_add_test(tc, summary_independent_of_threads_and_equal_to_simulate);
  tcase_add_test(tc, table_results_and_usage);
  tcase_add_test(tc, period_of_crossings_and_events);
  tcase_add_test(tc, friction_metrics_closed_form);
  tcase_add_test(tc, friction_metrics_of_leine_belt);
  tcase_add_test(tc, plot_sweep_summary);
  tcase_add_test(tc, mpi_summary_equals_threads);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
