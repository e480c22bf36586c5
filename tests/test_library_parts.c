/* Every component of issue 5's library list, instantiated with its MSL parameter names
 * (a name the library lacks is a flattening error) in the small independent subsystems of
 * tests/data/library/Components.mo, simulated on CVODE and IDA and checked against closed
 * forms: free and damped oscillators, Coulomb deceleration w = w0 - t of the friction
 * elements, a clutch locking at t = 1, gear and planetary ratios, the sources' signals. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXROWS 1024
#define MAXCOLS 1024
#include "simtable.h"
#include "testutil.h"

/* The value at the last row with time <= tm (the right limit at an event). */
static double at(const table *t, const char *name, double tm) {
  int c = col(t, name), last = -1;
  for (int i = 0; i < t->nrows; i++)
    if (t->v[i][0] <= tm + 1e-12) last = i;
  ck_assert_int_ge(last, 0);
  return t->v[last][c];
}

static void simulate_on(const char *cls, const char *solver, const char *opts, table *t) {
  char path[256], args[4096];
  snprintf(path, sizeof path, "/tmp/stiction_test_parts_%ld.csv", (long)getpid());
  int n = snprintf(args, sizeof args, "simulate '%s' Components.%s --solver %s %s -o '%s'",
                   st_test_src("tests/data/library/Components.mo"), cls, solver, opts, path);
  ck_assert_int_lt(n, (int)sizeof args); /* a cut command line would run something else */
  char *out = NULL;
  int st = st_test_run(&out, args);
  ck_assert_msg(st == 0, "%s (%s): %s", cls, solver, out ? out : "");
  ck_assert_msg(!out || !strstr(out, "warning"), "%s", out);
  free(out);
  read_csv(path, t);
  unlink(path);
}

#define NEAR(t, name, tm, expected, tol)                                                      \
  do {                                                                                         \
    double v_ = at(t, name, tm), e_ = (expected);                                              \
    ck_assert_msg(fabs(v_ - e_) <= (tol), "%s(%g) = %.12g, expected %.12g (%s)", name,         \
                  (double)(tm), v_, e_, solver);                                               \
  } while (0)

static const char *solvers[] = {"cvode", "ida"};

/* x'' + 2 x' + 100 x = 0 from x = 0.1 at rest */
static double damped(double tm) {
  double wd = sqrt(99);
  return exp(-tm) * (0.1 * cos(wd * tm) + 0.1 / wd * sin(wd * tm));
}

START_TEST(rotational_components) {
  static table t;
  const char *solver = solvers[_i];
  simulate_on("RotationalParts", solver, "--tolerance 1e-8", &t);
  NEAR(&t, "Js.phi", 1, 0.1 * cos(10), 1e-5);
  NEAR(&t, "Jd.w", 1, exp(-2), 1e-6);
  NEAR(&t, "Jsd.phi", 1, damped(1), 1e-6);
  NEAR(&t, "Jg1.a", 1, 8.0 / 7, 1e-9);  /* a2 = tau r/(J1 r^2 + J2), a1 = r a2 */
  NEAR(&t, "Jg2.a", 1, 4.0 / 7, 1e-9);
  NEAR(&t, "Jsun.w", 1, 0.9, 1e-7);     /* J_sun + J_carrier/(1 + r)^2 = 10/9 */
  NEAR(&t, "Jcarrier.w", 1, 0.3, 1e-7); /* w_carrier = w_sun/(1 + r) */
  NEAR(&t, "Jf.w", 1, 1, 1e-7);
  NEAR(&t, "Jbr.w", 1, 1, 1e-7);
  NEAR(&t, "Jc1.w", 0.5, 7.5, 1e-6);    /* slipping: 5 N.m each way */
  NEAR(&t, "Jc2.w", 0.5, 2.5, 1e-6);
  NEAR(&t, "Jc1.w", 1.0, 5, 1e-6);      /* locked from t = 1 */
  NEAR(&t, "Jc2.w", 1.0, 5, 1e-6);
  NEAR(&t, "Jl1.a", 1, 0.5, 1e-9);      /* lossless: as a rigid connection */
  NEAR(&t, "Jl2.w", 1, 0.5, 1e-6);
  NEAR(&t, "Jt.w", 1, 1, 1e-7);
  NEAR(&t, "Jst.w", 0.5, 0, 1e-7);
  NEAR(&t, "Jst.w", 1, 1, 1e-6);
  NEAR(&t, "Jq.w", 1, 0.5, 1e-6);
  NEAR(&t, "Jsg.w", 1, 1, 1e-6);        /* exp(-|w|/w0) is nil for w in [1, 2] */
  NEAR(&t, "Jsp.w", 1, 1, 1e-6);        /* filtered: time constant 1/(100 pi) */
  NEAR(&t, "Jp.phi", 1, 1, 1e-6);
  /* the backlash elements and the one-way clutch: bounded by the energy of w = 1 */
  for (int i = 0; i < t.nrows; i++) {
    const char *names[] = {"Jb.w", "Jb2.w", "Jo.w"};
    for (int k = 0; k < 3; k++) {
      double w = t.v[i][col(&t, names[k])];
      ck_assert_msg(fabs(w) <= 1 + 1e-6, "%s = %g at row %d", names[k], w, i);
    }
    /* half the backlash plus the compression c x^2 = J w^2 allows: 0.01 + 0.01 */
    ck_assert_double_le(fabs(t.v[i][col(&t, "Jb.phi")]), 0.02 + 1e-4);
  }
}
END_TEST

START_TEST(translational_components) {
  static table t;
  const char *solver = solvers[_i];
  simulate_on("TranslationalParts", solver, "--tolerance 1e-8", &t);
  NEAR(&t, "ms.s", 1, 0.1 * cos(10), 1e-5);
  NEAR(&t, "md.v", 1, exp(-2), 1e-6);   /* its v(start, fixed) reaches the damper's states */
  NEAR(&t, "msd.s", 1, damped(1), 1e-6);
  NEAR(&t, "rod.flange_b.s", 1, 1.5, 1e-12);
  NEAR(&t, "mg.s", 0.04, -0.01, 1e-7);  /* free flight to the gap at t = 0.05 */
  ck_assert_double_lt(at(&t, "mg.v", 1), 0); /* bounced back ... */
  ck_assert_double_gt(at(&t, "mg.v", 1), -1); /* ... with less energy (d = 10) */
  NEAR(&t, "mf.v", 1, 1, 1e-7);
  NEAR(&t, "mb.v", 1, 1, 1e-7);
  NEAR(&t, "stopMass.v", 1, 1, 1e-7);
  NEAR(&t, "mforce.v", 1, 1, 1e-7);
  NEAR(&t, "mconst.v", 1, 1, 1e-7);
  NEAR(&t, "msign.v", 1, 1, 1e-6);
  NEAR(&t, "mspeed.v", 1, 1, 1e-6);
  NEAR(&t, "mpos.s", 1, 1, 1e-6);
}
END_TEST

START_TEST(blocks_and_heat) {
  static table t;
  const char *solver = solvers[_i];
  simulate_on("BlocksAndHeat", solver, "--tolerance 1e-9", &t);
  const double pi = 3.14159265358979323846;
  NEAR(&t, "constant1.y", 1, 2, 0);
  NEAR(&t, "step.y", 0.25, 1, 0);
  NEAR(&t, "step.y", 1, 4, 0);
  NEAR(&t, "ramp.y", 0.5, 2, 1e-12);
  NEAR(&t, "ramp.y", 1, 3, 1e-12);
  NEAR(&t, "sine.y", 0.5, 3, 1e-12);
  NEAR(&t, "cosine.y", 1, -2, 1e-12);
  NEAR(&t, "expSine.y", 0.25, exp(-0.25), 1e-12);
  NEAR(&t, "pulse.y", 0.1, 1, 0);
  NEAR(&t, "pulse.y", 0.3, 0, 0);
  NEAR(&t, "pulse.y", 0.5, 1, 0);
  NEAR(&t, "trapezoid.y", 0.05, 0.5, 1e-12);
  NEAR(&t, "trapezoid.y", 0.2, 1, 1e-12);
  NEAR(&t, "trapezoid.y", 0.35, 0.5, 1e-12);
  NEAR(&t, "trapezoid.y", 0.45, 0, 1e-12);
  NEAR(&t, "timeTable.y", 0.5, 1, 1e-12);
  NEAR(&t, "gain.y", 1, 6, 0);
  NEAR(&t, "add.y", 0.25, 1 + 2 * sin(pi / 4) - 2 * 2 * cos(pi / 4), 1e-12);
  NEAR(&t, "feedback.y", 0.5, 1, 1e-12);
  NEAR(&t, "product.y", 1, 12, 1e-12);
  NEAR(&t, "abs1.y", 0.25, 2 * cos(pi / 4), 1e-12);
  NEAR(&t, "abs1.y", 1, 2, 1e-12);
  NEAR(&t, "capacitor.T", 1, 290 + 10 * exp(-2), 1e-5);
}
END_TEST

/* A file `within Modelica.Mechanics.Rotational.Examples; model CoupledClutches ...` given to
 * `stiction simulate` replaces the library class of that name and resolves its relative names
 * (Rotational.Components.Inertia, SI.Frequency) through the library, as the MSL's own
 * example files do: the library's text with J1.J = 2 gives J1.a = (sum of flange torques)/2. */
START_TEST(file_class_replaces_library_class) {
  const char *solver = "cvode";
  char src[4096], dir[256], path[512], args[4096];
  snprintf(src, sizeof src, "%s",
           st_test_src("models/Modelica/Mechanics/Rotational/Examples/CoupledClutches.mo"));
  FILE *in = fopen(src, "r");
  ck_assert_ptr_nonnull(in);
  snprintf(dir, sizeof dir, "/tmp/stiction_test_parts_cc_%ld", (long)getpid());
  mkdir(dir, 0700);
  snprintf(path, sizeof path, "%s/CoupledClutches.mo", dir);
  FILE *out = fopen(path, "w");
  ck_assert_ptr_nonnull(out);
  char line[4096];
  int changed = 0;
  while (fgets(line, sizeof line, in)) {
    char *j = strstr(line, "Inertia J1(J=1,");
    if (j) {
      j[13] = '2';
      changed = 1;
    }
    fputs(line, out);
  }
  fclose(in);
  fclose(out);
  ck_assert_int_eq(changed, 1);
  static table t;
  char csv[600];
  snprintf(csv, sizeof csv, "%s/cc.csv", dir);
  snprintf(args, sizeof args, "simulate '%s' --stop-time 0.1 --vars 'J1.*' -o '%s'", path, csv);
  char *o = NULL;
  ck_assert_msg(st_test_run(&o, args) == 0, "%s", o ? o : "");
  free(o);
  read_csv(csv, &t);
  for (int i = 0; i < t.nrows; i++) {
    double a = t.v[i][col(&t, "J1.a")];
    double sum = t.v[i][col(&t, "J1.flange_a.tau")] + t.v[i][col(&t, "J1.flange_b.tau")];
    ck_assert_msg(fabs(2 * a - sum) <= 1e-9 * (1 + fabs(sum)), "row %d: J1.a = %g, torques %g",
                  i, a, sum);
  }
  NEAR(&t, "J1.w", 0, 10, 0);
  unlink(csv);
  unlink(path);
  rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("library_parts");
  TCase *tc = st_test_case(s, "parts", 120, ST_TESTS(file_class_replaces_library_class));
  tcase_add_loop_test(tc, rotational_components, 0, 2);
  tcase_add_loop_test(tc, translational_components, 0, 2);
  tcase_add_loop_test(tc, blocks_and_heat, 0, 2);
  return st_test_main(s);
}
