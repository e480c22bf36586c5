/* The front end's second half: library loading, lookup, modifiers, connections,
 * conditional components, functions, golden flat outputs and located errors. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "front/flat_expr.h"
#include "front/front.h"
#include "front/libpath.h"
#define DATA "tests/data/front/flatten"
#include "testutil.h"
#include "flatutil.h"

static char *read_all(const char *path) {
  char *text = st_read_file(path, NULL);
  ck_assert_msg(text != NULL, "cannot read %s", path);
  return text;
}

static void golden(const char *args, const char *flat) {
  char *out = NULL;
  int rc = run_flatten(&out, args);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(rc == 0, "flatten %s failed:\n%s", args, out);
  char *want = read_all(st_test_src(flat));
  ck_assert_msg(strcmp(out, want) == 0, "flatten %s:\n--- got\n%s--- want\n%s", args, out, want);
  free(want);
  free(out);
}

/* ------------------------------------------------------------------ golden outputs */

START_TEST(test_golden_two_inertias) {
  golden(DATA "/TwoInertias.mo", DATA "/TwoInertias.flat");
}
END_TEST

START_TEST(test_golden_clutch) {
  golden(DATA "/ClutchLike.mo", DATA "/ClutchLike.flat");
}
END_TEST

START_TEST(test_golden_package) {
  /* a file `within Pkg.Examples;` finds Pkg on the library path */
  golden("-L " DATA " " DATA "/Pkg/Examples/Oscillator.mo", DATA "/Oscillator.flat");
  /* the same class from the directory package loaded directly */
  golden(DATA "/Pkg Pkg.Examples.Oscillator", DATA "/Oscillator.flat");
}
END_TEST

/* ------------------------------------------------------------------ loading */

START_TEST(test_package_order) {
  st_pkg_entry *e;
  int n = st_pkg_entries(st_test_src(DATA "/Pkg"), &e);
  ck_assert_int_eq(n, 3); /* Units is defined inside package.mo, not as a file */
  ck_assert_str_eq(e[0].name, "Interfaces");
  ck_assert_int_eq(e[0].is_dir, 1);
  ck_assert_str_eq(e[1].name, "Components");
  ck_assert_int_eq(e[1].is_dir, 0);
  ck_assert_str_eq(e[2].name, "Examples");
  st_pkg_entries_free(e, n);
}
END_TEST

START_TEST(test_library_path) {
  st_libpath lp = {0};
  ck_assert_int_eq(st_libpath_add_list(&lp, "/nonexistent::" ), 0);
  ck_assert_int_eq(lp.n, 1);
  ck_assert_int_eq(st_libpath_add(&lp, st_test_src(DATA)), 0);
  int is_dir = -1;
  char *p = st_libpath_find(&lp, "Pkg", &is_dir);
  ck_assert_ptr_nonnull(p);
  ck_assert_int_eq(is_dir, 1);
  free(p);
  p = st_libpath_find(&lp, "Cases", &is_dir);
  ck_assert_ptr_nonnull(p);
  ck_assert_int_eq(is_dir, 0);
  free(p);
  ck_assert_ptr_null(st_libpath_find(&lp, "Nothing", &is_dir));
  st_libpath_free(&lp);
}
END_TEST

START_TEST(test_modelicapath) {
  /* Pkg is found through MODELICAPATH (an empty entry and a missing directory are skipped) */
  char list[4200];
  snprintf(list, sizeof list, "/nonexistent::%s", st_test_src(DATA));
  setenv("MODELICAPATH", list, 1);
  st_diag *d = st_diag_new(NULL);
  st_front *fe = st_front_new(d);
  ck_assert_int_eq(st_front_add_default_paths(fe), 0);
  ck_assert_int_eq(st_front_load_file(fe, st_test_src(DATA "/Pkg/Examples/Oscillator.mo")), 0);
  st_flat_model *m = st_front_flatten(fe, "Pkg.Examples.Oscillator");
  ck_assert_msg(m != NULL, "%s", st_diag_first_error(d));
  st_flat_free(m);
  unsetenv("MODELICAPATH");
  st_front_free(fe);
  st_diag_free(d);
  /* without it, the within clause names a package that does not exist */
  d = st_diag_new(NULL);
  fe = st_front_new(d);
  ck_assert_int_ne(st_front_load_file(fe, st_test_src(DATA "/Pkg/Examples/Oscillator.mo")), 0);
  ck_assert_ptr_nonnull(strstr(st_diag_first_error(d), "package 'Pkg.Examples'"));
  st_front_free(fe);
  st_diag_free(d);
}
END_TEST

/* The front end remembers what a type name denotes from a scope (lookup.c) and the entries
 * of library directories (libpath.c); a class given later on the command line must still
 * replace (Lib.T) or hide (Lib.U over the top-level U) what an earlier flattening found. Lib
 * has more than 8 classes, so its kids are indexed (loader.c) and the replacement goes
 * through the index. */
START_TEST(test_lookups_forgotten_when_classes_given) {
  char dir[256], sub[300];
  snprintf(dir, sizeof dir, "/tmp/stiction_lookups_%ld", (long)getpid());
  snprintf(sub, sizeof sub, "%s/Lib", dir);
  ck_assert_int_eq(mkdir(dir, 0700), 0);
  /* the library's directories are listed once, when first looked into (libpath.c): files
   * written after the path was added and before the first lookup are seen */
  st_diag *d = st_diag_new(NULL);
  st_front *fe = st_front_new(d);
  st_front_add_library_path(fe, dir);
  ck_assert_int_eq(mkdir(sub, 0700), 0);
  st_test_write(sub, "package.mo",
             "package Lib\n  model M\n    T t;\n    U u;\n  end M;\n"
             "  model P1 end P1; model P2 end P2; model P3 end P3; model P4 end P4;\n"
             "  model P5 end P5; model P6 end P6; model P7 end P7; model P8 end P8;\n"
             "end Lib;\n");
  st_test_write(sub, "T.mo", "within Lib;\nmodel T\n  parameter Real y = 1;\nend T;\n");
  st_test_write(dir, "U.mo", "model U\n  parameter Real z = 1;\nend U;\n");
  st_test_write(dir, "R.mo", "within Lib;\nmodel T\n  parameter Real y = 2;\nend T;\n");
  st_test_write(dir, "H.mo", "within Lib;\nmodel U\n  parameter Real z = 3;\nend U;\n");
  const char *steps[] = {NULL, "R.mo", "H.mo"};
  const double y[] = {1, 2, 2}, z[] = {1, 1, 3};
  for (int i = 0; i < 3; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, steps[i] ? steps[i] : "");
    if (steps[i]) ck_assert_int_eq(st_front_load_file(fe, path), 0);
    st_flat_model *m = st_front_flatten(fe, "Lib.M");
    ck_assert_msg(m != NULL, "%s", st_diag_first_error(d));
    ck_assert_msg(value_of(m, "t.y") == y[i], "step %d: t.y = %g", i, value_of(m, "t.y"));
    ck_assert_msg(value_of(m, "u.z") == z[i], "step %d: u.z = %g", i, value_of(m, "u.z"));
    st_flat_free(m);
  }
  st_front_free(fe);
  st_diag_free(d);
  const char *files[] = {"Lib/package.mo", "Lib/T.mo", "U.mo", "R.mo", "H.mo"};
  for (int i = 0; i < 5; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  rmdir(sub);
  rmdir(dir);
}
END_TEST

START_TEST(test_default_class) {
  loaded l = flat_ok(DATA "/TwoInertias.mo", NULL);
  ck_assert_str_eq(l.m->name, "TwoInertias");
  ck_assert(l.m->experiment.has_stop && l.m->experiment.stop_time == 1.5);
  ck_assert(l.m->experiment.has_interval && l.m->experiment.interval == 0.001);
  ck_assert(l.m->experiment.has_tolerance && l.m->experiment.tolerance == 1e-6);
  ck_assert(!l.m->experiment.has_start);
  unload(&l);
}
END_TEST

/* ------------------------------------------------------------------ lookup */

START_TEST(test_lookup_enclosing_and_enum) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.LookupEnclosing");
  ck_assert_double_eq_tol(value_of(l.m, "i.q"), 9.81, 1e-15);
  ck_assert_double_eq_tol(value_of(l.m, "twice"), 19.62, 1e-14);
  int k = var_index(l.m, "mode");
  ck_assert_int_eq(l.m->vars[k].type, ST_T_ENUM);
  ck_assert_double_eq(value_of(l.m, "mode"), 3);
  ck_assert_int_eq(l.m->vars[k].n_enum_literals, 3);
  unload(&l);
}
END_TEST

START_TEST(test_lookup_encapsulated_imports) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.Enc");
  ck_assert_double_eq_tol(value_of(l.m, "h"), 9.81, 1e-15);
  ck_assert_double_eq_tol(value_of(l.m, "h2"), 9.81, 1e-15);
  unload(&l);
}
END_TEST

START_TEST(test_lookup_package_imports) {
  /* SI (import in Pkg), wildcard, multiple and single imports, encapsulated Fixed */
  loaded l = flat_ok(DATA "/Pkg/Examples/Oscillator.mo", NULL);
  ck_assert_str_eq(l.m->name, "Pkg.Examples.Oscillator");
  int k = var_index(l.m, "mass.a.s");
  ck_assert_int_ge(k, 0);
  ck_assert_str_eq(l.m->vars[k].unit, "m");
  ck_assert_double_eq_tol(value_of(l.m, "spring.c"), 2 * 3.14159265358979, 1e-13);
  unload(&l);
}
END_TEST

/* ------------------------------------------------------------------ modifiers */

START_TEST(test_modifier_precedence) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.Outer");
  ck_assert_double_eq(value_of(l.m, "m.a"), 10);  /* extends modifier over the default */
  ck_assert_double_eq(value_of(l.m, "m.b"), 200); /* outer modifier over extends modifier */
  ck_assert_double_eq(value_of(l.m, "m.c"), 3);   /* declaration */
  ck_assert_double_eq(start_of(l.m, "m.x"), 7);
  unload(&l);
}
END_TEST

START_TEST(test_modifier_each_and_arrays) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.EachArray");
  ck_assert_double_eq(value_of(l.m, "arr[1].a"), 1);
  ck_assert_double_eq(value_of(l.m, "arr[2].a"), 2);
  ck_assert_double_eq(value_of(l.m, "arr[3].a"), 3);
  ck_assert_double_eq(value_of(l.m, "arr[3].c"), 4);
  ck_assert_double_eq(start_of(l.m, "arr[2].x"), 0.5);
  unload(&l);
}
END_TEST

START_TEST(test_modifier_final) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.Finals");
  ck_assert(l.m->vars[var_index(l.m, "f.a")].is_final);
  ck_assert(!l.m->vars[var_index(l.m, "f.b")].is_final);
  unload(&l);
  l = load(DATA "/errors/finalmod.mo", NULL);
  ck_assert_ptr_null(l.m);
  ck_assert_msg(strstr(st_diag_first_error(l.diag), "final") != NULL, "%s",
                st_diag_first_error(l.diag));
  unload(&l);
}
END_TEST

START_TEST(test_attributes) {
  loaded l = flat_ok(DATA "/TwoInertias.mo", NULL);
  int k = var_index(l.m, "J1.phi");
  ck_assert_int_eq(l.m->vars[k].state_select, ST_SS_PREFER);
  ck_assert_int_eq(l.m->vars[k].fixed, 1);
  ck_assert_str_eq(l.m->vars[k].unit, "rad");
  ck_assert_str_eq(l.m->vars[k].display_unit, "deg");
  k = var_index(l.m, "J2.J");
  ck_assert_int_eq(l.m->vars[k].variability, ST_V_PARAMETER);
  ck_assert_double_eq(value_of(l.m, "J2.J"), 4);
  ck_assert_str_eq(l.m->vars[k].description, "Moment of inertia");
  k = var_index(l.m, "J1.flange_a.tau");
  ck_assert(l.m->vars[k].is_flow);
  unload(&l);
}
END_TEST

/* ------------------------------------------------------------------ connections */

START_TEST(test_connect_three_way) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.ThreeWay");
  has_line(&l, "r1.p.v = r2.p.v;");
  has_line(&l, "r1.p.v = r3.p.v;");
  has_line(&l, "r1.p.i + r2.p.i + r3.p.i = 0;");
  has_line(&l, "r1.n.v = g.p.v;");
  has_line(&l, "r1.n.i + g.p.i = 0;");
  /* unconnected flows of inside connectors */
  has_line(&l, "r2.n.i = 0;");
  has_line(&l, "r3.n.i = 0;");
  lacks(&l, "r1.p.i = 0;");
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  unload(&l);
}
END_TEST

START_TEST(test_connect_outside) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.UseComposite");
  has_line(&l, "c.r.p.i - c.pin.i = 0;"); /* outside connector counts negative */
  has_line(&l, "c.pin.i + g.p.i = 0;");
  has_line(&l, "c.r.n.i = 0;");
  ck_assert_int_eq(st_flat_count_unknowns(l.m), st_flat_count_equations(l.m));
  unload(&l);
}
END_TEST

START_TEST(test_conditional_components) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.Cond0");
  ck_assert_int_lt(var_index(l.m, "w.support.v"), 0);
  ck_assert_int_ge(var_index(l.m, "w.fixedSupport.v"), 0);
  has_line(&l, "w.fixedSupport.v = 0;");
  lacks(&l, "w.support");
  unload(&l);
  l = flat_ok(DATA "/Cases.mo", "Cases.Cond1");
  ck_assert_int_ge(var_index(l.m, "w.support.v"), 0);
  ck_assert_int_lt(var_index(l.m, "w.fixedSupport.v"), 0);
  has_line(&l, "w.flange.v = w.support.v;");
  has_line(&l, "-w.flange.i - w.support.i = 0;");
  unload(&l);
}
END_TEST

START_TEST(test_declaration_order) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.LateParam");
  ck_assert_int_ge(var_index(l.m, "p.v"), 0);
  ck_assert_int_ge(var_index(l.m, "x[2]"), 0);
  ck_assert_int_lt(var_index(l.m, "x[3]"), 0);
  ck_assert(l.m->vars[var_index(l.m, "n")].evaluate);
  ck_assert(!l.m->vars[var_index(l.m, "use")].evaluate);
  unload(&l);
}
END_TEST

/* ------------------------------------------------------------------ equations, functions */

START_TEST(test_for_equations) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.ForLoop");
  has_line(&l, "x[1] = 1*time;");
  has_line(&l, "x[2] = 2*time;");
  has_line(&l, "x[3] = 3*time;");
  unload(&l);
}
END_TEST

START_TEST(test_functions) {
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.CallsFunction");
  ck_assert_int_eq(l.m->nfunctions, 1);
  const st_ffunction *f = &l.m->functions[0];
  ck_assert_str_eq(f->name, "Cases.square");
  ck_assert_int_eq(f->nlocals, 3);
  ck_assert_int_eq(f->locals[0].causality, ST_C_INPUT);
  ck_assert_int_eq(f->locals[1].causality, ST_C_OUTPUT);
  ck_assert_int_eq(f->locals[2].causality, ST_C_NONE);
  ck_assert_int_eq(f->body.n, 2);
  int k = var_index(l.m, "y");
  ck_assert_int_eq(l.m->vars[k].binding->kind, FX_CALL);
  unload(&l);
}
END_TEST

START_TEST(test_function_in_parameter_binding) {
  /* evaluated while flattening: tab[:, 2] takes its size from the call's result */
  loaded l = flat_ok(DATA "/Cases.mo", "Cases.TableParam");
  ck_assert_int_ge(var_index(l.m, "tab[3,2]"), 0);
  ck_assert_int_lt(var_index(l.m, "tab[4,1]"), 0);
  ck_assert_double_eq(value_of(l.m, "tab[2,1]"), 2);
  ck_assert_double_eq(value_of(l.m, "tab[3,2]"), 18);
  ck_assert_double_eq(value_of(l.m, "rows"), 3);
  unload(&l);
}
END_TEST

/* ------------------------------------------------------------------ errors */

/* ------------------------------------------------------------------ class substitution */

static st_flat_model *substituted(loaded *l, const char *component, const char *cls,
                                  const char *mod) {
  st_front_subst sub = {component, cls};
  return st_front_flatten_substituted(l->fe, "Subst.Top", mod ? &mod : NULL, mod ? 1 : 0,
                                      "test", &sub, 1);
}

/* A substituted component takes the new class's elements and equations and keeps the
 * modifiers of its declaration (k = 3 in Inner) and of outer levels (the top modifier). */
START_TEST(test_class_substitution) {
  loaded l = flat_ok(DATA "/Subst.mo", "Subst.Top");
  ck_assert_double_eq(value_of(l.m, "i.a.y"), 3);
  ck_assert_int_lt(var_index(l.m, "i.a.g"), 0);
  st_flat_model *m = substituted(&l, "i.a", "Subst.B", NULL);
  ck_assert_msg(m != NULL, "%s", st_diag_first_error(l.diag));
  ck_assert_double_eq(value_of(m, "i.a.y"), 6); /* g*k = 2*3 */
  ck_assert_double_eq(value_of(m, "top.y"), 5); /* the other A untouched */
  st_flat_free(m);
  m = substituted(&l, "top", "Subst.B", "top.g = 4");
  ck_assert_msg(m != NULL, "%s", st_diag_first_error(l.diag));
  ck_assert_double_eq(value_of(m, "top.y"), 20);
  ck_assert_double_eq(value_of(m, "i.a.y"), 3);
  st_flat_free(m);
  ck_assert_str_eq(st_front_component_class(l.fe, "Subst.Top", "i.a"), "Subst.A");
  ck_assert_str_eq(st_front_component_class(l.fe, "Subst.Top", "i"), "Subst.Inner");
  ck_assert_ptr_null(st_front_component_class(l.fe, "Subst.Top", "i.b"));
  ck_assert_ptr_null(st_front_component_class(l.fe, "Subst.Top", "nope"));
  unload(&l);
}
END_TEST

static void substitution_fails(const char *component, const char *cls, const char *msg) {
  loaded l = flat_ok(DATA "/Subst.mo", "Subst.Top");
  ck_assert_ptr_null(substituted(&l, component, cls, NULL));
  ck_assert_msg(strstr(st_diag_first_error(l.diag), msg) != NULL, "want '%s', got '%s'", msg,
                st_diag_first_error(l.diag));
  unload(&l);
}

START_TEST(test_class_substitution_errors) {
  substitution_fails("i.b", "Subst.B", "no component 'i.b' in 'Subst.Top' to substitute by 'Subst.B'");
  substitution_fails("top", "Subst.D", "class 'Subst.D' substituted for component 'top' not found");
  substitution_fails("i.a", "Subst.C", "modifier 'k' does not match any element of class 'Subst.C'");
}
END_TEST

static void expect_error(const char *file, const char *where, const char *msg) {
  char args[512], *out = NULL;
  snprintf(args, sizeof args, DATA "/errors/%s", file);
  int rc = run_flatten(&out, args);
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(rc == 1, "%s: exit %d\n%s", file, rc, out);
  char want[512];
  if (where[0]) snprintf(want, sizeof want, DATA "/errors/%s:%s: error: %s", file, where, msg);
  else snprintf(want, sizeof want, "error: %s", msg);
  ck_assert_msg(strstr(out, want) != NULL, "want '%s' in:\n%s", want, out);
  free(out);
}

START_TEST(test_errors) {
  expect_error("undefined.mo", "4:7", "undefined name 'y'");
  expect_error("badmod.mo", "6:9", "modifier 'kk' does not match any element of class 'Sub' (in 's')");
  expect_error("typemismatch.mo", "2:22", "type mismatch: Boolean value bound to 'x'");
  expect_error("sizemismatch.mo", "4:3", "size mismatch in equation");
  expect_error("cyclic.mo", "5:7", "class 'B' extends or contains itself");
  expect_error("badconnect.mo", "19:3", "cannot connect 'a.p' and 'b.f': 'b.f' has no element 'v'");
  expect_error("finalmod.mo", "10:22", "'a' is final and cannot be modified");
  expect_error("undeftype.mo", "2:3", "undefined type 'Realx' of component 'y'");
  expect_error("notconnector.mo", "10:11", "'x' is not a connector");
  expect_error("condused.mo", "4:12", "conditional component 'y' is not present");
  expect_error("badattr.mo", "3:20", "modifier 'strt' does not match any element of type 'Real' (in 'x')");
  expect_error("attrsub.mo", "2:16", "attribute 'start' has no element 'z' (in 'x')");
}
END_TEST

/* The attributes of a scalar are taken in one pass over its modifier: each of them, through
 * a type's modifier, the later of two arguments of one name. */
START_TEST(test_attribute_pass) {
  char *out = NULL;
  int rc = run_flatten(&out, DATA "/Attrs.mo");
  ck_assert_ptr_nonnull(out);
  ck_assert_msg(rc == 0, "%s", out);
  const char *want[] = {
      "Real x(start = 1, fixed = true, nominal = 2, min = -10, max = 3, "
      "stateSelect = StateSelect.prefer, unit = \"m\", displayUnit = \"mm\");",
      "Real y(start = 4, min = 0, unit = \"h\");"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    ck_assert_msg(strstr(out, want[i]) != NULL, "want '%s' in:\n%s", want[i], out);
  free(out);
}
END_TEST

START_TEST(test_cli_usage) {
  char *out = NULL;
  st_test_expect(0, "flatten --help", "Usage: stiction flatten");
  st_test_expect(2, "flatten", "missing FILE.mo");
  st_test_expect(2, "flatten --bogus x.mo");
  st_test_expect(1, "flatten /nonexistent/x.mo", "error");
  ck_assert_int_eq(run_flatten(&out, DATA "/Cases.mo Cases.Nothing"), 1);
  ck_assert_ptr_nonnull(strstr(out, "class 'Cases.Nothing' not found"));
  free(out);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("flatten");
  st_test_case(s, "front", 0, ST_TESTS(test_golden_two_inertias, test_golden_clutch,
               test_golden_package, test_package_order, test_library_path, test_modelicapath,
               test_default_class, test_lookups_forgotten_when_classes_given,
               test_lookup_enclosing_and_enum, test_lookup_encapsulated_imports,
               test_lookup_package_imports, test_modifier_precedence, test_modifier_each_and_arrays,
               test_modifier_final, test_class_substitution, test_class_substitution_errors,
               test_attributes, test_connect_three_way, test_connect_outside,
               test_conditional_components, test_declaration_order, test_for_equations,
               test_functions, test_function_in_parameter_binding, test_errors, test_attribute_pass,
               test_cli_usage));
  return s;
}

int main(void) {
  return st_test_main(suite());
}
