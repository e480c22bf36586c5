/* Karnopp (1985) velocity dead-zone model (doc/benchmarks.md §2): inside |v| < dv the velocity is
 * treated as zero and friction balances the applied force up to the static limit. */
#include <math.h>

#include <stiction/friction.h>

double stiction_friction_karnopp(double v, double f_app, double dv, double fs, double fk,
                                 double dfk, double *dfdv, double *dfdapp) {
  double f, ddv = 0.0, dda = 0.0;
  if (fabs(v) < dv) {
    if (f_app > fs) f = -fs;
    else if (f_app < -fs) f = fs;
    else {
      f = -f_app;
      dda = -1.0;
    }
  } else {
    double s = v > 0 ? 1.0 : -1.0;
    f = -s * fk;
    ddv = -dfk; /* d/dv of -sign(v) fk(|v|) = -fk'(|v|) */
  }
  if (dfdv) *dfdv = ddv;
  if (dfdapp) *dfdapp = dda;
  return f;
}
