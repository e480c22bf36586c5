/* Synchronous Modelica (issue 17, src/compile/clocks.c): clocks, sampled partitions, sub-,
 * super- and shift-sampling, event clocks, discretized partitions and the clock errors. Models
 * in tests/data/clocks/, run through `stiction simulate`; expected values computed here. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
/* An event clock's condition reads what the when-clauses of the same instant assigned
 * (EventClockAfterWhen.mo): at t = 0.5 a counter steps to 1, so Clock(time >= 0.5 and
 * count == 0) never ticks and Clock(time >= 0.5 and count == 1) ticks once, at 0.5. */
START_TEST(event_clock_sees_when_assignments) {
  static table t;
  run("tests/data/clocks/EventClockAfterWhen.mo", &t);
  int ct = col(&t, "time"), cb = col(&t, "ticksBefore"), ca = col(&t, "ticksAfter");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    int late = tm > 0.5 || (tm == 0.5 && i + 1 == t.nrows) || (tm == 0.5 && t.v[i + 1][ct] > tm);
    ck_assert_msg(t.v[i][cb] == 0, "ticksBefore(%g) = %g", tm, t.v[i][cb]);
    ck_assert_msg(t.v[i][ca] == (late ? 1 : 0), "ticksAfter(%g) = %g", tm, t.v[i][ca]);
  }
}
END_TEST

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

/* RungeKutta.mo: x' = -x, y' = x (through an algebraic v) on 0.1 s clocks: the explicit
 * midpoint rule multiplies x by 1 - h + h^2/2 per tick, the classical Runge-Kutta method by
 * the Taylor polynomial of exp(-h) to h^4; x + y stays 1 (both are exact for it). A
 * Runge-Kutta method on an event clock is refused. */
START_TEST(runge_kutta_discretization) {
  static table t;
  run("tests/data/clocks/RungeKutta.mo", &t);
  int ct = col(&t, "time"), cxm = col(&t, "hxm"), cym = col(&t, "hym"), cxr = col(&t, "hxr"),
      cyr = col(&t, "hyr");
  double h = 0.1, gm = 1 - h + h * h / 2, gr = 1 - h + h * h / 2 - h * h * h / 6 + h * h * h * h / 24;
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1)) continue;
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(fabs(t.v[i][cxm] - pow(gm, k)) < 1e-12, "xm(%g) = %.17g", tm, t.v[i][cxm]);
    ck_assert_msg(fabs(t.v[i][cym] - (1 - pow(gm, k))) < 1e-12, "ym(%g) = %.17g", tm, t.v[i][cym]);
    ck_assert_msg(fabs(t.v[i][cxr] - pow(gr, k)) < 1e-12, "xr(%g) = %.17g", tm, t.v[i][cxr]);
    ck_assert_msg(fabs(t.v[i][cyr] - (1 - pow(gr, k))) < 1e-12, "yr(%g) = %.17g", tm, t.v[i][cyr]);
    checked++;
  }
  ck_assert_int_ge(checked, 10);
  expect_refused("tests/data/clocks/RungeKuttaEvent.mo",
                 "RungeKuttaEvent.mo:2:8: error: solverMethod \"ExplicitRungeKutta4\" needs a "
                 "periodic clock");
}
END_TEST

/* SubSuper.mo over 1 s: the 0.1 s clock ticks 11 times, subSample(u, 3) 4, superSample(u, 2)
 * 21, shiftSample(u, 1, 2) 10: 46 ticks in --stats; the event log's last column has 3 at the
 * start (u, us, uf) and 2 at t = 0.05 (uf, ush), and sums to the same 46. */
START_TEST(ticks_counted_in_stats_and_event_log) {
  const char *ev = st_test_tmp("clocks", "ticks-events.csv");
  const char *res = st_test_tmp("clocks", "ticks.csv");
  char *out = NULL;
  int st = st_test_runf(&out, "simulate '%s' --stats --events '%s' -o '%s'",
                        st_test_src("tests/data/clocks/SubSuper.mo"), ev, res);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_msg(strstr(out, "clock ticks: 46\n") != NULL, "%s", out);
  free(out);
  FILE *f = fopen(ev, "r");
  ck_assert_ptr_nonnull(f);
  char line[4096];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  ck_assert_str_eq(line, "time,kind,indicators,iterations,changed,clock_ticks\n");
  int total = 0, rows = 0;
  while (fgets(line, sizeof line, f)) {
    char *last = strrchr(line, ',');
    ck_assert_ptr_nonnull(last);
    int n = atoi(last + 1);
    if (rows == 0) ck_assert_int_eq(n, 3);
    if (rows == 1) ck_assert_msg(strncmp(line, "0.05", 4) == 0 && n == 2, "%s", line);
    total += n;
    rows++;
  }
  fclose(f);
  unlink(ev);
  unlink(res);
  ck_assert_int_eq(total, 46);
}
END_TEST

/* HoldStart.mo: hold(u) is u.start before u's partition first ticks (0.2), a sub-sampling
 * operator reads u.start there too (ub at 0.15), a clocked relation s >= 0.2 holds at the
 * tick 0.2 (no tie kept), and a binding with interval() is lowered with its partition. */
START_TEST(values_before_the_first_tick) {
  static table t;
  run("tests/data/clocks/HoldStart.mo", &t);
  int ct = col(&t, "time"), cy = col(&t, "y"), cb = col(&t, "yb"), ctol = col(&t, "tol"),
      con = col(&t, "on"), chb = col(&t, "hb");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.05)) continue;
    double y = tm < 0.2 ? -1 : 0.1 * floor(tm / 0.1);
    double yb = tm < 0.15 ? 0 : tm < 0.25 ? -1 : 0.1 * floor((tm - 0.05) / 0.1);
    ck_assert_msg(fabs(t.v[i][cy] - y) < 1e-12, "y(%g) = %g, expected %g", tm, t.v[i][cy], y);
    ck_assert_msg(fabs(t.v[i][cb] - yb) < 1e-12, "yb(%g) = %g, expected %g", tm, t.v[i][cb], yb);
    ck_assert_double_eq(t.v[i][ctol], 0.05);
    ck_assert_int_eq((int)t.v[i][con], tm > 0.2);
    ck_assert_int_eq((int)t.v[i][chb], tm > 0.2);
    checked++;
  }
  ck_assert_int_ge(checked, 12);
}
END_TEST

/* TickPulse.mo: the partition of y gets its clock from sample(y, c) (0.1 s); its
 * if-equation assigns counter and started in either order: counter = k mod 3 at tick k. */
START_TEST(clock_assigned_to_a_clocked_if_equation) {
  static table t;
  run("tests/data/clocks/TickPulse.mo", &t);
  int ct = col(&t, "time"), cc = col(&t, "counter"), cy = col(&t, "y"), cz = col(&t, "z");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1)) continue;
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(t.v[i][cc] == k % 3, "counter(%g) = %g, expected %d", tm, t.v[i][cc], k % 3);
    ck_assert_int_eq((int)t.v[i][cy], k % 3 == 0);
    ck_assert_int_eq((int)t.v[i][cz], k % 3 == 0);
    checked++;
  }
  ck_assert_int_ge(checked, 20);
}
END_TEST

/* NestedIf.mo: an if-equation with non-parameter conditions nesting another, branches
 * assigning s and k in either order (MSL Blocks.Sources.KinematicPTP2 under the clocked
 * drives): s = k = 0, 1, 2, 3 on [0, 0.2), [0.2, 0.25), [0.25, 0.3), after. */
START_TEST(nested_if_equation) {
  static table t;
  run("tests/data/clocks/NestedIf.mo", &t);
  int ct = col(&t, "time"), cs = col(&t, "s"), ck = col(&t, "k");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.05)) continue;
    int k = tm < 0.2 ? 0 : tm < 0.25 ? 1 : tm < 0.3 ? 2 : 3;
    ck_assert_msg(t.v[i][cs] == k && t.v[i][ck] == k, "s(%g) = %g, k = %g, expected %d", tm,
                  t.v[i][cs], t.v[i][ck], k);
  }
}
END_TEST

/* SignIndex.mo: x = sign(d)*t^2 with x a state; index reduction differentiates sign() as 0
 * (it steps at events only): v = -2 t. */
START_TEST(index_reduction_through_sign) {
  static table t;
  char *out = NULL;
  ck_assert_msg(simulate("tests/data/clocks/SignIndex.mo", "", &t, &out) == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cv = col(&t, "v");
  ck_assert_int_ge(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++)
    ck_assert_msg(fabs(t.v[i][cv] + 2 * t.v[i][ct]) < 1e-6, "v(%g) = %g", t.v[i][ct], t.v[i][cv]);
}
END_TEST

/* TupleArray.mo: (r, seed) = step(previous(seed)) with an Integer[3] output on a 0.1 s
 * clock: after tick k (from 0) seed = start + (k + 1) {1, 2, 3}, r = 0.5 (10 + k). */
START_TEST(tuple_with_an_array_output) {
  static table t;
  run("tests/data/clocks/TupleArray.mo", &t);
  int ct = col(&t, "time"), cr = col(&t, "r"), cs[3] = {col(&t, "seed[1]"), col(&t, "seed[2]"),
                                                         col(&t, "seed[3]")};
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1)) continue;
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(t.v[i][cr] == 0.5 * (10 + k), "r(%g) = %g", tm, t.v[i][cr]);
    for (int j = 0; j < 3; j++)
      ck_assert_msg(t.v[i][cs[j]] == 10 * (j + 1) + (k + 1) * (j + 1), "seed[%d](%g) = %g", j + 1,
                    tm, t.v[i][cs[j]]);
  }
}
END_TEST

/* Drift.mo: 10^6 ticks of Clock(1, 1000) (1000 s): at every tick sample(time) equals k/1000
 * exactly (the instants are (k num)/den rounded once, not a sum or k*0.001), so the largest
 * |t - k/1000| over the run is 0 and the last tick is the millionth. The last row is read
 * from the end of the file (two million event rows). */
START_TEST(no_drift_over_a_million_ticks) {
  const char *path = st_test_tmp("clocks", "drift.csv");
  char *out = NULL;
  int st = st_test_runf(&out, "simulate '%s' --vars worst --vars k -o '%s'",
                        st_test_src("tests/data/clocks/Drift.mo"), path);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[256] = "";
  ck_assert_int_eq(fseek(f, -64, SEEK_END), 0);
  while (fgets(line, sizeof line, f) && !feof(f)) {
  }
  fclose(f);
  unlink(path);
  double tm, k, worst;
  ck_assert_msg(sscanf(line, "%lf,%lf,%lf", &tm, &k, &worst) == 3, "last row '%s'", line);
  ck_assert_double_eq(tm, 1000);
  ck_assert_double_eq(k, 1000000);
  ck_assert_double_eq(worst, 0);
}
END_TEST

/* InitialOutput.mo: `y = 5` as an initial equation of a discretized partition's variable is
 * dropped (the partition starts from x.start = 1 at its first tick: y_k = 2 0.9^k), the
 * continuous p = 3 keeps its own. */
START_TEST(clocked_initial_equation_dropped) {
  static table t;
  run("tests/data/clocks/InitialOutput.mo", &t);
  int ct = col(&t, "time"), cy = col(&t, "yc"), cp = col(&t, "p");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1)) continue;
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(fabs(t.v[i][cy] - 2 * pow(0.9, k)) < 1e-12, "yc(%g) = %.17g", tm, t.v[i][cy]);
    ck_assert_double_eq(t.v[i][cp], 3);
  }
}
END_TEST

/* EventSubShift.mo: an event clock e ticking at t_k = k + 1/12 (k = 0, 1, ...) with a
 * counter n = k + 1 after tick k; shiftSample(n, 2) ticks from e's tick 2 on, subSample(n, 3)
 * at e's ticks 0, 3, 6, 9, shiftSample of that by two of its ticks from e's tick 6 on, and
 * backSample of that by one of them from tick 3 on (nsh.start = 0 before nsh ticks). Each
 * holds n of its latest tick; nss counts ns's ticks (k - 1 after tick k >= 2). */
START_TEST(event_clock_sub_and_shift_sampling) {
  static table t;
  run("tests/data/clocks/EventSubShift.mo", &t);
  int ct = col(&t, "time"), cn = col(&t, "n"), cs = col(&t, "ns"), css = col(&t, "nss"),
      csub = col(&t, "nsub"), csh = col(&t, "nsh"), cb = col(&t, "nb");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct], r = tm - 1.0 / 12;
    if (r < 0 || fabs(r - nearbyint(r)) < 1e-6) continue; /* before the first tick, at ticks */
    int k = (int)floor(r), sub = k / 3 * 3, sh = sub >= 6 ? sub + 1 : 0;
    ck_assert_msg(t.v[i][cn] == k + 1, "n(%g) = %g", tm, t.v[i][cn]);
    ck_assert_msg(t.v[i][cs] == (k >= 2 ? k + 1 : 0), "ns(%g) = %g", tm, t.v[i][cs]);
    if (k >= 2) ck_assert_msg(t.v[i][css] == k - 1, "nss(%g) = %g", tm, t.v[i][css]);
    ck_assert_msg(t.v[i][csub] == sub + 1, "nsub(%g) = %g", tm, t.v[i][csub]);
    ck_assert_msg(t.v[i][csh] == sh, "nsh(%g) = %g", tm, t.v[i][csh]);
    ck_assert_msg(t.v[i][cb] == sh, "nb(%g) = %g", tm, t.v[i][cb]);
    checked++;
  }
  ck_assert_int_gt(checked, 150);
  expect_refused("tests/data/clocks/EventBack.mo",
                 "EventBack.mo:8:8: error: backSample() of an event clock: it would tick before");
}
END_TEST

/* EventClockReset.mo: Clock(b) with b = x > hold(th), x = t, and the partition sets th to
 * x + 0.25 at each tick, so b is false again within the instant: ticks at 0.25 k. A
 * partition on the same clock latched after n's (subSample(n, 1)) and one shifted by a tick
 * still see every tick: m = n = k after tick k, ns = n from the second tick on. */
START_TEST(event_clock_reset_within_its_tick) {
  static table t;
  run("tests/data/clocks/EventClockReset.mo", &t);
  int ct = col(&t, "time"), cn = col(&t, "n"), cm = col(&t, "m"), cs = col(&t, "ns");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct], r = tm / 0.25;
    if (r < 1 || fabs(r - nearbyint(r)) < 1e-6) continue;
    int k = (int)floor(r);
    ck_assert_msg(t.v[i][cn] == k, "n(%g) = %g", tm, t.v[i][cn]);
    ck_assert_msg(t.v[i][cm] == k, "m(%g) = %g", tm, t.v[i][cm]);
    ck_assert_msg(t.v[i][cs] == (k >= 2 ? k : 0), "ns(%g) = %g", tm, t.v[i][cs]);
    checked++;
  }
  ck_assert_int_gt(checked, 70);
}
END_TEST

/* StateMachineCounter.mo: state1 adds 2 to the outer output i, state2 subtracts 1; delayed
 * transitions state1 -> state2 when i > 10 and back when i < 1, on a 1 s clock. By hand: i
 * climbs 2, 4, ..., 12 (ticks 0..5), falls 11, ..., 0 (ticks 6..17), climbs again from 2 at
 * tick 18: a period of 18 ticks. */
START_TEST(state_machine_delayed_transitions) {
  static table t;
  run("tests/data/clocks/StateMachineCounter.mo", &t);
  int ct = col(&t, "time"), ci = col(&t, "i");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 1)) continue;
    int k = (ticks(tm, 1) - 1) % 18, want = k <= 5 ? 2 * (k + 1) : 12 - (k - 5);
    ck_assert_msg(t.v[i][ci] == want, "i(%g) = %g, expected %d", tm, t.v[i][ci], want);
    checked++;
  }
  ck_assert_int_gt(checked, 25);
}
END_TEST

/* StateMachinePriority.mo on a 0.1 s clock: a counts its ticks in n (y = n), b counts on in
 * m from 10 (y = -m). a -> b delayed after 3 ticks in a (ticksInState), no reset; b -> a
 * immediate at the 4th tick in b (timeInState() >= 0.25: 0.3 s after entering; priority 1,
 * no reset) or, with reset (n from 0 again), in the windows around t = 1.1 and 1.7
 * (priority 2). By hand, y at ticks 0..20: 1 2 3 -11 -12 -13 4 5 6 -14 -15
 * (reset at 1.1:) 1 2 3 -16 -17 -18 (at 1.7 both hold, priority 1 wins: no reset) 4 5 6 -19;
 * inA = activeState(a). */
START_TEST(state_machine_priorities_and_reset) {
  static const int want[] = {1, 2, 3, -11, -12, -13, 4, 5, 6, -14, -15,
                             1, 2, 3, -16, -17, -18, 4, 5, 6, -19};
  static table t;
  run("tests/data/clocks/StateMachinePriority.mo", &t);
  int ct = col(&t, "time"), cy = col(&t, "y"), ca = col(&t, "inA");
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (at_tick(tm, 0.1) && i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(t.v[i][cy] == want[k], "y(%g) = %g, expected %d", tm, t.v[i][cy], want[k]);
    ck_assert_msg(t.v[i][ca] == (want[k] > 0), "inA(%g) = %g", tm, t.v[i][ca]);
    checked++;
  }
  ck_assert_int_gt(checked, 70);
  expect_refused("tests/data/clocks/StateMachineErrors.mo",
                 "StateMachineErrors.mo:13:3: error: transition(): two transitions leave this "
                 "state with the same priority");
  expect_refused("tests/data/clocks/StateMachineNoInitial.mo",
                 "StateMachineNoInitial.mo:11:3: error: transition(): this state machine has no "
                 "initialState()");
}
END_TEST

/* An event clock ticks when edge(condition) is true (Modelica 3.6 section 16.3), also at the
 * start time when the condition holds there (pre = false): EventClockAtStart.mo's
 * Clock(x < 0.5 or x > 1) with x = t ticks at 0 and at 1 (n = 1, then 2), and
 * Clock(x > 0.25 and x < 1.5), false at the start, only at 0.25 (m stays 1). */
START_TEST(event_clock_ticks_at_the_start) {
  static table t;
  run("tests/data/clocks/EventClockAtStart.mo", &t);
  int ct = col(&t, "time"), cn = col(&t, "n"), cm = col(&t, "m");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (fabs(tm - 1) < 1e-6) continue;
    ck_assert_msg(t.v[i][cn] == (tm < 1 ? 1 : 2), "n(%g) = %g", tm, t.v[i][cn]);
    ck_assert_msg(t.v[i][cm] == 1, "m(%g) = %g", tm, t.v[i][cm]);
  }
  ck_assert_double_eq(t.v[t.nrows - 1][cn], 2);
}
END_TEST

/* The clock ticks at the start time come after the initialization for pre(): TriggerFromTick.mo's
 * `when change(hold(y2))` fires at every tick of Clock(1, 10), the first one at t = 0
 * too (y = u = 1 + t at the latest tick, count = ticks; as Dymola's results of MSL's
 * AssignClockToTriggerHold). */
START_TEST(when_raised_by_the_start_tick) {
  static table t;
  run("tests/data/clocks/TriggerFromTick.mo", &t);
  int ct = col(&t, "time"), cy = col(&t, "y"), cc = col(&t, "count");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    int k = ticks(tm, 0.1);
    ck_assert_msg(t.v[i][cc] == k, "count(%g) = %g, expected %d", tm, t.v[i][cc], k);
    ck_assert_msg(fabs(t.v[i][cy] - (1 + 0.1 * (k - 1))) < 1e-12, "y(%g) = %g", tm, t.v[i][cy]);
  }
}
END_TEST

/* SampleHoldChain.mo: u = sample(time) on 0.1 s, v = sample(hold(u) + 1) on 0.25 s,
 * w = sample(2 hold(v)) on 1/3 s, only in bindings (no Clock variable, no clocked
 * equation). sample() of the continuous hold(u) takes its left limit at a tick: the latest
 * tick of u strictly before (u.start = 0 at t = 0), and hold(u) does not make v's partition
 * u's (it was a clock conflict, and bindings alone were not lowered: NaN). */
static double latest_before(double s, double h) { /* the latest multiple of h before s */
  return s <= 0 ? -1 : h * ceil(s / h - 1e-9) - h;
}

START_TEST(sample_hold_chain_in_bindings) {
  static table t;
  run("tests/data/clocks/SampleHoldChain.mo", &t);
  int ct = col(&t, "time"), cu = col(&t, "u"), cv = col(&t, "v"), cw = col(&t, "w"),
      cx = col(&t, "x");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    double tu = 0.1 * (ticks(tm, 0.1) - 1), tv = 0.25 * (ticks(tm, 0.25) - 1);
    double tw = (ticks(tm, 1.0 / 3) - 1) / 3.0;
    double su = latest_before(tv, 0.1), v = 1 + (su < 0 ? 0 : su);
    double sv = latest_before(tw, 0.25), svu = latest_before(sv, 0.1);
    double w = sv < 0 ? 0 : 2 * (1 + (svu < 0 ? 0 : svu));
    ck_assert_msg(fabs(t.v[i][cu] - tu) < 1e-12, "u(%g) = %.17g", tm, t.v[i][cu]);
    ck_assert_msg(fabs(t.v[i][cv] - v) < 1e-12, "v(%g) = %.17g, expected %g", tm, t.v[i][cv], v);
    ck_assert_msg(fabs(t.v[i][cw] - w) < 1e-12, "w(%g) = %.17g, expected %g", tm, t.v[i][cw], w);
    ck_assert_double_eq(t.v[i][cx], t.v[i][cw]);
  }
  ck_assert_double_eq_tol(t.v[t.nrows - 1][cw], 3.4, 1e-12);
}
END_TEST

/* InferredFactors.mo: superSample(u) and subSample(u) without factors take them from the
 * clocks of their partitions (u on 0.1 s; 0.025 s: factor 4; 0.3 s: factor 3); with nothing
 * to infer it from, FactorNotInferred.mo is a located error. */
START_TEST(sampling_factors_inferred) {
  static table t;
  run("tests/data/clocks/InferredFactors.mo", &t);
  int ct = col(&t, "time"), cyf = col(&t, "yf"), cnf = col(&t, "nf"), cys = col(&t, "ys"),
      cns = col(&t, "ns");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    ck_assert_msg(t.v[i][cnf] == ticks(tm, 0.025), "nf(%g) = %g", tm, t.v[i][cnf]);
    ck_assert_msg(t.v[i][cns] == ticks(tm, 0.3), "ns(%g) = %g", tm, t.v[i][cns]);
    ck_assert_msg(fabs(t.v[i][cyf] - 0.1 * (ticks(tm, 0.1) - 1)) < 1e-12, "yf(%g) = %g", tm,
                  t.v[i][cyf]);
    ck_assert_msg(fabs(t.v[i][cys] - 0.3 * (ticks(tm, 0.3) - 1)) < 1e-12, "ys(%g) = %g", tm,
                  t.v[i][cys]);
  }
  expect_refused("tests/data/clocks/FactorNotInferred.mo",
                 "FactorNotInferred.mo:3:8: error: the clock of this clocked equation cannot be "
                 "inferred");
}
END_TEST

/* StateMachineNested.mo: state s1 is itself a machine (a: i += 1, b: i += 10; a -> b when
 * i >= 3, b -> a when i >= 30), s2: i -= 5; s1 -> s2 when i > 40, s2 -> s1 when i < 5,
 * all delayed, with reset, on 0.1 s. The inner machine runs only while s1 is active, holds
 * b while s2 is, and restarts in a when s1 is entered again (at 1.6: i = 4 + 1, not 4 + 10);
 * activeState(s1.b) is false while s2 is active. Values worked out tick by tick. */
START_TEST(state_machine_inside_a_state) {
  static const int want[] = {1,  2,  3,  13, 23, 33, 34, 44, 39, 34, 29, 24, 19, 14, 9, 4,
                             5,  15, 25, 35, 36, 46, 41, 36, 31, 26, 21, 16, 11, 6,  1};
  static const int in_b[] = {0, 0, 0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                             0, 1, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  static table t;
  run("tests/data/clocks/StateMachineNested.mo", &t);
  int ct = col(&t, "time"), ci = col(&t, "i"), cb = col(&t, "inB"), checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(t.v[i][ci] == want[k], "i(%g) = %g, expected %d", tm, t.v[i][ci], want[k]);
    ck_assert_msg(t.v[i][cb] == in_b[k], "inB(%g) = %g", tm, t.v[i][cb]);
    checked++;
  }
  ck_assert_int_eq(checked, 31);
}
END_TEST

/* StateMachineInnerTicks.mo: s1 holds a machine a -> b on ticksInState() >= 4 (delayed);
 * s1 is left for s2 (which holds i) at the tick after k == 2 and resumed without reset at
 * the tick after k == 5. The inner machine does not run in s2, so a's ticks are 1, 2, (held
 * over ticks 3 to 5), 3, 4 at ticks 1, 2, 6, 7 and the move to b (i + 100 per tick) comes at
 * tick 8, not at tick 7 as when the ticks in s2 counted. */
START_TEST(inner_state_ticks_while_its_machine_runs) {
  static const int want[] = {1, 2, 2, 2, 2, 3, 4, 104, 204, 304, 404};
  static table t;
  run("tests/data/clocks/StateMachineInnerTicks.mo", &t);
  int ct = col(&t, "time"), ci = col(&t, "i"), checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    int k = ticks(tm, 0.1) - 1;
    ck_assert_msg(t.v[i][ci] == want[k], "i(%g) = %g, expected %d", tm, t.v[i][ci], want[k]);
    checked++;
  }
  ck_assert_int_eq(checked, 11);
}
END_TEST

/* VariableInterval.mo, the examples of Modelica 3.6 section 16.3: Clock(nextInterval, 1000)
 * with nextInterval = previous + 1 from 2 ticks at 0, 3, 7, 12, 18, 25, 33, 42 ms (the
 * counter's value at a tick sets the next), interval() the time since the tick before
 * (nextInterval.start/1000 at the first);
 * Clock(interval1) with interval1 = previous + 3 ms from 2 ms at 0, 2, 7, 15, 26, 40 ms
 * (previous(interval1) sets the next). Sub-sampling such a clock is a located error. */
static int ticks_before(const double *at, int n, double t) { /* ticks at or before t */
  int k = 0;
  while (k < n && at[k] <= t + 1e-12) k++;
  return k;
}

START_TEST(clocks_of_variable_interval) {
  static const double tn[] = {0, .003, .007, .012, .018, .025, .033, .042};
  static const double tm[] = {0, .002, .007, .015, .026, .040};
  static table t;
  run("tests/data/clocks/VariableInterval.mo", &t);
  int ct = col(&t, "time"), cn = col(&t, "n"), cd = col(&t, "dt"), cm = col(&t, "m");
  for (int i = 0; i < t.nrows; i++) {
    double tm_ = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm_) continue; /* left row */
    int kn = ticks_before(tn, 8, tm_), km = ticks_before(tm, 6, tm_);
    ck_assert_msg(t.v[i][cn] == kn, "n(%g) = %g, expected %d", tm_, t.v[i][cn], kn);
    ck_assert_msg(t.v[i][cm] == km, "m(%g) = %g, expected %d", tm_, t.v[i][cm], km);
    double dt = kn > 1 ? tn[kn - 1] - tn[kn - 2] : 0.002; /* previous(nextInterval)/1000 */
    ck_assert_msg(fabs(t.v[i][cd] - dt) < 1e-12, "dt(%g) = %g, expected %g", tm_, t.v[i][cd], dt);
  }
  expect_refused("tests/data/clocks/VariableSubSample.mo",
                 "VariableSubSample.mo:8:7: error: subSample() of a clock of variable interval "
                 "is not supported");
}
END_TEST

/* HeldInputPlant.mo: u = k + 1 from the tick at t = k/100 on drives der(x) = u - x and
 * der(z) = x, so over each tick interval h = 0.01 x moves to u + (x - u) e^-h and z by
 * u h + (x - u)(1 - e^-h). Every tick restarts CVODE; it changed only the held input, so the
 * Jacobian of before is kept (one evaluation in the whole run, not one per tick). */
START_TEST(ticks_keep_the_jacobian) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/HeldInputPlant.mo", "--stats --tick-rows", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_msg(strstr(out, "restarts: 100\n") != NULL, "%s", out);
  const char *nj = strstr(out, "njac (Jacobian evaluations): ");
  ck_assert_ptr_nonnull(nj);
  /* <= 4: the first steps grow from CVODE's initial step, which asks for fresh Jacobians
   * until the step is 100 times the first one (cvode.c fresh_jacobian) */
  ck_assert_msg(atol(nj + strlen("njac (Jacobian evaluations): ")) <= 4, "%s", out);
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cz = col(&t, "z"), cu = col(&t, "u");
  const double h = 0.01, e = exp(-h);
  double x[101], z[101];
  x[0] = z[0] = 0;
  for (int k = 0; k < 100; k++) {
    double u = k + 1;
    z[k + 1] = z[k] + u * h + (x[k] - u) * (1 - e);
    x[k + 1] = u + (x[k] - u) * e;
  }
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (!at_tick(tm, h)) continue;
    int k = (int)nearbyint(tm / h);
    int left = i + 1 < t.nrows && t.v[i + 1][ct] == tm;
    ck_assert_msg(fabs(t.v[i][cx] - x[k]) < 1e-6 && fabs(t.v[i][cz] - z[k]) < 1e-6,
                  "x(%g) = %.10g, z = %.10g; expected %.10g, %.10g", tm, t.v[i][cx],
                  t.v[i][cz], x[k], z[k]);
    ck_assert_msg(t.v[i][cu] == (left ? k : k + 1), "u(%g) = %g", tm, t.v[i][cu]);
    checked++;
  }
  ck_assert_int_ge(checked, 200);
}
END_TEST

/* The number after `name: ` in the --stats output. */
static long stat_value(const char *out, const char *name) {
  const char *p = strstr(out, name);
  ck_assert_msg(p != NULL, "no '%s' in %s", name, out);
  return atol(p + strlen(name));
}

/* Rows whose time is that of the next row: left limits at an event. */
static int left_rows(const table *t) {
  int ct = col(t, "time"), n = 0;
  for (int i = 0; i + 1 < t->nrows; i++) n += t->v[i][ct] == t->v[i + 1][ct];
  return n;
}

/* HeldInputPlant.mo ticks 100 times in 1 s (Clock(1, 100), grid 0.05 s). A tick changes only
 * what the clock latches and the clocked u, which nothing reads through pre(): one pass per
 * tick, not two, and no rows of its own (the 21 grid rows only, with the values after the
 * ticks there); --tick-rows writes the left and right rows (1 + 2 x 100 ticks, the grid
 * rows at ticks standing for themselves). Every tick still restarts the integrator: u
 * drives der(x). TriggerFromTick.mo's `when change(hold(y2))` reads pre() of what its ticks
 * change and fires with them: two passes or more, and rows, at every tick. */
START_TEST(ticks_take_one_pass_and_no_rows) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/HeldInputPlant.mo", "--stats --stop-time 0", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  long init_passes = stat_value(out, "event iterations: "); /* the initial event's */
  free(out);
  st = simulate("tests/data/clocks/HeldInputPlant.mo", "--stats", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  long passes = stat_value(out, "event iterations: ");
  ck_assert_int_eq(stat_value(out, "clock ticks: "), 101); /* 100 + the tick at the start */
  ck_assert_int_eq(passes, init_passes + 100);
  ck_assert_int_eq(stat_value(out, "restarts: "), 100);
  ck_assert_int_eq(stat_value(out, "result rows: "), 21);
  free(out);
  ck_assert_int_eq(t.nrows, 21);
  ck_assert_int_eq(left_rows(&t), 0);
  int ct = col(&t, "time"), cx = col(&t, "x"), cu = col(&t, "u");
  for (int i = 0; i < t.nrows; i++) { /* u = k + 1 after the tick at k/100 */
    int k = (int)nearbyint(t.v[i][ct] / 0.01);
    ck_assert_msg(t.v[i][cu] == k + 1, "u(%g) = %g", t.v[i][ct], t.v[i][cu]);
  }
  ck_assert_msg(fabs(t.v[20][cx] - 37.10347763) < 1e-6, "x(1) = %.10g", t.v[20][cx]);
  st = simulate("tests/data/clocks/HeldInputPlant.mo", "--stats --tick-rows", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_eq(stat_value(out, "event iterations: "), passes);
  free(out);
  ck_assert_int_eq(t.nrows, 201);
  ck_assert_int_eq(left_rows(&t), 100);
  st = simulate("tests/data/clocks/TriggerFromTick.mo", "--stats", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_ge(stat_value(out, "event iterations: "), 2 * 4);
  free(out);
  ck_assert_int_eq(left_rows(&t), 4); /* the ticks at 0.1 .. 0.4 */
}
END_TEST

/* TickUnseenByPlant.mo: the counter n = k + 1 at the tick k/100 is read by no continuous
 * equation, and v = (n >= 50) steps once, at 0.49: only that tick changes what der(x) = hold(v)
 * - x reads, so only it restarts the integrator; x = 1 - e^-(t - 0.49) after it. */
START_TEST(ticks_unseen_by_the_plant_do_not_restart) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/TickUnseenByPlant.mo", "--stats", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_eq(stat_value(out, "clock ticks: "), 101);
  ck_assert_int_eq(stat_value(out, "restarts: "), 1);
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cn = col(&t, "n");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct], x = tm > 0.49 ? 1 - exp(-(tm - 0.49)) : 0;
    ck_assert_msg(t.v[i][cn] == (int)nearbyint(tm / 0.01) + 1, "n(%g) = %g", tm, t.v[i][cn]);
    ck_assert_msg(fabs(t.v[i][cx] - x) < 1e-6, "x(%g) = %.10g, expected %.10g", tm, t.v[i][cx], x);
  }
}
END_TEST

/* TickBlocks.mo (BLT: u, der(x), b, c): after the latch of a tick only u and der(x), which
 * read the sample, are evaluated again, not b and c; the pass's first evaluation in event
 * mode evaluates none (no block has a relation, pre() or a call; the left limit holds their
 * values): 0 + 2 block evaluations per tick in its one pass (it was 4 + 4, then 4 + 2), and
 * no left-limit evaluation of its own (the left row's, at the same point, is taken). x' =
 * u_k - x between the ticks with u_k = -2 x_k, so x_(k+1) = x_k (3 e^-h - 2), h = 0.1. */
START_TEST(ticks_reevaluate_only_what_reads_them) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/TickBlocks.mo", "--stats --stop-time 0", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  long init_evals = stat_value(out, "event block evaluations: ");
  long init_left = stat_value(out, "event left-limit evaluations: ");
  free(out);
  st = simulate("tests/data/clocks/TickBlocks.mo", "--stats", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_eq(stat_value(out, "clock ticks: "), 11);
  ck_assert_int_eq(stat_value(out, "event block evaluations: "), init_evals + 10 * (0 + 2));
  ck_assert_int_eq(stat_value(out, "event left-limit evaluations: "), init_left);
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cb = col(&t, "b"), cc = col(&t, "c"),
      cu = col(&t, "u");
  const double f = 3 * exp(-0.1) - 2;
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (!at_tick(tm, 0.1)) continue;
    int k = (int)nearbyint(tm / 0.1);
    double x = pow(f, k);
    ck_assert_msg(fabs(t.v[i][cx] - x) < 1e-7 && fabs(t.v[i][cu] + 2 * x) < 1e-7,
                  "x(%g) = %.10g, u = %.10g; expected %.10g", tm, t.v[i][cx], t.v[i][cu], x);
    ck_assert_msg(fabs(t.v[i][cb] - t.v[i][cx] * t.v[i][cx]) < 1e-15 &&
                      fabs(t.v[i][cc] - (t.v[i][cb] - t.v[i][cx])) < 1e-15,
                  "b, c at %g", tm);
    checked++;
  }
  ck_assert_int_ge(checked, 11);
}
END_TEST

/* x' = u_k + b - x from (t0, x0) to t: x = (u_k + b) + (x0 - u_k - b) e^-(t - t0). */
static double relax(double x0, double target, double dt) { return target + (x0 - target) * exp(-dt); }

/* TickYp.mo: y' after a tick's pass is the pass's own (the equations after the latch), not
 * evaluated again: of the 11 ticks none evaluates derivatives() in the event handling; the
 * load step at 0.55, more than a tick, evaluates y' after its pass and after its restart (2).
 * x' = u_k - x + b, u_k = -2 x_k held from the tick k/10, b = 1 after 0.55. */
START_TEST(ticks_take_yp_from_their_pass) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/TickYp.mo", "--stats", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_eq(stat_value(out, "clock ticks: "), 11);
  ck_assert_int_eq(stat_value(out, "event y' evaluations: "), 2);
  free(out);
  double x[11] = {1};
  for (int k = 0; k < 10; k++) {
    double u = -2 * x[k], t0 = k / 10.0, t1 = (k + 1) / 10.0;
    if (t0 < 0.55 && t1 > 0.55) x[k + 1] = relax(relax(x[k], u, 0.55 - t0), u + 1, t1 - 0.55);
    else x[k + 1] = relax(x[k], u + (t0 >= 0.55), 0.1);
  }
  int ct = col(&t, "time"), cx = col(&t, "x"), cu = col(&t, "u"), checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (!at_tick(tm, 0.1)) continue;
    int k = (int)nearbyint(tm / 0.1);
    ck_assert_msg(fabs(t.v[i][cx] - x[k]) < 1e-7 && fabs(t.v[i][cu] + 2 * x[k]) < 1e-7,
                  "x(%g) = %.10g, u = %.10g; expected %.10g", tm, t.v[i][cx], t.v[i][cu], x[k]);
    checked++;
  }
  ck_assert_int_ge(checked, 11);
}
END_TEST

/* TickSensitive.mo (BLT: u, d, der(x), b, c) is TickBlocks with d = if time > 5 then 1 else
 * 0 in der(x): d's block has a relation, so every pass's first evaluation in event mode
 * evaluates it, and der(x) after it; then the latch's u and der(x): 2 + 2 per tick (it was
 * 5 + 2). The relation stays false (stop time 1): the same x as TickBlocks. */
START_TEST(ticks_evaluate_event_sensitive_blocks_first) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/TickSensitive.mo", "--stats --stop-time 0", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  long init_evals = stat_value(out, "event block evaluations: ");
  free(out);
  st = simulate("tests/data/clocks/TickSensitive.mo", "--stats", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_eq(stat_value(out, "clock ticks: "), 11);
  ck_assert_int_eq(stat_value(out, "event block evaluations: "), init_evals + 10 * (2 + 2));
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cd = col(&t, "d"), checked = 0;
  const double f = 3 * exp(-0.1) - 2;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    ck_assert_msg(t.v[i][cd] == 0, "d(%g) = %g", tm, t.v[i][cd]);
    if (!at_tick(tm, 0.1)) continue;
    double x = pow(f, (int)nearbyint(tm / 0.1));
    ck_assert_msg(fabs(t.v[i][cx] - x) < 1e-7, "x(%g) = %.10g, expected %.10g", tm, t.v[i][cx], x);
    checked++;
  }
  ck_assert_int_ge(checked, 11);
}
END_TEST

/* InferredClock.mo: `when Clock()` takes the clock of the partition it is joined with (y =
 * sample(x, Clock(1, 4)) + 0*n): n counts the ticks at 0, 0.25, ... (n = k + 1 at k/4), y =
 * time there. NoClock.mo: k = noClock(n) on the 2 Hz partition reads the 10 Hz counter n as
 * of its last tick at or before the slow tick (the fast partition ticks first at a common
 * instant): m = n = 5j + 1 at j/2, held in between. */
START_TEST(inferred_clock_and_no_clock) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/clocks/InferredClock.mo", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cn = col(&t, "n"), cy = col(&t, "y");
  ck_assert_int_eq(t.nrows, 5);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    ck_assert_msg(t.v[i][cn] == (int)nearbyint(tm * 4) + 1, "n(%g) = %g", tm, t.v[i][cn]);
    ck_assert_msg(fabs(t.v[i][cy] - tm) < 1e-12, "y(%g) = %g", tm, t.v[i][cy]);
  }
  out = NULL;
  st = simulate("tests/data/clocks/NoClock.mo", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  ct = col(&t, "time"), cn = col(&t, "n");
  int cm = col(&t, "m");
  ck_assert_int_eq(t.nrows, 11);
  for (int i = 0; i < t.nrows; i++) {
    int k = (int)nearbyint(t.v[i][ct] * 10);
    ck_assert_msg(t.v[i][cn] == k + 1, "n(%g) = %g", t.v[i][ct], t.v[i][cn]);
    ck_assert_msg(t.v[i][cm] == 5 * (k / 5) + 1, "m(%g) = %g", t.v[i][ct], t.v[i][cm]);
  }
}
END_TEST

/* TickSmallSteps.mo: u moves by 1e-6 at each tick, x' = u - x. The jump of x' is far below
 * what CVODE's error test sees at rtol 1e-6, so all 100 ticks are integrated through, without
 * a restart; --tick-restart restarts at each. Both follow the closed form x_(k+1) = u_k +
 * (x_k - u_k) e^-h, u_k = 1 + (k + 1) 1e-6, h = 0.01: integrated through to 6e-8, restarted
 * to 2.7e-5 (each restart begins again at order 1). HeldInputPlant.mo's u jumps by 1 at
 * rtol 1e-9 (gone through, CVODE failed its error test at hmin): every tick restarts. */
START_TEST(small_tick_jumps_are_integrated_through) {
  const char *opts[] = {"--stats", "--stats --tick-restart"};
  double x[101];
  x[0] = 0;
  for (int k = 0; k < 100; k++) {
    double u = 1 + (k + 1) * 1e-6;
    x[k + 1] = u + (x[k] - u) * exp(-0.01);
  }
  for (int o = 0; o < 2; o++) {
    static table t;
    char *out = NULL;
    int st = simulate("tests/data/clocks/TickSmallSteps.mo", opts[o], &t, &out);
    ck_assert_msg(st == 0, "%s", out ? out : "");
    ck_assert_int_eq(stat_value(out, "restarts: "), o ? 100 : 0);
    ck_assert_int_eq(stat_value(out, "ticks gone through without restart: "), o ? 0 : 100);
    free(out);
    int ct = col(&t, "time"), cx = col(&t, "x"), cu = col(&t, "u");
    for (int i = 0; i < t.nrows; i++) {
      int k = (int)nearbyint(t.v[i][ct] / 0.01);
      ck_assert_msg(fabs(t.v[i][cx] - x[k]) < (o ? 5e-5 : 1e-6), "%s: x(%g) = %.10g, expected %.10g", opts[o],
                    t.v[i][ct], t.v[i][cx], x[k]);
      ck_assert_msg(fabs(t.v[i][cu] - (1 + (k + 1) * 1e-6)) < 1e-12, "u(%g)", t.v[i][ct]);
    }
    ck_assert_int_eq(t.nrows, 21);
  }
  static table h;
  char *out = NULL;
  int st = simulate("tests/data/clocks/HeldInputPlant.mo", "--stats", &h, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_int_eq(stat_value(out, "restarts: "), 100);
  ck_assert_int_eq(stat_value(out, "ticks gone through without restart: "), 0);
  free(out);
}
END_TEST

/* IndexReduced.mo: c = f ties the inverse model's state c to the filter state f, so the
 * partition is reduced (der(c) = der(f)) before Euler discretizes it; either may be the
 * state, the recursion is the same. With u_k = 1 + k h at the tick k h (h = 0.1, tau = 0.5):
 * explicit f(k+1) = f(k) + h (u_k - f(k))/tau, implicit f(k+1) = (f(k) + h u_(k+1)/tau) /
 * (1 + h/tau), from f(0) = 0.2; v = der(c) + c = (u - f)/tau + f. ExplicitRungeKutta4 on
 * such a partition is refused, located. */
START_TEST(index_reduced_partition) {
  static table t;
  run("tests/data/clocks/IndexReduced.mo", &t);
  const double h = 0.1, tau = 0.5;
  double fe[11], fi[11];
  fe[0] = fi[0] = 0.2;
  for (int k = 0; k < 10; k++) {
    fe[k + 1] = fe[k] + h * (1 + k * h - fe[k]) / tau;
    fi[k + 1] = (fi[k] + h * (1 + (k + 1) * h) / tau) / (1 + h / tau);
  }
  int ct = col(&t, "time"), c[] = {col(&t, "fe"), col(&t, "ce"), col(&t, "ye"),
                                   col(&t, "fi"), col(&t, "ci"), col(&t, "yi")};
  int checked = 0;
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    if (i + 1 < t.nrows && t.v[i + 1][ct] == tm) continue; /* left row */
    int k = ticks(tm, h) - 1;
    double u = 1 + k * h;
    double want[] = {fe[k], fe[k], (u - fe[k]) / tau + fe[k], fi[k], fi[k], (u - fi[k]) / tau + fi[k]};
    for (int j = 0; j < 6; j++)
      ck_assert_msg(fabs(t.v[i][c[j]] - want[j]) < 1e-12, "column %d at %g: %.17g, expected %.17g",
                    j, tm, t.v[i][c[j]], want[j]);
    checked++;
  }
  ck_assert_int_ge(checked, 21);
  expect_refused("tests/data/clocks/IndexReducedRK.mo",
                 "IndexReducedRK.mo:9:7: error: solverMethod \"ExplicitRungeKutta4\" on a partition "
                 "that needs index reduction is not supported");
}
END_TEST

/* ClockedAlgorithm.mo: an algorithm section on Clock(1, 10) (its clock from u's sample()):
 * at the tick k/10, n = k + 1, s = u(0) + ... + u(k) = k (k + 1)/20 and m = min(s/n, 0.2)
 * = min(k/20, 0.2), all held between ticks; an algorithm whose partition nothing gives a
 * clock is refused, located at its statement. */
START_TEST(clocked_algorithm_section) {
  static table t;
  run("tests/data/clocks/ClockedAlgorithm.mo", &t);
  int ct = col(&t, "time"), cn = col(&t, "n"), cs = col(&t, "s"), cm = col(&t, "m"),
      cy = col(&t, "y");
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    int k = ticks(tm, 0.1) - 1;
    if (at_tick(tm, 0.1) && i + 1 < t.nrows && t.v[i + 1][ct] == tm) k--; /* left row */
    double s = k * (k + 1) / 20.0, m = fmin(k / 20.0, 0.2);
    ck_assert_msg(t.v[i][cn] == k + 1 && fabs(t.v[i][cs] - s) < 1e-12 &&
                  fabs(t.v[i][cm] - m) < 1e-12 && fabs(t.v[i][cy] - m) < 1e-12,
                  "t = %g: n = %g, s = %.17g, m = %.17g; expected %d, %g, %g", tm, t.v[i][cn],
                  t.v[i][cs], t.v[i][cm], k + 1, s, m);
  }
  expect_refused("tests/data/clocks/ClockedAlgorithmNoClock.mo",
                 "ClockedAlgorithmNoClock.mo:4:3: error: the clock of this clocked algorithm "
                 "cannot be inferred");
}
END_TEST

/* The clock errors, located: two clocks on one partition (directly and through subSample),
 * a factor or interval that is not finite,
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
  /* Found by the flatten fuzzer: an infinite factor was converted to long long (UB). */
  expect_refused("tests/data/clocks/InfiniteFactor.mo",
                 "InfiniteFactor.mo:4:20: error: Clock(intervalCounter, resolution) needs positive "
                 "Integer arguments");
  expect_refused("tests/data/clocks/InfiniteInterval.mo",
                 "InfiniteInterval.mo:4:20: error: Clock(interval) needs a positive finite interval");
}
END_TEST

int main(void) {
  Suite *s = suite_create("clocks");
  /* 300 s: no_drift_over_a_million_ticks needs about 5 s of CPU, over a minute on a loaded machine */
  st_test_case(s, "clocks", 300,
               ST_TESTS(counter_on_a_clock, event_clock_sees_when_assignments, sub_super_shift_sampling, sampled_pi_controller,
                        event_clock_interval_first_tick, discretized_partitions, clock_errors,
                        values_before_the_first_tick, clock_assigned_to_a_clocked_if_equation,
                        nested_if_equation, index_reduction_through_sign,
                        tuple_with_an_array_output, no_drift_over_a_million_ticks,
                        clocked_initial_equation_dropped, event_clock_sub_and_shift_sampling,
                        event_clock_reset_within_its_tick, state_machine_delayed_transitions,
                        state_machine_priorities_and_reset, runge_kutta_discretization,
                        ticks_counted_in_stats_and_event_log, event_clock_ticks_at_the_start,
                        when_raised_by_the_start_tick,
                        sample_hold_chain_in_bindings, sampling_factors_inferred,
                        state_machine_inside_a_state, clocks_of_variable_interval,
                        ticks_keep_the_jacobian, index_reduced_partition,
                        clocked_algorithm_section, inner_state_ticks_while_its_machine_runs,
                        ticks_take_one_pass_and_no_rows, ticks_unseen_by_the_plant_do_not_restart,
                        ticks_reevaluate_only_what_reads_them,
                        ticks_evaluate_event_sensitive_blocks_first, ticks_take_yp_from_their_pass,
                        small_tick_jumps_are_integrated_through, inferred_clock_and_no_clock));
  return st_test_main(s);
}
