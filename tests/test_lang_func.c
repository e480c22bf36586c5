/* Functions, expressions and equations of the Modelica language that the genuine Modelica
 * Standard Library needs (issue 15): external "builtin" functions, built-in array functions,
 * records in expressions and functions, initial algorithms. Models written here in
 * tests/data/lang/, run through `stiction simulate`; expected values are closed forms. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simtable.h"
#include "testutil.h"

#define LANG(model) "tests/data/lang/" model

/* external "builtin": sin, atan2 with a named and a default argument, exp through the default
 * external call, and a call inside a function body. */
START_TEST(external_builtin) {
  static table t;
  run_ok(LANG("ExternalBuiltin.mo"), "ExternalBuiltin.Test", "--tolerance 1e-10", &t);
  int ct = col(&t, "time"), cx = col(&t, "x"), cs = col(&t, "s"), ca = col(&t, "a");
  int ca1 = col(&t, "a1"), cw = col(&t, "w");
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    ck_assert_msg(fabs(r[cx] - exp(-tm)) < 1e-7, "x(%g) = %.17g", tm, r[cx]);
    ck_assert_msg(fabs(r[cs] - sin(tm)) < 1e-15, "s(%g) = %.17g", tm, r[cs]);
    ck_assert_msg(fabs(r[ca] - atan2(tm, 2)) < 1e-15, "a(%g) = %.17g", tm, r[ca]);
    ck_assert_msg(fabs(r[ca1] - atan2(tm, 1)) < 1e-15, "a1(%g) = %.17g", tm, r[ca1]);
    ck_assert_msg(fabs(r[cw] - 2 * sin(tm)) < 1e-15, "w(%g) = %.17g", tm, r[cw]);
  }
  expect_refused(LANG("ExternalBuiltinBad.mo"),
                 "ExternalBuiltinBad.mo:6:3: error: external \"builtin\" function 'j0' of "
                 "'ExternalBuiltinBad.besselJ0' is not a built-in function of stiction");
}
END_TEST

/* cardinality() of connector array elements, in equations, if-equations and bindings; an
 * if-expression on a for-index picks its branch (chain[i - 1] for i = 1 is never built). */
START_TEST(cardinality_counts_connections) {
  static table t;
  run_ok(LANG("Cardinality.mo"), "Cardinality.Test", "", &t);
  int ct = col(&t, "time");
  static const char *const counts[] = {"a.c[1]", "a.c[2]", "a.c[3]", "b.c[1]", "b.c[2]",
                                       "b.c[3]", "cy"};
  static const double want[] = {1, 1, 0, 0, 0, 1, 2};
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    const double *r = t.v[i];
    double tm = r[ct];
    for (int k = 0; k < 7; k++) ck_assert_double_eq(r[col(&t, counts[k])], want[k]);
    ck_assert_double_eq(r[col(&t, "a.u[3]")], -1);
    ck_assert_double_eq(r[col(&t, "b.u[1]")], -1);
    ck_assert_msg(fabs(r[col(&t, "a.chain[3]")] - (30 * tm - 1)) < 1e-12, "a.chain[3](%g)", tm);
    ck_assert_msg(fabs(r[col(&t, "b.chain[3]")] - (10 * tm - 2)) < 1e-12, "b.chain[3](%g)", tm);
    ck_assert_msg(fabs(r[col(&t, "z")] - 2 * tm) < 1e-12, "z(%g)", tm);
  }
}
END_TEST

static double at(const table *t, int row, const char *name) { return t->v[row][col(t, name)]; }

/* Array built-ins and operators of ArrayFunctions.mo against their closed forms. */
START_TEST(array_functions) {
  static table t;
  run_ok(LANG("ArrayFunctions.mo"), "ArrayFunctions", "--tolerance 1e-10", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    double v[3] = {tm, 2, 3}, A[2][3] = {{1, 2, 3}, {4, 5, 6}};
    for (int k = 1; k <= 3; k++) {
      char nm[32];
      snprintf(nm, sizeof nm, "x[%d]", k);
      ck_assert_msg(fabs(at(&t, i, nm) - exp(-tm)) < 1e-7, "%s(%g)", nm, tm);
    }
    for (int r = 0; r < 2; r++) {
      char nm[32];
      snprintf(nm, sizeof nm, "Av[%d]", r + 1);
      ck_assert_double_eq_tol(at(&t, i, nm), A[r][0] * v[0] + A[r][1] * v[1] + A[r][2] * v[2], 1e-12);
    }
    ck_assert_double_eq(at(&t, i, "AAt[1,2]"), 32);
    ck_assert_double_eq(at(&t, i, "AAt[2,2]"), 77);
    ck_assert_double_eq(at(&t, i, "vA[3]"), 9);
    ck_assert_double_eq(at(&t, i, "c[1]"), 2);
    ck_assert_double_eq_tol(at(&t, i, "c[2]"), -tm, 1e-15);
    ck_assert_double_eq(at(&t, i, "S[1,2]"), -3);
    ck_assert_double_eq_tol(at(&t, i, "S[3,2]"), tm, 1e-15);
    ck_assert_double_eq_tol(at(&t, i, "I2[1,1]"), 1 + tm, 1e-15);
    ck_assert_double_eq(at(&t, i, "I2[2,1]"), 0);
    ck_assert_double_eq_tol(at(&t, i, "F[2,1]"), 1 + tm, 1e-15);
    ck_assert_double_eq_tol(at(&t, i, "total"), 33 + tm, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "lin[3]"), 2 * tm / 3, 1e-15);
    ck_assert_double_eq(at(&t, i, "vec[5]"), 5);
    ck_assert_double_eq(at(&t, i, "mat[2,1]"), 8);
    ck_assert_double_eq_tol(at(&t, i, "sc"), tm, 1e-15);
    ck_assert_double_eq_tol(at(&t, i, "cc[3]"), tm, 1e-15);
    ck_assert_double_eq(at(&t, i, "cc[5]"), 3);
    ck_assert_double_eq(at(&t, i, "cm[2,4]"), 8);
    ck_assert_double_eq(at(&t, i, "cm[2,1]"), 4);
    ck_assert_double_eq(at(&t, i, "dims"), 10);
    ck_assert_double_eq(at(&t, i, "sl[1]"), 2);
    ck_assert_double_eq_tol(at(&t, i, "op[2,1]"), 2 * tm, 1e-15);
    int late = tm > 0.5 + 1e-9, early = tm < 0.5 - 1e-9;
    if (early) ck_assert_double_eq_tol(at(&t, i, "pick"), tm, 1e-15);
    if (late) ck_assert_double_eq(at(&t, i, "pick"), 3);
    if (early) ck_assert_double_eq(at(&t, i, "pickRow[2]"), 2);
    if (late) ck_assert_double_eq(at(&t, i, "pickRow[2]"), 5);
    ck_assert_double_eq(at(&t, i, "ab[1]"), 1);
  }
}
END_TEST

/* Boolean and Integer connections determine the side not assigned elsewhere; pre(u) = true
 * initially, so the input that starts false makes no rising edge. */
START_TEST(discrete_connections) {
  static table t;
  run_ok(LANG("DiscreteConnection.mo"), "DiscreteConnection", "", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    if (tm < 0.5 - 1e-9 || tm > 0.5 + 1e-9) {
      int on = tm > 0.5;
      ck_assert_double_eq(at(&t, i, "c.u[1]"), on);
      ck_assert_double_eq(at(&t, i, "c.u[2]"), on);
      ck_assert_double_eq(at(&t, i, "c.i"), on ? 7 : 3);
      ck_assert_double_eq(at(&t, i, "c.z"), on ? 7 : -3);
      ck_assert_double_eq(at(&t, i, "c.rising"), 0);
    }
  }
}
END_TEST

/* An initial algorithm starts the pulse in its third period; a function called as a
 * statement for its assert; a section that assigns what the equations determine is refused,
 * and a failing assert in such a call stops the run at the call. */
START_TEST(initial_algorithm) {
  static table t;
  run_ok(LANG("InitialAlgorithm.mo"), "InitialAlgorithm", "--interval 0.01", &t);
  ck_assert_int_gt(t.nrows, 90);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time"), q = tm / 0.125;
    if (fabs(q - floor(q + 0.5)) < 1e-6) continue; /* event instants */
    double k = floor(tm / 0.25);
    ck_assert_msg(at(&t, i, "count") == 2 + k, "count(%g) = %g", tm, at(&t, i, "count"));
    ck_assert_msg(fabs(at(&t, i, "T_start") - 0.25 * k) < 1e-9, "T_start(%g)", tm);
    ck_assert_msg(at(&t, i, "y") == (tm - 0.25 * k < 0.125), "y(%g)", tm);
  }
  expect_refused(LANG("InitialAlgorithmBad.mo"),
                 "InitialAlgorithmBad.mo:5:3: error: an initial algorithm may only assign "
                 "variables that when-clauses assign (as initial equations would): x");
  expect_refused(LANG("InitialAlgorithmAssert.mo"),
                 "InitialAlgorithmAssert.mo:12:3: error: initialization failed: the function "
                 "call failed: function 'InitialAlgorithmAssert.checkPositive' (");
  /* the compiled body says which assert failed */
  expect_refused(LANG("InitialAlgorithmAssert.mo"),
                 "InitialAlgorithmAssert.mo:7:5 failed: x must be positive at time 0");
}
END_TEST

/* Records.mo: record components in equations, constructors, record inputs, outputs and
 * locals of functions, a tuple equation skipping a record output. */
START_TEST(records) {
  static table t;
  run_ok(LANG("Records.mo"), "Records.Test", "", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_double_eq_tol(at(&t, i, "s.a.x"), tm, 1e-15);
    ck_assert_double_eq(at(&t, i, "s.a.y"), 2);
    ck_assert_double_eq_tol(at(&t, i, "s.b.x"), 2 * tm, 1e-15);
    ck_assert_double_eq_tol(at(&t, i, "L"), sqrt(tm * tm + 4), 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "L2"), 10, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "m.x"), 1.5 * tm, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "m.y"), 1, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "sh.x"), 1.5 * tm + 10, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "sh.y"), 1, 1e-12);
    ck_assert_double_eq(at(&t, i, "n"), 2);
    ck_assert_double_eq_tol(at(&t, i, "sc"), 3 * tm, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "sc2"), 5 * tm, 1e-12);
  }
  expect_refused(LANG("RecordOperator.mo"),
                 "RecordOperator.mo:11:7: error: operator '*' on a record that is not an operator "
                 "record (Modelica 3.6 chapter 14)");
}
END_TEST

/* Index reduction through a function reading an array input by constant subscripts; a String
 * parameter in the model. */
START_TEST(inline_array_element) {
  static table t;
  run_ok(LANG("InlineElement.mo"), "InlineElement", "--tolerance 1e-10", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time"), e = exp(tm);
    ck_assert_msg(fabs(at(&t, i, "a") - e) < 1e-6 * e, "a(%g)", tm);
    ck_assert_msg(fabs(at(&t, i, "b") - 2 * at(&t, i, "a")) < 1e-12 * e, "b(%g)", tm);
  }
}
END_TEST

/* when {c1, c2} in equations and algorithms; a when-statement on initial() fires once. */
START_TEST(vector_when) {
  static table t;
  run_ok(LANG("VectorWhen.mo"), "VectorWhen", "--interval 0.01", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    if (fabs(tm - 0.3) < 1e-6 || fabs(tm - 0.6) < 1e-6 || fabs(tm - 0.7) < 1e-6) continue;
    ck_assert_msg(at(&t, i, "n") == (tm > 0.3) + (tm > 0.6), "n(%g) = %g", tm, at(&t, i, "n"));
    ck_assert_msg(at(&t, i, "m") == (tm > 0.7 ? 20 : 10), "m(%g) = %g", tm, at(&t, i, "m"));
  }
}
END_TEST

/* Parameters with fixed = false bound by initial equations (also a tuple with array outputs)
 * and an array-valued call with parameter arguments; x = exp(-s t) with s = 3. */
START_TEST(fixed_false_parameters) {
  static table t;
  run_ok(LANG("FixedFalse.mo"), "FixedFalse", "--tolerance 1e-10", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_msg(fabs(at(&t, i, "x") - exp(-3 * tm)) < 1e-7, "x(%g)", tm);
    ck_assert_double_eq(at(&t, i, "d[3]"), 3);
    ck_assert_double_eq(at(&t, i, "x0"), 2);
    double q = tm / 0.25;
    if (fabs(q - floor(q + 0.5)) > 1e-6)
      ck_assert_msg(at(&t, i, "ticks") == floor(q), "ticks(%g) = %g", tm, at(&t, i, "ticks"));
  }
  char *out = NULL;
  char args[4096];
  snprintf(args, sizeof args, "flatten '%s'", st_test_src(LANG("FixedFalse.mo")));
  ck_assert_int_eq(st_test_run(&out, args), 0);
  ck_assert_msg(out && strstr(out, "parameter Real c[3] = 1.5;") && strstr(out, "parameter Real s = 3;") &&
                strstr(out, "parameter Real m[2] = 0.5;"), "%s", out ? out : "");
  free(out);
}
END_TEST

/* Array functions, matrix products, .* and slice assignments inside a function body, and a
 * time-varying array
 * result in an equation (one call per element). */
START_TEST(function_arrays) {
  static table t;
  run_ok(LANG("FunctionArrays.mo"), "FunctionArrays", "", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    double want[14] = {tm + 2, 3 * tm + 4, 3, 4 + tm, 10 + tm + 4 + fmin(tm, 1), 6,
                       tm * tm + 1, 2.5 * tm, 5, 6, fabs(tm) + 2, (tm + 1) * (tm + 1), 4 + 3 * tm, 6 * tm};
    for (int k = 0; k < 14; k++) {
      char nm[16];
      snprintf(nm, sizeof nm, "r[%d]", k + 1);
      ck_assert_msg(fabs(at(&t, i, nm) - want[k]) < 1e-12, "%s(%g) = %.17g, want %.17g", nm, tm,
                    at(&t, i, nm), want[k]);
    }
    ck_assert_double_eq(at(&t, i, "s"), 1);
  }
}
END_TEST

/* An initial equation on a discrete variable defined through a chain ending in pre(). */
START_TEST(discrete_initial_equation) {
  static table t;
  run_ok(LANG("DiscreteInit.mo"), "DiscreteInit", "--interval 0.01", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    if (fabs(tm - 0.5) < 1e-9) continue;
    ck_assert_msg(at(&t, i, "active") == (tm < 0.5), "active(%g) = %g", tm, at(&t, i, "active"));
  }
}
END_TEST

/* der() in a declaration equation. */
START_TEST(der_in_binding) {
  static table t;
  run_ok(LANG("DerBinding.mo"), "DerBinding", "--tolerance 1e-10", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_msg(fabs(at(&t, i, "dp") + 2 * exp(-tm)) < 1e-7, "dp(%g)", tm);
  }
}
END_TEST

/* An input left out whose default is a call returning an array (was NaN in a model: every
 * MultiBody body's Q_start through Quaternions.from_T(T, Q_guess = nullRotation())). */
START_TEST(default_call_argument) {
  static table t;
  run_ok(LANG("DefaultCallArgument.mo"), "DefaultCallArgument", "", &t);
  ck_assert_int_gt(t.nrows, 100);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_double_eq_tol(at(&t, i, "x"), tm + 2, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "y[1]"), 1, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "y[2]"), tm, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "given"), 2 * (tm + 2) + 1, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "z"), 3 * tm, 1e-9);
  }
}
END_TEST

/* A function redeclared with a modifier in a component's modifier reads the modifier's
 * names where it is written (MultiBody's UserDefinedGravityField: `world(redeclare function
 * gravityAcceleration = f(phi = geodeticLatitude))` failed with "used before its
 * declaration (in 'world')"), called inside the component and from outside it. */
START_TEST(redeclared_function_modifier) {
  static table t;
  run_ok(LANG("RedeclaredFunctionModifier.mo"), "RedeclaredFunctionModifier.Test", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_double_eq_tol(at(&t, i, "s.g"), 3 * (1 + tm), 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "outside"), 6, 1e-12);
  }
}
END_TEST

/* Parameters with fixed = false whose initial equations read algebraic variables take the
 * values at the solved initial point, not at the start values (Engine1b_analytic's prismatic
 * joint chose the wrong branch: the piston below the crank pin). */
START_TEST(fixed_false_from_algebraic) {
  static table t;
  run_ok(LANG("FixedFalseAlgebraic.mo"), "FixedFalseAlgebraic", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_double_eq(at(&t, i, "branch"), 1);
    ck_assert_double_eq_tol(at(&t, i, "d"), 2 * (1 + tm), 1e-9);
    ck_assert_double_eq_tol(at(&t, i, "h"), 4, 1e-12);
  }
}
END_TEST

/* A function's protected array of records with its size on the type, `Pair[2] t = {..}`
 * (ReferenceMoistAir's `Complex[2] t`: "the binding of 't' does not fit it"), and on the name. */
START_TEST(record_array_local) {
  static table t;
  run_ok(LANG("RecordArrayLocal.mo"), "RecordArrayLocal.Test", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_double_eq_tol(at(&t, i, "y"), 4 * tm + 6, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "z"), 10 * tm + 12, 1e-12);
  }
}
END_TEST

/* A package constant array of records read in functions: data[j].M and h(data[i], T) with
 * i, j known only when the body runs (an array field indexed too), data.M as a whole, and an
 * if-expression with record branches whose arrays differ in size (MixtureGasNasa, the
 * Inverse_sh_TX example: "'data' is not a record", "needs a record value"). */
START_TEST(record_array_constant) {
  static table t;
  run_ok(LANG("RecordArrayConstant.mo"), "RecordArrayConstant.Test", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time"), x = 0.5 + 0.5 * tm;
    ck_assert_double_eq_tol(at(&t, i, "m"), 1 / (x / 2 + (1 - x) / 4), 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "t"), 3 + 30 * tm, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "w"), 6, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "p1"), 1, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "p0"), 0.3, 1e-12);
  }
}
END_TEST

/* An initial equation on a variable that alias elimination makes a parameter's value is
 * redundant: checked, not counted against the free states (Fluid's NonCircularPipes: "8
 * initial equations for 6 states"); one that contradicts it is a located error. */
START_TEST(redundant_initial_alias) {
  static table t;
  run_ok(LANG("RedundantInitialAlias.mo"), "RedundantInitialAlias", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    double tm = at(&t, i, "time");
    ck_assert_double_eq_tol(at(&t, i, "x"), 2 - exp(-tm), 1e-5);
  }
  char *out = NULL;
  ck_assert_int_eq(simulate(LANG("RedundantInitialAlias.mo"), "-p y0=3", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "RedundantInitialAlias.mo:12:3: error: this initial equation "
                              "names no continuous unknown and does not hold"), "%s", out);
  free(out);
}
END_TEST

/* A package constant sliced by a range with a constant bound in a function body:
 * c[1:n] and c[2:2:4] are arrays, not one element chosen by the range (Media.Incompressible's
 * s_T: poly_Cp[1:npol], TestGlycol's entropy NaN). */
START_TEST(constant_slice_in_function) {
  static table t;
  run_ok(LANG("ConstantSlice.mo"), "ConstantSlice.Test", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++)
    ck_assert_double_eq_tol(at(&t, i, "y"), 111 * at(&t, i, "time") + 1010, 1e-9);
}
END_TEST

/* A record whose extends clause redeclares record fields (redeclare TCell c0, cs) bound
 * as a whole to a component: its fields are those of the redeclared types (Batteries'
 * CCCV_StackRC: "cannot take field 'kDegraded' of this record value"). */
START_TEST(record_redeclared_field) {
  static table t;
  run_ok(LANG("RecordRedeclaredField.mo"), "RecordRedeclaredField.M", "", &t);
  ck_assert_int_gt(t.nrows, 10);
  for (int i = 0; i < t.nrows; i++) {
    ck_assert_double_eq_tol(at(&t, i, "u.y"), 3 * at(&t, i, "time") + 1, 1e-12);
    ck_assert_double_eq_tol(at(&t, i, "z"), 2 * at(&t, i, "time"), 1e-12);
  }
}
END_TEST

ST_TEST_MAIN("lang_func", "lang_func", 120,
             external_builtin, cardinality_counts_connections, array_functions,
             discrete_connections, initial_algorithm, records, inline_array_element, vector_when,
             fixed_false_parameters, function_arrays, discrete_initial_equation, der_in_binding,
             default_call_argument, redeclared_function_modifier, fixed_false_from_algebraic,
             record_array_local, record_array_constant, redundant_initial_alias,
             constant_slice_in_function, record_redeclared_field)
