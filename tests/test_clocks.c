/* Synchronous Modelica (issue 17, src/compile/clocks.c): clocks, sampled partitions, sub-,
 * super- and shift-sampling, event clocks, discretized partitions and the clock errors. Models
 * in tests/data/clocks/, run through `stiction simulate`; expected values computed here. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtable.h"
#include "testutil.h"

/* Whether t is within 1e-9 of a multiple of h (a tick: the row may be a left limit). */
static int at_tick(double t, double h) { return fabs(t / h - nearbyint(t / h)) < 1e-6; }

/* ticks of a clock of interval h (first at 0) up to and including t */
static int ticks(double t, double h) { return (int)floor(t / h + 1e-9) + 1; }

static void run(const char *model, table *t) {
  char *out = NULL;
  int st = simulate(model, "", t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  ck_assert_int_gt(t->nrows, 10);
}

/* An Integer counter in a clocked when and r = sample(time) + previous(r) on Clock(1, 10):
 * n = k, r = 0.5 + 0.1 (0 + 1 + ... + (k - 1)) after k ticks; the first row holds the tick at
 * t = 0; hold(r) drives der(x) piecewise constant. */
START_TEST(counter_on_a_clock) {
  static table t;
  run("tests/data/clocks/Counter.mo", &t);
  int ct = col(&t, "time"), cn = col(&t, "n"), cr = col(&t, "r"), ch = col(&t, "h");
  ck_assert_double_eq(t.v[0][cn], 1);
  ck_assert_double_eq(t.v[0][cr], 0.5);
  double x = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1) && i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    int k = ticks(tm, 0.1);
    ck_assert_msg(t.v[i][cn] == k, "n(%g) = %g, expected %d", tm, t.v[i][cn], k);
    double r = 0.5 + 0.1 * (k - 1) * k / 2;
    ck_assert_msg(fabs(t.v[i][cr] - r) < 1e-12, "r(%g) = %.17g, expected %.17g", tm, t.v[i][cr], r);
    ck_assert_double_eq(t.v[i][ch], t.v[i][cr]);
  }
  /* x = integral of the held r: sum over full intervals */
  for (int k = 1; k <= 10; k++) x += 0.1 * (0.5 + 0.1 * (k - 1) * k / 2);
  ck_assert_msg(fabs(t.v[t.nrows - 1][col(&t, "x")] - x) < 1e-6, "x(1) = %.17g, expected %.17g",
                t.v[t.nrows - 1][col(&t, "x")], x);
}
END_TEST

/* subSample(u, 3), superSample(u, 2), shiftSample(u, 1, 2) of u = sample(time) on 0.1 s:
 * each holds u of the latest base tick at or before its own tick (the fresh value when the
 * ticks coincide); the counters count the sub- and super-sampled ticks. */
START_TEST(sub_super_shift_sampling) {
  static table t;
  run("tests/data/clocks/SubSuper.mo", &t);
  int ct = col(&t, "time"), cu = col(&t, "u"), cs = col(&t, "us"), cf = col(&t, "uf"),
      csh = col(&t, "ush"), cn = col(&t, "n"), cm = col(&t, "m");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.05)) continue;
    double u = 0.1 * (ticks(tm, 0.1) - 1), us = 0.3 * (ticks(tm, 0.3) - 1);
    double ush = tm < 0.05 ? 0 : 0.1 * (ticks(tm - 0.05, 0.1) - 1);
    ck_assert_msg(fabs(t.v[i][cu] - u) < 1e-12 && fabs(t.v[i][cf] - u) < 1e-12,
                  "u(%g) = %g, uf = %g, expected %g", tm, t.v[i][cu], t.v[i][cf], u);
    ck_assert_msg(fabs(t.v[i][cs] - us) < 1e-12, "us(%g) = %g, expected %g", tm, t.v[i][cs], us);
    ck_assert_msg(fabs(t.v[i][csh] - ush) < 1e-12, "ush(%g) = %g, expected %g", tm, t.v[i][csh], ush);
    ck_assert_int_eq((int)t.v[i][cn], ticks(tm, 0.3));
    ck_assert_int_eq((int)t.v[i][cm], ticks(tm, 0.05));
    checked++;
  }
  ck_assert_int_ge(checked, 20);
}
END_TEST

/* A PI controller on a 0.1 s clock and the plant T x' = u - x with u held: between ticks x
 * relaxes exactly towards the held yc, so the tick values follow a recursion computed here. */
START_TEST(sampled_pi_controller) {
  static table t;
  run("tests/data/clocks/SampledPI.mo", &t);
  int ct = col(&t, "time"), cx = col(&t, "x"), ce = col(&t, "e"), cy = col(&t, "yc");
  const double T = 0.5, k = 2, ki = 4, r = 1, Ts = 0.1;
  double x = 0, I = 0, e[21], yc[21], xk[21];
  for (int j = 0; j <= 20; j++) {
    xk[j] = x;
    e[j] = r - x;
    I += Ts * e[j];
    yc[j] = k * e[j] + ki * I;
    x = yc[j] + (x - yc[j]) * exp(-Ts / T);
  }
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    int j = ticks(tm, Ts) - 1;
    if (at_tick(tm, Ts)) {
      if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue;
      ck_assert_msg(fabs(t.v[i][cx] - xk[j]) < 1e-4, "x(%g) = %.10g, expected %.10g", tm,
                    t.v[i][cx], xk[j]);
    }
    ck_assert_msg(fabs(t.v[i][ce] - e[j]) < 1e-4 && fabs(t.v[i][cy] - yc[j]) < 1e-3,
                  "e(%g) = %.10g, yc = %.10g; expected %.10g, %.10g", tm, t.v[i][ce],
                  t.v[i][cy], e[j], yc[j]);
    checked++;
  }
  ck_assert_int_gt(checked, 40);
}
END_TEST

/* Clock(change(k), 0.25) ticks when x = 0.3, 0.6, 0.9: interval() is the start interval at
 * the first tick, then the time since the previous one; firstTick() only at the first. */
START_TEST(event_clock_interval_first_tick) {
  static table t;
  run("tests/data/clocks/EventClock.mo", &t);
  int ct = col(&t, "time"), cd = col(&t, "dt"), cf = col(&t, "first"), ck = col(&t, "tk");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (fabs(tm - 0.3) < 1e-6 || fabs(tm - 0.6) < 1e-6 || fabs(tm - 0.9) < 1e-6) continue;
    int n = tm < 0.3 ? 0 : tm < 0.6 ? 1 : tm < 0.9 ? 2 : 3;
    double tk = n == 0 ? 0 : 0.3 * n;
    ck_assert_msg(fabs(t.v[i][ck] - tk) < 1e-6, "tk(%g) = %g", tm, t.v[i][ck]);
    ck_assert_msg(fabs(t.v[i][cd] - (n <= 1 ? 0.25 : 0.3)) < 1e-6, "dt(%g) = %g", tm, t.v[i][cd]);
    ck_assert_int_eq((int)t.v[i][cf], n <= 1);
  }
}
END_TEST

/* der(x) = -x on Clock(Clock(1, 10), solverMethod): x_k = 0.9^k (explicit Euler) and
 * (1/1.1)^k (implicit Euler), x_0 = the start value at the first tick. */
START_TEST(discretized_partitions) {
  static table t;
  run("tests/data/clocks/Discretized.mo", &t);
  int ct = col(&t, "time"), ce = col(&t, "ye"), ci = col(&t, "yi");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1)) continue;
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(fabs(t.v[i][ce] - pow(0.9, k)) < 1e-12, "xe(%g) = %.17g", tm, t.v[i][ce]);
    ck_assert_msg(fabs(t.v[i][ci] - pow(1 / 1.1, k)) < 1e-12, "xi(%g) = %.17g", tm, t.v[i][ci]);
  }
}
END_TEST

/* The clock errors, located: two clocks on one partition (directly and through subSample),
 * a clocked variable in a continuous-time equation, a clock nothing gives. */
START_TEST(clock_errors) {
  expect_refused("tests/data/clocks/Conflict.mo", "Conflict.mo:4:36: error: clock conflict");
  expect_refused("tests/data/clocks/SubConflict.mo",
                 "SubConflict.mo:5:7: error: clock conflict: subSample() gives a periodic clock "
                 "of interval 1/5 s");
  expect_refused("tests/data/clocks/Unclocked.mo",
                 "Unclocked.mo:6:3: error: clocked variables used in a continuous-time equation");
  expect_refused("tests/data/clocks/NotInferred.mo",
                 "NotInferred.mo:4:3: error: the clock of this clocked equation cannot be inferred");
}
END_TEST

int main(void) {
  Suite *s = suite_create("clocks");
  st_test_case(s, "clocks", 60,
               ST_TESTS(counter_on_a_clock, sub_super_shift_sampling, sampled_pi_controller,
                        event_clock_interval_first_tick, discretized_partitions, clock_errors));
  return st_test_main(s);
}
