/* Whole simulations of compiled hand-built flat models through the runtime: the friction
 * block of the MSL friction documentation against the reference of doc/benchmarks.md section 7,
 * and a bouncing ball against its analytic bounce times; with CVODE and IDA. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "test_compile_builder.h"
#include <stiction/simulate.h>
#include "testutil.h"

#define PI 3.14159265358979323846

/* A sink that keeps the last row and the column names. */
typedef struct last_row {
  int ncols;
  const char *const *names;
  double values[64];
  long rows;
} last_row;

static int lr_begin(void *ud, int ncols, const char *const *names) {
  last_row *l = ud;
  l->ncols = ncols;
  l->names = names;
  return ncols > 64;
}

static int lr_row(void *ud, const double *v) {
  last_row *l = ud;
  memcpy(l->values, v, (size_t)l->ncols * sizeof *v);
  l->rows++;
  return 0;
}

static double lr_get(const last_row *l, const char *name) {
  for (int i = 0; i < l->ncols; i++)
    if (strcmp(l->names[i], name) == 0) return l->values[i];
  ck_abort_msg("no column %s", name);
  return NAN;
}

/* Event log: times at which a watched discrete changed, with before/after values. */
typedef struct events {
  int n;
  double t[256];
  double before[256][8], after[256][8];
  int nd;
} events;

static int listen(void *ud, const stiction_event_record *r) {
  events *e = ud;
  if (r->n_changed == 0 || e->n >= 256 || !r->before || !r->after) return 0;
  e->t[e->n] = r->time;
  for (int i = 0; i < e->nd && i < 8; i++) {
    e->before[e->n][i] = r->before[i];
    e->after[e->n][i] = r->after[i];
  }
  e->n++;
  return 0;
}

/* Every event, changed or not (a reinit changes no discrete variable). */
static int listen_all(void *ud, const stiction_event_record *r) {
  events *e = ud;
  if (r->kind == STICTION_EVENT_INITIAL || e->n >= 256) return 0;
  e->t[e->n++] = r->time;
  return 0;
}

/* The simple friction element as a block (doc/benchmarks.md section 7):
 *   m*der(v) = u - f, a = der(v), startFor/startBack from pre(mode) and sa, the friction
 *   force and the acceleration by mode, and the mode from pre(mode), startFor/Back, v. */
static fb friction_block(int *i_sf, int *i_sb, int *i_mode) {
  fb b = fb_new("FrictionBlock");
  int m = fb_param(&b, "m", N(&b, 1));
  int f0 = fb_param(&b, "f0", N(&b, 1));
  int f1 = fb_param(&b, "f1", N(&b, 0.1));
  int U = fb_param(&b, "U", N(&b, 1.5));
  int freq = fb_param(&b, "freq", N(&b, 0.5));
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int v = fb_var(&b, "v", ST_V_CONTINUOUS, ST_T_REAL);
  int a = fb_var(&b, "a", ST_V_CONTINUOUS, ST_T_REAL);
  int f = fb_var(&b, "f", ST_V_CONTINUOUS, ST_T_REAL);
  int sa = fb_var(&b, "sa", ST_V_CONTINUOUS, ST_T_REAL);
  int u = fb_var(&b, "u", ST_V_CONTINUOUS, ST_T_REAL);
  int sf = fb_var(&b, "startFor", ST_V_DISCRETE, ST_T_BOOLEAN);
  int sb = fb_var(&b, "startBack", ST_V_DISCRETE, ST_T_BOOLEAN);
  int mode = fb_var(&b, "mode", ST_V_DISCRETE, ST_T_INTEGER);
  fb_start(&b, x, 0, 1);
  fb_start(&b, v, 0, 1);
  fb_start(&b, sf, 0, 1);
  fb_start(&b, sb, 0, 1);
  fb_start(&b, mode, 0, 1); /* Stuck */
  st_fexpr *w = BIN(&b, FOP_MUL, BIN(&b, FOP_MUL, N(&b, 2 * PI), V(&b, freq)), TIME(&b));
  fb_eq(&b, V(&b, u), BIN(&b, FOP_MUL, V(&b, U), F1(&b, FB_SIN, w)));
  fb_eq(&b, DER(&b, x), V(&b, v));
  fb_eq(&b, V(&b, a), DER(&b, v));
  fb_eq(&b, BIN(&b, FOP_MUL, V(&b, m), DER(&b, v)), BIN(&b, FOP_SUB, V(&b, u), V(&b, f)));
  /* startFor = pre(mode) == Stuck and sa > 1; startBack = pre(mode) == Stuck and sa < -1 */
  fb_eq(&b, V(&b, sf), BIN(&b, FOP_AND, BIN(&b, FOP_EQ, PRE(&b, mode), N(&b, 0)),
                           BIN(&b, FOP_GT, V(&b, sa), N(&b, 1))));
  fb_eq(&b, V(&b, sb), BIN(&b, FOP_AND, BIN(&b, FOP_EQ, PRE(&b, mode), N(&b, 0)),
                           BIN(&b, FOP_LT, V(&b, sa), N(&b, -1))));
#define FWD BIN(&b, FOP_OR, BIN(&b, FOP_EQ, PRE(&b, mode), N(&b, 1)), V(&b, sf))
#define BWD BIN(&b, FOP_OR, BIN(&b, FOP_EQ, PRE(&b, mode), N(&b, -1)), V(&b, sb))
  fb_eq(&b, V(&b, f),
        IF(&b, FWD, BIN(&b, FOP_ADD, V(&b, f0), BIN(&b, FOP_MUL, V(&b, f1), V(&b, v))),
           IF(&b, BWD, BIN(&b, FOP_ADD, UN(&b, FOP_NEG, V(&b, f0)),
                           BIN(&b, FOP_MUL, V(&b, f1), V(&b, v))),
              BIN(&b, FOP_MUL, V(&b, f0), V(&b, sa)))));
  fb_eq(&b, V(&b, a), IF(&b, FWD, BIN(&b, FOP_SUB, V(&b, sa), N(&b, 1)),
                         IF(&b, BWD, BIN(&b, FOP_ADD, V(&b, sa), N(&b, 1)), N(&b, 0))));
  fb_eq(&b, V(&b, mode),
        IF(&b, BIN(&b, FOP_AND, FWD, BIN(&b, FOP_GT, V(&b, v), N(&b, 0))), N(&b, 1),
           IF(&b, BIN(&b, FOP_AND, BWD, BIN(&b, FOP_LT, V(&b, v), N(&b, 0))), N(&b, -1),
              N(&b, 0))));
#undef FWD
#undef BWD
  *i_sf = sf;
  *i_sb = sb;
  *i_mode = mode;
  return b;
}

static int discrete_index(const stiction_model *m, const char *name) {
  for (int i = 0; i < m->n_discrete; i++)
    if (strcmp(m->discrete_names[i], name) == 0) return i;
  return -1;
}

static const double ref_times[19] = {
  0.232279527199, 1.051480408344, 1.232279527199, 2.051480408344, 2.232279527199,
  3.051480408344, 3.232279527199, 4.051480408344, 4.232279527199, 5.051480408344,
  5.232279527199, 6.051480408344, 6.232279527199, 7.051480408344, 7.232279527199,
  8.051480408344, 8.232279527199, 9.051480408344, 9.232279527199};

static void run_friction_block(stiction_solver solver, int dae) {
  int sf, sb, mode;
  fb b = friction_block(&sf, &sb, &mode);
  st_diag *d = st_diag_new(stderr);
  st_compiled *cm = st_compile(b.m, d);
  ck_assert_ptr_nonnull(cm);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_mixed, 1);
  /* DAE form: the mixed system's real unknowns (sa, f, der(v)) become IDA unknowns */
  if (dae) ck_assert_int_eq(st_compiled_set_dae(cm, 1), 3);
  const stiction_model *m = st_compiled_model(cm);
  ck_assert_int_eq(m->n_algebraic, dae ? 3 : 0);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 10;
  opt.interval = 0.01;
  opt.rtol = 1e-8;
  opt.solver = solver;
  stiction_sim *sim = stiction_sim_new(m, st_compiled_data(cm), &opt);
  last_row lr = {0};
  stiction_sink sink = {sizeof(stiction_sink), lr_begin, lr_row, NULL, &lr};
  events ev = {.nd = m->n_discrete};
  stiction_sim_set_sink(sim, &sink);
  stiction_sim_set_event_listener(sim, listen, &ev);
  int rc = stiction_sim_run(sim);
  ck_assert_msg(rc == 0, "%s", stiction_sim_error(sim));
  int isf = discrete_index(m, "startFor"), isb = discrete_index(m, "startBack");
  int imode = discrete_index(m, "mode");
  ck_assert(isf >= 0 && isb >= 0 && imode >= 0 && m->n_discrete <= 8);
  /* transitions: stuck -> sliding when startFor/startBack rises or the mode leaves Stuck
   * (whichever comes first), sliding -> stuck when the mode returns to Stuck */
  double t[64];
  int n = 0, stuck = 1;
  for (int k = 0; k < ev.n && n < 64; k++) {
    int rise = (ev.after[k][isf] && !ev.before[k][isf]) || (ev.after[k][isb] && !ev.before[k][isb]);
    if (stuck && (rise || ev.after[k][imode] != 0)) {
      t[n++] = ev.t[k];
      stuck = 0;
    } else if (!stuck && ev.after[k][imode] == 0 && ev.before[k][imode] != 0) {
      t[n++] = ev.t[k];
      stuck = 1;
    }
  }
  ck_assert_int_eq(n, 19);
  for (int k = 0; k < 19; k++) ck_assert_double_eq_tol(t[k], ref_times[k], 1e-7);
  ck_assert_double_eq_tol(lr_get(&lr, "time"), 10, 1e-12);
  ck_assert_double_eq_tol(lr_get(&lr, "x"), 0.0015415577928195034, 1e-7);
  ck_assert_double_eq_tol(lr_get(&lr, "v"), -0.05786542782997017, 1e-7);
  st_compiled_info(cm, &info);
  ck_assert_int_ge(info.mixed_iterations_max, 2); /* startFor needed a second pass */
  stiction_sim_free(sim);
  st_compiled_free(cm);
  st_diag_free(d);
  st_flat_free(b.m);
}

START_TEST(friction_block_cvode) { run_friction_block(STICTION_SOLVER_CVODE_BDF, 0); }
END_TEST
START_TEST(friction_block_ida) { run_friction_block(STICTION_SOLVER_IDA, 0); }
END_TEST
START_TEST(friction_block_ida_dae) { run_friction_block(STICTION_SOLVER_IDA, 1); }
END_TEST

/* Algebraic loops on IDA in DAE form against the closed form, and CVODE in ODE form:
 *   2*y1 + y2 = x, y1 - 2*y2 = time   (linear 2x2: y1 = (2x + t)/5, y2 = (x - 2t)/5)
 *   z^3 + z = x + 1                   (nonlinear, not isolable)
 *   der(x) = -y1, x(0) = 1            (x = 1.25 - t/2 + C exp(-0.4 t))
 *   when y2 < 0 then reinit(x, x + 1) (an event on an algebraic unknown, then IDACalcIC)
 * The event times solve x(t) = 2t on each segment; computed here by Newton. */
static double loop_x(double c, double t) { return 1.25 - 0.5 * t + c * exp(-0.4 * t); }

static double loop_crossing(double c, double t) {
  for (int k = 0; k < 60; k++) {
    double f = loop_x(c, t) - 2 * t, df = -0.5 - 0.4 * c * exp(-0.4 * t) - 2;
    t -= f / df;
  }
  return t;
}

static void run_loops(stiction_solver solver, int dae) {
  fb b = fb_new("Loops");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int y1 = fb_var(&b, "y1", ST_V_CONTINUOUS, ST_T_REAL);
  int y2 = fb_var(&b, "y2", ST_V_CONTINUOUS, ST_T_REAL);
  int z = fb_var(&b, "z", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 1, 1);
  fb_start(&b, z, 1, 0);
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, N(&b, 2), V(&b, y1)), V(&b, y2)), V(&b, x));
  fb_eq(&b, BIN(&b, FOP_SUB, V(&b, y1), BIN(&b, FOP_MUL, N(&b, 2), V(&b, y2))), TIME(&b));
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_POW, V(&b, z), N(&b, 3)), V(&b, z)),
        BIN(&b, FOP_ADD, V(&b, x), N(&b, 1)));
  fb_eq(&b, DER(&b, x), UN(&b, FOP_NEG, V(&b, y1)));
  st_feq *re = fb_reinit(&b, x, BIN(&b, FOP_ADD, V(&b, x), N(&b, 1)));
  fb_when(&b, BIN(&b, FOP_LT, V(&b, y2), N(&b, 0)), 1, &re);
  st_diag *d = st_diag_new(stderr);
  st_compiled *cm = st_compile(b.m, d);
  ck_assert_ptr_nonnull(cm);
  if (dae) ck_assert_int_eq(st_compiled_set_dae(cm, 1), 3); /* y1, y2, z */
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 2;
  opt.interval = 0.01;
  /* x decays slowly (rate 0.4), so local errors add up: at rtol 1e-8 BDF's global error in x
   * is ~4e-7 per second of simulated time (measured against the closed form), too close to
   * the 1e-6 asked below; 1e-10 leaves two orders of margin. */
  opt.rtol = 1e-10;
  opt.solver = solver;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  last_row lr = {0};
  stiction_sink sink = {sizeof(stiction_sink), lr_begin, lr_row, NULL, &lr};
  stiction_sim_set_sink(sim, &sink);
  events ev = {.nd = 0};
  stiction_sim_set_event_listener(sim, listen_all, &ev);
  ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
  /* closed form: segments between the reinits */
  double c = -0.25, t0 = 0, te[8];
  int n = 0;
  for (; n < 8; n++) {
    double t = loop_crossing(c, t0 + 0.01);
    if (t > 2) break;
    te[n] = t;
    double xplus = 2 * t + 1;
    c = (xplus - 1.25 + 0.5 * t) / exp(-0.4 * t);
    t0 = t;
  }
  ck_assert_int_ge(n, 2);
  ck_assert_int_eq(ev.n, n);
  for (int k = 0; k < n; k++)
    ck_assert_msg(fabs(ev.t[k] - te[k]) < 1e-6 * te[k], "event %d at %.12g, closed form %.12g",
                  k, ev.t[k], te[k]);
  double xe = loop_x(c, 2), ze = lr_get(&lr, "z");
  ck_assert_msg(fabs(lr_get(&lr, "x") - xe) < 1e-6, "x(2) = %.12g, closed form %.12g", lr_get(&lr, "x"), xe);
  ck_assert_double_eq_tol(lr_get(&lr, "y1"), (2 * xe + 2) / 5, 1e-6);
  ck_assert_double_eq_tol(lr_get(&lr, "y2"), (xe - 4) / 5, 1e-6);
  ck_assert_double_eq_tol(ze * ze * ze + ze, xe + 1, 1e-6);
  stiction_sim_free(sim);
  st_compiled_free(cm);
  st_diag_free(d);
  st_flat_free(b.m);
}

START_TEST(loops_cvode) { run_loops(STICTION_SOLVER_CVODE_BDF, 0); }
END_TEST
START_TEST(loops_ida_dae) { run_loops(STICTION_SOLVER_IDA, 1); }
END_TEST

/* A linear loop whose unknowns start to move fast at a restart, from zero:
 *   der(x) = 1, x(0) = 0;  a + 2*b = if x > 0.5 then 1e6*(x - 0.5) else 0;  2*a - b = 0
 * closed form after the event at t = 0.5 (+ the 1e-10 hysteresis): a = 2e5*(t - 0.5),
 * b = 2*a. On IDA (DAE form) a and b are algebraic unknowns at 2e-5 right after the event,
 * rising at 2e5 and 4e5 per second; IDACalcIC leaves their y' as it was (0), so unless the
 * model supplies their slopes (dae.c alg_slopes) IDA's first step mispredicts them by h*2e5
 * against an absolute tolerance of 1e-8 and fails with h at hmin (the cause of Backlash's
 * failure on IDA). */
static void run_restart_slope(stiction_solver solver, int dae) {
  fb b = fb_new("RestartSlope");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int a = fb_var(&b, "a", ST_V_CONTINUOUS, ST_T_REAL);
  int c = fb_var(&b, "b", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 0, 1);
  fb_eq(&b, DER(&b, x), N(&b, 1));
  st_fexpr *ramp = BIN(&b, FOP_MUL, N(&b, 1e6), BIN(&b, FOP_SUB, V(&b, x), N(&b, 0.5)));
  fb_eq(&b, BIN(&b, FOP_ADD, V(&b, a), BIN(&b, FOP_MUL, N(&b, 2), V(&b, c))),
        IF(&b, BIN(&b, FOP_GT, V(&b, x), N(&b, 0.5)), ramp, N(&b, 0)));
  fb_eq(&b, BIN(&b, FOP_SUB, BIN(&b, FOP_MUL, N(&b, 2), V(&b, a)), V(&b, c)), N(&b, 0));
  st_diag *d = st_diag_new(stderr);
  st_compiled *cm = st_compile(b.m, d);
  ck_assert_ptr_nonnull(cm);
  if (dae) ck_assert_int_eq(st_compiled_set_dae(cm, 1), 2); /* a, b */
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 1;
  opt.interval = 0.01;
  opt.solver = solver;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  last_row lr = {0};
  stiction_sink sink = {sizeof(stiction_sink), lr_begin, lr_row, NULL, &lr};
  stiction_sim_set_sink(sim, &sink);
  events ev = {.nd = 0};
  stiction_sim_set_event_listener(sim, listen_all, &ev);
  ck_assert_msg(stiction_sim_run(sim) == 0, "%s", stiction_sim_error(sim));
  ck_assert_int_eq(ev.n, 1);
  ck_assert_double_eq_tol(ev.t[0], 0.5, 1e-9);
  ck_assert_double_eq_tol(lr_get(&lr, "x"), 1, 1e-9);
  ck_assert_double_eq_tol(lr_get(&lr, "a"), 1e5, 1e-3);
  ck_assert_double_eq_tol(lr_get(&lr, "b"), 2e5, 2e-3);
  stiction_sim_free(sim);
  st_compiled_free(cm);
  st_diag_free(d);
  st_flat_free(b.m);
}

START_TEST(restart_slope_cvode) { run_restart_slope(STICTION_SOLVER_CVODE_BDF, 0); }
END_TEST
START_TEST(restart_slope_ida_dae) { run_restart_slope(STICTION_SOLVER_IDA, 1); }
END_TEST

/* h(0) = 1, v(0) = 0, der(h) = v, der(v) = -g, when h < 0 then reinit(v, -e*pre(v)). */
static void run_ball(stiction_solver solver) {
  fb b = fb_new("Ball");
  int g = fb_param(&b, "g", N(&b, 9.81));
  int e = fb_param(&b, "e", N(&b, 0.8));
  int h = fb_var(&b, "h", ST_V_CONTINUOUS, ST_T_REAL);
  int v = fb_var(&b, "v", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, h, 1, 1);
  fb_start(&b, v, 0, 1);
  fb_eq(&b, DER(&b, h), V(&b, v));
  fb_eq(&b, DER(&b, v), UN(&b, FOP_NEG, V(&b, g)));
  st_feq *re = fb_reinit(&b, v, UN(&b, FOP_NEG, BIN(&b, FOP_MUL, V(&b, e), PRE(&b, v))));
  fb_when(&b, BIN(&b, FOP_LT, V(&b, h), N(&b, 0)), 1, &re);
  st_diag *d = st_diag_new(stderr);
  st_compiled *cm = st_compile(b.m, d);
  ck_assert_ptr_nonnull(cm);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 3;
  opt.interval = 0.01;
  opt.rtol = 1e-8;
  opt.solver = solver;
  stiction_sim *sim = stiction_sim_new(st_compiled_model(cm), st_compiled_data(cm), &opt);
  last_row lr = {0};
  stiction_sink sink = {sizeof(stiction_sink), lr_begin, lr_row, NULL, &lr};
  stiction_sim_set_sink(sim, &sink);
  ck_assert_int_eq(stiction_sim_run(sim), 0);
  /* analytic: first impact at sqrt(2 h0/g), then flights of 2 e^k v1/g */
  double v1 = sqrt(2 * 9.81), tk = sqrt(2 / 9.81), flight = 2 * 0.8 * v1 / 9.81, last = tk;
  int bounces = 0;
  while (tk < 3) {
    last = tk;
    bounces++;
    tk += flight;
    flight *= 0.8;
  }
  ck_assert_int_eq(bounces, 6);
  /* after the last bounce: h(3) = vb (3 - last) - g/2 (3 - last)^2 with vb = e^6 v1 */
  double vb = pow(0.8, 6) * v1, dt = 3 - last;
  ck_assert_double_eq_tol(lr_get(&lr, "h"), vb * dt - 0.5 * 9.81 * dt * dt, 1e-6);
  ck_assert_double_eq_tol(lr_get(&lr, "v"), vb - 9.81 * dt, 1e-6);
  ck_assert_int_eq(stiction_sim_stats(sim)->state_events >= 6, 1);
  stiction_sim_free(sim);
  st_compiled_free(cm);
  st_diag_free(d);
  st_flat_free(b.m);
}

START_TEST(bouncing_ball_cvode) { run_ball(STICTION_SOLVER_CVODE_BDF); }
END_TEST
START_TEST(bouncing_ball_ida) { run_ball(STICTION_SOLVER_IDA); }
END_TEST

ST_TEST_MAIN("compile_sim", "sim", 0,
             friction_block_cvode, friction_block_ida, friction_block_ida_dae, loops_cvode,
             loops_ida_dae, restart_slope_cvode, restart_slope_ida_dae, bouncing_ball_cvode,
             bouncing_ball_ida)
