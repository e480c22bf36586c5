/* Friction-law library: analytic derivatives against central finite differences (including
 * join points), continuity where promised, limits, the IPC sample tables and property tests
 * (doc/friction.md §5), Drake's continuous curve samples (doc/friction.md §4), LuGre
 * partials and its steady state. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include <stiction/friction.h>
#include "testutil.h"

/* Central difference of a scalar function of v. */
typedef double (*fun1)(double v, const void *ctx);

static double fd(fun1 f, const void *ctx, double v, double h) {
  return (f(v + h, ctx) - f(v - h, ctx)) / (2.0 * h);
}

static void assert_close(double a, double b, double abs_tol, double rel_tol, const char *what,
                         double at) {
  if (!(fabs(a - b) <= abs_tol + rel_tol * fabs(b)))
    ck_abort_msg("%s at %.17g: %.17g vs %.17g", what, at, a, b);
}

/* ---- sign regularizations -------------------------------------------------------------- */

typedef struct sign_ctx {
  stiction_sign_law law;
  double w;
} sign_ctx;

static double sign_val(double v, const void *c) {
  const sign_ctx *s = c;
  return stiction_friction_sign(s->law, v, s->w, NULL);
}

static const stiction_sign_law smooth_laws[] = {STICTION_SIGN_MSL_EXP, STICTION_SIGN_MSL_SINE,
                                                STICTION_SIGN_TANH, STICTION_SIGN_ATAN};
static const stiction_sign_law all_laws[] = {STICTION_SIGN_MSL_EXP, STICTION_SIGN_MSL_SINE,
                                             STICTION_SIGN_MSL_LINEAR, STICTION_SIGN_MSL_COSINE,
                                             STICTION_SIGN_TANH, STICTION_SIGN_ATAN};

START_TEST(sign_derivatives_match_fd) {
  const double ws[] = {1e-3, 0.1, 1.0};
  for (size_t l = 0; l < 6; l++)
    for (size_t i = 0; i < 3; i++) {
      sign_ctx c = {all_laws[l], ws[i]};
      double w = ws[i];
      /* a grid through the band, away from the kinks of Linear/CoSine at |v| = w */
      for (double x = -2.013; x <= 2.0; x += 0.0371) {
        double v = x * w, d;
        if (fabs(fabs(x) - 1.0) < 1e-3) continue;
        stiction_friction_sign(c.law, v, w, &d);
        assert_close(d, fd(sign_val, &c, v, 1e-6 * w), 1e-6 / w, 1e-6,
                     stiction_friction_sign_name(c.law), v);
      }
    }
}
END_TEST

/* Join points: C1 laws have equal one-sided slopes at |v| = w and at 0; the value is continuous
 * for every law. */
START_TEST(sign_join_points) {
  const double w = 0.5, h = 1e-7;
  for (size_t l = 0; l < 6; l++) {
    stiction_sign_law law = all_laws[l];
    for (int side = -1; side <= 1; side += 2) {
      double j = side * w, dl, dr;
      double vl = stiction_friction_sign(law, j - h, w, &dl);
      double vr = stiction_friction_sign(law, j + h, w, &dr);
      assert_close(vl, vr, 1e-5 * 4, 0, "continuity at |v| = w", j);
      int c1 = law != STICTION_SIGN_MSL_LINEAR && law != STICTION_SIGN_MSL_COSINE;
      if (c1) assert_close(dl, dr, 1e-5, 0, "C1 at |v| = w", j);
    }
    double dl, dr, d0;
    double v0 = stiction_friction_sign(law, 0.0, w, &d0);
    ck_assert_double_eq(v0, 0.0);
    stiction_friction_sign(law, -h, w, &dl);
    stiction_friction_sign(law, h, w, &dr);
    assert_close(dl, dr, 1e-6, 1e-6, "C1 at 0", 0.0);
    assert_close(d0, dr, 1e-6, 1e-6, "derivative at 0", 0.0);
  }
}
END_TEST

START_TEST(sign_limits_and_closed_forms) {
  for (size_t l = 0; l < 6; l++) {
    stiction_sign_law law = all_laws[l];
    double tol = law == STICTION_SIGN_ATAN ? 2e-3 : 1e-12; /* atan: 1 - (2/pi)/x */
    assert_close(stiction_friction_sign(law, 1e3, 1.0, NULL), 1.0, tol, 0, "v -> +inf", 1e3);
    assert_close(stiction_friction_sign(law, -1e3, 1.0, NULL), -1.0, tol, 0, "v -> -inf", -1e3);
    ck_assert(isfinite(stiction_friction_sign(law, -1e300, 1e-3, NULL)));
  }
  /* MSL Exp as written in SignTorque: 2/(1 + exp(-w/(0.01 w0))) - 1 */
  for (double v = -0.04; v <= 0.04; v += 0.0013) {
    double ref = 2.0 / (1.0 + exp(-v / (0.01 * 1.0))) - 1.0, d;
    assert_close(stiction_friction_sign(STICTION_SIGN_MSL_EXP, v, 1.0, &d), ref, 1e-14, 0,
                 "MSL Exp", v);
    ck_assert(isfinite(d));
  }
  ck_assert_double_eq_tol(stiction_friction_sign(STICTION_SIGN_MSL_SINE, 0.25, 0.5, NULL),
                          sin(M_PI / 4), 1e-15);
  ck_assert_double_eq_tol(stiction_friction_sign(STICTION_SIGN_MSL_COSINE, -0.25, 0.5, NULL),
                          -(1 - cos(M_PI / 4)), 1e-15);
  ck_assert_double_eq_tol(stiction_friction_sign(STICTION_SIGN_ATAN, 1e-3, 1e-3, NULL), 0.5,
                          1e-15);
  ck_assert_double_eq(stiction_friction_sign(STICTION_SIGN_EXACT, -3.0, 1.0, NULL), -1.0);
  ck_assert_int_eq(stiction_friction_sign_from_name("msl-cosine"), STICTION_SIGN_MSL_COSINE);
  ck_assert_int_eq(stiction_friction_sign_from_name("nope"), -1);
  (void)smooth_laws;
}
END_TEST

/* ---- Stribeck, Leine, Karnopp -------------------------------------------------------- */

typedef struct strib_ctx {
  stiction_stribeck p;
  stiction_sign_law law;
  double w;
} strib_ctx;

static double strib_val(double v, const void *c) {
  const strib_ctx *s = c;
  return stiction_friction_stribeck(&s->p, s->law, s->w, v, NULL);
}

START_TEST(stribeck_curve) {
  const double alphas[] = {0.76, 1.0, 2.0, 8.68};
  for (int a = 0; a < 4; a++) {
    strib_ctx c = {{1.0, 1.5, 1e-3, alphas[a], 0.4}, STICTION_SIGN_TANH, 1e-5};
    double g0 = stiction_friction_stribeck_g(&c.p, 0.0, NULL);
    ck_assert_double_eq(g0, 1.5); /* static peak at rest */
    assert_close(stiction_friction_stribeck_g(&c.p, 1.0, NULL), 1.0, 1e-12, 0, "g -> Fc", 1);
    for (double v = -5e-3; v <= 5e-3; v += 1.37e-4) {
      if (fabs(v) < 5e-5) continue; /* |v|^alpha has a cusp at 0 for alpha <= 1 */
      double d;
      stiction_friction_stribeck(&c.p, c.law, c.w, v, &d);
      assert_close(d, fd(strib_val, &c, v, 1e-9), 1e-5, 1e-5, "Stribeck derivative", v);
    }
    /* large |v|: sign(v) Fc + Fv v */
    assert_close(strib_val(2.0, &c), 1.0 + 0.8, 1e-12, 0, "Stribeck large v", 2.0);
  }
  stiction_stribeck p = {1.0, 1.5, 1e-3, 2.0, 0.0};
  double d;
  stiction_friction_stribeck_g(&p, 0.0, &d);
  ck_assert_double_eq(d, 0.0);
}
END_TEST

START_TEST(leine_and_karnopp) {
  double d, dv, da;
  ck_assert_double_eq_tol(stiction_friction_leine_g(1.0, 3.0, -0.2, &d), 1.0 / 1.6, 1e-15);
  ck_assert_double_eq_tol(d, 3.0 / (1.6 * 1.6), 1e-14); /* even function: g'(-v) = -g'(v) */
  double h = 1e-7;
  assert_close(d, (stiction_friction_leine_g(1, 3, -0.2 + h, NULL) -
                   stiction_friction_leine_g(1, 3, -0.2 - h, NULL)) / (2 * h),
               1e-7, 0, "Leine g'", -0.2);
  /* inside the band friction balances the applied force... */
  ck_assert_double_eq(stiction_friction_karnopp(1e-5, 0.7, 1e-4, 1.0, 0.8, 0.0, &dv, &da), -0.7);
  ck_assert_double_eq(da, -1.0);
  ck_assert_double_eq(dv, 0.0);
  /* ...up to the static limit... */
  ck_assert_double_eq(stiction_friction_karnopp(-1e-5, -1.3, 1e-4, 1.0, 0.8, 0.0, &dv, &da), 1.0);
  ck_assert_double_eq(da, 0.0);
  /* ...and outside it the kinetic law opposes the motion */
  ck_assert_double_eq(stiction_friction_karnopp(-0.3, 5.0, 1e-4, 1.0, 0.8, -0.1, &dv, &da), 0.8);
  ck_assert_double_eq(dv, 0.1);
}
END_TEST

/* ---- Drake continuous curve (doc/friction.md §4) --------------------------------------- */

START_TEST(drake_mu_samples_and_smoothness) {
  const double x[] = {0, 0.5, 1, 1.5, 2, 2.5, 3, 4};
  const double mu[] = {0, 0.45, 0.9, 0.85859375, 0.7, 0.54140625, 0.5, 0.5};
  const double vs = 1e-4;
  for (int i = 0; i < 8; i++)
    assert_close(stiction_friction_drake_mu(x[i] * vs, 0.9, 0.5, vs, NULL), mu[i], 1e-15, 1e-12,
                 "Drake mu sample", x[i]);
  for (double s = 0.013; s < 4.0; s += 0.0417) {
    double d, h = 1e-6 * vs;
    stiction_friction_drake_mu(s * vs, 0.9, 0.5, vs, &d);
    double f = (stiction_friction_drake_mu(s * vs + h, 0.9, 0.5, vs, NULL) -
                stiction_friction_drake_mu(s * vs - h, 0.9, 0.5, vs, NULL)) / (2 * h);
    assert_close(d, f, 1e-3, 1e-6, "Drake mu'", s);
  }
  /* C1 (indeed C2) at the joins x = 1 and x = 3: the slope vanishes from both sides */
  for (double j = 1.0; j <= 3.0; j += 2.0) {
    double dl, dr;
    stiction_friction_drake_mu(j * vs * (1 - 1e-9), 0.9, 0.5, vs, &dl);
    stiction_friction_drake_mu(j * vs * (1 + 1e-9), 0.9, 0.5, vs, &dr);
    assert_close(dl, dr, 1e-3, 0, "Drake C1", j);
  }
}
END_TEST

/* ---- IPC mollifier and smooth mu (doc/friction.md §5) ------------------------------- */

typedef struct ipc_ctx {
  double eps, mus, muk;
} ipc_ctx;

static double f0v(double y, const void *c) { return stiction_friction_ipc_f0(y, ((const ipc_ctx *)c)->eps); }
static double f1v(double y, const void *c) { return stiction_friction_ipc_f1(y, ((const ipc_ctx *)c)->eps); }
static double muv(double y, const void *c) {
  const ipc_ctx *p = c;
  return stiction_friction_ipc_mu(y, p->mus, p->muk, p->eps);
}
static double muf0v(double y, const void *c) {
  const ipc_ctx *p = c;
  return stiction_friction_ipc_mu_f0(y, p->mus, p->muk, p->eps);
}
static double muf1v(double y, const void *c) {
  const ipc_ctx *p = c;
  return stiction_friction_ipc_mu_f1(y, p->mus, p->muk, p->eps);
}

/* IPC's own property test grid (§5.1): eps, y = 10^k, k = -8..-1, h = 1e-8. */
START_TEST(ipc_mollifier_property_grid) {
  for (int ke = -8; ke <= -1; ke++)
    for (int ky = -8; ky <= -1; ky++) {
      if (ke == -8 && ky == -8) continue;
      ipc_ctx c = {pow(10, ke), 0, 0};
      double y = pow(10, ky), h = 1e-8, e = c.eps;
      double d0 = fd(f0v, &c, y, h);
      assert_close(stiction_friction_ipc_f1(y, e), d0, 1e-6, 2e-2, "f1 = f0'", y);
      assert_close(stiction_friction_ipc_f1_over_x(y, e) * y, d0, 1e-6, 2e-2, "f1/x", y);
      if (ke == ky) continue;
      double d1 = fd(f1v, &c, y, h);
      assert_close(stiction_friction_ipc_f2(y, e), d1, 1e-6, 2e-2, "f2 = f1'", y);
      assert_close((stiction_friction_ipc_f2_x_minus_f1_over_x3(y, e) * y * y * y +
                    stiction_friction_ipc_f1(y, e)) / y, d1, 1e-6, 2e-2, "f2x3", y);
    }
}
END_TEST

START_TEST(ipc_smooth_mu_property_grid) {
  for (int a = 0; a < 10; a++)
    for (int b = 0; b < 10; b++)
      for (int ke = -8; ke <= -1; ke++)
        for (int ky = -8; ky <= -1; ky++) {
          if (ke == -8 && ky == -8) continue;
          ipc_ctx c = {pow(10, ke), 0.1 * a, 0.1 * b};
          double y = pow(10, ky), h = 1e-10, e = c.eps;
          double d0 = fd(muf0v, &c, y, h);
          assert_close(muf1v(y, &c), d0, 1e-6, 1e-4, "mu f1 = (mu f0)'", y);
          assert_close(stiction_friction_ipc_mu_f1_over_x(y, c.mus, c.muk, e) * y, d0, 1e-6,
                       1e-4, "mu f1/x", y);
          if (ke == ky) continue;
          double d1 = fd(muf1v, &c, y, h);
          assert_close(stiction_friction_ipc_mu_derivative(y, c.mus, c.muk, e),
                       fd(muv, &c, y, h), 1e-6, 1e-4, "mu'", y);
          assert_close(stiction_friction_ipc_mu_f2(y, c.mus, c.muk, e), d1, 1e-6, 1e-4,
                       "(mu f1)'", y);
          assert_close((stiction_friction_ipc_mu_f2_x_minus_mu_f1_over_x3(y, c.mus, c.muk, e) *
                            y * y * y + muf1v(y, &c)) / y, d1, 1e-6, 1e-4, "mu f2x3", y);
        }
}
END_TEST

/* §5.2: the knee and the joins, which the IPC grid never probes. */
START_TEST(ipc_knee_and_joins) {
  const double e = 1e-3, zs[] = {0.25, 0.49, 0.5, 0.51, 0.75, 0.99, 1.0, 1.01};
  ipc_ctx c = {e, 1.0, 0.1};
  const double dl = c.muk - c.mus;
  for (int i = 0; i < 8; i++) {
    double y = zs[i] * e, h = 1e-6 * e;
    /* derivative identities, exact up to round-off away from the joins */
    if (fabs(zs[i] - 0.5) > 0.005 && fabs(zs[i] - 1.0) > 0.005) {
      assert_close(fd(muf0v, &c, y, h), muf1v(y, &c), 1e-9, 1e-7, "(mu f0)' = mu f1", y);
      double mf2 = stiction_friction_ipc_mu_f2(y, c.mus, c.muk, e);
      assert_close(mf2, stiction_friction_ipc_mu_derivative(y, c.mus, c.muk, e) * f1v(y, &c) +
                            muv(y, &c) * stiction_friction_ipc_f2(y, e), 0, 1e-12, "product", y);
      assert_close((stiction_friction_ipc_mu_f2_x_minus_mu_f1_over_x3(y, c.mus, c.muk, e) * y *
                        y * y + muf1v(y, &c)) / y, mf2, 1e-9, 1e-9, "f2x3 identity", y);
    }
  }
  /* C1 at eps/2 and eps: left/right limits of mu, mu', mu f0, mu f1 agree */
  const double joins[] = {0.5 * e, e};
  for (int j = 0; j < 2; j++) {
    double yl = joins[j] * (1 - 1e-12), yr = joins[j] * (1 + 1e-12);
    assert_close(muv(yl, &c), muv(yr, &c), 1e-9, 0, "mu continuous", joins[j]);
    assert_close(stiction_friction_ipc_mu_derivative(yl, 1, 0.1, e),
                 stiction_friction_ipc_mu_derivative(yr, 1, 0.1, e), 1e-6, 0, "mu' continuous", joins[j]);
    assert_close(muf0v(yl, &c), muf0v(yr, &c), 1e-14, 0, "mu f0 continuous", joins[j]);
    assert_close(muf1v(yl, &c), muf1v(yr, &c), 1e-9, 0, "mu f1 continuous", joins[j]);
  }
  /* mollifier C2 at eps */
  assert_close(stiction_friction_ipc_f0(e * (1 - 1e-12), e), stiction_friction_ipc_f0(e, e), 1e-14, 0, "f0", e);
  assert_close(stiction_friction_ipc_f1(e * (1 - 1e-12), e), 1.0, 1e-9, 0, "f1", e);
  assert_close(stiction_friction_ipc_f2(e * (1 - 1e-12), e), 0.0, 1e-5, 0, "f2", e);
  /* join-point values */
  assert_close(muv(0.5 * e, &c), c.mus + dl / 2, 0, 1e-14, "mu(eps/2)", 0.5 * e);
  assert_close(stiction_friction_ipc_mu_derivative(0.5 * e, 1, 0.1, e), 2 * dl / e, 0, 1e-12, "mu'(eps/2)", 0.5 * e);
  ck_assert_double_eq(muv(e, &c), 0.1);
  ck_assert_double_eq(stiction_friction_ipc_mu_derivative(e, 1, 0.1, e), 0.0);
  assert_close(muf0v(e, &c), 0.1 * e, 0, 1e-14, "mu f0(eps)", e);
  ck_assert_double_eq(stiction_friction_ipc_f0(e, e), e);
  ck_assert_double_eq(stiction_friction_ipc_f1(e, e), 1.0);
  ck_assert_double_eq(stiction_friction_ipc_f2(e, e), 0.0);
  assert_close(stiction_friction_ipc_f0(0, e), e / 3, 0, 1e-15, "f0(0)", 0);
  ck_assert_double_eq(stiction_friction_ipc_f1(0, e), 0.0);
  assert_close(stiction_friction_ipc_f1_over_x(0, e), 2 / e, 0, 1e-15, "f1/x(0)", 0);
  assert_close(stiction_friction_ipc_f2(0, e), 2 / e, 0, 1e-15, "f2(0)", 0);
  ck_assert(stiction_friction_ipc_is_dynamic(1.1 * e, e) && !stiction_friction_ipc_is_dynamic(e, e));
}
END_TEST

START_TEST(ipc_reductions_and_static_peak) {
  const double e = 1e-3;
  for (double y = 0.0; y < 2.5 * e; y += 0.0731 * e) {
    double mu = 0.4;
    assert_close(stiction_friction_ipc_mu_f0(y, mu, mu, e), mu * stiction_friction_ipc_f0(y, e), 0, 1e-14, "reduce f0", y);
    assert_close(stiction_friction_ipc_mu_f1(y, mu, mu, e), mu * stiction_friction_ipc_f1(y, e), 0, 1e-14, "reduce f1", y);
    assert_close(stiction_friction_ipc_mu_f2(y, mu, mu, e), mu * stiction_friction_ipc_f2(y, e), 0, 1e-14, "reduce f2", y);
    if (y > 0)
      assert_close(stiction_friction_ipc_mu_f2_x_minus_mu_f1_over_x3(y, mu, mu, e),
                   mu * stiction_friction_ipc_f2_x_minus_f1_over_x3(y, e), 0, 1e-14, "reduce f2x3", y);
  }
  assert_close(stiction_friction_ipc_mu_f0(0, 0.7, 0.2, e), e * (27 * 0.2 - 11 * 0.7) / 48, 0, 1e-14, "mu f0(0)", 0);
  /* effective static coefficient: max of mu f1 = 0.456 at y ~ 0.39 eps (§4) */
  double best = 0, arg = 0;
  for (int i = 0; i <= 100000; i++) {
    double y = e * i / 100000.0, f = stiction_friction_ipc_mu_f1(y, 1.0, 0.1, e);
    if (f > best) best = f, arg = y;
  }
  ck_assert_double_eq_tol(best, 0.456, 5e-4);
  ck_assert_double_eq_tol(arg / e, 0.39, 5e-3);
  /* blend_mu and anisotropy (§3, §5.1) */
  ck_assert_double_eq(stiction_friction_ipc_blend_mu(0.2, 0.6, STICTION_BLEND_AVERAGE), 0.4);
  ck_assert_double_eq(stiction_friction_ipc_blend_mu(0.2, 0.6, STICTION_BLEND_MIN), 0.2);
  ck_assert_double_eq(stiction_friction_ipc_blend_mu(0.2, 0.6, STICTION_BLEND_MAX), 0.6);
  ck_assert_double_eq_tol(stiction_friction_ipc_blend_mu(0.2, 0.6, STICTION_BLEND_PRODUCT), 0.12, 1e-16);
  ck_assert_double_eq(stiction_friction_ipc_anisotropic_mu(0.3, 0.8, 1, 0), 0.3);
  ck_assert_double_eq(stiction_friction_ipc_anisotropic_mu(0.3, 0.8, 0, 1), 0.8);
  ck_assert_double_eq_tol(stiction_friction_ipc_anisotropic_mu(0.3, 0.8, M_SQRT1_2, M_SQRT1_2),
                          sqrt((0.09 + 0.64) / 2), 1e-15);
}
END_TEST

/* §6 sample tables; entries printed with few digits are exact. */
typedef struct row {
  double y, f0, f1, f2, f1x, f2x3;
} row;

/* Relative agreement to the printed significant digits (15 for the long entries). */
static void tab(double ours, double ref, int digits, const char *what, double y) {
  assert_close(ours, ref, 0, 0.5 * pow(10, 1 - digits) + 1e-12, what, y);
}

START_TEST(ipc_sample_tables) {
  const double e = 1e-3;
  const row moll[] = {
    {1e-4, 3.43e-4, 0.19, 1800, 1900, -1e10},
    {2.5e-4, 3.90625e-4, 0.4375, 1500, 1750, -4e9},
    {5e-4, 5.41666666666667e-4, 0.75, 1000, 1500, -2e9},
    {7.5e-4, 7.55208333333333e-4, 0.9375, 500, 1250, -1.333333e9},
    {1e-3, 1e-3, 1, 0, 1000, -1e9},
    {2e-3, 2e-3, 1, 0, 500, -1.25e8}};
  tab(stiction_friction_ipc_f0(0, e), 3.33333333333333e-4, 15, "f0", 0);
  for (int i = 0; i < 6; i++) {
    double y = moll[i].y;
    tab(stiction_friction_ipc_f0(y, e), moll[i].f0, 15, "f0", y);
    tab(stiction_friction_ipc_f1(y, e), moll[i].f1, 15, "f1", y);
    tab(stiction_friction_ipc_f2(y, e), moll[i].f2, 15, "f2", y);
    tab(stiction_friction_ipc_f1_over_x(y, e), moll[i].f1x, 15, "f1/x", y);
    tab(stiction_friction_ipc_f2_x_minus_f1_over_x3(y, e), moll[i].f2x3, i == 3 ? 7 : 15, "f2x3", y);
  }
  /* quadratic smooth mu, mu_s = 1, mu_k = 0.1: y, mu, mu', mu f0, mu f1, (mu f1)', mu f1/y, f2x3 */
  const double smu[][8] = {
    {1e-4, 0.982, -360, -1.633364e-4, 0.18658, 1699.2, 1865.8, -1.666e10},
    {2.5e-4, 0.8875, -900, -1.187890625e-4, 0.38828125, 937.5, 1553.125, -9.85e9},
    {5e-4, 0.55, -1800, -9.58333333333334e-6, 0.4125, -800, 825, -6.5e9},
    {7.5e-4, 0.2125, -900, 6.64973958333333e-5, 0.19921875, -737.5, 265.625, -1.78333333e9},
    {1e-3, 0.1, 0, 1e-4, 0.1, 0, 100, -1e8},
    {2e-3, 0.1, 0, 2e-4, 0.1, 0, 50, -1.25e7}};
  const int f0_digits[] = {15, 15, 15, 15, 15, 15}, f2x3_digits[] = {15, 15, 15, 9, 15, 15};
  tab(stiction_friction_ipc_mu_f0(0, 1, 0.1, e), -1.72916666666667e-4, 15, "mu f0", 0);
  ck_assert_double_eq(stiction_friction_ipc_mu(0, 1, 0.1, e), 1.0);
  tab(stiction_friction_ipc_mu_f2(0, 1, 0.1, e), 2000, 15, "(mu f1)'", 0);
  for (int i = 0; i < 6; i++) {
    double y = smu[i][0];
    tab(stiction_friction_ipc_mu(y, 1, 0.1, e), smu[i][1], 15, "mu", y);
    if (smu[i][2] == 0) ck_assert_double_eq(stiction_friction_ipc_mu_derivative(y, 1, 0.1, e), 0);
    else tab(stiction_friction_ipc_mu_derivative(y, 1, 0.1, e), smu[i][2], 15, "mu'", y);
    tab(stiction_friction_ipc_mu_f0(y, 1, 0.1, e), smu[i][3], f0_digits[i], "mu f0", y);
    tab(stiction_friction_ipc_mu_f1(y, 1, 0.1, e), smu[i][4], 15, "mu f1", y);
    if (smu[i][5] == 0) assert_close(stiction_friction_ipc_mu_f2(y, 1, 0.1, e), 0, 1e-12, 0, "(mu f1)'", y);
    else tab(stiction_friction_ipc_mu_f2(y, 1, 0.1, e), smu[i][5], 15, "(mu f1)'", y);
    tab(stiction_friction_ipc_mu_f1_over_x(y, 1, 0.1, e), smu[i][6], 15, "mu f1/y", y);
    tab(stiction_friction_ipc_mu_f2_x_minus_mu_f1_over_x3(y, 1, 0.1, e), smu[i][7], f2x3_digits[i], "mu f2x3", y);
  }
}
END_TEST

/* ---- LuGre --------------------------------------------------------------------------------- */

static const stiction_lugre cdw = {1e5, 316.22776601683793, 0.4, 1.0, 1.5, 1e-3, 2.0};

START_TEST(lugre_partials_match_fd) {
  const double zs[] = {-2e-5, 0.0, 7e-6, 1.4e-5}, vs[] = {-0.02, -1e-3, -2e-4, 3e-4, 1e-3, 0.05};
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 6; j++) {
      stiction_lugre_eval o, p, m;
      double z = zs[i], v = vs[j], hz = 1e-10, hv = 1e-9;
      stiction_friction_lugre(&cdw, z, v, &o);
      stiction_friction_lugre(&cdw, z + hz, v, &p);
      stiction_friction_lugre(&cdw, z - hz, v, &m);
      assert_close(o.dzdot_dz, (p.zdot - m.zdot) / (2 * hz), 1e-6, 1e-6, "dzdot/dz", z);
      assert_close(o.dforce_dz, (p.force - m.force) / (2 * hz), 1e-3, 1e-6, "dF/dz", z);
      stiction_friction_lugre(&cdw, z, v + hv, &p);
      stiction_friction_lugre(&cdw, z, v - hv, &m);
      assert_close(o.dzdot_dv, (p.zdot - m.zdot) / (2 * hv), 1e-6, 1e-5, "dzdot/dv", v);
      assert_close(o.dforce_dv, (p.force - m.force) / (2 * hv), 1e-3, 1e-5, "dF/dv", v);
    }
}
END_TEST

/* Steady sliding: dz/dt = 0 at z = sign(v) g(v)/sigma0, so F = sign(v) g(v) + sigma2 v
 * (Canudas de Wit et al. 1995, eq. (5)): the Stribeck curve. */
START_TEST(lugre_steady_state_is_stribeck) {
  for (double v = -0.01; v <= 0.01; v += 7.3e-4) {
    if (v == 0) continue;
    stiction_stribeck s = {cdw.Fc, cdw.Fs, cdw.vs, cdw.alpha, cdw.sigma2};
    double g = stiction_friction_stribeck_g(&s, v, NULL), z = (v > 0 ? 1 : -1) * g / cdw.sigma0;
    stiction_lugre_eval o;
    stiction_friction_lugre(&cdw, z, v, &o);
    assert_close(o.zdot, 0.0, 1e-15, 0, "steady zdot", v);
    assert_close(o.force, stiction_friction_stribeck(&s, STICTION_SIGN_EXACT, 0, v, NULL), 1e-12,
                 1e-12, "steady force", v);
  }
  /* at rest the bristles act as a spring: F = sigma0 z, zdot = 0 */
  stiction_lugre_eval o;
  stiction_friction_lugre(&cdw, 1e-5, 0.0, &o);
  ck_assert_double_eq(o.zdot, 0.0);
  ck_assert_double_eq_tol(o.force, 1.0, 1e-12);
}
END_TEST

ST_TEST_MAIN("friction", "laws", 120,
             sign_derivatives_match_fd, sign_join_points, sign_limits_and_closed_forms,
             stribeck_curve, leine_and_karnopp, drake_mu_samples_and_smoothness,
             ipc_mollifier_property_grid, ipc_smooth_mu_property_grid, ipc_knee_and_joins,
             ipc_reductions_and_static_peak, ipc_sample_tables, lugre_partials_match_fd,
             lugre_steady_state_is_stribeck)
