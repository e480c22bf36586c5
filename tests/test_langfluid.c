/* Language features the fluid, media and math libraries need (issue 15): parameters defined
 * through each other's untaken branches, functional input arguments, calls and asserts as
 * equations, sizes from inputs, assignments at a variable index. Models in
 * tests/data/front/fluid/Fluid.mo. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA "tests/data/front/fluid"
#include <stiction/stiction.h>

#include "testutil.h"
#include "simtable.h"

#define FLUID DATA "/Fluid.mo"

static const table *fluid_run(const char *cls, const char *opts) {
  static table t;
  run_ok(FLUID, cls, opts, &t);
  return &t;
}

/* T_start and h_start each read the other in the branch not taken: an Evaluate condition
 * orders only the branch taken (b computes T_start from h_start, a the other way); the
 * condition keeps its value, and a cycle through an ordinary parameter stays an error. */
START_TEST(decided_parameter_branches) {
  const table *t = fluid_run("Fluid.CrossDefined", "");
  ck_assert_double_eq_tol(t->v[0][col(t, "h")], 4000 * 300 + 1.6e6 / 4000, 1e-6);
  ck_assert_double_eq_tol(t->v[0][col(t, "a.T")], 300, 1e-9);
  ck_assert_double_eq_tol(t->v[0][col(t, "b.T")], 400, 1e-9);
  t = fluid_run("Fluid.CrossDefined", "-p a.T0=310 -p b.use_T_start=true");
  ck_assert_double_eq_tol(t->v[0][col(t, "h")], 4000 * 310 + 300, 1e-6);
  static table u;
  char *out = NULL;
  ck_assert_int_eq(simulate(FLUID, "Fluid.TrueCycle", &u, &out), 1);
  ck_assert_msg(out && strstr(out, "Fluid.mo:25:") && strstr(out, "defined in terms of itself"),
                "%s", out ? out : "");
  free(out);
  /* a compiled program whose condition is changed before the run refuses, located */
  stiction_modelica *mo = stiction_modelica_new();
  stiction_program *prog = NULL;
  ck_assert_int_eq(stiction_modelica_load_file(mo, st_test_src(FLUID)), STICTION_OK);
  ck_assert_int_eq(stiction_modelica_compile(mo, "Fluid.CrossDefined", NULL, 0, &prog),
                   STICTION_OK);
  stiction_instance *in = stiction_instance_new(prog);
  ck_assert_int_eq(stiction_instance_set_by_name(in, "a.use_T_start", 0), STICTION_OK);
  ck_assert_int_ne(stiction_instance_run(in, NULL, NULL), STICTION_OK);
  int found = 0;
  for (int i = 0; i < stiction_instance_n_diagnostics(in); i++) {
    stiction_diagnostic d = {sizeof d, 0, NULL, 0, 0, NULL};
    ck_assert_int_eq(stiction_instance_diagnostic(in, i, &d), STICTION_OK);
    found |= d.line == 7 && strstr(d.message, "parameter 'a.use_T_start' (final or Evaluate = true) "
                                      "was 1 when the model was compiled");
  }
  ck_assert_msg(found, "%s", stiction_instance_error(in));
  stiction_instance_free(in);
  stiction_program_free(prog);
  stiction_modelica_free(mo);
}
END_TEST

/* Functional input arguments (section 12.4.2): a function name or `function g(a = x)` given
 * to an input of a partial function type, called in the body, passed on recursively, with
 * bound arguments that are model expressions (time) or parameters; a call without one is
 * refused, located. */
START_TEST(functional_arguments) {
  const table *t = fluid_run("Fluid.FunctionArguments", "");
  for (int r = 0; r < t->nrows; r++) {
    double tm = t->v[r][col(t, "time")];
    ck_assert_double_eq_tol(t->v[r][col(t, "x")], (tm + 1) / 2, 1e-12); /* 2x - t - 1 = 0 */
    ck_assert_double_eq_tol(t->v[r][col(t, "c")], 0, 1e-12);
    /* trapezoids of u^3 over [0, 2], 8 steps: 4 + h^2/12 (f'(2) - f'(0)) */
    ck_assert_double_eq_tol(t->v[r][col(t, "z")], 4 + 0.0625, 1e-12);
    ck_assert_double_eq_tol(t->v[r][col(t, "sv")], 2, 1e-12); /* of 2u + 1 over [0, 1] */
  }
  t = fluid_run("Fluid.FunctionArguments", "-p k=4");
  ck_assert_double_eq_tol(t->v[0][col(t, "x")], 0.25, 1e-12);
  ck_assert_double_eq_tol(t->v[0][col(t, "sv")], 3, 1e-12);
  static table u;
  char *out = NULL;
  ck_assert_int_eq(simulate(FLUID, "Fluid.MissingFunction", &u, &out), 1);
  ck_assert_msg(out && strstr(out, "Fluid.mo:52:5: error: functional input 'f' of 'Fluid.root' "
                "needs a function argument"), "%s", out ? out : "");
  free(out);
}
END_TEST

/* A function called as an equation (section 8.3.6) for its asserts: over parameters once at
 * initialization, over variables at every evaluation; a failing assert stops the run where
 * it is written. */
START_TEST(call_equations) {
  const table *t = fluid_run("Fluid.CallEquations", "--stop-time 1.5");
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "x")], -0.5, 1e-9);
  static table u;
  char *out = NULL;
  ck_assert_int_eq(simulate(FLUID, "Fluid.CallEquations -p p=-1", &u, &out), 1);
  ck_assert_msg(out && strstr(out, "x below its limit"), "%s", out ? out : "");
  free(out);
  out = NULL;
  ck_assert_int_eq(simulate(FLUID, "Fluid.CallEquations --stop-time 3", &u, &out), 1);
  ck_assert_msg(out && strstr(out, "Fluid.mo:112:5: error: the function call failed") &&
                    strstr(out, "x below its limit at time 2.00"), "%s",
                out ? out : "");
  free(out);
}
END_TEST

/* An input whose size names itself (A[:, size(A, 1)]) is declared before its sizes are
 * read: no message, and the size comes from the argument. */
START_TEST(self_sized_input) {
  static table t;
  char *out = NULL;
  ck_assert_int_eq(simulate(FLUID, "Fluid.SelfSized", &t, &out), 0);
  ck_assert_msg(out && !strstr(out, "error"), "%s", out);
  free(out);
  for (int r = 0; r < t.nrows; r++)
    ck_assert_double_eq_tol(t.v[r][col(&t, "t")], 1 + t.v[r][col(&t, "time")], 1e-12);
}
END_TEST

/* An assert among initial equations holds for the initial values (an algebraic variable
 * already solved) and is not checked afterwards (x falls below lim after t = 0.5). */
START_TEST(initial_asserts) {
  const table *t = fluid_run("Fluid.InitialAssert", "");
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "x")], -1, 1e-9);
  static table u;
  char *out = NULL;
  ck_assert_int_eq(simulate(FLUID, "Fluid.InitialAssert -p lim=2", &u, &out), 1);
  ck_assert_msg(out && strstr(out, "Fluid.mo:140:5: error:") && strstr(out, "x too small") &&
                    strstr(out, "time 0"), "%s", out ? out : "");
  free(out);
}
END_TEST

/* A call in the equations whose array result is sized by an expression of an input. */
START_TEST(sized_output) {
  const table *t = fluid_run("Fluid.SizedOutput", "");
  for (int r = 0; r < t->nrows; r++) {
    double u = t->v[r][col(t, "time")] + 1;
    ck_assert_double_eq_tol(t->v[r][col(t, "p[1]")], 1, 1e-12);
    ck_assert_double_eq_tol(t->v[r][col(t, "p[3]")], u * u, 1e-12);
  }
}
END_TEST

/* buf[tick] := v in a when-clause of a model algorithm: the element the index names takes
 * the value (sampled at 0, 0.1, 0.2, 0.3), the others keep theirs, an index past the end
 * (the if) assigns none. The last row is the right limit of the sample at the stop time
 * t = 1, the 11th tick, as in the command's result file. */
START_TEST(indexed_assign) {
  const table *t = fluid_run("Fluid.IndexedAssign", "");
  const double *last = t->v[t->nrows - 1];
  for (int k = 1; k <= 4; k++) {
    char name[16];
    snprintf(name, sizeof name, "buf[%d]", k);
    ck_assert_double_eq_tol(last[col(t, name)], k - 1, 1e-9);
    snprintf(name, sizeof name, "mem[%d,1]", k);
    ck_assert_double_eq(last[col(t, name)], k);
    snprintf(name, sizeof name, "mem[%d,2]", k);
    ck_assert_double_eq(last[col(t, name)], -k);
  }
  ck_assert_double_eq(last[col(t, "tick")], 11);
}
END_TEST

/* der() of an expression: sums, products, quotients, powers, built-ins and if-expressions
 * down to der() of variables; x = 1 + t. */
START_TEST(der_of_expressions) {
  const table *t = fluid_run("Fluid.DerExpression", "");
  for (int r = 0; r < t->nrows; r++) {
    double tm = t->v[r][col(t, "time")], x = 1 + tm;
    ck_assert_double_eq_tol(t->v[r][col(t, "x")], x, 1e-9);
    ck_assert_double_eq_tol(t->v[r][col(t, "y")], 2 + cos(tm), 1e-9);
    ck_assert_double_eq_tol(t->v[r][col(t, "z")], x - exp(-tm), 1e-9);
    ck_assert_double_eq_tol(t->v[r][col(t, "w")], 2 * x - 2, 1e-6);
    double dv = x > 1.5 ? 0.5 / sqrt(x) : 1 / x;
    if (fabs(x - 1.5) > 1e-9) ck_assert_double_eq_tol(t->v[r][col(t, "v")], dv, 1e-6);
  }
}
END_TEST

/* The initial Newton fails from the default starts 0 (u = U/m is NaN) and succeeds from 1
 * for the unknowns without a start value. */
START_TEST(unset_starts) {
  const table *t = fluid_run("Fluid.UnsetStarts", "");
  ck_assert_double_eq_tol(t->v[0][col(t, "m")], 2000, 1e-6);
  ck_assert_double_eq_tol(t->v[0][col(t, "U")], 10000, 1e-5);
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "u")], 5, 1e-6);
}
END_TEST

/* Modifiers of a redeclared function that read the instance's parameters; the untaken
 * branch of a parameter condition that is invalid for its value; an inherited record result
 * bound to a component's record input. */
START_TEST(instance_functions_and_records) {
  const table *t = fluid_run("Fluid.Pumps", "");
  for (int r = 0; r < t->nrows; r++)
    ck_assert_double_eq_tol(t->v[r][col(t, "pump.y")], 5 * t->v[r][col(t, "time")] + 1, 1e-12);
  t = fluid_run("Fluid.UntakenBranch", "");
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "y")], 5, 1e-12);
  t = fluid_run("Fluid.UntakenBranch", "-p n=3");
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "y")], 1, 1e-12);
  t = fluid_run("Fluid.Monitored", "");
  for (int r = 0; r < t->nrows; r++)
    ck_assert_double_eq_tol(t->v[r][col(t, "monitor.T")], 300 * (1 + t->v[r][col(t, "time")]),
                            1e-9);
}
END_TEST

/* An equation with min() and max() differentiated by index reduction: the derivative of
 * the argument min() and max() choose. */
START_TEST(differentiated_min_max) {
  const table *t = fluid_run("Fluid.DiffMinMax", "");
  for (int r = 0; r < t->nrows; r++) {
    double tm = t->v[r][col(t, "time")];
    if (fabs(tm - 0.5) < 1e-6) continue;
    ck_assert_double_eq_tol(t->v[r][col(t, "v")], tm < 0.5 ? 2 : 1, 1e-6);
    ck_assert_double_eq_tol(t->v[r][col(t, "w")], tm < 0.5 ? 0 : 2, 1e-6);
  }
}
END_TEST

/* Constants of a package set by a short class's modifier size arrays; an index known only
 * at initialization chooses at run time. */
START_TEST(modified_package_constants) {
  const table *t = fluid_run("Fluid.ModifiedPackage", "");
  for (int r = 0; r < t->nrows; r++) {
    double tm = t->v[r][col(t, "time")];
    ck_assert_double_eq_tol(t->v[r][col(t, "c[2]")], 6 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[r][col(t, "C")], 6 * tm, 1e-12);
  }
  t = fluid_run("Fluid.ModifiedPackageWater", "");
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "C")], 3, 1e-12);
  t = fluid_run("Fluid.ModifiedPackageType", "");
  for (int r = 0; r < t->nrows; r++)
    ck_assert_double_eq_tol(t->v[r][col(t, "props.h")], sqrt(4 + t->v[r][col(t, "time")]), 1e-9);
}
END_TEST

/* Expandable connectors (section 9.1.3, Bus.mo): members made by connections, read through
 * the bus by another block and in an equation; a nested bus whose members come from a
 * component's own connections; a declared member no connection reaches is no unknown; a
 * connection between two members neither of which exists is a located error. */
START_TEST(expandable_connectors) {
  static table t;
  char *out = NULL;
  ck_assert_int_eq(simulate(DATA "/Bus.mo", "Bus.Usage", &t, &out), 0);
  free(out);
  for (int r = 0; r < t.nrows; r++) {
    double tm = t.v[r][col(&t, "time")];
    ck_assert_double_eq_tol(t.v[r][col(&t, "bus.a")], tm, 1e-12);
    ck_assert_double_eq_tol(t.v[r][col(&t, "g.y")], 2 * tm, 1e-12);
    ck_assert_double_eq_tol(t.v[r][col(&t, "bus.sub.signal")], 3 * tm, 1e-12);
    ck_assert_double_eq_tol(t.v[r][col(&t, "g2.y")], 6 * tm, 1e-12);
    if (fabs(tm - 0.5) > 1e-9) ck_assert_double_eq(t.v[r][col(&t, "z")], tm > 0.5);
  }
  out = NULL;
  ck_assert_int_eq(simulate(DATA "/Bus.mo", "Bus.PassOn", &t, &out), 0);
  free(out);
  for (int r = 0; r < t.nrows; r++)
    ck_assert_double_eq_tol(t.v[r][col(&t, "g.y")], 2 * t.v[r][col(&t, "time")], 1e-12);
  out = NULL;
  ck_assert_int_eq(simulate(DATA "/Bus.mo", "Bus.Unknown", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "Bus.mo:71:5: error: connect(bus1.a, bus2.b): neither side"),
                "%s", out ? out : "");
  free(out);
}
END_TEST

/* The initial system together with a nonlinear block that has no solution at the start
 * values of the states (init.c solve_joint): m and U follow from p0 and h0. */
START_TEST(joint_initial_system) {
  const table *t = fluid_run("Fluid.JointVessel", "--stop-time 0.1");
  double T = 250 * exp(0.5), d = 2e5 / (287 * T);
  ck_assert_double_eq_tol(t->v[0][col(t, "p")], 2e5, 1e-6);
  ck_assert_double_eq_tol(t->v[0][col(t, "m")], 1e-3 * d, 1e-12);
  ck_assert_double_eq_tol(t->v[0][col(t, "U")], 1e-3 * d * (5e4 - 287 * T), 1e-8);
}
END_TEST

/* The same with the failing block mixed: it joins with its Boolean held (start false, the
 * wrong branch), and the joint system is solved again once the solution turns it true. */
START_TEST(joint_initial_mixed_block) {
  const table *t = fluid_run("Fluid.JointMixedVessel", "--stop-time 0.1");
  double T = 250 * exp(0.5), d = 2e5 / (287 * T);
  ck_assert_double_eq(t->v[0][col(t, "warm")], 1);
  ck_assert_double_eq_tol(t->v[0][col(t, "T")], T, 1e-9);
  ck_assert_double_eq_tol(t->v[0][col(t, "m")], 1e-3 * d, 1e-12);
  ck_assert_double_eq_tol(t->v[0][col(t, "U")], 1e-3 * d * (5e4 - 287 * T), 1e-8);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("langfluid");
  st_test_case(s, "fluid", 0, ST_TESTS(decided_parameter_branches, functional_arguments, call_equations,
                                       self_sized_input, initial_asserts,
                                       sized_output, indexed_assign,
                                       der_of_expressions, unset_starts,
                                       instance_functions_and_records, differentiated_min_max,
                                       modified_package_constants, expandable_connectors,
                                       joint_initial_system, joint_initial_mixed_block));
  return s;
}

int main(void) {
  return st_test_main(suite());
}
