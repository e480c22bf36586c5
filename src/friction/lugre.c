/* LuGre dynamic friction (C. Canudas de Wit, H. Olsson, K.J. Astrom, P. Lischinsky, "A new
 * model for control of systems with friction", IEEE TAC 40(3), 1995, eqs. (1)-(3)):
 * a bristle deflection z with dz/dt = v - sigma0 |v| z / g(v) and force
 * F = sigma0 z + sigma1 dz/dt + sigma2 v. Partials are for implicit integrators. */
#include <math.h>

#include <stiction/friction.h>

static double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

void stiction_friction_lugre_g(double sigma0, double sigma1, double sigma2, double g,
                               double dgdv, double z, double v, stiction_lugre_eval *out) {
  double av = fabs(v);
  out->zdot = v - sigma0 * av * z / g;
  out->dzdot_dz = -sigma0 * av / g;
  /* d/dv (|v|/g) = (sign(v) g - |v| g') / g^2 */
  out->dzdot_dv = 1.0 - sigma0 * z * (sgn(v) * g - av * dgdv) / (g * g);
  out->force = sigma0 * z + sigma1 * out->zdot + sigma2 * v;
  out->dforce_dz = sigma0 + sigma1 * out->dzdot_dz;
  out->dforce_dv = sigma1 * out->dzdot_dv + sigma2;
}

void stiction_friction_lugre(const stiction_lugre *p, double z, double v,
                             stiction_lugre_eval *out) {
  stiction_stribeck s = {p->Fc, p->Fs, p->vs, p->alpha, 0.0};
  double dg;
  double g = stiction_friction_stribeck_g(&s, v, &dg);
  stiction_friction_lugre_g(p->sigma0, p->sigma1, p->sigma2, g, dg, z, v, out);
}
