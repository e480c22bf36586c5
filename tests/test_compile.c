/* The equation compiler on hand-built flat models: classification, parameters, BLT blocks
 * (assignment, linear, nonlinear), mixed systems, events, structural errors. The callbacks
 * are called directly here; test_compile_sim.c runs whole simulations. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "test_compile_builder.h"

/* Diagnostics into a memory buffer. */
typedef struct capture {
  char buf[8192];
  FILE *f;
  st_diag *d;
} capture;

static void cap_open(capture *c) {
  memset(c->buf, 0, sizeof c->buf);
  c->f = fmemopen(c->buf, sizeof c->buf - 1, "w");
  c->d = st_diag_new(c->f);
}

static const char *cap_text(capture *c) {
  fflush(c->f);
  return c->buf;
}

static void cap_close(capture *c) {
  fclose(c->f);
  st_diag_free(c->d);
}

/* der(x) = a*x + b with p2 = 2*p1 chained parameters */
START_TEST(parameters_chain_and_explicit_derivative) {
  fb b = fb_new("P");
  int p1 = fb_param(&b, "p1", N(&b, 1.5));
  int p2 = fb_param(&b, "p2", BIN(&b, FOP_MUL, N(&b, 2), V(&b, p1)));
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int y = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 2, 1);
  /* 0.5*der(x) + y = p2 ; y = x*p1  (der(x) must be isolated: der(x) = (p2 - y)/0.5) */
  fb_eq(&b, BIN(&b, FOP_ADD, BIN(&b, FOP_MUL, N(&b, 0.5), DER(&b, x)), V(&b, y)), V(&b, p2));
  fb_eq(&b, V(&b, y), BIN(&b, FOP_MUL, V(&b, x), V(&b, p1)));
  capture c;
  cap_open(&c);
  st_compiled *cm = st_compile(b.m, c.d);
  ck_assert_msg(cm != NULL, "%s", cap_text(&c));
  const stiction_model *m = st_compiled_model(cm);
  ck_assert_int_eq(m->n_states, 1);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_assign, 2);
  ck_assert_int_eq(info.n_linear + info.n_nonlinear + info.n_mixed, 0);
  void *ud = st_compiled_data(cm);
  double y0[1], yp[1] = {0}, f[1];
  ck_assert_int_eq(m->start_values(ud, 0, y0, yp), 0);
  ck_assert_double_eq(y0[0], 2);
  ck_assert_int_eq(m->derivatives(ud, 0, y0, f), 0);
  ck_assert_double_eq_tol(f[0], (3.0 - 2 * 1.5) / 0.5, 1e-15);
  /* -p overrides without recompiling; p2 keeps its binding to p1 */
  ck_assert_int_eq(st_compiled_set_parameter(cm, "p1", 1.0), 0);
  ck_assert_int_eq(m->start_values(ud, 0, y0, yp), 0);
  ck_assert_int_eq(m->derivatives(ud, 0, y0, f), 0);
  ck_assert_double_eq_tol(f[0], (2.0 - 2 * 1.0) / 0.5, 1e-15);
  ck_assert_int_eq(st_compiled_set_parameter(cm, "nope", 1.0), -1);
  st_compiled_free(cm);
  cap_close(&c);
  st_flat_free(b.m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("compile");
  TCase *tc = tcase_create("compile");
  tcase_add_test(tc, parameters_chain_and_explicit_derivative);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
