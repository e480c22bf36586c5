/* IPC Toolkit smooth static-to-kinetic coefficient (doc/friction.md §5, the piecewise
 * quadratic of IPC Toolkit v1.4.0+, PR #179): mu(y) goes from mu_s at y = 0 to mu_k at
 * y = eps with a C1 knee at eps/2, and its products with the mollifier. */
#include <math.h>

#include <stiction/friction.h>

/* Outside the transition band (or without a transition) every function is mu_k times the
 * plain mollifier counterpart. */
static int constant_mu(double y, double mu_s, double mu_k, double eps) {
  return mu_s == mu_k || fabs(y) >= eps;
}

double stiction_friction_ipc_mu(double y, double mu_s, double mu_k, double eps) {
  if (constant_mu(y, mu_s, mu_k, eps)) return mu_k;
  double z = fabs(y) / eps, dl = mu_k - mu_s;
  if (fabs(y) < 0.5 * eps) return mu_s + 2.0 * dl * z * z;
  return mu_k - 2.0 * dl * (1.0 - z) * (1.0 - z);
}

double stiction_friction_ipc_mu_derivative(double y, double mu_s, double mu_k, double eps) {
  if (constant_mu(y, mu_s, mu_k, eps)) return 0.0;
  double z = fabs(y) / eps, dl = mu_k - mu_s;
  if (fabs(y) < 0.5 * eps) return 4.0 * dl * z / eps;
  return 4.0 * dl * (1.0 - z) / eps;
}

/* Antiderivative of mu*f1 (the dissipative potential); the constants make it continuous at
 * eps/2 and equal to mu_k*eps at y = eps (doc/friction.md §5). */
double stiction_friction_ipc_mu_f0(double y, double mu_s, double mu_k, double eps) {
  if (constant_mu(y, mu_s, mu_k, eps)) return mu_k * stiction_friction_ipc_f0(y, eps);
  double z = fabs(y) / eps, dl = mu_k - mu_s, z2 = z * z;
  if (fabs(y) < 0.5 * eps)
    return eps * (mu_s * z2 - mu_s * z2 * z / 3.0 + dl * z2 * z2 - 0.4 * dl * z2 * z2 * z) +
           eps * (27.0 * mu_k - 11.0 * mu_s) / 48.0;
  return eps * ((2.0 * mu_s - mu_k) * z2 + (3.0 * mu_k - 10.0 * mu_s / 3.0) * z2 * z -
                2.0 * dl * z2 * z2 + 0.4 * dl * z2 * z2 * z) +
         eps * (0.6 * mu_k - 4.0 * mu_s / 15.0);
}

double stiction_friction_ipc_mu_f1(double y, double mu_s, double mu_k, double eps) {
  return stiction_friction_ipc_mu(y, mu_s, mu_k, eps) * stiction_friction_ipc_f1(y, eps);
}

double stiction_friction_ipc_mu_f2(double y, double mu_s, double mu_k, double eps) {
  return stiction_friction_ipc_mu_derivative(y, mu_s, mu_k, eps) *
             stiction_friction_ipc_f1(y, eps) +
         stiction_friction_ipc_mu(y, mu_s, mu_k, eps) * stiction_friction_ipc_f2(y, eps);
}

double stiction_friction_ipc_mu_f1_over_x(double y, double mu_s, double mu_k, double eps) {
  return stiction_friction_ipc_mu(y, mu_s, mu_k, eps) * stiction_friction_ipc_f1_over_x(y, eps);
}

/* ((mu f1)' y - mu f1)/y^3 in closed form (w = 1/eps). */
double stiction_friction_ipc_mu_f2_x_minus_mu_f1_over_x3(double y, double mu_s, double mu_k,
                                                         double eps) {
  if (constant_mu(y, mu_s, mu_k, eps))
    return mu_k * stiction_friction_ipc_f2_x_minus_f1_over_x3(y, eps);
  double w = 1.0 / eps, dl = mu_k - mu_s;
  if (fabs(y) < 0.5 * eps) return w * w * (w * (8.0 - 6.0 * y * w) * dl - mu_s / y);
  return w * w * (w * (6.0 * y * w - 16.0) * dl + (9.0 * mu_k - 10.0 * mu_s) / y);
}

double stiction_friction_ipc_blend_mu(double mu0, double mu1, stiction_blend_mu mode) {
  switch (mode) {
  case STICTION_BLEND_MIN: return mu0 < mu1 ? mu0 : mu1;
  case STICTION_BLEND_MAX: return mu0 > mu1 ? mu0 : mu1;
  case STICTION_BLEND_PRODUCT: return mu0 * mu1;
  default: return 0.5 * (mu0 + mu1);
  }
}

double stiction_friction_ipc_anisotropic_mu(double mu0, double mu1, double t0, double t1) {
  return hypot(mu0 * t0, mu1 * t1);
}
