/* Drake's continuous-mode Stribeck coefficient (MultibodyPlant StribeckModel,
 * doc/friction.md §4): a C2 quintic smoothstep rises from 0 to mu_s over one stiction tolerance v_s, then a
 * second one falls to mu_d over [v_s, 3 v_s]. */
#include <stiction/friction.h>

/* step5(u) = u^3 (10 - 15u + 6u^2), derivative 30 u^2 (1 - u)^2. */
static double step5(double u, double *d) {
  *d = 30.0 * u * u * (1.0 - u) * (1.0 - u);
  return u * u * u * (10.0 + u * (-15.0 + 6.0 * u));
}

double stiction_friction_drake_mu(double speed, double mu_s, double mu_d, double v_s,
                                  double *dmu) {
  double x = speed / v_s, ds, mu;
  if (x < 1.0) {
    mu = mu_s * step5(x, &ds);
    ds = mu_s * ds / v_s;
  } else if (x < 3.0) {
    mu = mu_s - (mu_s - mu_d) * step5((x - 1.0) / 2.0, &ds);
    ds = -(mu_s - mu_d) * ds / (2.0 * v_s);
  } else {
    mu = mu_d;
    ds = 0.0;
  }
  if (dmu) *dmu = ds;
  return mu;
}
