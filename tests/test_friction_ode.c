/* End-to-end checks of the friction laws inside an implicit integrator (CVODE BDF with the
 * analytic Jacobians the library provides) against the independent reference numbers of
 * doc/benchmarks.md: Canudas de Wit 1995 LuGre stick-slip (§3) and Leine's belt with arctan and
 * LuGre friction (§1.3). Uses SUNDIALS directly so it does not depend on the runtime module. */
#include <check.h>
#include <cvode/cvode.h>
#include <math.h>
#include <nvector/nvector_serial.h>
#include <stdio.h>
#include <stdlib.h>
#include <sundials/sundials_config.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <stiction/friction.h>
#include "testutil.h"

#define MAXN 3
#define MAXEV 64

/* A small ODE with root functions; f and its row-major Jacobian from one call. */
typedef struct ode {
  int n, nroots;
  double y0[MAXN], tend, rtol, atol[MAXN];
  void (*rhs)(const struct ode *o, double t, const double *y, double *f, double *jac);
  void (*roots)(const struct ode *o, double t, const double *y, double *g);
  int dir[2];
  const void *par;
  /* results: times of root 0, the state value y[1] at root 1 */
  double t0[MAXEV], y1max;
  int nt0;
} ode;

static int cv_rhs(sunrealtype t, N_Vector y, N_Vector f, void *ud) {
  ode *o = ud;
  o->rhs(o, t, N_VGetArrayPointer(y), N_VGetArrayPointer(f), NULL);
  return 0;
}

static int cv_jac(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud, N_Vector t1,
                  N_Vector t2, N_Vector t3) {
  (void)fy, (void)t1, (void)t2, (void)t3;
  ode *o = ud;
  double f[MAXN], jac[MAXN * MAXN];
  o->rhs(o, t, N_VGetArrayPointer(y), f, jac);
  for (int i = 0; i < o->n; i++)
    for (int j = 0; j < o->n; j++) SM_ELEMENT_D(J, i, j) = jac[i * o->n + j];
  return 0;
}

static int cv_roots(sunrealtype t, N_Vector y, sunrealtype *g, void *ud) {
  ode *o = ud;
  o->roots(o, t, N_VGetArrayPointer(y), g);
  return 0;
}

static void integrate(ode *o) {
  SUNContext ctx;
#if SUNDIALS_VERSION_MAJOR >= 7
  ck_assert_int_eq(SUNContext_Create(SUN_COMM_NULL, &ctx), 0);
#else
  ck_assert_int_eq(SUNContext_Create(NULL, &ctx), 0);
#endif
  N_Vector y = N_VNew_Serial(o->n, ctx), at = N_VNew_Serial(o->n, ctx);
  for (int i = 0; i < o->n; i++) {
    NV_Ith_S(y, i) = o->y0[i];
    NV_Ith_S(at, i) = o->atol[i];
  }
  void *cv = CVodeCreate(CV_BDF, ctx);
  SUNMatrix A = SUNDenseMatrix(o->n, o->n, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  ck_assert_int_eq(CVodeInit(cv, cv_rhs, 0.0, y), CV_SUCCESS);
  CVodeSVtolerances(cv, o->rtol, at);
  CVodeSetUserData(cv, o);
  CVodeSetLinearSolver(cv, LS, A);
  CVodeSetJacFn(cv, cv_jac);
  CVodeSetMaxNumSteps(cv, 1000000);
  CVodeRootInit(cv, o->nroots, cv_roots);
  CVodeSetRootDirection(cv, o->dir);
  double t = 0.0;
  o->nt0 = 0;
  o->y1max = -INFINITY;
  while (t < o->tend) {
    int flag = CVode(cv, o->tend, y, &t, CV_NORMAL);
    ck_assert_int_ge(flag, 0);
    if (flag != CV_ROOT_RETURN) continue;
    int found[2] = {0, 0};
    CVodeGetRootInfo(cv, found);
    if (found[0] && o->nt0 < MAXEV) o->t0[o->nt0++] = t;
    if (o->nroots > 1 && found[1] && NV_Ith_S(y, 1) > o->y1max) o->y1max = NV_Ith_S(y, 1);
  }
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
  N_VDestroy(at);
  CVodeFree(&cv);
  SUNContext_Free(&ctx);
}

static double mean_spacing(const ode *o, int first) {
  ck_assert_int_ge(o->nt0 - first, 2);
  if (getenv("ST_VERBOSE"))
    fprintf(stderr, "crossings %d, first %.6f, period %.6f, peak %.6f\n", o->nt0, o->t0[0],
            (o->t0[o->nt0 - 1] - o->t0[first]) / (o->nt0 - 1 - first), o->y1max);
  return (o->t0[o->nt0 - 1] - o->t0[first]) / (o->nt0 - 1 - first);
}

/* ---- Canudas de Wit 1995 stick-slip: m x'' = k(0.1 t - x) - F, states (x, v, z) ---------- */

static const stiction_lugre cdw = {1e5, 316.22776601683794, 0.4, 1.0, 1.5, 1e-3, 2.0};

static void cdw_rhs(const ode *o, double t, const double *y, double *f, double *jac) {
  (void)o;
  stiction_lugre_eval e;
  stiction_friction_lugre(&cdw, y[2], y[1], &e);
  f[0] = y[1];
  f[1] = 2.0 * (0.1 * t - y[0]) - e.force;
  f[2] = e.zdot;
  if (jac) {
    double J[9] = {0, 1, 0, -2.0, -e.dforce_dv, -e.dforce_dz, 0, e.dzdot_dv, e.dzdot_dz};
    for (int i = 0; i < 9; i++) jac[i] = J[i];
  }
}

/* root 0: slip onset v = 1e-3 upward (the spec's definition); root 1: a = 0 (velocity peak) */
static void cdw_roots(const ode *o, double t, const double *y, double *g) {
  double f[3];
  cdw_rhs(o, t, y, f, NULL);
  g[0] = y[1] - 1e-3;
  g[1] = f[1];
}

START_TEST(lugre_canudas_de_wit_stick_slip) {
  ode o = {.n = 3, .nroots = 2, .y0 = {0, 0, 0}, .tend = 30.0, .rtol = 1e-8,
           .atol = {1e-10, 1e-10, 1e-14}, .rhs = cdw_rhs, .roots = cdw_roots, .dir = {1, -1}};
  integrate(&o);
  ck_assert_int_eq(o.nt0, 4); /* slip onsets 7.4376, 13.8003, 20.1631, 26.5258 s */
  ck_assert_double_eq_tol(o.t0[0], 7.4376, 2e-3);
  ck_assert_double_eq_tol(o.t0[3], 26.5258, 2e-3);
  ck_assert_double_eq_tol(mean_spacing(&o, 0), 6.3627, 2e-3);
  ck_assert_double_eq_tol(o.y1max, 0.36982, 1e-3);
}
END_TEST

/* ---- Leine belt: x'' + x = F_T(gamma), gamma = x' - 0.2 ------------------------------------ */

typedef struct leine_par {
  stiction_sign_law law;
  double w; /* sign width, 1/eps */
} leine_par;

static void leine_reg_rhs(const ode *o, double t, const double *y, double *f, double *jac) {
  (void)t;
  const leine_par *p = o->par;
  double gam = y[1] - 0.2, dg, ds;
  double g = stiction_friction_leine_g(1.0, 3.0, gam, &dg);
  double s = stiction_friction_sign(p->law, gam, p->w, &ds);
  f[0] = y[1];
  f[1] = -y[0] - g * s;
  if (jac) {
    jac[0] = 0, jac[1] = 1, jac[2] = -1, jac[3] = -(dg * s + g * ds);
  }
}

/* Leine's LuGre variant: sigma0 = 100, sigma1 = 20, g = Fs/(1 + delta|gamma|), states (x, v, z) */
static void leine_lugre_rhs(const ode *o, double t, const double *y, double *f, double *jac) {
  (void)t, (void)o;
  double gam = y[1] - 0.2, dg;
  double g = stiction_friction_leine_g(1.0, 3.0, gam, &dg);
  stiction_lugre_eval e;
  stiction_friction_lugre_g(100.0, 20.0, 0.0, g, dg, y[2], gam, &e);
  f[0] = y[1];
  f[1] = -y[0] - e.force;
  f[2] = e.zdot;
  if (jac) {
    double J[9] = {0, 1, 0, -1, -e.dforce_dv, -e.dforce_dz, 0, e.dzdot_dv, e.dzdot_dz};
    for (int i = 0; i < 9; i++) jac[i] = J[i];
  }
}

static void x_up_root(const ode *o, double t, const double *y, double *g) {
  (void)o, (void)t;
  g[0] = y[0];
}

/* doc/benchmarks.md §1.3: periods of the regularized belt; the regularization error (not the
 * solver) dominates, so a tight tolerance reproduces the reference to +-1e-3 s. */
START_TEST(leine_belt_arctan_periods) {
  const double eps[] = {1e2, 1e3, 1e4, 1e5}, ref[] = {9.70965, 11.29810, 11.80793, 11.95182};
  for (int i = 0; i < 4; i++) {
    leine_par p = {STICTION_SIGN_ATAN, 1.0 / eps[i]};
    ode o = {.n = 2, .nroots = 1, .y0 = {1.0, 0.2}, .tend = 60.005, .rtol = 1e-9,
             .atol = {1e-12, 1e-12}, .rhs = leine_reg_rhs, .roots = x_up_root, .dir = {1},
             .par = &p};
    integrate(&o);
    ck_assert_double_eq_tol(mean_spacing(&o, 0), ref[i], 1e-3);
  }
}
END_TEST

START_TEST(leine_belt_lugre_period) {
  ode o = {.n = 3, .nroots = 1, .y0 = {1.0, 0.2, 0.01}, .tend = 60.005, .rtol = 1e-9,
           .atol = {1e-12, 1e-12, 1e-12}, .rhs = leine_lugre_rhs, .roots = x_up_root,
           .dir = {1}};
  integrate(&o);
  ck_assert_double_eq_tol(mean_spacing(&o, 0), 11.01344, 1e-3);
}
END_TEST

/* ---- Karnopp on the Leine belt (doc/benchmarks.md §2): fixed-step RK4, the way the velocity-band
 * model is meant to be used; the period must approach 12.00103 s as the band shrinks. ---- */

static void karnopp_acc(double dv, const double *y, double *f) {
  double gam = y[1] - 0.2, f_app = -y[0];
  double fk = stiction_friction_leine_g(1.0, 3.0, gam, NULL);
  f[0] = y[1];
  f[1] = f_app + stiction_friction_karnopp(gam, f_app, dv, 1.0, fk, 0.0, NULL, NULL);
}

static double karnopp_period(double dv, double h) {
  double y[2] = {1.0, 0.2}, t = 0.0, first = -1, last = -1;
  int n = 0;
  while (t < 60.005) {
    double k1[2], k2[2], k3[2], k4[2], tmp[2], prev = y[0];
    karnopp_acc(dv, y, k1);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + 0.5 * h * k1[i];
    karnopp_acc(dv, tmp, k2);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + 0.5 * h * k2[i];
    karnopp_acc(dv, tmp, k3);
    for (int i = 0; i < 2; i++) tmp[i] = y[i] + h * k3[i];
    karnopp_acc(dv, tmp, k4);
    for (int i = 0; i < 2; i++) y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    t += h;
    if (prev < 0 && y[0] >= 0) { /* upward zero crossing, linear interpolation */
      double tc = t - h * y[0] / (y[0] - prev);
      if (first < 0) first = tc;
      last = tc;
      n++;
    }
  }
  ck_assert_int_ge(n, 2);
  if (getenv("ST_VERBOSE")) fprintf(stderr, "Karnopp DV %g: period %.6f\n", dv, (last - first) / (n - 1));
  return (last - first) / (n - 1);
}

START_TEST(karnopp_period_converges) {
  double e_prev = INFINITY;
  const double dvs[] = {1e-2, 1e-3, 1e-4};
  for (int i = 0; i < 3; i++) {
    double e = fabs(karnopp_period(dvs[i], dvs[i] / 20.0) - 12.001031295);
    ck_assert_double_lt(e, e_prev);
    e_prev = e;
  }
  ck_assert_double_lt(e_prev, 1e-3);
}
END_TEST

ST_TEST_MAIN("friction-ode", "benchmarks", 120,
             lugre_canudas_de_wit_stick_slip, leine_belt_arctan_periods, leine_belt_lugre_period,
             karnopp_period_converges)
