/* Language features of the electrical libraries (issue 15): connected parameters, record
 * bindings, String tests decided while translating, operator records. Models in
 * tests/data/front/ops/Ops.mo. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA "tests/data/front/ops"
#include "compile/compile.h"
#include "testutil.h"
#include "flatutil.h"
#include "simtable.h"

#define OPS DATA "/Ops.mo"

/* A run of Ops.cls with options that must succeed, into a table (simtable.h's run_ok). */
static const table *ops_run(const char *cls, const char *opts) {
  static table t;
  run_ok(OPS, cls, opts, &t);
  return &t;
}

/* The value of column name in the last row of a run of Ops.cls with extra options. */
static double final_value(const char *cls, const char *opts, const char *name) {
  const table *t = ops_run(cls, opts);
  return t->v[t->nrows - 1][col(t, name)];
}

/* Parameters of connected connectors (a fluid port's medium record) are checked by an
 * assertion, not counted as equations (Modelica 3.5 section 9.2): the model stays balanced,
 * and a mismatch stops the run at the connect(). */
START_TEST(connected_parameters) {
  loaded l = flat_ok(OPS, "Ops.ConnectedParameters");
  has_line(&l, "assert(pipe.b.medium.rho == sink.port.medium.rho, \"connected parameters "
               "'pipe.b.medium.rho' and 'sink.port.medium.rho' differ\");");
  lacks(&l, "pipe.b.medium.rho = sink.port.medium.rho;");
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  unload(&l);
  /* m_flow = k (p_src - p_sink) / rho */
  ck_assert_double_eq_tol(final_value("Ops.ConnectedParameters", "", "pipe.a.m_flow"),
                          0.5 * 2 / 1000, 1e-12);
  static table t;
  char *out = NULL;
  ck_assert_int_eq(simulate(OPS, "Ops.ConnectedParameters -p rho2=998", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "Ops.mo:40:5: error: assertion failed at time 0: connected "
                "parameters 'pipe.b.medium.rho' and 'sink.port.medium.rho' differ"), "%s",
                out ? out : "");
  free(out);
}
END_TEST

/* A record binding binds each field (nested records, array fields, arrays of records) unless
 * the field has its own modifier; a record constructor fills nested records from their
 * defaults. */
START_TEST(record_bindings) {
  loaded l = flat_ok(OPS, "Ops.RecordBindings");
  has_line(&l, "parameter Real q.m.rho = p.m.rho;");
  has_line(&l, "parameter Real q.v[2] = p.v[2];");
  has_line(&l, "parameter Real r.a = 7;");
  has_line(&l, "parameter Real port.medium.rho = p.m.rho;");
  ck_assert_double_eq(value_of(l.m, "q.m.rho"), 6);
  ck_assert_double_eq(value_of(l.m, "r.v[1]"), 4);
  ck_assert_double_eq(value_of(l.m, "s.m.cp"), 4200);
  ck_assert_double_eq(value_of(l.m, "t[1].a"), 3);
  ck_assert_double_eq(value_of(l.m, "t[2].v[2]"), 10);
  ck_assert_double_eq(value_of(l.m, "q.twice"), 6); /* a final field is bound too */
  ck_assert_int_eq(l.m->vars[var_index(l.m, "flags.on")].type, ST_T_BOOLEAN);
  unload(&l);
  l = flat_ok(OPS, "Ops.LaterRecord"); /* the variables grow while s.n is evaluated */
  ck_assert_int_ge(var_index(l.m, "x[3]"), 0);
  ck_assert_int_lt(var_index(l.m, "x[4]"), 0);
  unload(&l);
  ck_assert_double_eq_tol(final_value("Ops.RecordBindings", "", "x"), 3, 1e-12);
}
END_TEST

/* A String parameter with a start value is not an unknown of the equations; conditions and
 * if-equations over String tests, also of substring() results, are decided while
 * translating. */
START_TEST(string_choices) {
  ck_assert_double_eq_tol(final_value("Ops.StringChoices", "", "z"), exp(-1), 1e-5);
  ck_assert_double_eq(final_value("Ops.StringChoices", "", "w"), 2);
  loaded l = flat_ok(OPS, "Ops.StringChoices"); /* substring() of constant arguments */
  ck_assert_double_eq(value_of(l.m, "k1"), 1);
  ck_assert_double_eq(value_of(l.m, "k2"), 4);
  unload(&l);
}
END_TEST

/* Fixed start values of an algebraic variable and of a derivative's alias (wM = der(phiM))
 * count in the initial system with the initial equations: phi(0) = 1, w(0) = 2, i(0) = 3;
 * then phi = cos t + 2 sin t. x .^ 2 of a vector in a function is element-wise. */
START_TEST(fixed_algebraics_with_initial_equations) {
  const table *t = ops_run("Ops.FixedShaft", "--tolerance 1e-9");
  int ct = col(t, "time"), cp = col(t, "phi"), cw = col(t, "w"), cr = col(t, "r");
  ck_assert_double_eq_tol(t->v[0][cp], 1, 1e-9);
  ck_assert_double_eq_tol(t->v[0][cw], 2, 1e-9);
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][cp], cos(tm) + 2 * sin(tm), 1e-6);
    ck_assert_double_eq_tol(t->v[k][cr], 3, 1e-9);
  }
}
END_TEST

/* A fixed algebraic affine in one state sets it when the start values do not evaluate:
 * x = 2 s = 0.005 gives s = 0.0025, and the two joined masses accelerate at
 * (F/x^2)/3 (the force 0/0 at the start s = 0 stopped the initialization). */
START_TEST(fixed_algebraic_seeds_its_state) {
  const table *t = ops_run("Ops.FixedGap", "");
  ck_assert_double_eq_tol(t->v[0][col(t, "s")], 0.0025, 1e-12);
  ck_assert_double_eq_tol(t->v[0][col(t, "x")], 0.005, 1e-12);
  ck_assert_double_eq_tol(t->v[0][col(t, "der(v)")], 1e-6 / (0.005 * 0.005) / 3, 1e-9);
  ck_assert(t->v[t->nrows - 1][col(t, "v")] > 0);
}
END_TEST

/* Operator records (Modelica 3.6 chapter 14): +, -, *, / and negation through the operator
 * functions, the constructor with a default input, a number operand converted by the
 * constructor, operators inside a function body, if-expressions over records, arrays of
 * operator records (element-wise, vector and matrix products, .* and ./, -a, sum, product). i = 1 + t, z = 2 + 0.5j, v = z i. */
START_TEST(operator_records) {
  const table *t = ops_run("Ops.ComplexCircuit", "");
  int ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct], i = 1 + tm;
    ck_assert_double_eq_tol(t->v[k][col(t, "v.re")], 2 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "v.im")], 0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "u.re")], -2 * i, 1e-12); /* -(2 v) / z */
    ck_assert_double_eq_tol(t->v[k][col(t, "u.im")], 0, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "s.re")], i * cos(tm), 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "s.im")], i * sin(tm), 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "a")], i * sqrt(4 + 0.25), 1e-12); /* |v - j i| */
    ck_assert_double_eq_tol(t->v[k][col(t, "w.re")], -i, 1e-12);
    /* arrays of operator records: k * us = i + j (2 i + 0.5 j i), element-wise + and 2 * */
    ck_assert_double_eq_tol(t->v[k][col(t, "dot.re")], i - 0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "dot.im")], 2 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "twice[2].im")], i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "scaled[2].re")], 4 * i, 1e-12);
    /* .* and ./ apply the record's operators element by element (not to re and im) */
    ck_assert_double_eq_tol(t->v[k][col(t, "prod[1].re")], i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "prod[1].im")], 0, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "prod[2].re")], -0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "prod[2].im")], 2 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "quot[2].re")], 0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "quot[2].im")], -2 * i, 1e-12);
    /* -a, sum() and product() of arrays of operator records: the records' '-', '+', '*' */
    ck_assert_double_eq_tol(t->v[k][col(t, "neg[2].re")], -2 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "neg[2].im")], -0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "total.re")], 3 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "total.im")], 0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "prodall.re")], 0, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "prodall.im")], 1, 1e-12);
    /* a matrix of records times a vector of them: {1, j; j, 1} {i, v} */
    ck_assert_double_eq_tol(t->v[k][col(t, "mk[1].re")], 0.5 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "mk[1].im")], 2 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "mk[2].re")], 2 * i, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "mk[2].im")], 1.5 * i, 1e-12);
  }
}
END_TEST

/* A call whose record inputs make more than 128 argument elements (Spice3's MOS
 * temperature function), in a parameter binding and in an equation: y = (80 + 2) t. */
START_TEST(wide_record_calls) {
  ck_assert_double_eq_tol(final_value("Ops.WideCall", "", "y"), 82, 1e-12);
}
END_TEST

/* A call with a 700 x 2 parameter table as argument (1402 elements on the evaluator's stack,
 * which starts with 1024 entries): in a parameter binding, k = 2 n(n+1)/2 + n, and in an
 * algebraic loop solved with the call's tangent, y (1 + 1e-6 n(n+1)/2) + 1e-6 n = t. */
START_TEST(wide_table_call) {
  const table *t = ops_run("Ops.WideTable", "");
  const double n = 700, s = n * (n + 1) / 2, *last = t->v[t->nrows - 1];
  ck_assert_double_eq_tol(last[col(t, "z")], (2 * s + n) * last[col(t, "time")], 1e-6);
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][col(t, "time")], y = (tm - 1e-6 * n) / (1 + 1e-6 * s);
    ck_assert_msg(fabs(t->v[k][col(t, "y")] - y) < 1e-9, "y(%g) = %.17g, want %.17g", tm,
                  t->v[k][col(t, "y")], y);
  }
}
END_TEST

/* Nested if-equations with non-parameter conditions: v + i = 1 + t and v = 3 i, then
 * v = 2 i + 1 after 0.5, then i = 0.1 v after 0.7. */
START_TEST(nested_if_equations) {
  const table *t = ops_run("Ops.NestedIf", "");
  int ct = col(t, "time"), ci = col(t, "i");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct], s = 1 + tm;
    if (fabs(tm - 0.5) < 1e-6 || fabs(tm - 0.7) < 1e-6) continue; /* the event rows */
    double i = tm < 0.5 ? s / 4 : tm < 0.7 ? (s - 1) / 3 : s / 11;
    ck_assert_msg(fabs(t->v[k][ci] - i) < 1e-9, "i(%g) = %.17g, want %.17g", tm, t->v[k][ci], i);
  }
}
END_TEST

/* Stream connectors (Modelica 3.5 section 15): no equations between the stream variables of a
 * set; inStream() mixes what the other members offer, weighted by the flow into the set
 * (1 from v1 at h 100, 3 from v2 at h 200, 4 out to w behind an outside connector); an outside
 * connector's stream variable equals its inner set's mixing; actualStream() picks inStream()
 * for inflow. Expected values by hand. */
START_TEST(stream_connectors) {
  loaded l = flat_ok(DATA "/Stream.mo", "Stream.Junction");
  lacks(&l, "v1.port.h_outflow = v2.port.h_outflow;");
  has_line(&l, "w.port.h_outflow = w.v.port.h_outflow;");
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  unload(&l);
  static table t;
  run_ok(DATA "/Stream.mo", "Stream.Junction", "", &t);
  const double *last = t.v[t.nrows - 1];
  static const struct { const char *name; double want; } cases[] = {
      {"v2.port.m_flow", -3}, {"w.port.h_outflow", 300},
      {"v1.hin", (3 * 200.0) / 3}, {"v2.hin", (1 * 100.0) / 1},
      {"w.v.hin", (1 * 100.0 + 3 * 200.0) / 4},
      {"v1.hact", 100}, {"v2.hact", 200}, {"w.v.hact", 175},
      {"w.v.cin[2]", 2 * 175.0}, {"v1.cin[1]", 200}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    ck_assert_msg(fabs(last[col(&t, cases[i].name)] - cases[i].want) < 1e-9, "%s = %.17g",
                  cases[i].name, last[col(&t, cases[i].name)]);
  char *out = NULL;
  ck_assert_int_eq(simulate(DATA "/Stream.mo", "Stream.BadStream", &t, &out), 1);
  ck_assert_msg(out && strstr(out, "Stream.mo:54:14: error: inStream() needs a stream "
                "variable"), "%s", out ? out : "");
  free(out);
}
END_TEST

/* A short class of an operator record that redeclares the fields (`Flux = Cplx(redeclare
 * Real re(unit = "Wb"), ..)`, the library's SI.ComplexMagneticFlux): a binding of a component
 * of it binds each field under the short class's modifiers, the model stays balanced. The
 * constructor and '+' (Inline = true) are inlined.
 * r.V = s.V = (1 + t) + 2j, r.Phi = r.V / k with k = 4. */
START_TEST(short_class_operator_record_bindings) {
  loaded l = flat_ok(OPS, "Ops.MagneticCircuit");
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  /* Inline = true on a constructor whose empty body binds the output by modifiers
   * (`output Cplx result(re = re, im = im)`): inlined as the operators that call it */
  has_line(&l, "s.V.re = 1 + time;");
  has_line(&l, "s.p.Phi.re + s.n.Phi.re = 0;");
  unload(&l);
  const table *t = ops_run("Ops.MagneticCircuit", "");
  int ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "r.Phi.re")], (1 + tm) / 4, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "r.Phi.im")], 2.0 / 4, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "s.Phi.re")], -(1 + tm) / 4, 1e-12);
  }
}
END_TEST

/* Arrays of records as function inputs, read element-wise (u[k].re, u[k] passed on as a
 * record, size(u, 1)), and as outputs; a function of scalar records called with arrays of records gives the
 * array of the element calls. a = {3t + 4tj, 5tj}: rms = (5t + 5t) / 2, power = 3t - 5t. */
START_TEST(record_array_calls) {
  const table *t = ops_run("Ops.RecordArrayCalls", "");
  int ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "r")], 5 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "p")], -2 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "magnitudes[1]")], 5 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "magnitudes[2]")], 5 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "products[1]")], 6 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "products[2]")], -5 * tm, 1e-12);
  }
  /* arrays of records as outputs: a vector through rms(), a matrix assigned element by
   * element (t[i, j] = i e^(j w j)) into a parameter and a variable */
  t = ops_run("Ops.RecordArrayOutput", "");
  ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++)
    ck_assert_double_eq_tol(t->v[k][col(t, "r")], t->v[k][ct], 1e-12);
  t = ops_run("Ops.RecordArrayResults", "");
  ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "y")], 2 * sin(0.5), 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "v[1,2].re")], cos(2 * tm), 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "v[2,2].im")], 2 * sin(2 * tm), 1e-12);
  }
}
END_TEST

/* Functions of scalar inputs called with arrays: the array of the element calls (a scalar
 * input no longer takes the whole array: x * x was the dot product). A function imported
 * under the name of a built-in hides it. */
START_TEST(vectorized_calls) {
  const table *t = ops_run("Ops.VectorizedCalls", "");
  int ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "z[1]")], 3 * tm * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "z[2]")], 12 * tm * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "w[1,2]")], 4, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "w[2,2]")], tm * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "c[2].re")], 2 * cos(tm), 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "c[3].im")], 2 * sin(2 * tm), 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "s[2]")], sin(2 * tm), 1e-12);
  }
  /* an imported function hides the built-in of the same name: abs() of a complex number */
  t = ops_run("Ops.ImportedAbs", "");
  ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "m")], 5 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "n")], 5 * tm + 1, 1e-12);
  }
  /* f({x(k) for k in r}) is {f(x(k)) for k in r}, in a function body and in a model:
   * p = re(a1) + re(j a2) = 3t - 5t */
  t = ops_run("Ops.ComprehensionCalls", "");
  ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "p")], -2 * tm, 1e-12);
    ck_assert_double_eq_tol(t->v[k][col(t, "q[2]")], 4 * tm * tm, 1e-12);
  }
}
END_TEST

/* A record value's fields take the defaults of the extends clauses and field modifiers of
 * its class (MatDerived extends MatBase(a = 4, b = 0.5)), and a field bound to other fields
 * (c = a * b) reads the value's own: c = 2 for MatDerived(), 8 for MatDerived(b = 2), 3 for
 * Holder's m(a = k); also a protected record of a function. */
START_TEST(extended_record_values) {
  const table *t = ops_run("Ops.ExtendedRecordValues", "");
  int ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    ck_assert_double_eq_tol(t->v[k][col(t, "y")], 2, 1e-15);
    ck_assert_double_eq_tol(t->v[k][col(t, "z")], 12, 1e-15);
    ck_assert_double_eq_tol(t->v[k][col(t, "w")], 3, 1e-15);
    ck_assert_double_eq_tol(t->v[k][col(t, "v")], 2 + t->v[k][ct], 1e-12);
  }
}
END_TEST

/* A model starting at a negative time (MSL FluxTubes ForceStrokeBehaviour starts at -4 s):
 * a relation on time whose threshold is the start is no event later; the one at -0.5 is. */
START_TEST(negative_start_time) {
  const table *t = ops_run("Ops.NegativeStart", "");
  int ct = col(t, "time"), cu = col(t, "u");
  ck_assert_double_eq(t->v[0][ct], -1);
  ck_assert_double_eq(t->v[t->nrows - 1][ct], 1);
  for (int k = 0; k < t->nrows; k++) {
    double tm = t->v[k][ct];
    ck_assert_double_eq_tol(t->v[k][col(t, "y")], tm + 1, 1e-12);
    if (tm != -0.5) ck_assert_double_eq(t->v[k][cu], tm < -0.5 ? 1 : 2);
  }
}
END_TEST

/* An if-expression whose condition reads only constants and final or Evaluate = true
 * parameters is its taken branch for the structure: with `nonlinear` false, mu = k, and
 * g, r, b follow one by one (no loop through b); b = (1 + t) / (3 k). The flag's value at
 * translation holds: a run that sets it is refused. */
START_TEST(structural_if_expressions) {
  loaded l = flat_ok(OPS, "Ops.StructuralIf");
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  st_diag *diag = st_diag_new(f);
  st_compiled *cm = st_compile(l.m, diag);
  ck_assert_ptr_nonnull(cm);
  st_compile_info info;
  st_compiled_info(cm, &info);
  ck_assert_int_eq(info.n_nonlinear, 0);
  ck_assert_int_eq(info.n_linear, 0);
  /* the instance may not run with the flag changed */
  ck_assert_int_eq(st_compiled_set_parameter(cm, "nonlinear", 1), 0);
  const stiction_model *m = st_compiled_model(cm);
  double y[1], yp[1];
  ck_assert_int_ne(m->start_values(st_compiled_data(cm), 0, y, yp), 0);
  fflush(f);
  ck_assert_msg(strstr(text, "Ops.mo:591:23: error: parameter 'nonlinear' ") &&
                strstr(text, "it cannot become 1"), "%s", text);
  st_compiled_free(cm);
  st_diag_free(diag);
  fclose(f);
  free(text);
  unload(&l);
  const table *t = ops_run("Ops.StructuralIf", "");
  for (int k = 0; k < t->nrows; k++)
    ck_assert_double_eq_tol(t->v[k][col(t, "b")], (1 + t->v[k][col(t, "time")]) / 6, 1e-15);
}
END_TEST

/* An array of records inside a record is one array per field (p.cells.R), bound from a
 * record value and read element-wise; a field two bases declare is one; `.sum` is the
 * built-in where a function `sum` hides it. An assert in a branch of an if-equation whose
 * condition varies holds only while that branch is taken (x reaches 0.5 < 0.6 and is then
 * free of it). */
START_TEST(record_array_fields) {
  const table *t = ops_run("Ops.RecordArrayFields", "");
  int ct = col(t, "time");
  for (int k = 0; k < t->nrows; k++) {
    ck_assert_double_eq_tol(t->v[k][col(t, "u.y")], 3 + 5, 1e-15);
    ck_assert_double_eq_tol(t->v[k][col(t, "u.z")], 2 + 3, 1e-15);
    ck_assert_double_eq_tol(t->v[k][col(t, "w")], 2 * (1 + t->v[k][ct]), 1e-12);
  }
  t = ops_run("Ops.GuardedAssert", "--stop-time 2");
  ct = col(t, "time");
  ck_assert_double_eq(t->v[t->nrows - 1][ct], 2);
  ck_assert_double_eq_tol(t->v[t->nrows - 1][col(t, "x")], -1, 1e-6);
  static table u;
  char *out = NULL;
  ck_assert_int_eq(simulate(OPS, "Ops.GuardedAssert -p x0=0.2 --stop-time 2", &u, &out), 1);
  ck_assert_msg(out && strstr(out, "x left its range in the first half"), "%s", out ? out : "");
  free(out);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("langops");
  st_test_case(s, "ops", 0, ST_TESTS(connected_parameters, record_bindings, string_choices,
                                      fixed_algebraics_with_initial_equations,
                                      fixed_algebraic_seeds_its_state,
                                      operator_records, wide_record_calls, wide_table_call,
                                      nested_if_equations, stream_connectors,
                                      short_class_operator_record_bindings,
                                      record_array_calls, vectorized_calls,
                                      extended_record_values, negative_start_time,
                                      structural_if_expressions, record_array_fields));
  return s;
}

int main(void) {
  return st_test_main(suite());
}
