/* Built-ins with derivative factors (builtin.h). */
#include "func/builtin.h"

#include <math.h>

#include "front/flat_expr.h"

/* Built-ins with the derivative factors of their arguments. The values come from the one
 * table of built-in values, st_fx_apply_builtin1/2 (front/flat_expr.c), which flattening and both
 * machines share; NaN for a built-in outside it. Piecewise constant
 * ones (sign, floor, ceil, integer, div) have derivative 0; min/max take the derivative of
 * the first argument on a tie; mod and rem that of x only (y is a parameter in practice). */
double st_fn2(int b, double x, double y, double *dx, double *dy) {
  double v;
  *dx = 0;
  *dy = 0;
  if (st_fx_apply_builtin2((st_builtin)b, x, y, &v)) return NAN;
  switch (b) {
  case FB_ATAN2: {
    double r = x * x + y * y;
    if (r > 0) { *dx = y / r; *dy = -x / r; }
    break;
  }
  case FB_MIN: if (x <= y) *dx = 1; else *dy = 1; break;
  case FB_MAX: if (x >= y) *dx = 1; else *dy = 1; break;
  case FB_MOD: case FB_REM: case FB_HOMOTOPY: *dx = 1; break;
  default: break;
  }
  return v;
}

double st_fn1(int b, double a, double *d) {
  double v;
  *d = 0;
  if (st_fx_apply_builtin1((st_builtin)b, a, &v)) return NAN;
  switch (b) {
  case FB_ABS: *d = a > 0 ? 1 : a < 0 ? -1 : 0; break;
  case FB_SQRT: *d = v > 0 ? 0.5 / v : INFINITY; break;
  case FB_SIN: *d = cos(a); break;
  case FB_COS: *d = -sin(a); break;
  case FB_TAN: *d = 1 + v * v; break;
  case FB_ASIN: *d = 1 / sqrt(1 - a * a); break;
  case FB_ACOS: *d = -1 / sqrt(1 - a * a); break;
  case FB_ATAN: *d = 1 / (1 + a * a); break;
  case FB_SINH: *d = cosh(a); break;
  case FB_COSH: *d = sinh(a); break;
  case FB_TANH: *d = 1 - v * v; break;
  case FB_EXP: *d = v; break;
  case FB_LOG: *d = 1 / a; break;
  case FB_LOG10: *d = 1 / (a * log(10.0)); break;
  case FB_NOEVENT: case FB_SMOOTH: *d = 1; break;
  default: break;
  }
  return v;
}
