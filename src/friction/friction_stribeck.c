/* Stribeck curve (Coulomb + static peak with exp(-|v/vs|^alpha) + viscous; e.g. Armstrong-
 * Helouvry 1994, the g(v) of LuGre) and Leine et al. 1998's decaying slip law. */
#include <math.h>

#include <stiction/friction.h>

static double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

double stiction_friction_stribeck_g(const stiction_stribeck *p, double v, double *dgdv) {
  double x = fabs(v) / p->vs;
  double e = exp(-pow(x, p->alpha));
  if (dgdv) {
    if (v != 0.0)
      *dgdv = -(p->Fs - p->Fc) * e * p->alpha * pow(x, p->alpha - 1.0) / p->vs * sgn(v);
    else if (p->alpha > 1.0)
      *dgdv = 0.0;
    else /* one-sided limit v -> 0+: a kink (alpha = 1) or a cusp (alpha < 1) */
      *dgdv = p->alpha == 1.0 ? -(p->Fs - p->Fc) / p->vs : -INFINITY * (p->Fs - p->Fc);
  }
  return p->Fc + (p->Fs - p->Fc) * e;
}

double stiction_friction_stribeck(const stiction_stribeck *p, stiction_sign_law law, double w,
                                  double v, double *dfdv) {
  double dg, ds;
  double g = stiction_friction_stribeck_g(p, v, &dg);
  double s = stiction_friction_sign(law, v, w, &ds);
  /* at v = 0 the product rule's s*dg term vanishes since s(0) = 0 for every law */
  if (dfdv) *dfdv = ds * g + (s != 0.0 ? s * dg : 0.0) + p->Fv;
  return s * g + p->Fv * v;
}

double stiction_friction_leine_g(double Fs, double delta, double v, double *dgdv) {
  double den = 1.0 + delta * fabs(v);
  if (dgdv) *dgdv = -Fs * delta * sgn(v) / (den * den);
  return Fs / den;
}
