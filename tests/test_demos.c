/* The demo catalogue (stiction/demos.h) and the demo models' callbacks, called directly
 * without the runtime: parameters by name with range checks, the friction block's mode
 * machine (break-away, waiting phase, sticking), Leine's belt and the bouncing ball. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/demos.h>
#include <stiction/stiction.h>
#include "testutil.h"

static const double PI = 3.14159265358979323846;

static stiction_demo *make(const char *name) {
  stiction_demo *d = NULL;
  ck_assert_int_eq(stiction_demo_new(&d, name), STICTION_OK);
  ck_assert_ptr_nonnull(d);
  return d;
}

START_TEST(catalogue_lists_the_three_demos) {
  const char *want[] = {"friction-block", "leine-belt", "bouncing-ball"};
  int n = stiction_demo_count();
  ck_assert_int_ge(n, 3);
  for (int k = 0; k < 3; k++) {
    int found = 0;
    for (int i = 0; i < n; i++)
      if (!strcmp(stiction_demo_name(i), want[k])) {
        ck_assert_ptr_nonnull(stiction_demo_description(i));
        found = 1;
      }
    ck_assert_msg(found, "%s is not in the catalogue", want[k]);
    stiction_demo *d = make(want[k]);
    ck_assert_str_eq(stiction_demo_model(d)->name, want[k]);
    stiction_demo_free(d);
  }
  ck_assert_ptr_null(stiction_demo_name(n));
  ck_assert_ptr_null(stiction_demo_name(-1));
}
END_TEST

START_TEST(unknown_demo_is_not_found) {
  stiction_demo *d = (stiction_demo *)1;
  ck_assert_int_eq(stiction_demo_new(&d, "friction-blok"), STICTION_ERR_NOT_FOUND);
  ck_assert_ptr_null(d);
  ck_assert_int_eq(stiction_demo_new(&d, NULL), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_new(NULL, "leine-belt"), STICTION_ERR_ARG);
}
END_TEST

START_TEST(parameters_by_name_with_range_checks) {
  stiction_demo *d = make("friction-block");
  char msg[256] = "";
  double v = 0;
  ck_assert_int_eq(stiction_demo_get(d, "f1", &v), STICTION_OK);
  ck_assert_double_eq(v, 0.1);
  ck_assert_int_eq(stiction_demo_set(d, "U", 2.5, msg, sizeof msg), STICTION_OK);
  ck_assert_int_eq(stiction_demo_get(d, "U", &v), STICTION_OK);
  ck_assert_double_eq(v, 2.5);
  ck_assert_int_eq(stiction_demo_set(d, "mass", 2.0, msg, sizeof msg), STICTION_ERR_NOT_FOUND);
  ck_assert_ptr_nonnull(strstr(msg, "'mass'"));
  ck_assert_int_eq(stiction_demo_set(d, "m", NAN, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_set(d, "m", INFINITY, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_set(d, "m", 0.0, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_ptr_nonnull(strstr(msg, "m = 0"));
  ck_assert_int_eq(stiction_demo_set(d, "m", -1.0, NULL, 0), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_get(d, "m", &v), STICTION_OK);
  ck_assert_double_eq(v, 1.0); /* rejected values leave the parameter alone */
  ck_assert_int_eq(stiction_demo_param_count(d), 7);
  ck_assert_str_eq(stiction_demo_param_name(d, 0), "m");
  ck_assert_ptr_null(stiction_demo_param_name(d, 7));
  stiction_demo_free(d);
  d = make("bouncing-ball");
  ck_assert_int_eq(stiction_demo_set(d, "e", 1.5, msg, sizeof msg), STICTION_ERR_ARG);
  ck_assert_int_eq(stiction_demo_set(d, "e", 1.0, msg, sizeof msg), STICTION_OK);
  stiction_demo_free(d);
}
END_TEST

START_TEST(default_experiments) {
  const char *names[] = {"friction-block", "leine-belt", "bouncing-ball"};
  const double stop[] = {10.0, 60.0, 3.0};
  for (int i = 0; i < 3; i++) {
    stiction_demo *d = make(names[i]);
    stiction_options opt = {0};
    opt.max_event_iterations = 77;
    stiction_demo_options(d, &opt);
    ck_assert_double_eq(opt.stop_time, stop[i]);
    ck_assert_double_eq(opt.start_time, 0.0);
    ck_assert(opt.interval > 0 && opt.rtol == 1e-6);
    ck_assert_int_eq(opt.max_event_iterations, 77); /* other fields untouched */
    stiction_demo_free(d);
  }
}
END_TEST

/* Runs event_update passes until nothing changes (what the runtime does); returns passes. */
static int iterate(const stiction_model *m, void *ud, double t, double *y, int initial,
                   int *states_changed) {
  double yp[2] = {0, 0};
  int passes = 0;
  *states_changed = 0;
  for (;;) {
    stiction_event_info info = {.initial = initial, .iteration = passes};
    ck_assert_int_eq(m->event_update(ud, t, y, yp, &info), 0);
    passes++;
    *states_changed |= info.states_changed;
    if (!info.discrete_changed) return passes;
    ck_assert_int_lt(passes, 10);
  }
}

static void discrete(const stiction_model *m, void *ud, double *d) {
  ck_assert_int_eq(m->get_discrete(ud, d), 0);
}

/* Break-away at sin(pi t) = f0/U: startFor, still Stuck, accelerating; Forward once v > eps;
 * back to Stuck (v snapped to 0) when v crosses zero. */
START_TEST(friction_block_mode_machine) {
  stiction_demo *d = make("friction-block");
  const stiction_model *m = stiction_demo_model(d);
  void *ud = stiction_demo_data(d);
  double y[2], yp[2] = {0, 0}, g[3], dv[3], ydot[2];
  int sc;
  ck_assert_int_eq(m->start_values(ud, 0.0, y, yp), 0);
  ck_assert(y[0] == 0.0 && y[1] == 0.0);
  iterate(m, ud, 0.0, y, 1, &sc);
  discrete(m, ud, dv);
  ck_assert(dv[0] == 0 && dv[1] == 0 && dv[2] == 0); /* locked */
  m->derivatives(ud, 0.1, y, ydot);
  ck_assert_double_eq(ydot[1], 0.0);
  double tb = asin(1.0 / 1.5) / PI; /* 0.232279527199 */
  while (1.5 * sin(PI * tb) < 1.0) tb = nextafter(tb, 1.0); /* where a root finder stops */
  m->indicators(ud, tb - 1e-6, y, NULL, g);
  ck_assert(g[0] < 0 && g[1] > 0);
  m->indicators(ud, tb + 1e-9, y, NULL, g);
  ck_assert(g[0] > 0); /* the break-away indicator has crossed */
  iterate(m, ud, tb, y, 0, &sc); /* sa reached 1 (maybe exactly 1.0): the element starts */
  discrete(m, ud, dv);
  ck_assert(dv[0] == 0 && dv[1] == 1 && dv[2] == 0);
  m->indicators(ud, tb, y, NULL, g);
  ck_assert_double_eq_tol(g[2], -1e-10, 1e-20); /* hysteresis: not zero at the restart */
  m->derivatives(ud, tb + 0.01, y, ydot);
  ck_assert(ydot[1] > 0);
  y[1] = 2e-10;
  iterate(m, ud, tb + 1e-5, y, 0, &sc);
  discrete(m, ud, dv);
  ck_assert(dv[0] == 1 && dv[1] == 0);
  y[1] = -1e-16;
  iterate(m, ud, 1.05, y, 0, &sc);
  discrete(m, ud, dv);
  ck_assert(dv[0] == 0 && dv[1] == 0 && dv[2] == 0);
  ck_assert(sc && y[1] == 0.0);
  double out[6];
  m->outputs(ud, 1.05, y, NULL, out);
  ck_assert_double_eq_tol(out[3], 1.5 * sin(1.05 * PI), 1e-15); /* f = u while locked */
  ck_assert_double_eq(out[5], 0.0);
  stiction_demo_free(d);
}
END_TEST

/* Two instances keep their own discrete state (no global state). */
START_TEST(two_instances_are_independent) {
  stiction_demo *a = make("friction-block"), *b = make("friction-block");
  const stiction_model *m = stiction_demo_model(a);
  double ya[2], yb[2], yp[2] = {0, 0}, da[3], db[3];
  int sc;
  m->start_values(stiction_demo_data(a), 0, ya, yp);
  m->start_values(stiction_demo_data(b), 0, yb, yp);
  iterate(m, stiction_demo_data(a), 0.5, ya, 0, &sc);
  discrete(m, stiction_demo_data(a), da);
  discrete(m, stiction_demo_data(b), db);
  ck_assert(da[1] == 1 && db[1] == 0);
  stiction_demo_free(a);
  stiction_demo_free(b);
}
END_TEST

/* Leine's belt starts stuck at break-away; slips backward once k x > Fs; sticks again with
 * v = v_dr when gamma returns to zero inside the friction limit. */
START_TEST(leine_belt_stick_slip_switching) {
  stiction_demo *d = make("leine-belt");
  const stiction_model *m = stiction_demo_model(d);
  void *ud = stiction_demo_data(d);
  double y[2], yp[2] = {0, 0}, g[3], dv[1], ydot[2];
  int sc;
  m->start_values(ud, 0, y, yp);
  ck_assert(y[0] == 1.0 && y[1] == 0.2);
  iterate(m, ud, 0, y, 1, &sc);
  discrete(m, ud, dv);
  ck_assert_double_eq(dv[0], 0);
  m->indicators(ud, 0, y, NULL, g);
  ck_assert(g[0] < 0 && g[0] > -1e-9); /* k x - Fs = 0 shifted by the hysteresis */
  y[0] = 1.0 + 2e-10;
  iterate(m, ud, 1e-9, y, 0, &sc);
  discrete(m, ud, dv);
  ck_assert_double_eq(dv[0], -1);
  m->indicators(ud, 1e-9, y, NULL, g);
  ck_assert(g[2] < 0); /* gamma - eps */
  m->derivatives(ud, 1e-9, y, ydot);
  ck_assert_double_eq_tol(ydot[1], -1.0 + 1.0, 1e-8); /* -k x + Fs/(1 + 0) */
  y[0] = -0.541;
  y[1] = 0.2 + 2e-10;
  iterate(m, ud, 4.296, y, 0, &sc);
  discrete(m, ud, dv);
  ck_assert_double_eq(dv[0], 0);
  ck_assert(sc && y[1] == 0.2);
  stiction_demo_free(d);
}
END_TEST

START_TEST(bouncing_ball_bounce) {
  stiction_demo *d = make("bouncing-ball");
  const stiction_model *m = stiction_demo_model(d);
  void *ud = stiction_demo_data(d);
  double y[2], yp[2] = {0, 0}, g[1], dv[2], ydot[2];
  int sc;
  m->start_values(ud, 0, y, yp);
  ck_assert(y[0] == 1.0 && y[1] == 0.0);
  y[0] = -1.5e-10;
  y[1] = -4.0;
  iterate(m, ud, 0.45, y, 0, &sc);
  ck_assert(sc);
  ck_assert_double_eq(y[0], 0.0);
  ck_assert_double_eq_tol(y[1], 3.2, 1e-15);
  discrete(m, ud, dv);
  ck_assert_double_eq(dv[0], 1);
  m->indicators(ud, 0.45, y, NULL, g);
  ck_assert(g[0] > 0); /* not zero when integration restarts */
  /* a rebound slower than v_min = 1e-3 leaves the ball resting on the floor */
  y[0] = -1.2e-10;
  y[1] = -1.2e-3;
  iterate(m, ud, 4.06, y, 0, &sc);
  discrete(m, ud, dv);
  ck_assert(dv[0] == 2 && dv[1] == 1);
  ck_assert(y[0] == 0.0 && y[1] == 0.0);
  m->derivatives(ud, 4.1, y, ydot);
  ck_assert(ydot[0] == 0.0 && ydot[1] == 0.0);
  stiction_demo_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("demos");
  st_test_case(s, "catalogue", 0, ST_TESTS(catalogue_lists_the_three_demos,
               unknown_demo_is_not_found, parameters_by_name_with_range_checks,
               default_experiments));
  st_test_case(s, "models", 0, ST_TESTS(friction_block_mode_machine, two_instances_are_independent,
               leine_belt_stick_slip_switching, bouncing_ball_bounce));
  return st_test_main(s);
}
