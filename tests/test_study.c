/* The regularized Leine belt (demo leine-belt-smooth) and `stiction study`, against the
 * reference numbers of doc/benchmarks.md §1.2, §1.3 and §2 (issue 6):
 *   - the event-driven period 12.001031295 s (leine-belt through the runtime);
 *   - arctan periods vs eps 1e2..1e6 (§1.3, +-1e-3), converging toward it; tanh likewise;
 *   - Leine's LuGre variant (sigma0 = 100, sigma1 = 20) 11.01344 s;
 *   - Karnopp: the period approaches 12.0010 s as the band DV shrinks;
 *   - the analytic Jacobian of every law against difference quotients;
 *   - the event-driven demo: 2 events per period across rtol 1e-4..1e-8 (§6 fixture 1), its
 *     period independent of the output grid;
 *   - the study command: table and CSV parsed back, bad input; the Modelica source
 *     (Stiction.Examples.LeineBelt --element friction): arctan periods vs eps as §1.3. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/demos.h>
#include <stiction/stiction.h>

#include "testutil.h"

#define LEINE_PERIOD 12.001031295 /* doc/benchmarks.md §1.2 */

/* ---- running a demo and measuring x ----------------------------------------------------- */

typedef struct xrun {
  int col;
  double tprev, xprev, first, last;
  int n, rows;
} xrun;

static int xr_begin(void *ud, int ncols, const char *const *names) {
  xrun *r = ud;
  for (int i = 0; i < ncols; i++)
    if (!strcmp(names[i], "x")) r->col = i;
  return r->col <= 0;
}

/* Upward zero crossings of x, linearly interpolated between rows (the period definition of
 * doc/benchmarks.md §1.3), counted as the rows arrive. */
static int xr_row(void *ud, const double *v) {
  xrun *r = ud;
  double t = v[0], x = v[r->col];
  if (r->rows++ && r->xprev < 0 && x >= 0 && t > r->tprev) {
    double tc = t - (t - r->tprev) * x / (x - r->xprev);
    if (r->n++ == 0) r->first = tc;
    r->last = tc;
  }
  r->tprev = t;
  r->xprev = x;
  return 0;
}

/* Period of `demo` (already parameterized) at rtol, atol = 1e-3 rtol, five periods, output
 * grid dt (no step-size bound). */
static double period_on_grid(stiction_demo *demo, double rtol, double dt) {
  stiction_options opt;
  stiction_options_init(&opt);
  stiction_demo_options(demo, &opt);
  opt.stop_time = 60.005;
  opt.interval = dt;
  opt.rtol = rtol;
  opt.atol = 1e-3 * rtol;
  opt.max_step = INFINITY;
  xrun r = {0};
  stiction_sink sink = {sizeof(stiction_sink), xr_begin, xr_row, NULL, &r};
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(demo), stiction_demo_data(demo), &opt);
  ck_assert_ptr_nonnull(sim);
  stiction_sim_set_sink(sim, &sink);
  int rc = stiction_sim_run(sim);
  ck_assert_msg(rc == STICTION_OK, "run failed: %s", stiction_sim_error(sim));
  stiction_sim_free(sim);
  ck_assert_int_ge(r.n, 4);
  return (r.last - r.first) / (r.n - 1);
}

static double period_of(stiction_demo *demo, double rtol) {
  return period_on_grid(demo, rtol, 0.01);
}

static stiction_demo *smooth(double law, double eps) {
  stiction_demo *d;
  ck_assert_int_eq(stiction_demo_new(&d, "leine-belt-smooth"), STICTION_OK);
  ck_assert_int_eq(stiction_demo_set(d, "law", law, NULL, 0), STICTION_OK);
  ck_assert_int_eq(stiction_demo_set(d, "eps", eps, NULL, 0), STICTION_OK);
  return d;
}

static double smooth_period(double law, double eps, double rtol) {
  stiction_demo *d = smooth(law, eps);
  double p = period_of(d, rtol);
  stiction_demo_free(d);
  if (getenv("ST_VERBOSE")) fprintf(stderr, "law %g eps %g rtol %g: %.6f\n", law, eps, rtol, p);
  return p;
}

/* ---- the demos through the runtime -------------------------------------------------------- */

/* At rtol 1e-8 the event-driven period is the reference to 1e-5. At rtol 1e-6 it is
 * 12.000948 (doc/benchmarks.md §6 fixture 1: +-1e-4 at rtol <= 1e-6): BDF's global error in the
 * 4.3 s slip phase leaves x at re-stick ~1.7e-5 too high, and the stick phase, x' = v_dr,
 * turns that into a stick 8e-5 s too short (dt = dx / v_dr). The crossing of x lies in the
 * stick phase, where x is linear, so how the period is measured adds nothing (doc/study.md).
 * The period does not depend on the output grid: the first step after an event is CVODE's
 * own, not a tenth of the distance to the next grid point (runtime/cvode.c). */
START_TEST(event_driven_period) {
  stiction_demo *d;
  ck_assert_int_eq(stiction_demo_new(&d, "leine-belt"), STICTION_OK);
  ck_assert_double_eq_tol(period_of(d, 1e-8), LEINE_PERIOD, 1e-5);
  double p6 = period_of(d, 1e-6);
  ck_assert_double_eq_tol(p6, LEINE_PERIOD, 1e-4);
  ck_assert_double_eq_tol(period_on_grid(d, 1e-6, 0.001), p6, 1e-9);
  ck_assert_double_eq_tol(period_on_grid(d, 1e-6, 0.5), p6, 1e-9);
  stiction_demo_free(d);
}
END_TEST

/* Event instants of the event-driven demo up to stop. */
typedef struct evlist {
  double t[64];
  int n;
} evlist;

static int ev_listen(void *ud, const stiction_event_record *e) {
  evlist *l = ud;
  if (e->kind == STICTION_EVENT_STATE && l->n < 64) l->t[l->n++] = e->time;
  return 0;
}

/* doc/benchmarks.md §6 fixture 1: exactly 2 events per period (break-away, re-stick) and the
 * period within 2e-3 of the reference across rtol 1e-4..1e-8. Run to 54 s from break-away:
 * the start's break-away, 4 periods, the re-stick at 52.3 s. */
START_TEST(event_driven_events_per_period) {
  for (double rtol = 1e-4; rtol >= 1e-8 * 0.99; rtol /= 10) {
    stiction_demo *d;
    ck_assert_int_eq(stiction_demo_new(&d, "leine-belt"), STICTION_OK);
    stiction_options opt;
    stiction_options_init(&opt);
    opt.stop_time = 54.0;
    opt.rtol = rtol;
    opt.atol = 1e-3 * rtol;
    opt.max_step = INFINITY;
    evlist ev = {.n = 0};
    stiction_sim *sim = stiction_sim_new(stiction_demo_model(d), stiction_demo_data(d), &opt);
    stiction_sim_set_event_listener(sim, ev_listen, &ev);
    ck_assert_int_eq(stiction_sim_run(sim), STICTION_OK);
    ck_assert_msg(ev.n == 10, "rtol %g: %d state events, want 10", rtol, ev.n);
    for (int i = 2; i < ev.n; i++)
      ck_assert_msg(fabs(ev.t[i] - ev.t[i - 2] - LEINE_PERIOD) < 2e-3,
                    "rtol %g: events %d, %d are %.6f s apart", rtol, i - 2, i,
                    ev.t[i] - ev.t[i - 2]);
    ck_assert_double_eq_tol(ev.t[1] - ev.t[0], 4.295999525, 2e-3); /* slip, §1.2 */
    stiction_sim_free(sim);
    stiction_demo_free(d);
  }
}
END_TEST

/* doc/benchmarks.md §1.3 at rtol 1e-7 (at 1e-6 the eps = 1e6 run drifts to 12.08: the stiff
 * regularization is where tolerance starts to matter, see the bench). */
START_TEST(arctan_periods_vs_eps) {
  const double eps[] = {1e2, 1e3, 1e4, 1e5, 1e6};
  const double ref[] = {9.70965, 11.29810, 11.80793, 11.95182, 11.98916};
  double e_prev = INFINITY;
  for (int i = 0; i < 5; i++) {
    double p = smooth_period(1, eps[i], 1e-7);
    ck_assert_msg(fabs(p - ref[i]) < 1e-3, "eps %g: period %.6f, want %.5f", eps[i], p, ref[i]);
    double e = fabs(p - LEINE_PERIOD);
    ck_assert_double_lt(e, e_prev);
    e_prev = e;
  }
}
END_TEST

START_TEST(tanh_converges) {
  double e_prev = INFINITY;
  for (double eps = 1e2; eps <= 1e6; eps *= 10) {
    double e = fabs(smooth_period(2, eps, 1e-7) - LEINE_PERIOD);
    ck_assert_double_lt(e, e_prev);
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 1e-3);
}
END_TEST

START_TEST(lugre_period) {
  stiction_demo *d = smooth(4, 1.0); /* eps unused by LuGre; defaults sigma0 = 100, sigma1 = 20 */
  double s0, s1;
  stiction_demo_get(d, "sigma0", &s0);
  stiction_demo_get(d, "sigma1", &s1);
  ck_assert(s0 == 100.0 && s1 == 20.0);
  ck_assert_double_eq_tol(period_of(d, 1e-7), 11.01344, 1e-3);
  stiction_demo_free(d);
}
END_TEST

/* doc/benchmarks.md §2: the Karnopp period approaches 12.0010 s as DV -> 0. */
START_TEST(karnopp_converges) {
  double e_prev = INFINITY;
  for (double dv = 1e-2; dv >= 1e-5; dv /= 10) {
    double e = fabs(smooth_period(3, dv, 1e-8) - LEINE_PERIOD);
    ck_assert_msg(e < e_prev, "DV %g: error %g not below %g", dv, e, e_prev);
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 1e-4);
}
END_TEST

/* The model's analytic df/dy against central differences, every law, slip and near-stick
 * states on both sides of gamma = 0 (not at the kinks themselves). */
static void check_jacobian(double law, double eps, const double *y) {
  stiction_demo *d = smooth(law, eps);
  const stiction_model *m = stiction_demo_model(d);
  void *ud = stiction_demo_data(d);
  double y0[3], yp[3] = {0}, f[3], J[9];
  ck_assert_int_eq(m->start_values(ud, 0.0, y0, yp), 0); /* sets the Karnopp band flag */
  m->derivatives(ud, 0.0, y, f);
  ck_assert_int_eq(m->ode_jacobian(ud, 0.0, y, f, J), 0);
  for (int j = 0; j < 3; j++) {
    double yh[3] = {y[0], y[1], y[2]}, yl[3] = {y[0], y[1], y[2]}, fh[3], fl[3];
    double h = 1e-7 * (fabs(y[j]) + 1e-3);
    yh[j] += h;
    yl[j] -= h;
    m->derivatives(ud, 0.0, yh, fh);
    m->derivatives(ud, 0.0, yl, fl);
    for (int i = 0; i < 3; i++) {
      double fd = (fh[i] - fl[i]) / (2 * h), tol = 1e-5 * (1 + fabs(fd));
      ck_assert_msg(fabs(J[i + 3 * j] - fd) < tol, "law %g: J[%d][%d] = %g, FD %g", law, i, j,
                    J[i + 3 * j], fd);
    }
  }
  stiction_demo_free(d);
}

START_TEST(analytic_jacobians) {
  const double states[][3] = {{0.3, -0.5, 0.004}, {-0.2, 0.2 + 3e-4, -0.002},
                              {0.9, 0.2 - 2e-4, 0.009}, {1.05, 0.1, 0.0}};
  for (int k = 0; k < 4; k++) {
    check_jacobian(1, 1e3, states[k]);
    check_jacobian(2, 1e3, states[k]);
    check_jacobian(4, 1.0, states[k]);
  }
  /* Karnopp: started in the band (the demo's break-away start), then a state inside it with
   * the spring below and above the static limit */
  check_jacobian(3, 1e-3, (double[]){0.5, 0.2 + 1e-4, 0.0});
  check_jacobian(3, 1e-3, (double[]){1.2, 0.2 - 1e-4, 0.0});
}
END_TEST

START_TEST(bad_law_fails_the_run) {
  stiction_demo *d;
  char msg[128];
  ck_assert_int_eq(stiction_demo_new(&d, "leine-belt-smooth"), STICTION_OK);
  ck_assert_int_eq(stiction_demo_set(d, "law", 5, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_set(d, "eps", 0, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_set(d, "law", 2.5, NULL, 0), STICTION_OK);
  stiction_sim *sim = stiction_sim_new(stiction_demo_model(d), stiction_demo_data(d), NULL);
  ck_assert_int_ne(stiction_sim_run(sim), STICTION_OK);
  stiction_sim_free(sim);
  stiction_demo_free(d);
}
END_TEST

/* ---- the study command ---------------------------------------------------------------------- */

/* A parsed table row: law, width and up to 12 numbers (NAN for "-" or empty). */
typedef struct trow {
  char law[32];
  double v[12];
  int n;
} trow;

static double num(const char *text) { return (!*text || !strcmp(text, "-")) ? NAN : atof(text); }

/* Splits a line at `sep` (',' for CSV, runs of spaces for the table). */
static void parse_row(char *line, int csv, trow *r) {
  char *save = NULL, *tok = csv ? strsep(&line, ",") : strtok_r(line, " ", &save);
  snprintf(r->law, sizeof r->law, "%s", tok ? tok : "");
  r->n = 0;
  while (r->n < 12 && (tok = csv ? strsep(&line, ",") : strtok_r(NULL, " ", &save)))
    r->v[r->n++] = num(tok);
}

/* Parses the output into rows (first line: header, returned in header). */
static int parse_table(char *out, int csv, char *header, size_t hsize, trow *rows, int max) {
  int n = 0;
  char *save = NULL;
  for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line == out) {
      snprintf(header, hsize, "%s", line);
      continue;
    }
    if (n < max) parse_row(line, csv, &rows[n++]);
  }
  return n;
}

/* Columns: width period period_error rms wall_s steps nfe njac events (v[0..8]). */
START_TEST(study_table) {
  char *out = NULL, header[512];
  trow rows[8];
  int st = st_test_runf(&out, "study leine-belt --laws arctan,karnopp --widths 1e2,1e4 --tolerance 1e-7 --stop-time 59");
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  int n = parse_table(out, 0, header, sizeof header, rows, 8);
  ck_assert_int_eq(n, 5);
  ck_assert_ptr_nonnull(strstr(header, "period_error"));
  ck_assert_ptr_nonnull(strstr(header, "rms"));
  ck_assert_str_eq(rows[0].law, "event-driven");
  ck_assert_double_eq_tol(rows[0].v[1], LEINE_PERIOD, 2e-5);
  ck_assert_int_eq((int)rows[0].v[8], 10); /* 5 break-aways (t = 0, 12, ..., 48), 5 re-sticks */
  const char *law[] = {"arctan", "arctan", "karnopp", "karnopp"};
  for (int i = 1; i < 5; i++) {
    ck_assert_str_eq(rows[i].law, law[i - 1]);
    ck_assert_int_eq(rows[i].n, 9);
    ck_assert_double_eq_tol(rows[i].v[2], rows[i].v[1] - rows[0].v[1], 2e-6);
    ck_assert(rows[i].v[3] > 0 && rows[i].v[5] > 0 && rows[i].v[6] >= rows[i].v[5]);
  }
  ck_assert_double_eq(rows[1].v[0], 100);
  ck_assert_double_eq_tol(rows[1].v[1], 9.70965, 1e-3);
  ck_assert_double_eq_tol(rows[2].v[1], 11.80793, 1e-3);
  ck_assert_double_lt(rows[2].v[3], rows[1].v[3]); /* sharper: smaller RMS */
  ck_assert_double_lt(rows[4].v[3], rows[3].v[3]);
  ck_assert_double_lt(fabs(rows[4].v[2]), fabs(rows[3].v[2]));
  ck_assert_int_eq((int)rows[1].v[8], 0);        /* smooth laws have no events */
  ck_assert_int_ge((int)rows[3].v[8], 10);       /* Karnopp switches at the band edges */
  free(out);
}
END_TEST

START_TEST(study_csv) {
  char *out = NULL, header[512];
  trow rows[4];
  int st = st_test_runf(&out, "study leine-belt --laws tanh --widths 1e3 --csv");
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  int n = parse_table(out, 1, header, sizeof header, rows, 4);
  ck_assert_str_eq(header, "law,width,period,period_error,rms,wall_s,steps,nfe,njac,events");
  ck_assert_int_eq(n, 2);
  ck_assert_str_eq(rows[0].law, "event-driven");
  ck_assert_int_eq(rows[0].n, 9);
  ck_assert(isnan(rows[0].v[0]) && isnan(rows[0].v[2]) && isnan(rows[0].v[3]));
  ck_assert_str_eq(rows[1].law, "tanh");
  ck_assert_double_eq(rows[1].v[0], 1e3);
  /* the CLI's period and the one measured here on the same demo run agree */
  ck_assert_double_eq_tol(rows[1].v[1], smooth_period(2, 1e3, 1e-6), 1e-6);
  free(out);
  st = st_test_runf(&out, "study leine-belt --laws lugre --widths 100 --csv --metric period");
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  n = parse_table(out, 1, header, sizeof header, rows, 4);
  ck_assert_str_eq(header, "law,width,period,period_error,wall_s,steps,nfe,njac,events");
  ck_assert_double_eq_tol(rows[1].v[1], 11.01344, 1e-3); /* sigma1 = 2 sqrt(100) = 20 */
  free(out);
  st = st_test_runf(&out, "study leine-belt --laws atan --widths 100 --csv --metric rms --stop-time 20");
  ck_assert_int_eq(st, 0);
  parse_table(out, 1, header, sizeof header, rows, 4);
  ck_assert_str_eq(header, "law,width,rms,wall_s,steps,nfe,njac,events");
  ck_assert_str_eq(rows[1].law, "arctan");
  free(out);
}
END_TEST

static void expect(int want, const char *text, const char *args) {
  char *out = NULL;
  int st = st_test_runf(&out, "%s", args);
  ck_assert_msg(st == want, "'%s': exit %d, want %d: %s", args, st, want, out);
  ck_assert_msg(strstr(out, text) != NULL, "'%s': no '%s' in: %s", args, text, out);
  free(out);
}

START_TEST(study_bad_input) {
  expect(2, "--laws: unknown law 'coulomb'", "study leine-belt --laws arctan,coulomb");
  expect(2, "--widths: invalid width '-1'", "study leine-belt --widths 1e3,-1");
  expect(2, "--widths: invalid width 'abc'", "study leine-belt --widths abc");
  expect(2, "--widths: invalid width '0'", "study leine-belt --widths 0");
  expect(2, "--widths: empty list", "study leine-belt --widths ,");
  expect(2, "--metric: unknown metric 'max'", "study leine-belt --metric max");
  expect(2, "--tolerance: invalid value '0'", "study leine-belt --tolerance 0");
  expect(2, "unknown model 'belt'", "study belt");
  expect(2, "a Modelica model needs --element NAME", "study Model.mo");
  expect(1, "'spring' is not a friction element",
         "study Stiction.Examples.LeineBelt --element spring --laws arctan --widths 1e3");
  expect(2, "missing MODEL", "study");
  expect(1, "event-driven run: cannot write /nonexistent/dir/ev.csv",
         "study leine-belt --laws tanh --widths 1e3 --events /nonexistent/dir/ev.csv");
  expect(2, "unrecognized option '--frobnicate'", "study leine-belt --frobnicate");
  /* the run options study shares with simulate go through st_cli_parse (sim_common.c) */
  expect(2, "stiction study: --solver: unknown solver 'rk4'", "study leine-belt --solver rk4");
  expect(2, "stiction study: --stop-time: invalid value '-1' (expected a positive number)",
         "study leine-belt --stop-time -1");
  expect(2, "stiction study: --interval: invalid value '0'", "study leine-belt --interval 0");
  expect(2, "stiction study: unrecognized option '--max-step'", "study leine-belt --max-step 1");
  expect(2, "stiction study: --atol: invalid value '-1'", "study leine-belt --atol -1");
  expect(0, "--element", "study --help");
  expect(0, "karnopp", "study --help");
  /* one line of message, then the --help hint, nothing else */
  char *out = NULL;
  ck_assert_int_eq(st_test_runf(&out, "study leine-belt --laws nope"), 2);
  int lines = 0;
  for (const char *p = out; *p; p++) lines += *p == '\n';
  ck_assert_int_eq(lines, 2);
  ck_assert_ptr_nonnull(strstr(out, "Try 'stiction study --help'"));
  free(out);
}
END_TEST

/* The Modelica source: Stiction.Examples.LeineBelt with its component `friction` switched
 * by modifiers. Reference: the MSL-style stuck/slip machine of LeineFriction. */
START_TEST(study_modelica_leine_belt) {
  char *out = NULL, header[512];
  trow rows[8];
  int st = st_test_runf(&out, "study Stiction.Examples.LeineBelt --element friction --laws arctan "
                     "--widths 1e2,1e3,1e4,1e5,1e6 --tolerance 1e-7 --csv --metric period");
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  int n = parse_table(out, 1, header, sizeof header, rows, 8);
  ck_assert_str_eq(header, "law,width,period,period_error,wall_s,steps,nfe,njac,events");
  ck_assert_int_eq(n, 6);
  ck_assert_str_eq(rows[0].law, "event-driven");
  ck_assert_double_eq_tol(rows[0].v[1], LEINE_PERIOD, 2e-5);
  ck_assert_int_ge((int)rows[0].v[7], 10);
  const double ref[] = {9.70965, 11.29810, 11.80793, 11.95182, 11.98916}; /* §1.3 */
  double e_prev = INFINITY;
  for (int i = 1; i < 6; i++) {
    ck_assert_str_eq(rows[i].law, "arctan");
    ck_assert_msg(fabs(rows[i].v[1] - ref[i - 1]) < 1e-3, "W %g: period %.6f, want %.5f",
                  rows[i].v[0], rows[i].v[1], ref[i - 1]);
    ck_assert_double_lt(fabs(rows[i].v[2]), e_prev); /* converging to the event-driven one */
    e_prev = fabs(rows[i].v[2]);
    ck_assert_int_eq((int)rows[i].v[7], 0);
  }
  free(out);
}
END_TEST

/* The Modelica model's exact period (LeineFriction, EventDriven) with a solver, rtol and
 * output grid. */
static double modelica_exact_period_with(const char *solver, double rtol, double dt) {
  char *out = NULL, header[512];
  trow rows[4];
  int st = st_test_runf(&out, "study Stiction.Examples.LeineBelt --element friction --laws tanh "
                     "--widths 1e3 --tolerance %g --interval %g --solver %s --csv --metric period",
               rtol, dt, solver);
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  ck_assert_int_eq(parse_table(out, 1, header, sizeof header, rows, 4), 2);
  free(out);
  if (getenv("ST_VERBOSE")) fprintf(stderr, "%s rtol %g: %.9f\n", solver, rtol, rows[0].v[1]);
  return rows[0].v[1];
}

static double modelica_exact_period(double rtol, double dt) {
  return modelica_exact_period_with("cvode", rtol, dt);
}

/* The exact period at the two ends of rtol, and it does not follow the output grid (before
 * the runtime's first step after an event stopped depending on the next grid point it moved
 * by 2e-5 s between --interval 0.005 and 0.5). */
START_TEST(study_modelica_exact_period) {
  ck_assert_double_eq_tol(modelica_exact_period(1e-8, 0.01), LEINE_PERIOD, 1e-5);
  double p6 = modelica_exact_period(1e-6, 0.005);
  ck_assert_double_eq_tol(p6, LEINE_PERIOD, 1e-4);
  ck_assert_double_eq_tol(modelica_exact_period(1e-6, 0.5), p6, 1e-5);
}
END_TEST

/* Where the event-driven period's error comes from (doc/study.md): the integrator's global
 * error over the slip phase, not the Modelica pipeline. (1) At rtol 1e-6 the period equals
 * that of the hand-written CVODE program of doc/benchmarks.md §1.4 with the same method and
 * tolerances (12.00095 BDF, 12.00102 Adams; printed to 5 decimals, so +-1e-5). (2) It
 * converges to the reference as rtol shrinks: |error| falls at every step 1e-4 .. 1e-8 (BDF).
 * (3) The issue's +-1e-5 is met by Adams at 1e-7 and BDF at 1e-8, not at 1e-6 by either. */
START_TEST(study_modelica_accuracy) {
  ck_assert_double_eq_tol(modelica_exact_period_with("cvode", 1e-6, 0.01), 12.00095, 1e-5);
  ck_assert_double_eq_tol(modelica_exact_period_with("cvode-adams", 1e-6, 0.01), 12.00102, 1e-5);
  double e_prev = INFINITY;
  for (double rtol = 1e-4; rtol >= 1e-8 * 0.99; rtol /= 10) {
    double e = fabs(modelica_exact_period_with("cvode", rtol, 0.01) - LEINE_PERIOD);
    ck_assert_msg(e < e_prev, "rtol %g: error %g not below %g", rtol, e, e_prev);
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 1e-5);
  ck_assert_double_eq_tol(modelica_exact_period_with("cvode-adams", 1e-7, 0.01), LEINE_PERIOD,
                          1e-5);
}
END_TEST

/* State-event times of the event-driven run of `stiction study ARGS --events FILE`. */
static int study_event_times(const char *args, double *t, int max) {
  char path[64], *out = NULL;
  snprintf(path, sizeof path, "test_study_ev_%ld.csv", (long)getpid());
  int st = st_test_runf(&out, "study %s --events %s", args, path);
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  free(out);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  char line[4096];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    char *comma = strchr(line, ',');
    if (comma && !strncmp(comma, ",state,", 7) && n < max) t[n++] = atof(line);
  }
  fclose(f);
  remove(path);
  return n;
}

/* doc/benchmarks.md §1.2 and §6 fixture 1 on the Modelica element (LeineFriction, EventDriven):
 * exactly 2 events per period (break-away, re-stick), the period within 2e-3 and the slip
 * 4.296 s, across rtol 1e-4..1e-8, BDF and Adams. To 54 s from break-away: the start's
 * break-away, 4 periods, the re-stick at 52.3 s = 10 state events. (The MSL-style machine
 * took 3 per period: its break-away waited in startBackward for v_rel to leave 0.) */
START_TEST(study_modelica_events_per_period) {
  const char *solver[] = {"cvode", "cvode-adams"};
  for (int s = 0; s < 2; s++)
    for (double rtol = 1e-4; rtol >= 1e-8 * 0.99; rtol /= 10) {
      char args[512];
      double t[64];
      snprintf(args, sizeof args, "Stiction.Examples.LeineBelt --element friction --laws tanh "
               "--widths 1e2 --stop-time 54 --tolerance %g --solver %s --csv", rtol, solver[s]);
      int n = study_event_times(args, t, 64);
      ck_assert_msg(n == 10, "%s rtol %g: %d state events, want 10", solver[s], rtol, n);
      for (int i = 2; i < n; i++)
        ck_assert_msg(fabs(t[i] - t[i - 2] - LEINE_PERIOD) < 2e-3, "%s rtol %g: events %d, %d "
                      "are %.6f s apart", solver[s], rtol, i - 2, i, t[i] - t[i - 2]);
      ck_assert_double_eq_tol(t[1] - t[0], 4.295999525, 2e-3);
    }
}
END_TEST

/* An MSL element as --element (tests/data/study/BeltBearing.mo: Leine's belt in rotation
 * with a Modelica.Mechanics.Rotational.Components.BearingFriction, table 1 - 0.5|w|). The
 * exact run is the MSL element; the regularized runs substitute
 * Stiction.Rotational.Components.BearingFriction for it with the same table. Reference
 * period 8.420293579 s: RK4 with h = 1e-4 (and 2e-4, same digits) over the slip from
 * break-away (phi = 1, w = 0.2, phi'' = -phi + 1 - 0.5|w - 0.2|) to the re-stick at
 * 4.903564533 s, phi = 0.296654191, plus the stick (1 - phi)/0.2. arctan converges to it
 * as W grows and has no events. */
#define BEARING_PERIOD 8.420293579
START_TEST(study_msl_bearing) {
  char *out = NULL, header[512];
  trow rows[8];
  int st = st_test_runf(&out, "study %s --element bearing --laws arctan --widths 1e2,1e3,1e4,1e5,1e6 "
               "--tolerance 1e-8 --csv --metric period",
               st_test_src("tests/data/study/BeltBearing.mo"));
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  ck_assert_int_eq(parse_table(out, 1, header, sizeof header, rows, 8), 6);
  ck_assert_str_eq(rows[0].law, "event-driven");
  ck_assert_double_eq_tol(rows[0].v[1], BEARING_PERIOD, 1e-5);
  ck_assert_int_ge((int)rows[0].v[7], 10);
  double e_prev = INFINITY;
  for (int i = 1; i < 6; i++) {
    double e = fabs(rows[i].v[1] - BEARING_PERIOD);
    ck_assert_str_eq(rows[i].law, "arctan");
    ck_assert_msg(e < e_prev, "W %g: period %.6f, error %g not below %g", rows[i].v[0],
                  rows[i].v[1], e, e_prev);
    ck_assert_int_eq((int)rows[i].v[7], 0);
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 1e-2);
  free(out);
}
END_TEST

/* Karnopp's band on the MSL bearing (Stiction.Interfaces.PartialFrictionLaw: held inside
 * |w| < 1/W up to the break-away torque, left at twice the width): the period converges to
 * the reference 8.420293579 s as the band shrinks, within 1e-5 from W = 1e5 (measured
 * +0.0388, +0.00118, +3.7e-5, +1e-6 s for W = 1e2 ... 1e5), and band edges make events. */
START_TEST(study_msl_bearing_karnopp) {
  char *out = NULL, header[512];
  trow rows[8];
  int st = st_test_runf(&out, "study %s --element bearing --laws karnopp --widths 1e2,1e3,1e4,1e5 "
               "--tolerance 1e-8 --csv --metric period",
               st_test_src("tests/data/study/BeltBearing.mo"));
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  ck_assert_int_eq(parse_table(out, 1, header, sizeof header, rows, 8), 5);
  ck_assert_double_eq_tol(rows[0].v[1], BEARING_PERIOD, 1e-5);
  double e_prev = INFINITY;
  for (int i = 1; i < 5; i++) {
    double e = fabs(rows[i].v[1] - BEARING_PERIOD);
    ck_assert_str_eq(rows[i].law, "karnopp");
    ck_assert_msg(e < e_prev, "W %g: period %.6f, error %g not below %g", rows[i].v[0],
                  rows[i].v[1], e, e_prev);
    ck_assert_int_ge((int)rows[i].v[7], 8); /* into and out of the band, 5 periods */
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 1e-5);
  free(out);
}
END_TEST

/* LuGre in the substituted bearing (the element carries the bristle state z, sigma0 = W,
 * sigma1 = 2 sqrt(W)): the period approaches the reference from below as the bristles
 * stiffen (measured -0.476, -0.0449, -0.0035 s for W = 1e2, 1e4, 1e6); no events. */
START_TEST(study_msl_bearing_lugre) {
  char *out = NULL, header[512];
  trow rows[8];
  int st = st_test_runf(&out, "study %s --element bearing --laws lugre --widths 1e2,1e4,1e6 "
               "--tolerance 1e-8 --csv --metric period",
               st_test_src("tests/data/study/BeltBearing.mo"));
  ck_assert_msg(st == 0, "exit %d: %s", st, out);
  ck_assert_int_eq(parse_table(out, 1, header, sizeof header, rows, 8), 4);
  double e_prev = INFINITY;
  for (int i = 1; i < 4; i++) {
    double e = fabs(rows[i].v[1] - BEARING_PERIOD);
    ck_assert_str_eq(rows[i].law, "lugre");
    ck_assert_msg(e < e_prev, "W %g: period %.6f, error %g not below %g", rows[i].v[0],
                  rows[i].v[1], e, e_prev);
    ck_assert_int_eq((int)rows[i].v[7], 0);
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 5e-3);
  free(out);
}
END_TEST

/* The other MSL kinds, in the MSL examples: Clutch, Brake (rotational, translational),
 * SupportFriction. The substituted runs track the event-driven one better as W grows. */
START_TEST(study_msl_elements_converge) {
  static const char *const cases[][3] = {
      {"Modelica.Mechanics.Rotational.Examples.CoupledClutches", "clutch1", "J1.w"},
      {"Modelica.Mechanics.Rotational.Examples.Friction", "brake", "inertia1.w"},
      {"Modelica.Mechanics.Translational.Examples.Brake", "brake", "mass1.v"},
      {"Modelica.Mechanics.Translational.Examples.Friction", "supportFriction", "mass.v"},
  };
  for (int i = 0; i < 4; i++) {
    char *out = NULL, header[512];
    trow rows[6];
    int st = st_test_runf(&out, "study %s --element %s --signal %s --laws tanh,karnopp --widths 1e2,1e3 "
                 "--csv --metric rms", cases[i][0], cases[i][1], cases[i][2]);
    ck_assert_msg(st == 0, "%s: exit %d: %s", cases[i][0], st, out);
    ck_assert_int_eq(parse_table(out, 1, header, sizeof header, rows, 6), 5);
    for (int k = 1; k < 5; k += 2) {
      ck_assert_str_eq(rows[k].law, k == 1 ? "tanh" : "karnopp");
      ck_assert_msg(rows[k + 1].v[1] < rows[k].v[1], "%s %s %s: rms %g at W = 1e3, %g at 1e2",
                    cases[i][0], cases[i][1], rows[k].law, rows[k + 1].v[1], rows[k].v[1]);
    }
    free(out);
  }
}
END_TEST

START_TEST(study_msl_element_errors) {
  char mo[1024], args[2048];
  snprintf(mo, sizeof mo, "%.1000s", st_test_src("tests/data/study/BeltBearing.mo"));
  snprintf(args, sizeof args, "study %s --element spring", mo);
  expect(1, "'spring' is not a friction element", args);
  expect(1, "it is a Modelica.Mechanics.Rotational.Components.Spring", args);
  snprintf(args, sizeof args, "study %s --element nope", mo);
  expect(1, "'nope' is not a friction element", args);
  /* a Stiction element without an event-driven law cannot be the exact run */
  expect(1, "'bearing' is a regularized element (Stiction.Rotational.Components.BearingFriction)",
         "study Stiction.Tests.SlidingTable --element bearing");
}
END_TEST

int main(void) {
  Suite *s = suite_create("study");
  st_test_case(s, "leine-belt-smooth", 300, ST_TESTS(event_driven_period,
               event_driven_events_per_period, arctan_periods_vs_eps, tanh_converges, lugre_period,
               karnopp_converges, analytic_jacobians, bad_law_fails_the_run));
  st_test_case(s, "cli", 300, ST_TESTS(study_table, study_csv, study_bad_input,
               study_modelica_leine_belt, study_modelica_exact_period,
               study_modelica_events_per_period, study_modelica_accuracy, study_msl_bearing,
               study_msl_bearing_karnopp, study_msl_bearing_lugre, study_msl_elements_converge,
               study_msl_element_errors));
  return st_test_main(s);
}
