/* The continuous friction elements of models/Stiction (doc/library.md, Stiction package):
 *   - every new class flattens to a balanced model (`stiction flatten`),
 *   - every example and test set-up simulates (`stiction simulate`),
 *   - the simulated friction obeys the law it was written from: the equilibrium speed of a held
 *     brake/support friction is where the closed-form law (tanh, arctan, linear) gives the load,
 *     a driven bearing/Stribeck element gives the closed-form Stribeck curve, a LuGre element's
 *     steady sliding force is the Stribeck curve, eps -> 0 approaches the Coulomb value, a clutch
 *     conserves momentum and sticks, the BAM elements follow the budgets of doc/bam.md section
 *     3 (written out here), and the LuGre block reproduces doc/benchmarks.md section 3.
 * The elements compute their laws through the C library (Stiction.Functions, external
 * functions), so every reference below is a closed form written from the spec, not a call of
 * the library the element itself calls. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static const char *const new_classes[] = {
    "Stiction.Rotational.Components.BearingFriction", "Stiction.Rotational.Components.Clutch",
    "Stiction.Rotational.Components.Brake",           "Stiction.Rotational.Components.Stribeck",
    "Stiction.Rotational.Components.LuGre",           "Stiction.Translational.Components.SupportFriction", "Stiction.Rotational.Components.BAMFriction",
    "Stiction.Rotational.Components.BAMStuckSlip",    "Stiction.Translational.Components.LeineFriction",
    "Stiction.Translational.Components.Brake",        "Stiction.Translational.Components.LuGre",
    "Stiction.Examples.RegularizedClutch",            "Stiction.Examples.LuGreBlock",
    "Stiction.Examples.LeineBelt",                    "Stiction.Tests.BrakeHold",
    "Stiction.Tests.Sliding",                         "Stiction.Tests.LuGreSteady",
    "Stiction.Tests.TranslationalHold",               "Stiction.Tests.BAMHold",
    "Stiction.Tests.BAMStickSlip",                    "Stiction.Tests.SlidingTable",
    "Stiction.Tests.BrakeTable",                      "Stiction.Tests.KarnoppLuGre",
};
#define N_CLASSES ((int)(sizeof new_classes / sizeof new_classes[0]))
#define FIRST_MODEL 11 /* new_classes[FIRST_MODEL..] are complete models that simulate */

/* ---- running the command and reading its result ----------------------------------------- */

static int run(char **out, const char *format, ...) __attribute__((format(printf, 2, 3)));
static int run(char **out, const char *format, ...) {
  char args[4096];
  va_list ap;
  va_start(ap, format);
  vsnprintf(args, sizeof args, format, ap);
  va_end(ap);
  return st_test_run(out, args);
}

static const char *models_dir(void) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "%s", st_test_src("models"));
  return buf;
}

/* The .mo file of a class under models/ ("A.B.C" -> models/A/B/C.mo). */
static const char *class_file(const char *cls) {
  static char buf[4096];
  int n = snprintf(buf, sizeof buf, "%s/%s.mo", models_dir(), cls);
  ck_assert_msg(n > 0 && (size_t)n < sizeof buf, "path of %s too long", cls);
  for (char *p = buf + strlen(models_dir()) + 1; *p; p++)
    if (*p == '.' && strcmp(p, ".mo") != 0) *p = '/';
  return buf;
}

/* A result file name private to this process and case. */
static const char *result_path(const char *tag) {
  static char buf[512];
  snprintf(buf, sizeof buf, "/tmp/stiction_test_stiction_lib_%ld_%s.csv", (long)getpid(), tag);
  return buf;
}

/* Simulates cls with the extra options into `csv`; fails the test with the output otherwise. */
static void simulate(const char *cls, const char *csv, const char *extra) {
  char *out = NULL;
  int st = run(&out, "simulate -L '%s' '%s' %s -o '%s' %s", models_dir(), class_file(cls), cls, csv,
               extra ? extra : "");
  ck_assert_msg(st == 0, "%s: simulate exit %d\n%.3000s", cls, st, out ? out : "");
  free(out);
}

typedef struct series {
  int n;
  double *t, *y;
} series;

/* Index of the comma-separated, possibly quoted, field `name` in a header line, or -1. */
static int column_of(char *header, const char *name) {
  int i = 0;
  for (char *tok = strtok(header, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), i++) {
    if (*tok == '"') tok++;
    size_t n = strlen(tok);
    if (n && tok[n - 1] == '"') tok[n - 1] = 0;
    if (strcmp(tok, name) == 0) return i;
  }
  return -1;
}

/* Field `col` of a data line. */
static double field(const char *line, int col) {
  const char *p = line;
  for (int i = 0; i < col && p; i++) {
    p = strchr(p, ',');
    if (p) p++;
  }
  return p ? strtod(p, NULL) : NAN;
}

/* Column `name` with the time column (first) of a result CSV; the caller frees t and y. */
static series read_column(const char *csv, const char *name) {
  FILE *f = fopen(csv, "r");
  ck_assert_msg(f != NULL, "cannot read %s", csv);
  static char line[65536];
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  int col = column_of(line, name);
  ck_assert_msg(col >= 0, "%s: no column %s", csv, name);
  series s = {0, NULL, NULL};
  int cap = 0;
  while (fgets(line, sizeof line, f)) {
    if (s.n == cap) {
      cap = cap ? 2 * cap : 1024;
      s.t = realloc(s.t, (size_t)cap * sizeof *s.t);
      s.y = realloc(s.y, (size_t)cap * sizeof *s.y);
      ck_assert(s.t && s.y);
    }
    s.t[s.n] = field(line, 0);
    s.y[s.n++] = field(line, col);
  }
  fclose(f);
  ck_assert_msg(s.n > 0, "%s: no rows", csv);
  return s;
}

static double last_value(const char *csv, const char *name) {
  series s = read_column(csv, name);
  double v = s.y[s.n - 1];
  free(s.t);
  free(s.y);
  return v;
}

/* Root of f(v) = target on [lo, hi] (f increasing) by bisection. */
typedef double (*law_fn)(double v, const void *ctx);
static double solve_increasing(law_fn f, const void *ctx, double target, double lo, double hi) {
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (f(mid, ctx) < target) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/* ---- balance --------------------------------------------------------------------------- */

static int balance_of(const char *out, int *unknowns, int *equations) {
  const char *p = NULL;
  for (const char *q = out; (q = strstr(q, " unknowns, ")); q++) p = q;
  if (!p) return 0;
  while (p > out && p[-1] >= '0' && p[-1] <= '9') p--;
  return sscanf(p, "%d unknowns, %d equations", unknowns, equations) == 2;
}

START_TEST(class_flattens_balanced) {
  const char *cls = new_classes[_i];
  char *out = NULL;
  int st = run(&out, "flatten -L '%s' '%s' %s", models_dir(), class_file(cls), cls);
  int u = -1, e = -2;
  ck_assert_msg(st == 0, "%s: flatten exit %d\n%.2000s", cls, st, out ? out : "");
  ck_assert_msg(balance_of(out, &u, &e), "%s: no balance line\n%.2000s", cls, out);
  ck_assert_msg(u == e, "%s: %d unknowns, %d equations", cls, u, e);
  free(out);
}
END_TEST

START_TEST(model_simulates) {
  const char *cls = new_classes[_i];
  const char *csv = result_path("sim");
  simulate(cls, csv, "--stop-time 0.5");
  series s = read_column(csv, "time");
  ck_assert_msg(fabs(s.t[s.n - 1] - 0.5) < 1e-9, "%s: ends at %g", cls, s.t[s.n - 1]);
  for (int i = 0; i < s.n; i++) ck_assert_msg(isfinite(s.y[i]), "%s: non-finite time", cls);
  free(s.t);
  free(s.y);
  unlink(csv);
}
END_TEST

/* ---- held by friction: the equilibrium speed is where the law carries the load ----------------- */

typedef enum { LAW_TANH, LAW_ATAN, LAW_LINEAR } law_kind;

/* The regularized sign laws in closed form (doc/friction.md section 1). */
static double closed_sign(law_kind law, double v, double eps) {
  if (law == LAW_TANH) return tanh(v / eps);
  if (law == LAW_ATAN) return 2 / M_PI * atan(v / eps);
  return fabs(v) >= eps ? (v > 0 ? 1 : -1) : v / eps;
}

typedef struct held {
  law_kind law;
  double eps, f0, f0_max, v_peak;
} held;

/* The element's friction at speed v: the sign law times the Coulomb level with the peak. */
static double held_friction(double v, const void *ctx) {
  const held *h = ctx;
  return closed_sign(h->law, v, h->eps) *
         (h->f0 + (h->f0_max - h->f0) * exp(-(v / h->v_peak) * (v / h->v_peak)));
}

START_TEST(brake_holds_below_peak) {
  const char *csv = result_path("hold");
  simulate("Stiction.Tests.BrakeHold", csv, NULL);
  double tau = last_value(csv, "brake.tau"), w = last_value(csv, "brake.w");
  /* 20 N.m load against tau0 = 50, break-away 60, eps = 1e-3, w_peak = 1e-2 (tanh) */
  held h = {LAW_TANH, 1e-3, 50, 60, 1e-2};
  double w_law = solve_increasing(held_friction, &h, 20, 0, 1e-3);
  ck_assert_msg(fabs(tau - 20) < 1e-4, "brake.tau = %.9g, load 20", tau);
  ck_assert_msg(w > 0 && w < 1e-3, "held speed %.3g not inside the eps band", w);
  ck_assert_msg(fabs(w - w_law) < 1e-4 * w_law, "held speed %.9g, law says %.9g", w, w_law);
  unlink(csv);
}
END_TEST

START_TEST(translational_hold_arctan_and_linear) {
  const char *csv = result_path("thold");
  simulate("Stiction.Tests.TranslationalHold", csv, NULL);
  held brake = {LAW_ATAN, 1e-3, 5, 5, 1e-2};
  held fric = {LAW_LINEAR, 1e-3, 4, 6, 1e-2};
  double vb = last_value(csv, "brake.v"), vf = last_value(csv, "friction.v");
  double vb_law = solve_increasing(held_friction, &brake, 3, 0, 1e-2);
  double vf_law = solve_increasing(held_friction, &fric, 3, 0, 1e-3);
  ck_assert_msg(fabs(vb - vb_law) < 1e-4 * vb_law, "brake.v %.9g, atan law %.9g", vb, vb_law);
  ck_assert_msg(fabs(vf - vf_law) < 1e-4 * vf_law, "friction.v %.9g, linear law %.9g", vf, vf_law);
  ck_assert_msg(fabs(last_value(csv, "friction.f") - 3) < 1e-4, "support friction does not carry 3 N");
  unlink(csv);
}
END_TEST

/* ---- sliding: the bearing and Stribeck elements give the closed-form curves -------------------- */

START_TEST(sliding_matches_c_laws) {
  const char *csv = result_path("slide");
  simulate("Stiction.Tests.Sliding", csv, NULL);
  double w = last_value(csv, "bearing.w");
  ck_assert_msg(fabs(w - 0.1) < 1e-6, "shaft speed %.9g, expected 0.1", w);
  double bearing = last_value(csv, "bearing.tau"), stribeck = last_value(csv, "stribeck.tau");
  double bearing_law = 2 * tanh(w / 0.05);
  /* Fc 1, Fs 1.5, vs 0.08, alpha 2, viscous 0.3, tanh of width 0.02 */
  double stribeck_law = tanh(w / 0.02) * (1 + 0.5 * exp(-(w / 0.08) * (w / 0.08))) + 0.3 * w;
  ck_assert_msg(fabs(bearing - bearing_law) < 1e-6, "bearing %.9g, law %.9g", bearing, bearing_law);
  ck_assert_msg(fabs(stribeck - stribeck_law) < 1e-6, "Stribeck %.9g, law %.9g", stribeck, stribeck_law);
  /* a wide regularization (eps = w/2) is visibly below the Coulomb torque 2 ... */
  ck_assert_msg(2 - bearing > 0.05, "bearing %.9g: eps = 0.05 should be below Coulomb", bearing);
  unlink(csv);
}
END_TEST

/* The whole friction table, linear in |w| with linear extrapolation: tau_pos = [0, 2; 1, 3] is 2 + |w|, so at 0.1 rad/s the bearing gives
 * tanh(0.1/0.05)*2.1 and at 3 rad/s (beyond the last row) tanh(60)*5. */
START_TEST(bearing_interpolates_the_table) {
  const double speeds[] = {0.1, 3.0};
  for (int i = 0; i < 2; i++) {
    const char *csv = result_path("table");
    char opt[64];
    snprintf(opt, sizeof opt, "-p w.k=%g", speeds[i]);
    simulate("Stiction.Tests.SlidingTable", csv, opt);
    double w = speeds[i], want = tanh(w / 0.05) * (2 + w);
    ck_assert_msg(fabs(last_value(csv, "bearing.w") - w) < 1e-6, "speed %g not reached", w);
    double tau = last_value(csv, "bearing.tau");
    ck_assert_msg(fabs(tau - want) < 1e-6, "w %g: bearing %.9g, closed form %.9g", w, tau, want);
    unlink(csv);
  }
}
END_TEST

/* The mu tables of Brake (rotational, translational) and Clutch, linear in |w| with linear
 * extrapolation as the MSL's M(w): with
 * f_normalized = 1 and tanh of width 0.05, the closed forms at drive speed w are
 *   brake  tanh(w/0.05)*2*10*(0.5 + 0.2 w)     mu_pos = [0, 0.5; 1, 0.7], cgeo 2, fn_max 10
 *   clutch tanh(-w/0.05)*1.5*4*(0.4 - 0.1 w)   mu_pos = [0, 0.4; 2, 0.2], w_rel = -w
 *   tbrake tanh(w/0.05)*20*(0.3 + 0.4 w)       mu_pos = [0, 0.3; 0.5, 0.5], fn_max 20
 * inside the tables (w = 0.1) and beyond their last rows (w = 3). With only the first row
 * they would be 10, 2.4 and 6 times tanh at every speed. */
START_TEST(brake_and_clutch_interpolate_the_table) {
  const double speeds[] = {0.1, 3.0};
  for (int i = 0; i < 2; i++) {
    const char *csv = result_path("mu_table");
    char opt[64];
    double w = speeds[i], th = tanh(w / 0.05);
    snprintf(opt, sizeof opt, "-p w0=%g", w);
    simulate("Stiction.Tests.BrakeTable", csv, opt);
    ck_assert_msg(fabs(last_value(csv, "brake.w") - w) < 1e-6, "speed %g not reached", w);
    ck_assert_msg(fabs(last_value(csv, "tbrake.v") - w) < 1e-6, "speed %g not reached", w);
    const char *name[] = {"brake.tau", "clutch.tau", "tbrake.f"};
    double want[] = {th * 20 * (0.5 + 0.2 * w), -th * 6 * (0.4 - 0.1 * w), th * 20 * (0.3 + 0.4 * w)};
    for (int k = 0; k < 3; k++) {
      double got = last_value(csv, name[k]);
      ck_assert_msg(fabs(got - want[k]) < 1e-6, "w %g: %s %.9g, closed form %.9g", w, name[k],
                    got, want[k]);
    }
    unlink(csv);
  }
}
END_TEST

START_TEST(small_eps_approaches_coulomb) {
  /* at w = 0.1 rad/s the gap to the Coulomb torque 2 is 2*(1 - tanh(0.1/eps)): it must shrink
   * with eps, follow the C law, and vanish for eps far below w */
  const double eps[] = {0.05, 0.03, 0.015, 1e-5};
  double prev_gap = INFINITY;
  for (int i = 0; i < 4; i++) {
    const char *csv = result_path("eps");
    char opt[128];
    snprintf(opt, sizeof opt, "-p bearing.eps=%g", eps[i]);
    simulate("Stiction.Tests.Sliding", csv, opt);
    double tau = last_value(csv, "bearing.tau"), gap = 2 - tau;
    double law = 2 * tanh(0.1 / eps[i]);
    ck_assert_msg(fabs(tau - law) < 1e-6, "eps %g: bearing %.9g, law %.9g", eps[i], tau, law);
    ck_assert_msg(gap >= -1e-9 && gap < prev_gap, "eps %g: Coulomb gap %.3g (previous %.3g)", eps[i], gap,
                  prev_gap);
    prev_gap = gap;
    unlink(csv);
  }
  ck_assert_msg(prev_gap < 1e-9, "eps 1e-5: bearing torque %.12g, Coulomb 2", 2 - prev_gap);
}
END_TEST

/* ---- Karnopp and LuGre in the MSL replacements (Stiction.Interfaces.PartialFrictionLaw) ----- */

/* Stiction.Tests.KarnoppLuGre, closed forms on unit inertias (eps = 1e-3):
 *   20 N.m against a brake holding 60: held at w = 0 exactly, the brake takes the 20 N.m;
 *   70 N.m: inside the band the brake gives its 60, a = 10 until w = 2 eps (the band is left
 *   at twice its width) at t = 2e-4 s, then the sliding 50, a = 20: w(1) = 2e-3 + 20 (1 - 2e-4);
 *   a bearing with the Coulomb level 2 N.m driven at 0.1 rad/s, LuGre: steadily 2 N.m. */
START_TEST(karnopp_and_lugre_in_replacements) {
  const char *csv = result_path("kl");
  simulate("Stiction.Tests.KarnoppLuGre", csv, NULL);
  series still = read_column(csv, "held.w"), tau = read_column(csv, "brakeHeld.tau");
  for (int i = 0; i < still.n; i++) {
    ck_assert_msg(still.y[i] == 0, "t %g: held inertia moves, w = %g", still.t[i], still.y[i]);
    ck_assert_msg(fabs(tau.y[i] - 20) < 1e-9, "t %g: brake holds %.12g", tau.t[i], tau.y[i]);
  }
  double w = last_value(csv, "slips.w"), want = 2e-3 + 20 * (1 - 2e-4);
  ck_assert_msg(fabs(w - want) < 1e-6, "slipping inertia w(1) = %.12g, closed form %.12g", w, want);
  ck_assert_msg(fabs(last_value(csv, "brakeSlips.tau") - 50) < 1e-9, "sliding brake torque");
  ck_assert_msg(fabs(last_value(csv, "bearing.tau") - 2) < 1e-6, "LuGre bearing %.9g, level 2",
                last_value(csv, "bearing.tau"));
  free(still.t), free(still.y), free(tau.t), free(tau.y);
  unlink(csv);
}
END_TEST

/* ---- LuGre: steady sliding is the Stribeck curve ------------------------------------------ */

START_TEST(lugre_steady_sliding_is_stribeck) {
  const char *csv = result_path("lugre");
  simulate("Stiction.Tests.LuGreSteady", csv, NULL);
  double v = last_value(csv, "lugre.v"), f = last_value(csv, "lugre.f");
  /* Fc 1, Fs 1.5, vs 0.001, alpha 2, viscous 0.4; v > 0 */
  double f_law = 1 + 0.5 * exp(-(v / 0.001) * (v / 0.001)) + 0.4 * v;
  ck_assert_msg(fabs(v - 0.0015) < 1e-9, "drag speed %.9g", v);
  ck_assert_msg(fabs(f - f_law) < 1e-5, "translational LuGre %.9g, Stribeck %.9g", f, f_law);
  double w = last_value(csv, "lugreRot.w"), tau = last_value(csv, "lugreRot.tau");
  /* Fc 2, Fs 3, ws 0.002, alpha 1, viscous 2; w > 0 */
  double tau_law = 2 + exp(-w / 0.002) + 2 * w;
  ck_assert_msg(fabs(tau - tau_law) < 1e-5, "rotational LuGre %.9g, Stribeck %.9g", tau, tau_law);
  unlink(csv);
}
END_TEST

/* ---- BAM M1..M6: the element's budget is the spec's; it holds exactly below the static limit -- */

/* The parameters of Stiction.Tests.BAMHold and BAMStickSlip (modifiers, else the defaults). */
typedef struct bam_k {
  double Kc, Kv, Kcs, ws, alpha, Kl, Kls, Km, Ke, Kms, Kes, Kmq, Keq;
} bam_k;
static const bam_k bam_test_k = {0.05, 0.1, 0.05, 0.2, 1.35, 0.05, 0.05, 0.4, 0.3, 0.1, 0.2, 0.2, 0.5};

static double sgn(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/* frictionloss = tau_fm - Kv|w| of model M1..M6, written from the table of doc/bam.md
 * section 3, with M6's Q "exactly as implemented" (opposite-sign gate, cross-wired). */
static double spec_frictionloss(int model, const bam_k *k, double tm, double te, double w) {
  double s = exp(-pow(fabs(w / k->ws), k->alpha)), load = fabs(te - tm);
  double q = 0;
  if (sgn(te) != sgn(tm))
    q = fabs(te) < fabs(tm) ? k->Keq * te * te : fabs(te) > fabs(tm) ? k->Kmq * tm * tm : 0;
  switch (model) {
  case 1: return k->Kc;
  case 2: return k->Kc + s * k->Kcs;
  case 3: return k->Kc + k->Kl * load;
  case 4: return k->Kc + k->Kl * load + s * (k->Kcs + k->Kls * load);
  default:
    return k->Kc + fabs(k->Ke * te - k->Km * tm) +
           s * (k->Kcs + fabs(k->Kes * te - k->Kms * tm) + (model == 6 ? q : 0));
  }
}

/* Friction torque while sliding, -sign(w)*frictionloss - Kv*w (doc/bam.md section 7). */
static double spec_slip_torque(int model, const bam_k *k, double tm, double te, double w) {
  return -sgn(w) * spec_frictionloss(model, k, tm, te, w) - k->Kv * w;
}

START_TEST(bam_budget_matches_spec) {
  const int model = _i;
  const double loads[2] = {0.3, 0.6}; /* motor torque; the external torque is -0.1 */
  for (int k = 0; k < 2; k++) {
    const char *csv = result_path("bam");
    char opt[128];
    snprintf(opt, sizeof opt, "-p bam.bamModel=%d -p tau_m.k=%g", model, loads[k]);
    simulate("Stiction.Tests.BAMHold", csv, opt);
    const bam_k *p = &bam_test_k;
    double tm = loads[k], te = -0.1, w = last_value(csv, "bam.w");
    double fl = spec_frictionloss(model, p, tm, te, w);
    double fl_sim = last_value(csv, "bam.frictionloss"), tau = last_value(csv, "bam.tau");
    double tau_law = fl * tanh(w / 1e-3) + p->Kv * w;
    ck_assert_msg(fabs(fl_sim - fl) < 1e-9, "M%d tau_m %g: frictionloss %.12g, spec %.12g", model, tm, fl_sim, fl);
    ck_assert_msg(fabs(tau - tau_law) < 1e-9, "M%d tau_m %g: torque %.12g, law %.12g", model, tm, tau, tau_law);
    double limit = spec_frictionloss(model, p, tm, te, 0);
    if (limit > tm + te) /* held: inside the regularization band */
      ck_assert_msg(fabs(w) < 1e-3, "M%d tau_m %g: limit %g > load but w = %g", model, tm, limit, w);
    else /* slides: accelerating, friction bounded by the sliding torque of the budget */
      ck_assert_msg(w > 1e-2 && tau <= -spec_slip_torque(model, p, tm, te, w) + 1e-9,
                    "M%d tau_m %g: limit %g < load but w = %g, tau %g", model, tm, limit, w, tau);
    unlink(csv);
  }
}
END_TEST

/* doc/bam.md section 7, the event-driven BAMStuckSlip: a joint driven by tau_m = t (ramp)
 * against tau_e = -0.1 sticks while the drive tau_m + tau_e stays within the static limit
 * frictionloss(tau_m, tau_e, 0) of doc/bam.md section 3 and slides beyond it with the sliding
 * torque of section 10 b, for all six models: M2's limit Kc + Kcs = 0.1 gives the closed
 * form t = 0.2 s; the load-dependent M3..M6 break away where the spec's limit says. (They stopped
 * on chattering of a relation the element does not use after break-away until only active
 * relations made events, doc/events.md.) */
/* One BAM model through the element, against the spec's budget of the same model. */
static void bam_stuck_slip(int model) {
  char opt[64], tag[16];
  snprintf(opt, sizeof opt, "-p bam.bamModel=%d", model);
  snprintf(tag, sizeof tag, "bamss%d", model);
  const char *csv = result_path(tag);
  simulate("Stiction.Tests.BAMStickSlip", csv, opt);
  const bam_k *p = &bam_test_k;
  if (spec_frictionloss(model, p, 0, -0.1, 0) < 0.1) {
    /* this limit cannot hold the initial drive of -0.1 (M1, M3 here): the joint slides back
     * from t = 0; only that the run reaches the end is checked (simulate() asserts it) */
    unlink(csv);
    return;
  }
  /* break-away time: the root of tau_m + tau_e - limit(tau_m, tau_e), tau_m = t, by bisection */
  double lo = 0, hi = 1;
  for (int i = 0; i < 100; i++) {
    double mid = 0.5 * (lo + hi);
    if (mid - 0.1 > spec_frictionloss(model, p, mid, -0.1, 0)) hi = mid;
    else lo = mid;
  }
  series w = read_column(csv, "bam.w"), tau = read_column(csv, "bam.tau");
  series locked = read_column(csv, "bam.locked");
  double t_break = NAN;
  for (int i = 0; i < w.n; i++) {
    double t = w.t[i], tm = t < 1 ? t : 1, te = -0.1;
    if (isnan(t_break) && locked.y[i] < 0.5) t_break = t;
    if (isnan(t_break)) { /* stuck: at rest, holding the whole drive, within the limit */
      ck_assert_msg(fabs(w.y[i]) < 1e-12, "M%d t %g: stuck but w = %g", model, t, w.y[i]);
      ck_assert_msg(fabs(tau.y[i] - (tm + te)) < 1e-9, "M%d t %g: holds %g, drive %g", model, t,
                    tau.y[i], tm + te);
      ck_assert_double_le(fabs(tau.y[i]), spec_frictionloss(model, p, tm, te, 0) + 1e-9);
    } else if (t > t_break + 1e-3) { /* slipping forward with the spec's sliding torque */
      ck_assert_msg(w.y[i] > 0, "M%d t %g: slipping but w = %g", model, t, w.y[i]);
      double want = -spec_slip_torque(model, p, tm, te, w.y[i]);
      ck_assert_msg(fabs(tau.y[i] - want) < 1e-9, "M%d t %g: tau %.12g, spec %.12g", model, t,
                    tau.y[i], want);
    }
  }
  ck_assert_msg(fabs(t_break - 0.5 * (lo + hi)) < 1e-6, "M%d: break-away at %g, spec limit says %g",
                model, t_break, 0.5 * (lo + hi));
  if (model == 2) ck_assert_double_eq_tol(t_break, 0.2, 1e-6); /* closed form for M2 */
  free(w.t), free(w.y), free(tau.t), free(tau.y), free(locked.t), free(locked.y);
  unlink(csv);
}

START_TEST(bam_stuck_slip_follows_the_budget) {
  for (int m = 1; m <= 6; m++) bam_stuck_slip(m);
}
END_TEST

/* ---- the examples ------------------------------------------------------------------------ */

START_TEST(clutch_conserves_momentum_and_sticks) {
  const char *csv = result_path("clutch");
  simulate("Stiction.Examples.RegularizedClutch", csv, NULL);
  series w1 = read_column(csv, "J1.w"), w2 = read_column(csv, "J2.w"), wr = read_column(csv, "clutch.w_rel");
  const double om = 2 * M_PI * 5, band = 1e-3 * atanh(0.5);
  double early = NAN;
  for (int i = 0; i < w1.n; i++) {
    double t = w1.t[i], total = 10 + 10 * (1 - cos(om * t)) / om; /* J = 1: d(w1 + w2)/dt = drive */
    ck_assert_msg(fabs(w1.y[i] + w2.y[i] - total) < 1e-3, "t %g: J1.w + J2.w = %.9g, expected %.9g", t,
                  w1.y[i] + w2.y[i], total);
    if (t > 0.8) ck_assert_msg(fabs(wr.y[i]) < band, "t %g: clutch slips, w_rel %.3g", t, wr.y[i]);
    if (isnan(early) && t >= 0.2) early = wr.y[i];
  }
  ck_assert_msg(early < -3, "clutch w_rel %.3g at 0.2 s: it should still slip", early);
  free(w1.t), free(w1.y), free(w2.t), free(w2.y), free(wr.t), free(wr.y);
  unlink(csv);
}
END_TEST

START_TEST(lugre_block_matches_benchmark) {
  const char *csv = result_path("block");
  simulate("Stiction.Examples.LuGreBlock", csv, "--stop-time 12");
  series v = read_column(csv, "mass.v");
  double first_slip = NAN, vmax = 0;
  for (int i = 0; i < v.n; i++) {
    if (isnan(first_slip) && v.y[i] > 0.05) first_slip = v.t[i];
    if (v.t[i] < 12) vmax = fmax(vmax, v.y[i]);
  }
  /* doc/benchmarks.md section 3: peak speed 0.36982 m/s shortly after the first slip at 7.4376 s
   * (here the time the speed passes 0.05 m/s, a little later) */
  ck_assert_msg(first_slip > 7.4 && first_slip < 7.9, "first slip at %.6g s", first_slip);
  ck_assert_msg(fabs(vmax - 0.36982) < 0.01, "peak speed %.6g m/s, benchmark 0.36982", vmax);
  free(v.t), free(v.y);
  unlink(csv);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("stiction_lib");
  TCase *flat = tcase_create("flatten");
  tcase_set_timeout(flat, 120);
  tcase_add_loop_test(flat, class_flattens_balanced, 0, N_CLASSES);
  suite_add_tcase(s, flat);
  TCase *sim = tcase_create("simulate");
  tcase_set_timeout(sim, 300);
  tcase_add_loop_test(sim, model_simulates, FIRST_MODEL, N_CLASSES);
  tcase_add_test(sim, brake_holds_below_peak);
  tcase_add_test(sim, translational_hold_arctan_and_linear);
  tcase_add_test(sim, sliding_matches_c_laws);
  tcase_add_test(sim, small_eps_approaches_coulomb);
  tcase_add_test(sim, lugre_steady_sliding_is_stribeck);
  tcase_add_test(sim, karnopp_and_lugre_in_replacements);
  tcase_add_loop_test(sim, bam_budget_matches_spec, 1, 7);
  tcase_add_test(sim, clutch_conserves_momentum_and_sticks);
  tcase_add_test(sim, lugre_block_matches_benchmark);
  tcase_add_test(sim, bam_stuck_slip_follows_the_budget);
  tcase_add_test(sim, bearing_interpolates_the_table);
  tcase_add_test(sim, brake_and_clutch_interpolate_the_table);
  suite_add_tcase(s, sim);
  return s;
}

int main(void) {
  SRunner *r = srunner_create(suite());
  srunner_run_all(r, CK_NORMAL);
  int failed = srunner_ntests_failed(r);
  srunner_free(r);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
