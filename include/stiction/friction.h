/* Friction laws as pure functions with analytic first derivatives (for Jacobians).
 * Formulas, parameters and sources: doc/friction.md. Every function is reentrant and has no
 * state; a derivative out-pointer may be NULL when the derivative is not wanted.
 *
 * Sign convention: the "characteristic" functions below return the friction force *magnitude
 * with the sign of the velocity* (the resisting force is minus the returned value), except
 * where a function says otherwise. */
#ifndef STICTION_FRICTION_H
#define STICTION_FRICTION_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Regularizations of sign(v) -------------------------------------------------------- */

typedef enum stiction_sign_law {
  STICTION_SIGN_EXACT = 0,  /* sign(v), sign(0) = 0, derivative 0 (not regularized) */
  STICTION_SIGN_MSL_EXP,    /* MSL SignTorque Exp: 2/(1+exp(-v/(0.01 w))) - 1 = tanh(v/(0.02 w)) */
  STICTION_SIGN_MSL_SINE,   /* |v| < w: sin(pi/2 v/w); else sign(v).          C1 */
  STICTION_SIGN_MSL_LINEAR, /* |v| < w: v/w; else sign(v).                    C0 */
  STICTION_SIGN_MSL_COSINE, /* |v| < w: sign(v)(1 - cos(pi/2 v/w)); else sign. C0 at |v| = w */
  STICTION_SIGN_TANH,       /* tanh(v/w) */
  STICTION_SIGN_ATAN        /* (2/pi) atan(v/w)  (Leine's (2/pi) atan(eps v) with eps = 1/w) */
} stiction_sign_law;

/* Regularized sign of v with width w > 0; *dsdv (may be NULL) receives d/dv. */
double stiction_friction_sign(stiction_sign_law law, double v, double w, double *dsdv);

/* Name <-> law ("exact", "msl-exp", "msl-sine", "msl-linear", "msl-cosine", "tanh", "atan");
 * from_name returns -1 for an unknown name. */
const char *stiction_friction_sign_name(stiction_sign_law law);
int stiction_friction_sign_from_name(const char *name);

/* ---- Stribeck curve ---------------------------------------------------------------------- */

/* F(v) = s(v)*[Fc + (Fs - Fc) exp(-|v/vs|^alpha)] + Fv*v, s = the chosen sign law. */
typedef struct stiction_stribeck {
  double Fc;    /* Coulomb (kinetic) level, >= 0 */
  double Fs;    /* static (break-away) level, >= Fc usually */
  double vs;    /* Stribeck velocity, > 0 */
  double alpha; /* shape exponent, > 0 (2 = Gaussian, 1 = exponential) */
  double Fv;    /* viscous coefficient */
} stiction_stribeck;

/* The even magnitude curve g(v) = Fc + (Fs - Fc) exp(-|v/vs|^alpha); *dgdv = dg/dv (odd).
 * At v = 0 the derivative is 0 for alpha > 1, and the one-sided limit for v -> 0+ otherwise
 * (-(Fs-Fc)/vs for alpha = 1, -inf for alpha < 1): g has a kink/cusp there. */
double stiction_friction_stribeck_g(const stiction_stribeck *p, double v, double *dgdv);

/* Full curve with the sign law `law` of width w (w ignored for STICTION_SIGN_EXACT). */
double stiction_friction_stribeck(const stiction_stribeck *p, stiction_sign_law law, double w,
                                  double v, double *dfdv);

/* Leine et al. 1998 decaying slip law magnitude g(v) = Fs/(1 + delta*|v|) and its derivative. */
double stiction_friction_leine_g(double Fs, double delta, double v, double *dgdv);

/* ---- Karnopp (1985) velocity band ----------------------------------------------------------- */

/* Friction force acting on the body (resisting sign already applied). Inside the band
 * |v| < dv it cancels the applied (non-friction) force up to the static limit fs:
 * F = -clip(f_app, -fs, fs); outside F = -sign(v)*fk where fk is the kinetic magnitude at |v|
 * (dfk = dfk/d|v|). *dfdv and *dfdapp (may be NULL) are the partials away from |v| = dv. */
double stiction_friction_karnopp(double v, double f_app, double dv, double fs, double fk,
                                 double dfk, double *dfdv, double *dfdapp);

/* ---- Drake continuous-mode Stribeck coefficient (MultibodyPlant, time_step == 0) ---------- */

/* mu(speed) with x = speed/v_s: mu_s*step5(x) on [0,1), mu_s - (mu_s - mu_d)*step5((x-1)/2) on
 * [1,3), mu_d beyond; step5(u) = 10u^3 - 15u^4 + 6u^5. C2 everywhere on speed >= 0. */
double stiction_friction_drake_mu(double speed, double mu_s, double mu_d, double v_s,
                                  double *dmu);

/* ---- IPC Toolkit smooth friction (mollifier and smooth mu), y = tangential speed >= 0 ----- */

double stiction_friction_ipc_f0(double y, double eps);
double stiction_friction_ipc_f1(double y, double eps);
double stiction_friction_ipc_f2(double y, double eps);
double stiction_friction_ipc_f1_over_x(double y, double eps);
double stiction_friction_ipc_f2_x_minus_f1_over_x3(double y, double eps);
int stiction_friction_ipc_is_dynamic(double speed, double eps);

/* Piecewise quadratic smooth mu between mu_s (y = 0) and mu_k (y >= eps), as released in IPC
 * Toolkit v1.4.0+ (C1; knee at eps/2), and the products with the mollifier. */
double stiction_friction_ipc_mu(double y, double mu_s, double mu_k, double eps);
double stiction_friction_ipc_mu_derivative(double y, double mu_s, double mu_k, double eps);
double stiction_friction_ipc_mu_f0(double y, double mu_s, double mu_k, double eps);
double stiction_friction_ipc_mu_f1(double y, double mu_s, double mu_k, double eps);
double stiction_friction_ipc_mu_f2(double y, double mu_s, double mu_k, double eps);
double stiction_friction_ipc_mu_f1_over_x(double y, double mu_s, double mu_k, double eps);
double stiction_friction_ipc_mu_f2_x_minus_mu_f1_over_x3(double y, double mu_s, double mu_k,
                                                         double eps);

typedef enum stiction_blend_mu {
  STICTION_BLEND_AVERAGE = 0, /* (a + b)/2, IPC's default */
  STICTION_BLEND_MIN,
  STICTION_BLEND_MAX,
  STICTION_BLEND_PRODUCT
} stiction_blend_mu;

double stiction_friction_ipc_blend_mu(double mu0, double mu1, stiction_blend_mu mode);

/* Anisotropic effective coefficient sqrt((mu0 t0)^2 + (mu1 t1)^2) for the unit slip
 * direction (t0, t1) in the tangent basis. */
double stiction_friction_ipc_anisotropic_mu(double mu0, double mu1, double t0, double t1);

/* ---- LuGre (Canudas de Wit, Olsson, Astrom, Lischinsky 1995) ------------------------------- */

/* dz/dt = v - sigma0*|v|*z/g(v), F = sigma0*z + sigma1*dz/dt + sigma2*v, with
 * g(v) = Fc + (Fs - Fc) exp(-|v/vs|^alpha) (alpha = 2 in the paper). */
typedef struct stiction_lugre {
  double sigma0, sigma1, sigma2; /* bristle stiffness, bristle damping, viscous */
  double Fc, Fs, vs, alpha;      /* the Stribeck magnitude curve g */
} stiction_lugre;

typedef struct stiction_lugre_eval {
  double zdot, dzdot_dz, dzdot_dv;  /* state derivative and its partials */
  double force, dforce_dz, dforce_dv; /* friction force (resisting: acts as -force) */
} stiction_lugre_eval;

void stiction_friction_lugre(const stiction_lugre *p, double z, double v,
                             stiction_lugre_eval *out);

/* The same with a caller-supplied g(v) > 0 and dg/dv (e.g. Leine's Fs/(1 + delta|v|)). */
void stiction_friction_lugre_g(double sigma0, double sigma1, double sigma2, double g,
                               double dgdv, double z, double v, stiction_lugre_eval *out);

#ifdef __cplusplus
}
#endif
#endif
