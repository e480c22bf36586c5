/* External functions stiction provides (src/func/external.c, doc/library.md):
 *   - every table entry returns the friction library's value, and its partials agree with
 *     central differences (the parameter partials the adapters add are checked, not trusted);
 *   - a call bound through a flat model (inputs in another order than the C arguments) gives
 *     the C value and, in forward mode, exactly the C derivative (no difference quotient);
 *     arguments without partials (LuGre's parameters) are differenced, to 1e-6;
 *   - a model calling them integrates to closed forms;
 *   - unknown names, a wrong arity and an expression argument are located errors. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stiction/bam.h>
#include <stiction/friction.h>

#include "func/external.h"
#include "compile/func_calls.h"
#include "front/front.h"
#include "testutil.h"

/* ---- the table against the library and against differences -------------------------------- */

typedef struct probe {
  const char *name;
  double x[ST_EXTFN_MAX_ARGS];
} probe;

/* Points away from kinks (|v| = band, v = 0 with alpha <= 1). */
static const probe probes[] = {
    {"stiction_friction_sign", {6, 0.3, 0.5}},
    {"stiction_friction_sign", {5, -0.2, 0.1}},
    {"stiction_friction_sign", {2, 0.04, 0.1}},
    {"stiction_friction_stribeck_g", {1, 1.5, 0.1, 2, 0.07}},
    {"stiction_friction_stribeck_g", {1, 1.5, 0.1, 1.35, -0.2}},
    {"stiction_friction_stribeck", {1, 1.5, 0.1, 2, 0.3, 6, 0.01, 0.05}},
    {"stiction_friction_stribeck", {2, 3, 0.2, 1, 0.1, 5, 0.05, -0.3}},
    {"stiction_friction_leine_g", {1, 3, -0.4}},
    {"stiction_friction_karnopp", {0.5, 0.3, 0.01, 1, 0.8}},
    {"stiction_friction_karnopp", {0.001, 0.3, 0.01, 1, 0.8}},
    {"stiction_friction_karnopp", {0.001, -2, 0.01, 1, 0.8}},
    {"stiction_friction_drake_mu", {0.15, 0.9, 0.5, 0.1}},
    {"stiction_friction_lugre_zdot", {1e5, 316, 0.4, 1, 1.5, 0.001, 2, 1e-5, 0.002}},
    {"stiction_friction_lugre_force", {1e5, 316, 0.4, 1, 1.5, 0.001, 2, 1e-5, -0.002}},
    {"stiction_friction_lugre_g_zdot", {100, 20, 0, 0.7, 0.003, 0.4}},
    {"stiction_friction_lugre_g_force", {100, 20, 0.1, 0.7, -0.003, 0.4}},
    {"stiction_bam_frictionloss",
     {6, 0.05, 0.05, 0.2, 1.35, 0.05, 0.05, 0.4, 0.3, 0.1, 0.2, 0.2, 0.5, 0.6, -0.1, 0.3}},
    {"stiction_bam_frictionloss",
     {4, 0.05, 0.05, 0.2, 1.35, 0.05, 0.05, 0.4, 0.3, 0.1, 0.2, 0.2, 0.5, 0.6, -0.1, -0.3}},
};
#define NPROBES ((int)(sizeof probes / sizeof probes[0]))

/* The value straight from include/stiction/friction.h or bam.h, for the probe's arguments. */
static double library_value(const probe *p) {
  const double *x = p->x;
  const char *n = p->name;
  if (!strcmp(n, "stiction_friction_sign"))
    return stiction_friction_sign((stiction_sign_law)x[0], x[1], x[2], NULL);
  if (!strcmp(n, "stiction_friction_stribeck_g")) {
    stiction_stribeck s = {x[0], x[1], x[2], x[3], 0};
    return stiction_friction_stribeck_g(&s, x[4], NULL);
  }
  if (!strcmp(n, "stiction_friction_stribeck")) {
    stiction_stribeck s = {x[0], x[1], x[2], x[3], x[4]};
    return stiction_friction_stribeck(&s, (stiction_sign_law)x[5], x[6], x[7], NULL);
  }
  if (!strcmp(n, "stiction_friction_leine_g")) return stiction_friction_leine_g(x[0], x[1], x[2], NULL);
  if (!strcmp(n, "stiction_friction_karnopp"))
    return stiction_friction_karnopp(x[0], x[1], x[2], x[3], x[4], 0, NULL, NULL);
  if (!strcmp(n, "stiction_friction_drake_mu"))
    return stiction_friction_drake_mu(x[0], x[1], x[2], x[3], NULL);
  stiction_lugre_eval r;
  if (!strncmp(n, "stiction_friction_lugre_g_", 26)) {
    stiction_friction_lugre_g(x[0], x[1], x[2], x[3], 0, x[4], x[5], &r);
    return strstr(n, "force") ? r.force : r.zdot;
  }
  if (!strncmp(n, "stiction_friction_lugre_", 24)) {
    stiction_lugre l = {x[0], x[1], x[2], x[3], x[4], x[5], x[6]};
    stiction_friction_lugre(&l, x[7], x[8], &r);
    return strstr(n, "force") ? r.force : r.zdot;
  }
  stiction_bam_params b;
  stiction_bam_params_default(&b, (stiction_bam_model)x[0], STICTION_BAM_XL330);
  b.Kc = x[1], b.Kcs = x[2], b.ws = x[3], b.alpha = x[4], b.Kl = x[5], b.Kls = x[6];
  b.Km = x[7], b.Ke = x[8], b.Kms = x[9], b.Kes = x[10], b.Kmq = x[11], b.Keq = x[12];
  double f;
  stiction_bam_friction(&b, x[13], x[14], x[15], &f, NULL);
  return f;
}

START_TEST(table_matches_library_and_differences) {
  const probe *p = &probes[_i];
  const st_extfn *fn = st_extfn_find(p->name);
  ck_assert_msg(fn != NULL, "%s not in the table", p->name);
  double g[ST_EXTFN_MAX_ARGS], x[ST_EXTFN_MAX_ARGS];
  double y = fn->eval(p->x, g);
  ck_assert_msg(y == library_value(p), "%s: %.17g, library %.17g", p->name, y, library_value(p));
  for (int i = 0; i < fn->arity; i++) {
    if (isnan(g[i])) continue; /* differenced by the caller */
    double h = 1e-6 * fmax(1e-3, fabs(p->x[i]));
    memcpy(x, p->x, sizeof x);
    x[i] = p->x[i] + h;
    double up = fn->eval(x, NULL);
    x[i] = p->x[i] - h;
    double fd = (up - fn->eval(x, NULL)) / (2 * h);
    if (i == 0 && (strstr(p->name, "_sign") || strstr(p->name, "bam_"))) fd = 0; /* Integer */
    ck_assert_msg(fabs(g[i] - fd) <= 1e-6 * (1 + fabs(fd)), "%s: d/dx%d %.12g, difference %.12g",
                  p->name, i, g[i], fd);
  }
}
END_TEST

START_TEST(unknown_names_and_list) {
  ck_assert_ptr_null(st_extfn_find("sin"));
  ck_assert_ptr_null(st_extfn_find(NULL));
  char buf[2048];
  st_extfn_names(buf, sizeof buf);
  ck_assert_msg(strstr(buf, "stiction_friction_sign, ") == buf, "%s", buf);
  ck_assert_ptr_nonnull(strstr(buf, "stiction_bam_frictionloss"));
  st_extfn_names(buf, 12); /* truncated, terminated */
  ck_assert_uint_eq(strlen(buf), 11);
}
END_TEST

/* ---- bound through a flat model: OP_CALL's value and tangent ------------------------------- */

static st_flat_model *flatten(const char *file, const char *cls, st_front **fe, st_diag **d) {
  *d = st_diag_new(stderr);
  *fe = st_front_new(*d);
  ck_assert_ptr_nonnull(*fe);
  st_front_add_default_paths(*fe);
  ck_assert_int_eq(st_front_load_file(*fe, st_test_src(file)), 0);
  st_flat_model *flat = st_front_flatten(*fe, cls);
  ck_assert_ptr_nonnull(flat);
  return flat;
}

static int function_index(const st_flat_model *flat, const char *name) {
  for (int i = 0; i < flat->nfunctions; i++)
    if (!strcmp(flat->functions[i].name, name)) return i;
  ck_abort_msg("no function %s", name);
  return -1;
}

/* ExternalFriction.sgn(w, v, law) is stiction_friction_sign(law, v, w): the call's value is
 * the library's and its tangent is the library's dsdv exactly (a difference quotient would
 * differ in the last digits), also along w (ds/dw = -(v/w) ds/dv). */
START_TEST(bound_call_value_and_exact_tangent) {
  st_front *fe;
  st_diag *d;
  st_flat_model *flat = flatten("tests/data/compile/ExternalFriction.mo", "ExternalFriction", &fe, &d);
  st_fcalls *fc = st_fcalls_new(flat);
  int ndims[3] = {0, 0, 0}, dims[12] = {0};
  int k = st_fcalls_add(fc, function_index(flat, "ExternalFriction.sgn"), 3, ndims, dims);
  ck_assert_int_ge(k, 0);
  const double args[3] = {0.5, 0.3, STICTION_SIGN_ATAN}; /* w, v, law */
  double dsdv;
  double s = stiction_friction_sign(STICTION_SIGN_ATAN, 0.3, 0.5, &dsdv);
  ck_assert_double_eq(st_fcall_eval(fc, k, args), s);
  const double along_v[3] = {0, 1, 0}, along_w[3] = {2, 0, 0};
  double dot;
  ck_assert_double_eq(st_fcall_dual(fc, k, args, along_v, &dot), s);
  ck_assert_double_eq(dot, dsdv);
  st_fcall_dual(fc, k, args, along_w, &dot);
  ck_assert_double_eq_tol(dot, 2 * -(0.3 / 0.5) * dsdv, 1e-15);
  st_fcalls_free(fc);
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(d);
}
END_TEST

/* An external call inside a compiled function body (ExternalFriction.twiceSgn: f := 2 *
 * sgn(5, v, 6), the arctan law) runs the library entry from the function machine (func_vm.c F_EXT): the value
 * is twice the library's and the tangent twice its dsdv exactly (a difference quotient would
 * not be exact), so an exact result shows the entry ran inline. */
START_TEST(external_call_inside_function_body) {
  st_front *fe;
  st_diag *d;
  st_flat_model *flat = flatten("tests/data/compile/ExternalFriction.mo", "ExternalFriction", &fe, &d);
  st_fcalls *fc = st_fcalls_new(flat);
  int ndims[1] = {0}, dims[4] = {0};
  int k = st_fcalls_add(fc, function_index(flat, "ExternalFriction.twiceSgn"), 1, ndims, dims);
  ck_assert_int_ge(k, 0);
  for (double v = -0.7; v < 0.8; v += 0.35) {
    double dsdv, s = stiction_friction_sign(STICTION_SIGN_ATAN, v, 5, &dsdv), dot;
    const double x[1] = {v}, dx[1] = {1};
    ck_assert_double_eq(st_fcall_eval(fc, k, x), 2 * s);
    ck_assert_double_eq(st_fcall_dual(fc, k, x, dx, &dot), 2 * s);
    ck_assert_double_eq(dot, 2 * dsdv);
  }
  st_fcalls_free(fc);
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(d);
}
END_TEST

/* Stiction.Functions.lugreForce: z and v partials exact (the library's), the parameters'
 * (sigma0) by a forward difference, which agrees with the central one. */
START_TEST(parameter_tangent_by_difference) {
  st_front *fe;
  st_diag *d;
  st_flat_model *flat = flatten("tests/data/compile/ExternalLuGre.mo", "ExternalLuGre", &fe, &d);
  st_fcalls *fc = st_fcalls_new(flat);
  int ndims[9] = {0}, dims[36] = {0};
  int k = st_fcalls_add(fc, function_index(flat, "Stiction.Functions.lugreForce"), 9, ndims, dims);
  ck_assert_int_ge(k, 0);
  double a[9] = {1e5, 316, 0.4, 1, 1.5, 0.001, 2, 1e-5, 0.002}, dz[9] = {0}, ds0[9] = {0};
  stiction_lugre p = {a[0], a[1], a[2], a[3], a[4], a[5], a[6]};
  stiction_lugre_eval r;
  stiction_friction_lugre(&p, a[7], a[8], &r);
  double dot;
  dz[7] = 1;
  ck_assert_double_eq(st_fcall_dual(fc, k, a, dz, &dot), r.force);
  ck_assert_double_eq(dot, r.dforce_dz);
  ds0[0] = 1;
  st_fcall_dual(fc, k, a, ds0, &dot);
  double h = 1, up, down;
  p.sigma0 = a[0] + h;
  stiction_friction_lugre(&p, a[7], a[8], &r);
  up = r.force;
  p.sigma0 = a[0] - h;
  stiction_friction_lugre(&p, a[7], a[8], &r);
  down = r.force;
  ck_assert_msg(fabs(dot - (up - down) / (2 * h)) < 1e-6 * fabs(dot), "dF/dsigma0 %.12g, central %.12g",
                dot, (up - down) / (2 * h));
  st_fcalls_free(fc);
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(d);
}
END_TEST

/* ---- whole simulations and errors ------------------------------------------------------------ */

/* Simulates tests/data/compile/FILE (tolerance 1e-10) into path; its CSV opened for reading,
 * the header line read into line. */
static FILE *simulated(const char *file, char *path, size_t size, char *line, int len) {
  char args[4096], model[256];
  snprintf(path, size, "/tmp/stiction_test_external_%ld.csv", (long)getpid());
  snprintf(model, sizeof model, "tests/data/compile/%s", file);
  snprintf(args, sizeof args, "simulate '%.2000s' --tolerance 1e-10 -o '%s'",
           st_test_src(model), path);
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "simulate failed: %s", out ? out : "");
  free(out);
  FILE *f = fopen(path, "r");
  ck_assert_ptr_nonnull(f);
  ck_assert_ptr_nonnull(fgets(line, len, f));
  return f;
}

START_TEST(model_integrates_to_closed_forms) {
  char path[256], line[1024];
  FILE *f = simulated("ExternalFriction.mo", path, sizeof path, line, sizeof line);
  ck_assert_msg(!strncmp(line, "time,x,y,f", 10), "%s", line);
  int n = 0;
  double t, x, y, fx;
  while (fgets(line, sizeof line, f) && sscanf(line, "%lf,%lf,%lf,%lf", &t, &x, &y, &fx) == 4) {
    double xs = asinh(sinh(1.0) * exp(-t)), ys = t + 1 - exp(-t);
    ck_assert_msg(fabs(x - xs) < 1e-8, "x(%g) = %.17g, closed form %.17g", t, x, xs);
    ck_assert_msg(fabs(y - ys) < 1e-8, "y(%g) = %.17g, closed form %.17g", t, y, ys);
    ck_assert_msg(fabs(fx - 4 / M_PI * atan(x / 5)) < 1e-15, "f(%g) = %.17g", t, fx);
    n++;
  }
  fclose(f);
  unlink(path);
  ck_assert_int_gt(n, 100);
}
END_TEST

/* A parameter binding that sizes an array calls an external function stiction provides:
 * flattening runs it on the function machine (src/front/interp.c, src/func). */
START_TEST(external_call_sizes_array_while_flattening) {
  char path[256], line[1024];
  FILE *f = simulated("ExternalSize.mo", path, sizeof path, line, sizeof line);
  ck_assert_msg(!strncmp(line, "time,x[1],x[2],x[3],", 20), "%s", line);
  int n = 0;
  double t, x[3];
  while (fgets(line, sizeof line, f) &&
         sscanf(line, "%lf,%lf,%lf,%lf", &t, &x[0], &x[1], &x[2]) == 4) {
    for (int i = 0; i < 3; i++)
      ck_assert_msg(fabs(x[i] - exp(-(i + 1) * t)) < 1e-7, "x[%d](%g) = %.17g", i + 1, t, x[i]);
    n++;
  }
  fclose(f);
  unlink(path);
  ck_assert_int_gt(n, 10);
}
END_TEST

static void expect_error(const char *file, const char *located) {
  char args[4096];
  snprintf(args, sizeof args, "simulate '%.2000s' -o /dev/null", st_test_src(file));
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_int_eq(st, 1);
  ck_assert_msg(out && strstr(out, located), "want \"%s\" in:\n%s", located, out ? out : "");
  free(out);
}

START_TEST(located_errors) {
  expect_error("tests/data/compile/FunctionsExternal.mo",
               "the C function 'extc_undefined_function' is defined neither by its Include "
               "annotation nor by its libraries");
  expect_error("tests/data/compile/ExternalArity.mo",
               "ExternalArity.mo:12:13: error: external function \"stiction_friction_sign\" takes "
               "3 scalar arguments");
  expect_error("tests/data/compile/ExternalExpr.mo",
               "ExternalExpr.mo:12:13: error: external function \"stiction_friction_sign\" of "
               "'ExternalExpr.sgn': every argument of the external call must name a scalar input");
}
END_TEST

int main(void) {
  Suite *s = suite_create("external");
  TCase *tc = st_test_case(s, "external", 120, ST_TESTS(unknown_names_and_list,
                           bound_call_value_and_exact_tangent, external_call_inside_function_body,
                           parameter_tangent_by_difference, model_integrates_to_closed_forms,
                           external_call_sizes_array_while_flattening,
                           located_errors));
  tcase_add_loop_test(tc, table_matches_library_and_differences, 0, NPROBES);
  st_test_cache_home("external");
  int rc = st_test_main(s);
  st_test_cache_remove();
  return rc;
}
