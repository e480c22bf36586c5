/* Language features of the compiler (issue 4, doc/compiler.md): terminal(), algorithm
 * sections in models, tuple equations, delay(). Models in tests/data/compile/, run through
 * `stiction simulate`; expected values are closed forms. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/func_calls.h"
#include "front/front.h"
#include "simtable.h"
#include "testutil.h"

/* A 60-unknown cyclic linear loop with time-varying coefficients goes to KLU (issue 4 step 3,
 * src/exec/sparse_block.c) and keeps the closed form of tests/data/compile/SparseLoop.mo:
 * x[i] = 1 + t, s = t + t^2/2. */
START_TEST(large_sparse_block_klu) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/SparseLoop.mo",
                    "--dump --tolerance 1e-8 --vars 'x\\[1]' --vars 'x\\[30]' --vars s", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  ck_assert_msg(out && strstr(out, "linear system (KLU), 60 unknowns"), "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), c1 = col(&t, "x[1]"), c30 = col(&t, "x[30]"), cs = col(&t, "s");
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    ck_assert_msg(fabs(t.v[i][c1] - (1 + tm)) < 1e-12 && fabs(t.v[i][c30] - (1 + tm)) < 1e-12,
                  "x(%g) = %.17g, %.17g", tm, t.v[i][c1], t.v[i][c30]);
    ck_assert_msg(fabs(t.v[i][cs] - (tm + tm * tm / 2)) < 1e-6, "s(%g) = %.17g", tm, t.v[i][cs]);
  }
}
END_TEST

/* The terminal pass at the stop time: xEnd = x(2) = exp(-2) and n = 1 only in the extra last
 * row; every earlier row still has the start values (the when-clause never fired). */
START_TEST(terminal_at_stop_time) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/Terminal.mo", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), ce = col(&t, "xEnd"), cn = col(&t, "n");
  /* 9 grid rows and the row after the terminal pass; `b and x < 0.5` with b = false never
   * evaluates its relation, so x < 0.5 makes no event (doc/events.md, active relations) */
  ck_assert_int_eq(t.nrows, 10);
  for (int i = 0; i < t.nrows - 1; i++) {
    ck_assert_double_eq(t.v[i][ce], 0);
    ck_assert_double_eq(t.v[i][cn], 0);
  }
  const double *last = t.v[t.nrows - 1];
  ck_assert_double_eq(last[ct], 2);
  ck_assert_double_eq(t.v[t.nrows - 2][ct], 2);
  ck_assert_msg(fabs(last[cx] - exp(-2)) < 1e-5, "x(2) = %.10g", last[cx]);
  ck_assert_double_eq(last[ce], last[cx]);
  ck_assert_double_eq(last[cn], 1);
}
END_TEST

/* A parameter with fixed = false takes its value from an initial equation (t0 = time, the
 * start time 0.5), not from its start (7); the protected y = x + t0 = time is recorded. */
START_TEST(initial_parameter_and_protected_output) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/InitialParameter.mo", "--start-time 0.5 --stop-time 2",
                    &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cy = col(&t, "y");
  ck_assert_int_ge(cy, 0);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][ct];
    ck_assert_msg(fabs(t.v[i][cx] - (tm - 0.5)) < 1e-9, "x(%g) = %.17g", tm, t.v[i][cx]);
    ck_assert_msg(fabs(t.v[i][cy] - tm) < 1e-9, "y(%g) = %.17g", tm, t.v[i][cy]);
  }
}
END_TEST

/* A redundant initial equation over discrete variables is checked, not counted: the
 * consistent one runs (x rises to 0.5, then c follows b = false one event later and x falls),
 * the contradicting one is an error at its line. */
START_TEST(redundant_discrete_initial_equation) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/RedundantInit.mo", "RedundantInit --stop-time 1", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int cx = col(&t, "x"), cc = col(&t, "c");
  ck_assert_double_eq(t.v[0][cc], 1);
  ck_assert_msg(fabs(t.v[t.nrows - 1][cx]) < 1e-6, "x(1) = %.17g", t.v[t.nrows - 1][cx]);
  char args[4096];
  snprintf(args, sizeof args, "simulate '%s' RedundantInitBad -o -",
           st_test_src("tests/data/compile/RedundantInit.mo"));
  st = st_test_run(&out, args);
  ck_assert_int_eq(st, 1);
  ck_assert_msg(out && strstr(out, "RedundantInit.mo:21:3: error: this initial equation names no "
                                   "continuous unknown and does not hold"), "%s", out ? out : "");
  free(out);
}
END_TEST

/* terminate() at x = 0.5 (t = ln 2): the terminal pass runs there, once. */
START_TEST(terminal_after_terminate) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/Terminal.mo", "-p b=true --tolerance 1e-9", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), ce = col(&t, "xEnd"), cn = col(&t, "n");
  const double *last = t.v[t.nrows - 1];
  ck_assert_msg(fabs(last[ct] - log(2)) < 1e-6, "stopped at %.10g", last[ct]);
  ck_assert_msg(fabs(last[ce] - 0.5) < 1e-6, "xEnd = %.10g", last[ce]);
  ck_assert_double_eq(last[cn], 1);
  ck_assert_double_eq(t.v[t.nrows - 2][cn], 0);
}
END_TEST

/* Algorithm sections: sequential assignments, an if-statement on a relation (event at
 * t = ln 2), a while-loop with break, when-statements on sample() (counted like the same
 * when-equation) and an elsewhen chain. Closed forms: x = exp(-t), y = x, z = 2x + 1 before
 * ln 2 and 2x - 1 after, s = 1 + 2 + 3 + 4, n = n2 = samples so far (the first at t = 0,
 * right after initialization), count 0/10/110. */
START_TEST(algorithm_sections) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/Algorithm.mo", "--tolerance 1e-8", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cy = col(&t, "y"), cz = col(&t, "z");
  int cs = col(&t, "s"), ck = col(&t, "k"), cn = col(&t, "n"), cn2 = col(&t, "n2");
  int cc = col(&t, "count");
  double ln2 = log(2), ln4 = log(4);
  ck_assert_int_ge(t.nrows, 9);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    ck_assert_msg(fabs(r[cx] - exp(-tm)) < 1e-6, "x(%g) = %.10g", tm, r[cx]);
    ck_assert_double_eq(r[cy], r[cx]);
    if (tm < ln2 - 1e-6) ck_assert_msg(fabs(r[cz] - (2 * r[cx] + 1)) < 1e-12, "z(%g)", tm);
    if (tm > ln2 + 1e-6) ck_assert_msg(fabs(r[cz] - (2 * r[cx] - 1)) < 1e-12, "z(%g)", tm);
    ck_assert_double_eq(r[cs], 10);
    ck_assert_double_eq(r[ck], 4);
    ck_assert_double_eq(r[cn], r[cn2]);
    double k = floor(tm / 0.5 + 1e-9) + 1; /* the instants 0, 0.5, ... up to tm */
    ck_assert_msg(r[cn] == k || r[cn] == k - 1, "n(%g) = %g", tm, r[cn]);
    if (tm == 0) ck_assert_msg(r[cn] == 1, "the sample at t = 0 fires after initialization");
    if (tm < ln2 - 1e-6) ck_assert_double_eq(r[cc], 0);
    if (tm > ln2 + 1e-6 && tm < ln4 - 1e-6) ck_assert_double_eq(r[cc], 10);
    if (tm > ln4 + 1e-6) ck_assert_double_eq(r[cc], 110);
  }
  ck_assert_double_eq(t.v[t.nrows - 1][cn], 5);
}
END_TEST

/* A section inside an algebraic loop is refused with its location. */
START_TEST(algorithm_loop_error) {
  expect_refused("tests/data/compile/AlgorithmLoop.mo",
                 "AlgorithmLoop.mo:8:3: error: this algorithm section is part "
                 "of an algebraic loop");
}
END_TEST

/* Tuple equations (a, b) = f(x) with skipped elements, named and default arguments, Newton
 * through the first output of an implicit tuple (z = |(z - 3, 4)|), and a tuple assignment in an
 * algorithm section: closed forms in tests/data/compile/Tuple.mo. */
START_TEST(tuple_equations) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/Tuple.mo", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cr = col(&t, "r"), cp = col(&t, "phi"), cr2 = col(&t, "r2");
  int cq = col(&t, "q"), cz = col(&t, "z"), ca = col(&t, "a"), cb = col(&t, "b");
  int cx = col(&t, "x");
  ck_assert_int_eq(t.nrows, 7);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    ck_assert_msg(fabs(r[cr] - 2) < 1e-12, "r(%g) = %.17g", tm, r[cr]);
    ck_assert_msg(fabs(r[cp] - tm) < 1e-12, "phi(%g) = %.17g", tm, r[cp]);
    ck_assert_msg(fabs(r[cr2] - 5) < 1e-12, "r2(%g) = %.17g", tm, r[cr2]);
    ck_assert_msg(fabs(r[cq] - atan(tm)) < 1e-12, "q(%g) = %.17g", tm, r[cq]);
    ck_assert_msg(fabs(r[cz] - 25.0 / 6) < 1e-9, "z(%g) = %.17g", tm, r[cz]);
    ck_assert_msg(fabs(r[ca] - 2) < 1e-12 && fabs(r[cb] - tm) < 1e-12, "a, b(%g)", tm);
    ck_assert_msg(fabs(r[cx] - 5 * tm) < 1e-9, "x(%g) = %.17g", tm, r[cx]);
  }
}
END_TEST

/* Index reduction through a user function: the constraint x2 = dbl(x1) is differentiated
 * through the inlined body, x1 = exp(t) and x2 = u = 2 exp(t); one state. */
START_TEST(index_reduction_through_function) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/IndexFunction.mo", "--tolerance 1e-10", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), c1 = col(&t, "x1"), c2 = col(&t, "x2"), cu = col(&t, "u");
  ck_assert_int_eq(t.nrows, 5);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double e = exp(r[ct]);
    ck_assert_msg(fabs(r[c1] - e) < 1e-6 * e, "x1(%g) = %.12g", r[ct], r[c1]);
    ck_assert_msg(fabs(r[c2] - 2 * r[c1]) < 1e-12 * e, "x2(%g) = %.12g", r[ct], r[c2]);
    ck_assert_msg(fabs(r[cu] - 2 * r[c1]) < 1e-9 * e, "u(%g) = %.12g", r[ct], r[cu]);
  }
  st = st_test_run(&out, "simulate --dump -o /dev/null "
                   "\"$STICTION_SRCDIR/tests/data/compile/IndexFunction.mo\"");
  ck_assert_msg(st == 0 && out && strstr(out, "Selected states: x1\n"), "%s", out ? out : "");
  free(out);
}
END_TEST

/* The flat model of `model` in file with a call table, and the index of its function `name`. */
typedef struct one_function {
  st_diag *diag;
  st_front *fe;
  st_flat_model *flat;
  st_fcalls *fc;
  int fn;
} one_function;

static void open_function(one_function *o, const char *file, const char *model, const char *name) {
  o->diag = st_diag_new(stderr);
  o->fe = st_front_new(o->diag);
  ck_assert_int_eq(st_front_load_file(o->fe, st_test_src(file)), 0);
  o->flat = st_front_flatten(o->fe, model);
  ck_assert_ptr_nonnull(o->flat);
  o->fn = -1;
  for (int i = 0; i < o->flat->nfunctions; i++)
    if (!strcmp(o->flat->functions[i].name, name)) o->fn = i;
  ck_assert_int_ge(o->fn, 0);
  o->fc = st_fcalls_new(o->flat);
}

static void close_function(one_function *o) {
  st_fcalls_free(o->fc);
  st_flat_free(o->flat);
  st_front_free(o->fe);
  st_diag_free(o->diag);
}

/* `simulate --dump` of file lists the states expected. */
static void expect_states(const char *file, const char *states) {
  char *out = NULL, args[400], want[200];
  snprintf(args, sizeof args, "simulate --dump -o /dev/null \"$STICTION_SRCDIR/%s\"", file);
  snprintf(want, sizeof want, "Selected states: %s\n", states);
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0 && out && strstr(out, want), "%s", out ? out : "");
  free(out);
}

/* An impure function is not differentiated: the error names it at the call. */
START_TEST(index_reduction_function_error) {
  expect_refused("tests/data/compile/IndexFunctionBad.mo",
                 "IndexFunctionBad.mo:19:8: error: index reduction: cannot "
                 "differentiate the call of the impure function 'IndexFunctionBad.twice'");
}
END_TEST

/* Index reduction through functions without a derivative annotation or an inlinable body
 * (IndexDirectional.mo): a record result with an if statement, a for loop, a while loop that
 * calls another function; the rigid coupling differentiated twice. Closed forms: phi1 = t^2/2,
 * w1 = t, phi2 = t^2, w2 = 2t, f = 1, dy = 3 (1 + t)^2, dz = 9 t^2. CVODE and IDA. */
START_TEST(directional_derivative_index_reduction) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/IndexDirectional.mo", _i ? "--solver ida" : "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), c1 = col(&t, "phi1"), cw1 = col(&t, "w1"), c2 = col(&t, "phi2");
  int cw2 = col(&t, "w2"), cf = col(&t, "f"), cdy = col(&t, "dy"), cdz = col(&t, "dz");
  ck_assert_int_eq(t.nrows, 9);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    ck_assert_msg(fabs(r[c1] - tm * tm / 2) < 1e-7, "phi1(%g) = %.12g", tm, r[c1]);
    ck_assert_msg(fabs(r[cw1] - tm) < 1e-7, "w1(%g) = %.12g", tm, r[cw1]);
    ck_assert_msg(fabs(r[c2] - tm * tm) < 1e-7, "phi2(%g) = %.12g", tm, r[c2]);
    ck_assert_msg(fabs(r[cw2] - 2 * tm) < 1e-7, "w2(%g) = %.12g", tm, r[cw2]);
    ck_assert_msg(fabs(r[cf] - 1) < 1e-6, "f(%g) = %.12g", tm, r[cf]);
    /* first derivatives: exact forward mode, rounding only */
    ck_assert_msg(fabs(r[cdy] - 3 * (1 + tm) * (1 + tm)) < 1e-12, "dy(%g) = %.17g", tm, r[cdy]);
    ck_assert_msg(fabs(r[cdz] - 9 * tm * tm) < 1e-12, "dz(%g) = %.17g", tm, r[cdz]);
  }
  expect_states("tests/data/compile/IndexDirectional.mo", "phi1 w1");
}
END_TEST

/* A tangent call site: d/dt cubeLoop(u) along du is 3 u^2 du exactly (forward mode through
 * the loop), and its own tangent, the second derivative 6 u du du' + 3 u^2 ddu' along
 * (du', ddu'), a central difference in u (error of order 1e-10). */
START_TEST(directional_derivative_call_site) {
  one_function o;
  open_function(&o, "tests/data/compile/IndexDirectional.mo", "IndexDirectional",
                "IndexDirectional.cubeLoop");
  ck_assert_int_eq(o.flat->functions[o.fn].derivative, 0);
  st_fcalls *fc = o.fc;
  int ndims[1] = {0}, dims[4] = {0};
  int base = st_fcalls_add(fc, o.fn, 1, ndims, dims);
  int k = st_fcalls_add_tangent(fc, base);
  ck_assert_int_ge(k, 0);
  ck_assert_int_eq(st_fcall_width(fc, k), 2);
  double x[2] = {1.3, 0.5}, dx[2] = {2, 3}, dot = 0;
  double y = st_fcall_dual(fc, k, x, dx, &dot);
  ck_assert_msg(fabs(y - 3 * 1.3 * 1.3 * 0.5) < 1e-14, "d cube = %.17g", y);
  double want = 6 * 1.3 * 0.5 * 2 + 3 * 1.3 * 1.3 * 3;
  ck_assert_msg(fabs(dot - want) < 1e-8 * want, "d2 cube = %.17g, want %.17g", dot, want);
  /* a tangent of the tangent: the second derivative along (du, du, ddu) at x */
  int k2 = st_fcalls_add_tangent(fc, k);
  ck_assert_int_eq(st_fcall_width(fc, k2), 4);
  double x2[4] = {1.3, 0.5, 0.5, 0.25};
  double d2 = st_fcall_eval(fc, k2, x2);
  want = 6 * 1.3 * 0.5 * 0.5 + 3 * 1.3 * 1.3 * 0.25;
  ck_assert_msg(fabs(d2 - want) < 1e-8 * want, "d2 cube = %.17g, want %.17g", d2, want);
  close_function(&o);
}
END_TEST

/* annotation(derivative = ...) (Modelica 3.6 section 12.7.1), IndexDerivative.mo: a rigid
 * coupling phi2 = g(phi1) = 2 phi1 through functions with loops (not inlinable), index-reduced
 * twice through g_der and g_der2; closed form a1 = tau/(J1 + 4 J2) = 1: phi1 = t^2/2, w1 = t,
 * phi2 = t^2, w2 = 2t, f = 1, one state pair (phi1, w1); and a nonlinear loop through cube()
 * with y = 1 + 2t. CVODE and IDA. */
START_TEST(derivative_annotation_index_reduction) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/IndexDerivative.mo", _i ? "--solver ida" : "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), c1 = col(&t, "phi1"), cw1 = col(&t, "w1"), c2 = col(&t, "phi2");
  int cw2 = col(&t, "w2"), cf = col(&t, "f"), cy = col(&t, "y");
  ck_assert_int_eq(t.nrows, 9);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    ck_assert_msg(fabs(r[c1] - tm * tm / 2) < 1e-7, "phi1(%g) = %.12g", tm, r[c1]);
    ck_assert_msg(fabs(r[cw1] - tm) < 1e-7, "w1(%g) = %.12g", tm, r[cw1]);
    ck_assert_msg(fabs(r[c2] - tm * tm) < 1e-7, "phi2(%g) = %.12g", tm, r[c2]);
    ck_assert_msg(fabs(r[cw2] - 2 * tm) < 1e-7, "w2(%g) = %.12g", tm, r[cw2]);
    ck_assert_msg(fabs(r[cf] - 1) < 1e-7, "f(%g) = %.12g", tm, r[cf]);
    ck_assert_msg(fabs(r[cy] - (1 + 2 * tm)) < 1e-9, "y(%g) = %.12g", tm, r[cy]);
  }
  expect_states("tests/data/compile/IndexDerivative.mo", "phi1 w1");
}
END_TEST

/* The Jacobian of a call uses the derivative function: the tangent of cube(u) = u^3 (a loop)
 * at u = 1.3 is 3 u^2 = 5.07 to rounding, where the difference quotient that functions
 * without the annotation get is off by about 1e-7. */
START_TEST(derivative_annotation_jacobian) {
  one_function o;
  open_function(&o, "tests/data/compile/IndexDerivative.mo", "IndexDerivative",
                "IndexDerivative.cube");
  ck_assert_int_gt(o.flat->functions[o.fn].derivative, 0);
  st_fcalls *fc = o.fc;
  int ndims[1] = {0}, dims[4] = {0};
  int k = st_fcalls_add(fc, o.fn, 1, ndims, dims);
  ck_assert_int_ge(k, 0);
  double u = 1.3, du = 1, dot = 0;
  double y = st_fcall_dual(fc, k, &u, &du, &dot);
  ck_assert_double_eq_tol(y, u * u * u, 1e-15);
  ck_assert_msg(fabs(dot - 3 * u * u) < 1e-13, "d cube = %.17g", dot);
  close_function(&o);
}
END_TEST

/* A derivative function whose inputs do not match is an error at the annotation. */
START_TEST(derivative_annotation_error) {
  expect_refused("tests/data/compile/DerivativeBad.mo",
                 "DerivativeBad.mo:9:16: error: derivative annotation: "
                 "'DerivativeBad.h_der' must have 2 inputs");
}
END_TEST

/* The largest error of NominalTolerance.mo's x against a cos(w t), relative to a. */
static double nominal_run_error(const char *args) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/NominalTolerance.mo", args, &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x");
  ck_assert_int_gt(t.nrows, 150);
  double worst = 0;
  for (int i = 0; i < t.nrows; i++) {
    double e = fabs(t.v[i][cx] - 1e-6 * cos(10 * t.v[i][ct])) / 1e-6;
    if (e > worst) worst = e;
  }
  return worst;
}

/* The nominal attribute scales the absolute tolerance of a state (its own, a parameter
 * expression, or an eliminated alias's): an oscillator of amplitude 1e-6 keeps 2e-4 of it
 * over 16 periods at rtol 1e-6; with nominal 1 (-p scale=1) the absolute 1e-8 lets it drift
 * by 3e-3 (IDA) to 0.2 (CVODE) (MSL ElasticBearing's springDamper.w_rel(nominal = 1e-4)). CVODE and IDA. */
START_TEST(nominal_scales_absolute_tolerance) {
  const char *solver = _i ? "--interval 0.05 --solver ida" : "--interval 0.05";
  char args[64];
  double scaled = nominal_run_error(solver);
  ck_assert_msg(scaled < 2e-4, "x off by %g of its amplitude", scaled);
  snprintf(args, sizeof args, "%s -p scale=1", solver);
  double plain = nominal_run_error(args);
  ck_assert_msg(plain > 1e-3, "x off by only %g of its amplitude with nominal 1", plain);
}
END_TEST

/* delay() (Modelica 3.7.2.3) against closed forms, tests/data/compile/Delay.mo: the value at
 * the start before start + delayTime, then the delayed value, for a state (a delay
 * differential equation solved by steps), a parameter delay with delayMax, a delay time that
 * varies, and a step at a time event that arrives delayed as a step; CVODE and IDA. */
START_TEST(delay_closed_forms) {
  static table t;
  char *out = NULL;
  /* the step bounded by 1/500 of the run, as by default when the tolerances were set: the
   * history of a delay() is recorded at the steps, and free steps (doc/events.md) make it
   * coarse (z(0.256) 1.1e-5 off) */
  int st = simulate("tests/data/compile/Delay.mo",
                    _i ? "--solver ida --max-step 0.004" : "--max-step 0.004", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cx = col(&t, "x"), cy = col(&t, "y"), cz = col(&t, "z");
  int cw = col(&t, "w"), cs = col(&t, "sd");
  ck_assert_int_ge(t.nrows, 501);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    double x = tm <= 1 ? 1 - tm : (tm - 1) * (tm - 3) / 2;
    ck_assert_msg(fabs(r[cx] - x) < 1e-8, "x(%g) = %.17g, expected %.17g", tm, r[cx], x);
    double y = tm >= 0.5 ? sin(tm - 0.5) : 0;
    ck_assert_msg(fabs(r[cy] - y) < 1e-5, "y(%g) = %.17g, expected %.17g", tm, r[cy], y);
    double z = tm >= 0.25 ? sin(tm - 0.25) : 0;
    ck_assert_msg(fabs(r[cz] - z) < 1e-5, "z(%g) = %.17g, expected %.17g", tm, r[cz], z);
    double w = tm >= 1.0 / 9 ? 0.9 * tm - 0.1 : 0;
    ck_assert_msg(fabs(r[cw] - w) < 1e-12, "w(%g) = %.17g, expected %.17g", tm, r[cw], w);
    /* the delayed step is an event at 0.5: its left row 0, its right row 1 */
    double sd = tm > 0.5 || (tm == 0.5 && i + 1 < t.nrows && t.v[i + 1][ct] > 0.5) ? 1 : 0;
    ck_assert_msg(r[cs] == sd, "sd(%g) = %.17g, expected %g (row %d)", tm, r[cs], sd, i);
  }
  int at_half = 0;
  for (int i = 0; i < t.nrows; i++) at_half += t.v[i][ct] == 0.5;
  ck_assert_int_eq(at_half, 2);
  ck_assert_double_eq(t.v[t.nrows - 1][col(&t, "tArrive")], 0.5);
}
END_TEST

/* Value of column c at the last row whose time is at most t (the right limit at an event). */
static double at_time(const table *t, int c, double tm) {
  int ct = col(t, "time"), last = -1;
  for (int i = 0; i < t->nrows; i++)
    if (t->v[i][ct] <= tm) last = i;
  ck_assert_int_ge(last, 0);
  return t->v[last][c];
}

static int count_of(const char *text, const char *what) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

/* tests/data/compile/DiscreteOps.mo, x = time. sample(0.25, 0.1) fires at 0.25 + 0.1 k only:
 * 8 times up to t = 1, tLast = 0.95; change(n) counts the same; edge(b) once (x = 0.5);
 * elsewhen: k = 1 after x = 0.7, 2 after 0.9; at t = 0.45 both branches of the second when
 * rise and the first wins (j = 1), at the next sample the elsewhen fires (j = 2). The assert
 * of level warning is reported once, at x = 0.6, and the run goes on. The terminal pass adds
 * no row when it changes nothing (a sample() true at the last event used to count as a
 * change: two rows at t = 1). */
START_TEST(discrete_operators) {
  static table t;
  char *out = NULL;
  /* the step bounded as by default when the time in the message below was taken: CVODE
   * locates the root to 100 units of rounding, and on a free step its last digits differ */
  int st = simulate("tests/data/compile/DiscreteOps.mo", "--max-step 0.002", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  int ct = col(&t, "time"), cn = col(&t, "n"), cc = col(&t, "c"), cm = col(&t, "m");
  int ck = col(&t, "k"), cj = col(&t, "j"), cl = col(&t, "tLast");
  const double *last = t.v[t.nrows - 1];
  ck_assert_double_eq(last[ct], 1);
  ck_assert_double_lt(t.v[t.nrows - 2][ct], 1);
  ck_assert_double_eq(last[cn], 8);
  ck_assert_double_eq_tol(last[cl], 0.95, 1e-12);
  ck_assert_double_eq(last[cc], 8);
  ck_assert_double_eq(last[cm], 1);
  ck_assert_double_eq(at_time(&t, cm, 0.49), 0);
  for (int s = 0; s < 8; s++) { /* n steps at each instant, not before */
    double ts = 0.25 + 0.1 * s;
    ck_assert_double_eq(at_time(&t, cn, ts - 1e-6), s);
    ck_assert_double_eq(at_time(&t, cn, ts + 1e-12), s + 1);
  }
  ck_assert_double_eq(at_time(&t, ck, 0.69), 0);
  ck_assert_double_eq(at_time(&t, ck, 0.8), 1);
  ck_assert_double_eq(last[ck], 2);
  ck_assert_double_eq(at_time(&t, cj, 0.4), 2);
  ck_assert_double_eq(at_time(&t, cj, 0.5), 1);
  ck_assert_double_eq(at_time(&t, cj, 0.6), 2);
  ck_assert_int_eq(count_of(out, "warning: assertion failed at time 0.6"), 1);
  ck_assert_ptr_nonnull(strstr(out, "DiscreteOps.mo:39:3: warning: assertion failed at time "
                                    "0.60000000009999999: x passed 0.6"));
  free(out);
}
END_TEST

/* The same with -p on the sample's start and interval (0.5, 0.2: instants 0.5 and 0.7 only,
 * not the state events 1e-10 after them, x = 0.5 and 0.7, that a loose instant test counted
 * too) and terminate() at x = 0.8, whose message is reported. */
START_TEST(sample_parameters_and_terminate_message) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/DiscreteOps.mo", "-p T0=0.5 -p dT=0.2 -p tStop=0.8", &t,
                    &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  int ct = col(&t, "time"), cn = col(&t, "n"), cl = col(&t, "tLast");
  const double *last = t.v[t.nrows - 1];
  ck_assert_double_eq_tol(last[ct], 0.8, 1e-9);
  ck_assert_double_eq(last[cn], 2);
  ck_assert_double_eq_tol(last[cl], 0.7, 1e-12);
  ck_assert_msg(strstr(out, "DiscreteOps: terminated by the model at t = 0.8") &&
                    strstr(out, ": x reached tStop\n"), "%s", out);
  free(out);
}
END_TEST

/* terminate() in a model's algorithm section ends the run at its event with its message;
 * reinit() and return there are errors the language defines, located. */
START_TEST(terminate_in_model_algorithms) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/AlgorithmTerminate.mo", "", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  const double *last = t.v[t.nrows - 1];
  ck_assert_double_eq_tol(last[col(&t, "time")], 0.5, 1e-8);
  ck_assert_double_eq(last[col(&t, "n")], 1);
  ck_assert_msg(strstr(out, "AlgorithmTerminate: terminated by the model at t = 0.5") &&
                    strstr(out, ": x passed 0.5\n"), "%s", out);
  free(out);
  const char *dir = st_test_tmp("lang", "alg");
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
  st_test_write(dir, "R.mo", "model R\n  Real x(start = 0, fixed = true);\nequation\n"
                "  der(x) = 1;\nalgorithm\n  when x > 0.5 then\n    reinit(x, 0);\n"
                "  end when;\nend R;\n");
  char args[4400];
  snprintf(args, sizeof args, "simulate '%s/R.mo' -o '%s/r.csv'", dir, dir);
  st_test_expect(1, args, "R.mo:7:5: error: reinit() is not allowed in an algorithm section");
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* --start-time and --max-step from the command line on DiscreteOps.mo: x = time - 0.3 from
 * t = 0.3, the samples at 0.35 ... 0.95 (7); the step bound 0.01 replaces the default 1/500 of
 * the run (0.0014), so the largest step is above that and at most 0.01. */
START_TEST(start_time_and_max_step_options) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/DiscreteOps.mo", "--start-time 0.3 --max-step 0.01 --stats",
                    &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  int ct = col(&t, "time"), cx = col(&t, "x"), cn = col(&t, "n");
  ck_assert_double_eq(t.v[0][ct], 0.3);
  ck_assert_double_eq(t.v[0][cx], 0);
  ck_assert_double_eq_tol(t.v[t.nrows - 1][cx], 0.7, 1e-9);
  ck_assert_double_eq(t.v[t.nrows - 1][cn], 7);
  const char *p = out ? strstr(out, "step size min/max: ") : NULL;
  ck_assert_msg(p != NULL, "%s", out ? out : "");
  double hmin, hmax;
  ck_assert_int_eq(sscanf(p, "step size min/max: %lf / %lf", &hmin, &hmax), 2);
  ck_assert_msg(hmax > 0.002 && hmax <= 0.01 * (1 + 1e-12), "h_max = %g", hmax);
  free(out);
}
END_TEST

/* Without delayMax the delay time bounds the history: it must be a parameter expression. */
START_TEST(delay_time_error) {
  expect_refused("tests/data/compile/DelayBad.mo",
                 "DelayBad.mo:5:22: error: delay(expr, delayTime): delayTime "
                 "must be a parameter expression");
}
END_TEST

/* WhenOrder.mo: next = 0.25 step with step set in the same branch; the event at each quarter
 * moves next to the following quarter (with the old order next lagged one event behind and
 * the when never fired again). */
START_TEST(when_branch_order) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/WhenOrder.mo", "--stop-time 1.1", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  int ct = col(&t, "time"), cn = col(&t, "next"), cs = col(&t, "step");
  for (int i = 1; i < t.nrows; i++) {
    double tm = t.v[i][ct], want = (floor(tm / 0.25 + 1e-6) + 1) * 0.25;
    ck_assert_msg(t.v[i][cn] == 0.25 * t.v[i][cs], "next %g, step %g", t.v[i][cn], t.v[i][cs]);
    ck_assert_msg(fabs(t.v[i][cn] - want) < 1e-9 || fabs(tm - (want - 0.25)) < 1e-6,
                  "next(%g) = %g, want %g", tm, t.v[i][cn], want);
  }
  ck_assert_double_eq(t.v[t.nrows - 1][cn], 1.25);
}
END_TEST

/* VectorSubscripts.mo: v[i - 1:i] and v[{n, 1}] read in a function body: y = (2 + 30 + 400 +
 * 1000) (1 + t). */
START_TEST(vector_subscripts) {
  static table t;
  char *out = NULL;
  int st = simulate("tests/data/compile/VectorSubscripts.mo", "--stop-time 1", &t, &out);
  ck_assert_msg(st == 0, "%s", out ? out : "");
  free(out);
  for (int i = 0; i < t.nrows; i++) {
    double tm = t.v[i][col(&t, "time")];
    ck_assert_msg(fabs(t.v[i][col(&t, "y")] - 1432 * (1 + tm)) < 1e-9, "y(%g) = %g", tm,
                  t.v[i][col(&t, "y")]);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("lang");
  TCase *tc = st_test_case(s, "lang", 120, ST_TESTS(terminal_at_stop_time, large_sparse_block_klu,
                           when_branch_order, vector_subscripts,
                           terminal_after_terminate, initial_parameter_and_protected_output,
                           redundant_discrete_initial_equation, algorithm_sections,
                           algorithm_loop_error, tuple_equations,
                           index_reduction_through_function, index_reduction_function_error,
                           derivative_annotation_jacobian, derivative_annotation_error,
                           directional_derivative_call_site,
                           delay_time_error, discrete_operators,
                           sample_parameters_and_terminate_message, terminate_in_model_algorithms,
                           start_time_and_max_step_options));
  tcase_add_loop_test(tc, delay_closed_forms, 0, 2);
  tcase_add_loop_test(tc, nominal_scales_absolute_tolerance, 0, 2);
  tcase_add_loop_test(tc, derivative_annotation_index_reduction, 0, 2);
  tcase_add_loop_test(tc, directional_derivative_index_reduction, 0, 2);
  return st_test_main(s);
}
