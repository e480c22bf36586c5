/* Regularizations of sign(v): MSL SignTorque variants, tanh and arctan
 * (Leine et al. 1998 smoothing, doc/benchmarks.md §1.1). Formulas: doc/friction.md §1. */
#include <math.h>
#include <string.h>

#include <stiction/friction.h>

static double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

/* tanh(x/w) with its derivative; MSL's Exp law is this with w' = 0.02 w, evaluated through
 * tanh because exp(-v/(0.01w)) overflows for large negative v. */
static double tanh_law(double v, double w, double *d) {
  double t = tanh(v / w);
  *d = (1.0 - t * t) / w;
  return t;
}

/* Laws that reach sign(v) exactly at |v| = w (MSL Sine, Linear, CoSine). */
static double banded_law(stiction_sign_law law, double v, double w, double *d) {
  double a = M_PI / 2.0 * v / w;
  if (fabs(v) >= w) {
    *d = 0.0;
    return sgn(v);
  }
  switch (law) {
  case STICTION_SIGN_MSL_SINE: *d = M_PI / (2.0 * w) * cos(a); return sin(a);
  case STICTION_SIGN_MSL_LINEAR: *d = 1.0 / w; return v / w;
  default: /* CoSine: odd extension of 1 - cos, slope 0 at the origin */
    *d = M_PI / (2.0 * w) * sin(fabs(a));
    return sgn(v) * (1.0 - cos(a));
  }
}

double stiction_friction_sign(stiction_sign_law law, double v, double w, double *dsdv) {
  double d = 0.0, s;
  switch (law) {
  case STICTION_SIGN_MSL_EXP: s = tanh_law(v, 0.02 * w, &d); break;
  case STICTION_SIGN_TANH: s = tanh_law(v, w, &d); break;
  case STICTION_SIGN_ATAN:
    s = 2.0 / M_PI * atan(v / w);
    d = 2.0 / M_PI / (w * (1.0 + (v / w) * (v / w)));
    break;
  case STICTION_SIGN_MSL_SINE:
  case STICTION_SIGN_MSL_LINEAR:
  case STICTION_SIGN_MSL_COSINE: s = banded_law(law, v, w, &d); break;
  default: s = sgn(v); break;
  }
  if (dsdv) *dsdv = d;
  return s;
}

static const char *const law_names[] = {"exact", "msl-exp", "msl-sine", "msl-linear",
                                        "msl-cosine", "tanh", "atan"};
#define NLAWS (int)(sizeof law_names / sizeof law_names[0])

const char *stiction_friction_sign_name(stiction_sign_law law) {
  return ((int)law >= 0 && (int)law < NLAWS) ? law_names[law] : "unknown";
}

int stiction_friction_sign_from_name(const char *name) {
  for (int i = 0; name && i < NLAWS; i++)
    if (!strcmp(name, law_names[i])) return i;
  return -1;
}
