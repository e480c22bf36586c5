/* IPC Toolkit smooth friction mollifier f0 and its derivatives (doc/friction.md §5): f0 is
 * the C2 smoothing of |y| on [0, eps) used as a friction potential, f1 = f0' the smoothed
 * sign, f2 = f1'. Defined for y >= 0; branches test |y| as IPC does. Drake's discrete
 * "modified Stribeck" mu(s) = mu*s(2-s) is mu*f1(|v|; v_s) (doc/tamsi.md, Model). */
#include <math.h>

#include <stiction/friction.h>

double stiction_friction_ipc_f0(double y, double eps) {
  if (fabs(y) >= eps) return y;
  return y * y * (1.0 - y / (3.0 * eps)) / eps + eps / 3.0;
}

double stiction_friction_ipc_f1(double y, double eps) {
  if (fabs(y) >= eps) return 1.0;
  return y / eps * (2.0 - y / eps);
}

double stiction_friction_ipc_f2(double y, double eps) {
  if (fabs(y) >= eps) return 0.0;
  return (2.0 - 2.0 * y / eps) / eps;
}

/* f1/y, finite at y = 0 (limit 2/eps): the force and Hessian are built from it. */
double stiction_friction_ipc_f1_over_x(double y, double eps) {
  if (fabs(y) >= eps) return 1.0 / y;
  return (2.0 - y / eps) / eps;
}

/* (f2*y - f1)/y^3, the coefficient of u u^T in the Hessian. */
double stiction_friction_ipc_f2_x_minus_f1_over_x3(double y, double eps) {
  if (fabs(y) >= eps) return -1.0 / (y * y * y);
  return -1.0 / (y * eps * eps);
}

int stiction_friction_ipc_is_dynamic(double speed, double eps) { return speed > eps; }
