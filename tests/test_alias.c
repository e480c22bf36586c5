/* Alias elimination (src/compile/alias.c): sign aliases and their values, variables bound to
 * parameter expressions (and -p), fixed start values moved to the representative, conflicting
 * fixed starts reported at both declarations, when-conditions compiled before elimination
 * still seeing the alias, and the rigid connection of two inertias from Modelica text whose
 * flange variables vanish from the solved system but stay in the results. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/compile.h"
#include "test_compile_builder.h"
#include "testutil.h"

typedef struct capture {
  char buf[8192];
  FILE *f;
  st_diag *d;
} capture;

static st_compiled *compile_capture(fb *b, capture *c) {
  memset(c->buf, 0, sizeof c->buf);
  c->f = fmemopen(c->buf, sizeof c->buf - 1, "w");
  c->d = st_diag_new(c->f);
  st_compiled *cm = st_compile(b->m, c->d);
  fflush(c->f);
  return cm;
}

static void finish(st_compiled *cm, capture *c, fb *b) {
  st_compiled_free(cm);
  fclose(c->f);
  st_diag_free(c->d);
  st_flat_free(b->m);
}

static double value(const st_compiled *cm, const char *name) {
  double v = NAN;
  ck_assert_msg(st_compiled_value(cm, name, &v) == 0, "no value for %s", name);
  return v;
}

/* der(x) = a; a + b = 0; b = c; c = x: three aliases (a = der(x), b = -der(x), c = -der(x)),
 * and the one equation left is der(x) = -x. */
START_TEST(sign_aliases) {
  fb b = fb_new("Signs");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int a = fb_var(&b, "a", ST_V_CONTINUOUS, ST_T_REAL);
  int bb = fb_var(&b, "b", ST_V_CONTINUOUS, ST_T_REAL);
  int c = fb_var(&b, "c", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 2, 1);
  fb_eq(&b, DER(&b, x), V(&b, a));
  fb_eq(&b, BIN(&b, FOP_ADD, V(&b, a), V(&b, bb)), N(&b, 0));
  fb_eq(&b, V(&b, bb), V(&b, c));
  fb_eq(&b, V(&b, c), V(&b, x));
  capture cap;
  st_compiled *cm = compile_capture(&b, &cap);
  ck_assert_msg(cm != NULL, "%s", cap.buf);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_aliases, 3);
  ck_assert_int_eq(info.n_algebraic, 0);
  ck_assert_int_eq(info.n_blocks, 1);
  const stiction_model *m = st_compiled_model(cm);
  void *ud = st_compiled_data(cm);
  double y[1], yp[1], f[1] = {0}, y1[1] = {2};
  ck_assert_int_eq(m->start_values(ud, 0, y, yp), 0);
  ck_assert_double_eq(y[0], 2);
  ck_assert_int_eq(m->derivatives(ud, 0, y1, f), 0);
  /* c = x and c = b = -a = -der(x): der(x) = -x */
  ck_assert_double_eq_tol(f[0], -2, 1e-15);
  ck_assert_double_eq_tol(value(cm, "a"), -2, 1e-15);
  ck_assert_double_eq_tol(value(cm, "b"), 2, 1e-15);
  ck_assert_double_eq_tol(value(cm, "c"), 2, 1e-15);
  /* the recorded values too: each alias with its sign (the chains are followed once, when
   * the outputs are selected) */
  double out[8];
  ck_assert_int_le(m->n_outputs, 8);
  ck_assert_int_eq(m->outputs(ud, 0, y1, NULL, out), 0);
  static const char *const names[] = {"x", "a", "b", "c"};
  static const double expect[] = {2, -2, 2, 2};
  for (int k = 0; k < 4; k++) {
    int i = 0;
    while (i < m->n_outputs && strcmp(m->output_names[i], names[k])) i++;
    ck_assert_msg(i < m->n_outputs, "%s not recorded", names[k]);
    ck_assert_double_eq_tol(out[i], expect[k], 1e-15);
  }
  finish(cm, &cap, &b);
}
END_TEST

/* v = 2*p and w = -v: v is computed with the parameters, w is its alias; -p follows. */
START_TEST(bound_to_parameters) {
  fb b = fb_new("Bound");
  int p = fb_param(&b, "p", N(&b, 1.5));
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int v = fb_var(&b, "v", ST_V_CONTINUOUS, ST_T_REAL);
  int w = fb_var(&b, "w", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, x, 0, 1);
  fb_eq(&b, V(&b, v), BIN(&b, FOP_MUL, N(&b, 2), V(&b, p)));
  fb_eq(&b, V(&b, w), UN(&b, FOP_NEG, V(&b, v)));
  fb_eq(&b, DER(&b, x), BIN(&b, FOP_MUL, V(&b, w), V(&b, x)));
  capture cap;
  st_compiled *cm = compile_capture(&b, &cap);
  ck_assert_msg(cm != NULL, "%s", cap.buf);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_constants + info.n_aliases, 2);
  ck_assert_int_eq(info.n_algebraic, 0);
  const stiction_model *m = st_compiled_model(cm);
  void *ud = st_compiled_data(cm);
  double y[1], yp[1], f[1], y1[1] = {1};
  ck_assert_int_eq(m->start_values(ud, 0, y, yp), 0);
  ck_assert_int_eq(m->derivatives(ud, 0, y1, f), 0);
  ck_assert_double_eq_tol(f[0], -3, 1e-15);
  ck_assert_double_eq_tol(value(cm, "w"), -3, 1e-15);
  ck_assert_int_eq(st_compiled_set_parameter(cm, "p", 2), 0);
  ck_assert_int_eq(m->start_values(ud, 0, y, yp), 0);
  ck_assert_int_eq(m->derivatives(ud, 0, y1, f), 0);
  ck_assert_double_eq_tol(f[0], -4, 1e-15);
  ck_assert_double_eq_tol(value(cm, "v"), 4, 1e-15);
  /* a variable bound by an equation is not a parameter */
  ck_assert_int_eq(st_compiled_set_parameter(cm, "v", 1), -1);
  finish(cm, &cap, &b);
}
END_TEST

/* y = -x with y(start = 3, fixed = true): the state x starts at -3. */
START_TEST(fixed_start_moves_to_state) {
  fb b = fb_new("Fixed");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int yv = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b, yv, 3, 1);
  fb_eq(&b, DER(&b, x), N(&b, 1));
  fb_eq(&b, V(&b, yv), UN(&b, FOP_NEG, V(&b, x)));
  capture cap;
  st_compiled *cm = compile_capture(&b, &cap);
  ck_assert_msg(cm != NULL, "%s", cap.buf);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_aliases, 1);
  const stiction_model *m = st_compiled_model(cm);
  double y[1], yp[1];
  ck_assert_int_eq(m->start_values(st_compiled_data(cm), 0, y, yp), 0);
  ck_assert_double_eq(y[0], -3);
  ck_assert_double_eq(value(cm, "y"), 3);
  finish(cm, &cap, &b);
}
END_TEST

/* x(start = 1, fixed = true) and y(start = 2, fixed = true) with y = x: an error at y's
 * declaration, a note at x's and one at the equation. */
START_TEST(conflicting_fixed_starts) {
  fb b = fb_new("Conflict");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);   /* line 2 */
  int yv = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);  /* line 3 */
  fb_start(&b, x, 1, 1);
  fb_start(&b, yv, 2, 1);
  fb_eq(&b, DER(&b, x), N(&b, 1));
  int l = fb_eq(&b, V(&b, yv), V(&b, x));
  capture cap;
  st_compiled *cm = compile_capture(&b, &cap);
  ck_assert_msg(cm == NULL, "compiled a model with conflicting fixed starts");
  char eq[64];
  snprintf(eq, sizeof eq, "test.mo:%d:3: note:", l);
  const char *want[] = {"test.mo:3:3: error: conflicting fixed start values: 'y' (start = 2) "
                        "and 'x' (start = 1)", "test.mo:2:3: note: 'x' is declared here", eq};
  for (int i = 0; i < 3; i++)
    ck_assert_msg(strstr(cap.buf, want[i]) != NULL, "missing '%s' in:\n%s", want[i], cap.buf);
  /* equal fixed starts through a negative alias are consistent */
  fb b2 = fb_new("Consistent");
  x = fb_var(&b2, "x", ST_V_CONTINUOUS, ST_T_REAL);
  yv = fb_var(&b2, "y", ST_V_CONTINUOUS, ST_T_REAL);
  fb_start(&b2, x, 1, 1);
  fb_start(&b2, yv, -1, 1);
  fb_eq(&b2, DER(&b2, x), N(&b2, 1));
  fb_eq(&b2, BIN(&b2, FOP_ADD, V(&b2, yv), V(&b2, x)), N(&b2, 0));
  capture cap2;
  st_compiled *cm2 = compile_capture(&b2, &cap2);
  ck_assert_msg(cm2 != NULL, "%s", cap2.buf);
  finish(cm2, &cap2, &b2);
  finish(cm, &cap, &b);
}
END_TEST

/* when y > 0.5 with y = x: the condition is compiled before elimination and reads y's slot,
 * which must follow x (the indicator y - 0.5 at x = 2 is 1.5, not -0.5). */
START_TEST(when_condition_on_alias) {
  fb b = fb_new("WhenAlias");
  int x = fb_var(&b, "x", ST_V_CONTINUOUS, ST_T_REAL);
  int yv = fb_var(&b, "y", ST_V_CONTINUOUS, ST_T_REAL);
  int k = fb_var(&b, "k", ST_V_DISCRETE, ST_T_INTEGER);
  fb_start(&b, x, 0, 1);
  fb_start(&b, k, 0, 1);
  fb_eq(&b, DER(&b, x), N(&b, 1));
  fb_eq(&b, V(&b, yv), V(&b, x));
  st_feq *inc = fb_assign(&b, k, BIN(&b, FOP_ADD, PRE(&b, k), N(&b, 1)));
  fb_when(&b, BIN(&b, FOP_GT, V(&b, yv), N(&b, 0.5)), 1, &inc);
  capture cap;
  st_compiled *cm = compile_capture(&b, &cap);
  ck_assert_msg(cm != NULL, "%s", cap.buf);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_aliases, 1);
  const stiction_model *m = st_compiled_model(cm);
  ck_assert_int_eq(m->n_indicators, 1);
  void *ud = st_compiled_data(cm);
  double y[1], yp[1], g[1], y2[1] = {2};
  ck_assert_int_eq(m->start_values(ud, 0, y, yp), 0);
  ck_assert_int_eq(m->indicators(ud, 1, y2, yp, g), 0);
  ck_assert_double_eq_tol(g[0], 1.5, 1e-9);
  finish(cm, &cap, &b);
}
END_TEST

/* Column index of name in a CSV header line, -1 if absent. */
static int column(const char *header, const char *name) {
  int col = 0;
  size_t n = strlen(name);
  for (const char *p = header; *p; col++) {
    const char *e = strpbrk(p, ",\n");
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return col;
    if (!e || *e == '\n') break;
    p = e + 1;
  }
  return -1;
}

/* The last row of a CSV result, and its header. */
static int last_row(const char *path, char *header, size_t hsize, double *row, int max) {
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  static char line[65536], last[65536];
  ck_assert_ptr_nonnull(fgets(header, (int)hsize, f));
  last[0] = 0;
  while (fgets(line, sizeof line, f)) strcpy(last, line);
  fclose(f);
  int n = 0;
  for (char *p = last; *p && n < max; n++) {
    row[n] = strtod(p, &p);
    if (*p != ',') { n++; break; }
    p++;
  }
  return n;
}

/* Inertia J1 = 1 - rigid connection - inertia J2 = 3, torque 2: a = 0.5, so at t = 1
 * w = 0.5 and phi = 0.25 for both inertias and every flange. The flange angles are aliases:
 * no BLT block solves them, and they are still recorded under their own names. */
START_TEST(rigid_connection_flanges_vanish) {
  char path[256], args[8192];
  snprintf(path, sizeof path, "/tmp/stiction_test_alias_%ld.csv", (long)getpid());
  snprintf(args, sizeof args, "simulate '%s' --dump -o '%s'",
           st_test_src("tests/data/compile/TwoInertiasRigid.mo"), path);
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "simulate failed: %s", out ? out : "");
  const char *al = strstr(out, "alias elimination: ");
  ck_assert_msg(al != NULL, "no alias count in:\n%s", out);
  ck_assert_int_ge(atoi(al + strlen("alias elimination: ")), 8);
  const char *blocks = strstr(out, "BLT blocks");
  ck_assert_ptr_nonnull(blocks);
  static const char *gone[] = {"J1.flange_a.phi", "J1.flange_b.phi", "J2.flange_a.phi",
                               "J2.phi", "J2.w", "torque.flange.phi", "J2.flange_b.tau"};
  for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
    ck_assert_msg(strstr(blocks, gone[i]) == NULL, "%s is still solved:\n%s", gone[i], out);
  free(out);
  static char header[65536];
  double row[256];
  int n = last_row(path, header, sizeof header, row, 256);
  unlink(path);
  ck_assert_double_eq_tol(row[0], 1, 1e-12);
  static const char *angles[] = {"J1.phi", "J2.phi", "J1.flange_b.phi", "J2.flange_a.phi",
                                 "J2.flange_b.phi"};
  for (size_t i = 0; i < sizeof angles / sizeof *angles; i++) {
    int c = column(header, angles[i]);
    ck_assert_msg(c > 0 && c < n, "%s not recorded", angles[i]);
    ck_assert_msg(fabs(row[c] - 0.25) < 1e-6, "%s(1) = %.10g", angles[i], row[c]);
  }
  int c1 = column(header, "J1.w"), c2 = column(header, "J2.w");
  ck_assert_msg(c1 > 0 && c2 > 0 && c1 < n && c2 < n, "speeds not recorded");
  ck_assert_msg(fabs(row[c1] - 0.5) < 1e-6 && row[c2] == row[c1], "w = %g, %g", row[c1],
                row[c2]);
  /* the free right flange of J2 carries no torque: J2.flange_b.tau = 0 */
  int ct = column(header, "J2.flange_b.tau");
  ck_assert_msg(ct > 0 && ct < n && row[ct] == 0, "J2.flange_b.tau");
}
END_TEST

ST_TEST_MAIN("alias", "alias", 60,
             sign_aliases, bound_to_parameters, fixed_start_moves_to_state,
             conflicting_fixed_starts, when_condition_on_alias, rigid_connection_flanges_vanish)
