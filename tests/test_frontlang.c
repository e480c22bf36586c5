/* The Modelica language as the genuine library uses it, in the front end: declaration
 * order, redeclaration, types derived from the predefined ones, inner/outer, conditions
 * and array sizes from parameter expressions. Models in tests/data/front/lang/Lang.mo. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DATA "tests/data/front/lang"
#include "testutil.h"
#include "flatutil.h"

#define LANG DATA "/Lang.mo"

/* `stiction flatten Lang.mo cls` fails with "Lang.mo:where: error: msg". */
static void located_error(const char *cls, const char *where, const char *msg) {
  char cmd[512], want[512], *out = NULL;
  const char *src = getenv("STICTION_SRCDIR");
  if (src) ck_assert_int_eq(chdir(src), 0);
  snprintf(cmd, sizeof cmd, "flatten %s %s", LANG, cls);
  int rc = st_test_run(&out, cmd);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(rc == 1, "%s: exit %d\n%s", cls, rc, out);
  snprintf(want, sizeof want, "%s:%s: error: %s", LANG, where, msg);
  ck_assert_msg(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
  free(out);
}

/* Names may be used before their declaration (Modelica 3.5 section 5.6.1): a base class's
 * size from a later component, sizes from components declared later and from their
 * elements. */
START_TEST(declaration_order) {
  loaded l = flat_ok(LANG, "Lang.DeclOrder");
  ck_assert_double_eq(value_of(l.m, "g.nout"), 2);
  ck_assert_int_ge(var_index(l.m, "g.y[2]"), 0);
  ck_assert_int_lt(var_index(l.m, "g.y[3]"), 0);
  ck_assert_int_ge(var_index(l.m, "z[3]"), 0); /* h.n = m + 1 */
  ck_assert_int_lt(var_index(l.m, "z[4]"), 0);
  ck_assert_double_eq(start_of(l.m, "z[2]"), 1);
  ck_assert_int_ge(var_index(l.m, "w[4]"), 0); /* size(g.y, 1) + m */
  ck_assert_int_lt(var_index(l.m, "w[5]"), 0);
  has_line(&l, "g.y[2] = g.k[2]*time;");
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  unload(&l);
  located_error("Lang.DeclCycle", "40:32", "the declaration of 'x' depends on itself");
}
END_TEST

/* Conditions and expressions over String parameters are decided while flattening. */
START_TEST(string_parameter_conditions) {
  loaded l = flat_ok(LANG, "Lang.StringConditions");
  ck_assert_int_ge(var_index(l.m, "d.delta"), 0);
  ck_assert_int_lt(var_index(l.m, "d.star"), 0);
  ck_assert_int_ge(var_index(l.m, "y.star"), 0); /* the start value when no binding */
  ck_assert_int_lt(var_index(l.m, "y.delta"), 0);
  ck_assert_double_eq(value_of(l.m, "d.order"), 1);
  ck_assert_double_eq(value_of(l.m, "y.order"), 2);
  unload(&l);
}
END_TEST

/* connect(r.p, plug.pin) for an array r of components: element by element; slices too. */
START_TEST(connect_through_component_arrays) {
  loaded l = flat_ok(LANG, "Lang.ArrayConnects");
  has_line(&l, "r[1].p.v = plug.pin[1].v;");
  has_line(&l, "r[3].p.v = plug.pin[3].v;");
  has_line(&l, "r[3].p.v = r[2].n.v;");
  has_line(&l, "r[2].p.i + r[1].n.i - plug.pin[2].i = 0;");
  has_line(&l, "r[3].n.v = g.v;");
  lacks(&l, "\n  r[1].n.i = 0;");
  unload(&l);
}
END_TEST

/* redeclare of components (Modelica 3.5 section 7.3): in an extends modifier, in a
 * component's modifier, among a derived class's elements, with `each` on arrays; the
 * replaced declaration's modifier stays unless a constraining clause gives one. */
START_TEST(redeclare_components) {
  loaded l = flat_ok(LANG, "Lang.Redeclares");
  ck_assert_double_eq(value_of(l.m, "rs.signal.slope"), 2);
  ck_assert_double_eq(value_of(l.m, "rs.signal.offset"), 1); /* final offset = offset */
  ck_assert(l.m->vars[var_index(l.m, "rs.signal.offset")].is_final);
  has_line(&l, "rs.signal.y = rs.signal.offset + rs.signal.slope*time;");
  ck_assert_double_eq(value_of(l.m, "vs.signal.k"), 7);
  has_line(&l, "vs.signal.y = vs.signal.offset + vs.signal.k;");
  ck_assert_double_eq(value_of(l.m, "b.c.slope"), 4);
  ck_assert_double_eq(value_of(l.m, "b.c.offset"), 3); /* from constrainedby */
  ck_assert_int_lt(var_index(l.m, "b.c.k"), 0);
  ck_assert_double_eq(value_of(l.m, "c2.c.offset"), 3);
  ck_assert_double_eq(value_of(l.m, "c2.c.slope"), 1);
  ck_assert_double_eq(value_of(l.m, "sev.s[2].k"), 2);
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  unload(&l);
  located_error("Lang.NotReplaceable", "144:28", "'s' is not replaceable and cannot be redeclared");
  located_error("Lang.ClassRedeclare", "148:15", "redeclaring the class 'M' is not supported");
}
END_TEST

/* x[2:3], x[{4, 1}] select elements while flattening; x[k + 1] and m[k, :] with k a
 * variable choose among the elements at run time. */
START_TEST(subscripts) {
  loaded l = flat_ok(LANG, "Lang.Subscripts");
  has_line(&l, "s[2] = x[3];");
  has_line(&l, "v[1] = x[4];");
  has_line(&l, "v[2] = x[1];");
  has_line(&l, "row[3] = if k == 1 then m[1,3] else m[2,3];");
  has_line(&l, "pick = if k + 1 == 1 then x[1] else if k + 1 == 2 then x[2] else "
               "if k + 1 == 3 then x[3] else x[4];");
  unload(&l);
}
END_TEST

/* when {a, b} is when a ... elsewhen b ... with the same body, in equations and algorithms. */
START_TEST(vector_when_conditions) {
  loaded l = flat_ok(LANG, "Lang.VectorWhen");
  ck_assert_ptr_nonnull(strstr(l.text, "  when a then\n    y = pre(y) + 1;\n  elsewhen b then\n"
                                       "    y = pre(y) + 1;\n  end when;"));
  ck_assert_ptr_nonnull(strstr(l.text, "  when a then\n    z := pre(z) + 2;\n  elsewhen b then\n"
                                       "    z := pre(z) + 2;\n  end when;"));
  unload(&l);
}
END_TEST

/* Base classes and types through imports of the class itself (import T = ...; extends
 * T.Base), dimensions given by enumeration types, constant tables indexed by variables. */
START_TEST(enumeration_dimensions_and_tables) {
  loaded l = flat_ok(LANG, "Lang.EnumTable");
  ck_assert_double_eq(value_of(l.m, "k"), 5);
  ck_assert_int_ge(var_index(l.m, "sizes[3]"), 0);
  ck_assert_int_lt(var_index(l.m, "sizes[4]"), 0);
  has_line(&l, "Integer n = if x == 1 then 3 else if x == 2 then 1 else 2;");
  unload(&l);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("frontlang");
  TCase *t = tcase_create("lang");
  tcase_add_test(t, declaration_order);
  tcase_add_test(t, string_parameter_conditions);
  tcase_add_test(t, connect_through_component_arrays);
  tcase_add_test(t, redeclare_components);
  tcase_add_test(t, subscripts);
  tcase_add_test(t, vector_when_conditions);
  tcase_add_test(t, enumeration_dimensions_and_tables);
  suite_add_tcase(s, t);
  return s;
}

int main(void) {
  SRunner *r = srunner_create(suite());
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
