/* Programs specialized to an event interval and chained into tapes (src/exec/specialize.c,
 * tape.c) against the programs as compiled: two instances of each model, one with
 * specialization off, see the same sequence of callbacks (start, the initial event
 * iteration, then event passes at states that switch modes, and derivatives, indicators and
 * outputs at many points in between); every value must agree to rounding. The one allowed
 * difference is rounding: the indicators of the specialized instance skip the blocks they do
 * not read, so a linear block starts its one Newton step from other previous values.
 * Models: the friction block (branches on pre(mode) and discrete unknowns), Leine's belt, the
 * MSL CoupledClutches (a 54-unknown mixed loop, time events), a noEvent branch (a jump on a
 * value that varies between events: not specializable, the original runs), user functions,
 * an algorithm section and a singular mixed system (minimum-norm solves). */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "compile/compile.h"
#include "front/front.h"
#include "testutil.h"

typedef struct compiled {
  st_diag *diag;
  st_front *fe;
  st_flat_model *flat;
  st_compiled *cm;
  const stiction_model *m;
  void *ud;
  double *y, *yp, *a, *b; /* states, their derivatives, two result vectors */
} compiled;

static void compile(compiled *c, const char *file, const char *cls) {
  memset(c, 0, sizeof *c);
  c->diag = st_diag_new(stderr);
  c->fe = st_front_new(c->diag);
  st_front_add_default_paths(c->fe);
  if (file) ck_assert_int_eq(st_front_load_file(c->fe, st_test_src(file)), 0);
  c->flat = st_front_flatten(c->fe, cls ? cls : st_front_default_class(c->fe));
  ck_assert_ptr_nonnull(c->flat);
  c->cm = st_compile(c->flat, c->diag);
  ck_assert_ptr_nonnull(c->cm);
  c->m = st_compiled_model(c->cm);
  c->ud = st_compiled_data(c->cm);
  size_t n = (size_t)c->m->n_states + (size_t)c->m->n_indicators + (size_t)c->m->n_outputs + 1;
  c->y = calloc(n, sizeof *c->y);
  c->yp = calloc(n, sizeof *c->yp);
  c->a = calloc(n, sizeof *c->a);
  c->b = calloc(n, sizeof *c->b);
}

static void release(compiled *c) {
  free(c->y);
  free(c->yp);
  free(c->a);
  free(c->b);
  st_compiled_free(c->cm);
  st_flat_free(c->flat);
  st_front_free(c->fe);
  st_diag_free(c->diag);
}

static void same(const char *what, const char *model, double t, const double *a,
                 const double *b, int n) {
  for (int i = 0; i < n; i++)
    ck_assert_msg(fabs(a[i] - b[i]) <= 1e-10 * (1 + fabs(b[i])) ||
                      (isnan(a[i]) && isnan(b[i])),
                  "%s: %s[%d] at t = %g: specialized %.17g, as compiled %.17g", model, what, i,
                  t, a[i], b[i]);
}

/* An event iteration at (t, y) on one instance; its status. */
static int event(compiled *c, double t, int initial) {
  for (int it = 0; it < 50; it++) {
    stiction_event_info info = {initial, it, 0, 0, 0, 0, 0, 0, NULL};
    if (c->m->event_update(c->ud, t, c->y, c->yp, &info)) return -1;
    if (!info.discrete_changed) return 0;
  }
  return -1;
}

/* Both instances at (t, y): derivatives, indicators and outputs compared. */
static void compare_at(compiled *s, compiled *o, double t) {
  const stiction_model *m = s->m;
  int rs = m->derivatives(s->ud, t, s->y, s->a), ro = m->derivatives(o->ud, t, o->y, o->b);
  ck_assert_int_eq(rs, ro);
  if (!rs) same("der", m->name, t, s->a, o->b, m->n_states);
  if (m->n_indicators) {
    ck_assert_int_eq(m->indicators(s->ud, t, s->y, NULL, s->a),
                     m->indicators(o->ud, t, o->y, NULL, o->b));
    same("indicator", m->name, t, s->a, o->b, m->n_indicators);
  }
  rs = m->outputs(s->ud, t, s->y, NULL, s->a);
  ro = m->outputs(o->ud, t, o->y, NULL, o->b);
  ck_assert_int_eq(rs, ro);
  if (!rs) same("output", m->name, t, s->a, o->b, m->n_outputs);
}

/* The states moved away from the start: new modes at the event passes. */
static void move(compiled *c, const double *y0, int p) {
  for (int i = 0; i < c->m->n_states; i++)
    c->y[i] = y0[i] * (1 + 0.3 * sin(p + i)) + 0.2 * cos(1.7 * p + i);
}

static void check_model(const char *file, const char *cls, double t_end) {
  compiled s, o;
  compile(&s, file, cls);
  compile(&o, file, cls);
  st_compiled_set_specialize(o.cm, 0);
  int n = s.m->n_states;
  ck_assert_int_eq(s.m->start_values(s.ud, 0, s.y, s.yp), 0);
  ck_assert_int_eq(o.m->start_values(o.ud, 0, o.y, o.yp), 0);
  ck_assert_int_eq(event(&s, 0, 1), 0);
  ck_assert_int_eq(event(&o, 0, 1), 0);
  same("y after initialization", s.m->name, 0, s.y, o.y, n);
  double *y0 = calloc((size_t)n, sizeof *y0);
  memcpy(y0, s.y, sizeof *y0 * (size_t)n);
  for (int p = 1; p <= 40; p++) {
    double t = t_end * p / 40.0;
    move(&s, y0, p);
    move(&o, y0, p);
    if (p % 4 == 0) { /* an event: discrete values, pre() and relations change */
      int rs = event(&s, t, 0);
      ck_assert_int_eq(rs, event(&o, t, 0));
      same("y after an event", s.m->name, t, s.y, o.y, n);
    }
    for (int q = 0; q < 3; q++) { /* several evaluations in one interval: the tapes run */
      compare_at(&s, &o, t + 1e-3 * q);
      for (int i = 0; i < n; i++) s.y[i] = o.y[i] = s.y[i] + 1e-3 * (i + 1);
    }
  }
  st_compile_info info;
  st_compiled_info(s.cm, &info);
  ck_assert_msg(info.tape_runs > 0 || info.specialized_programs > 0,
                "%s: nothing was specialized", s.m->name);
  st_compiled_info(o.cm, &info);
  ck_assert_int_eq(info.tape_runs, 0);
  free(y0);
  release(&s);
  release(&o);
}

START_TEST(friction_block) { check_model("tests/data/compile/FrictionBlock.mo", NULL, 10); }
END_TEST

START_TEST(leine_belt) { check_model(NULL, "Stiction.Examples.LeineBelt", 20); }
END_TEST

START_TEST(coupled_clutches) {
  check_model(NULL, "Modelica.Mechanics.Rotational.Examples.CoupledClutches", 1.5);
}
END_TEST

START_TEST(noevent_branch) { check_model("tests/data/compile/ActiveNoEvent.mo", NULL, 1); }
END_TEST

START_TEST(functions) { check_model("tests/data/compile/Functions.mo", NULL, 1); }
END_TEST

START_TEST(algorithm) { check_model("tests/data/compile/Algorithm.mo", NULL, 1); }
END_TEST

START_TEST(singular_mixed) { check_model("tests/data/compile/TwoLocks.mo", NULL, 1); }
END_TEST

/* A whole run of file's model, specialized or not (on), to stop_time; rtol > 0 sets the
 * tolerances (atol = rtol/100). Returns its state events; c is left compiled. */
static long run_whole(compiled *c, const char *file, int on, double stop_time, double interval,
                      double rtol) {
  compile(c, file, NULL);
  st_compiled_set_specialize(c->cm, on);
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = stop_time;
  opt.interval = interval;
  if (rtol > 0) {
    opt.rtol = rtol;
    opt.atol = rtol / 100;
  }
  stiction_sim *sim = stiction_sim_new(c->m, c->ud, &opt);
  ck_assert_int_eq(stiction_sim_run(sim), 0);
  long events = stiction_sim_stats(sim)->state_events;
  stiction_sim_free(sim);
  return events;
}

/* The friction block's whole run: the same events and end state as with the programs as
 * compiled (the trajectory may differ by rounding only, far below the tolerance). */
START_TEST(friction_block_run) {
  double x[2], v[2];
  long events[2];
  for (int on = 0; on < 2; on++) {
    compiled c;
    events[on] = run_whole(&c, "tests/data/compile/FrictionBlock.mo", on, 10, 0.01, 1e-8);
    ck_assert_int_eq(st_compiled_value(c.cm, "x", &x[on]), 0);
    ck_assert_int_eq(st_compiled_value(c.cm, "v", &v[on]), 0);
    st_compile_info info;
    st_compiled_info(c.cm, &info);
    ck_assert(on ? info.tape_runs > 1000 : info.tape_runs == 0);
    ck_assert_int_eq(info.partial_evals, 0); /* no Newton block: every evaluation is full */
    release(&c);
  }
  ck_assert_int_eq(events[0], events[1]);
  ck_assert_double_eq_tol(x[0], x[1], 1e-8);
  ck_assert_double_eq_tol(v[0], v[1], 1e-8);
}
END_TEST

/* HeldInputPlant.mo: a held input takes a new value at every tick of Clock(1, 100). The
 * programs fold it in at first; once it has ended two short-lived specializations it is
 * loaded instead, and the next 90-odd ticks keep the programs and tapes as they are. The
 * run is the same as with the programs as compiled. */
START_TEST(programs_kept_over_clock_ticks) {
  double x[2], z[2];
  for (int on = 0; on < 2; on++) {
    compiled c;
    run_whole(&c, "tests/data/clocks/HeldInputPlant.mo", on, 1, 0.05, 0);
    ck_assert_int_eq(st_compiled_value(c.cm, "x", &x[on]), 0);
    ck_assert_int_eq(st_compiled_value(c.cm, "z", &z[on]), 0);
    st_compile_info info;
    st_compiled_info(c.cm, &info);
    if (on) {
      ck_assert_msg(info.specializations <= 5 && info.specializations_kept >= 90,
                    "made %ld, kept %ld", info.specializations, info.specializations_kept);
      ck_assert_int_gt(info.tape_runs, 500);
    } else {
      ck_assert_int_eq(info.specializations, 0);
    }
    release(&c);
  }
  ck_assert_double_eq_tol(x[0], x[1], 1e-12 * fabs(x[0]));
  ck_assert_double_eq_tol(z[0], z[1], 1e-12 * fabs(z[0]));
}
END_TEST

/* Output column of variable name, or -1. */
static int column(const compiled *c, const char *name) {
  for (int i = 0; i < c->m->n_outputs; i++)
    if (!strcmp(c->m->output_names[i], name)) return i;
  return -1;
}

/* Outputs of HeldConstants at (t, x) in its interval against the closed form (the .mo file):
 * two evaluations, the second one specialized and run by the tape, which leaves the held
 * assignments out and reads their slots. */
static void held_interval(compiled *c, double t, double x, double g, double h) {
  c->y[0] = x;
  for (int rep = 0; rep < 2; rep++) {
    ck_assert_int_eq(c->m->outputs(c->ud, t, c->y, NULL, c->a), 0);
    double want[][2] = {{g, column(c, "g")}, {h, column(c, "h")}, {g + h, column(c, "der(x)")},
                        {(g * t + x) / 2, column(c, "a")}, {(g * t - x) / 2, column(c, "b")}};
    for (int i = 0; i < 5; i++) {
      int col = (int)want[i][1];
      ck_assert_int_ge(col, 0);
      ck_assert_msg(fabs(c->a[col] - want[i][0]) <= 1e-14 * (1 + fabs(want[i][0])),
                    "t = %g, column %d: %.17g, closed form %.17g", t, col, c->a[col], want[i][0]);
    }
  }
  st_compile_info info;
  st_compiled_info(c->cm, &info);
  /* f (a held relation on time), g = 2 f, h = c f and der(x) = g + h: c comes from a block
   * that runs in event passes only, so it is frozen too (in the ODE form as in the DAE form;
   * without it only f and g would fold) */
  ck_assert_int_eq(info.held_constants, 4);
  ck_assert_int_gt(info.tape_runs, 0);
}

/* Assignments that fold to constants between events are held and left out of the tapes,
 * and what reads them folds further; the values stay those of the closed form, across the
 * time event at t = 0.5 that changes all of them. */
START_TEST(held_constants) {
  compiled c;
  compile(&c, "tests/data/compile/HeldConstants.mo", NULL);
  ck_assert_int_eq(c.m->start_values(c.ud, 0, c.y, c.yp), 0);
  ck_assert_int_eq(event(&c, 0, 1), 0);
  held_interval(&c, 0.25, 2.25, 2, 7);
  ck_assert_int_eq(event(&c, 0.5, 0), 0);
  held_interval(&c, 0.75, 9.75, 6, 15);
  release(&c);
}
END_TEST

/* DiodeLadder.mo (eight stages, a torn Newton block each): derivatives() at y with one or
 * two states moved from the last full evaluation evaluates only the blocks they reach
 * (partial.c) and gives what every block evaluated gives; back at the base y, the base's
 * derivatives bit for bit. */
static void moved_call(compiled *s, compiled *o, double t, const int *cols, int ncols) {
  int n = s->m->n_states;
  double *y = malloc(sizeof *y * (size_t)n);
  memcpy(y, s->y, sizeof *y * (size_t)n);
  for (int c = 0; c < ncols; c++) y[cols[c]] += 1e-6 * (1 + fabs(y[cols[c]]));
  ck_assert_int_eq(s->m->derivatives(s->ud, t, y, s->a), 0);
  ck_assert_int_eq(o->m->derivatives(o->ud, t, y, o->b), 0);
  same("der near the base", s->m->name, t, s->a, o->b, n);
  free(y);
}

START_TEST(partial_near_base) {
  compiled s, o;
  compile(&s, "tests/data/compile/DiodeLadder.mo", NULL);
  compile(&o, "tests/data/compile/DiodeLadder.mo", NULL);
  st_compiled_set_partial(o.cm, 0);
  int n = s.m->n_states;
  ck_assert_int_eq(n, 8);
  ck_assert_int_eq(s.m->start_values(s.ud, 0, s.y, s.yp), 0);
  ck_assert_int_eq(o.m->start_values(o.ud, 0, o.y, o.yp), 0);
  ck_assert_int_eq(event(&s, 0, 1), 0);
  ck_assert_int_eq(event(&o, 0, 1), 0);
  double *base = malloc(sizeof *base * (size_t)n);
  long calls = 0;
  for (int p = 1; p <= 5; p++) {
    double t = 1e-3 * p;
    for (int i = 0; i < n; i++) s.y[i] = o.y[i] = 0.1 * p + 0.05 * i;
    ck_assert_int_eq(s.m->derivatives(s.ud, t, s.y, base), 0);
    ck_assert_int_eq(o.m->derivatives(o.ud, t, o.y, o.b), 0);
    same("der at the base", s.m->name, t, base, o.b, n);
    for (int j = 0; j < n; j++, calls++) moved_call(&s, &o, t, &j, 1);
    int two[2] = {1, 5};
    moved_call(&s, &o, t, two, 2);
    calls++;
    ck_assert_int_eq(s.m->derivatives(s.ud, t, s.y, s.a), 0);
    calls++;
    for (int i = 0; i < n; i++) ck_assert(s.a[i] == base[i]);
  }
  st_compile_info info;
  st_compiled_info(s.cm, &info);
  ck_assert_int_eq(info.partial_evals, calls);
  /* u[k] moved reaches the loops of stages k and k + 1 and der(u[k - 1 .. k + 1]): 5 of the
   * 17 blocks (4 for u[1], 3 for u[8]), two states 10; back at the base none */
  ck_assert_int_eq(info.partial_blocks, 5 * (4 + 6 * 5 + 3 + 10));
  st_compiled_info(o.cm, &info);
  ck_assert_int_eq(info.partial_evals, 0);
  free(base);
  release(&s);
  release(&o);
}
END_TEST

/* The whole run with and without: the same end state (the Newton blocks start from other
 * values, so equal to far below the tolerance, not bit for bit). */
START_TEST(partial_run) {
  double u[2];
  long partial[2];
  for (int on = 0; on < 2; on++) {
    compiled c;
    compile(&c, "tests/data/compile/DiodeLadder.mo", NULL);
    st_compiled_set_partial(c.cm, on);
    stiction_options opt;
    stiction_options_init(&opt);
    opt.stop_time = 0.02;
    opt.rtol = 1e-8;
    opt.atol = 1e-10;
    stiction_sim *sim = stiction_sim_new(c.m, c.ud, &opt);
    ck_assert_int_eq(stiction_sim_run(sim), 0);
    stiction_sim_free(sim);
    ck_assert_int_eq(st_compiled_value(c.cm, "u[2]", &u[on]), 0);
    st_compile_info info;
    st_compiled_info(c.cm, &info);
    partial[on] = info.partial_evals;
    release(&c);
  }
  ck_assert_int_eq(partial[0], 0);
  ck_assert(partial[1] > 0);
  ck_assert(u[1] > 0.1);
  ck_assert_double_eq_tol(u[0], u[1], 1e-9);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("specialize");
  st_test_case(s, "core", 120, ST_TESTS(friction_block, leine_belt, coupled_clutches,
               noevent_branch, functions, algorithm, singular_mixed, friction_block_run,
               held_constants, programs_kept_over_clock_ticks, partial_near_base,
               partial_run));
  return s;
}

int main(void) {
  return st_test_main(suite());
}
