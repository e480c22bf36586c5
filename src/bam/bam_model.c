/* BAM friction budgets M1..M6, servo models and the discrete reference step (doc/bam.md §1-§3).
 * The arithmetic follows the order of the spec's formulas so that rollouts agree with BAM's
 * own simulator to round-off (doc/bam.md §6 asks for <= 1e-12 rad over 1200 steps). */
#include <math.h>
#include <stddef.h>

#include <stiction/bam.h>
#include <stiction/stiction.h>

#define BAM_G 9.80665         /* doc/bam.md §1.1 */
#define BAM_OMEGA_MAX 100.0   /* velocity clip of step 8 */
#define EROB_I_MAX 12.0       /* eRob current clip [A], §2.2 */
#define EROB_BUS_V 48.0       /* eRob bus voltage [V], §2.2 */

/* Firmware constants of the voltage servos (doc/bam.md §2.1 table). */
typedef struct servo_consts {
  double error_gain; /* duty per firmware-kp unit per rad */
  double max_duty;
} servo_consts;

static int servo_constants(stiction_bam_actuator a, servo_consts *c) {
  switch (a) {
  case STICTION_BAM_MX64:
  case STICTION_BAM_MX106: c->error_gain = 0.158; c->max_duty = 0.9625; return 1;
  case STICTION_BAM_XL320: c->error_gain = 0.05048199; c->max_duty = 1.0; return 1;
  case STICTION_BAM_XL330:
    /* 4096 ticks per turn, PWM register over 885 steps with a 1/256 kp scale */
    c->error_gain = 4096.0 / (2.0 * M_PI) / (256.0 * 885.0);
    c->max_duty = 1.0;
    return 1;
  default: return 0;
  }
}

static double clip(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

static double sgn(double x) { return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0); }

void stiction_bam_params_default(stiction_bam_params *p, stiction_bam_model model,
                                 stiction_bam_actuator actuator) {
  *p = (stiction_bam_params){0};
  p->model = model;
  p->actuator = actuator;
  p->kt = 1.6;
  p->R = 2.0;
  p->armature = 0.005;
  p->ws = 0.2;
  p->alpha = 1.35;
}

/* Stribeck factor s(omega) = exp(-|omega/omega_s|^alpha): 1 at rest, -> 0 when sliding. */
static double stribeck_factor(const stiction_bam_params *p, double omega) {
  return exp(-pow(fabs(omega / p->ws), p->alpha));
}

/* M6's quadratic term with the opposite-sign gate exactly as BAM evaluates it (doc/bam.md §3):
 * note K_eq multiplies tau_e^2 when the motor dominates and K_mq tau_m^2 otherwise. */
static double m6_quadratic(const stiction_bam_params *p, double tau_m, double tau_e) {
  if (sgn(tau_e) == sgn(tau_m)) return 0.0;
  if (fabs(tau_e) < fabs(tau_m)) return p->Keq * tau_e * tau_e;
  if (fabs(tau_e) > fabs(tau_m)) return p->Kmq * tau_m * tau_m;
  return 0.0;
}

void stiction_bam_friction(const stiction_bam_params *p, double tau_m, double tau_e,
                           double omega, double *frictionloss, double *damping) {
  double load = fabs(tau_e - tau_m), s, f;
  switch (p->model) {
  case STICTION_BAM_M1: f = p->Kc; break;
  case STICTION_BAM_M2: f = p->Kc + stribeck_factor(p, omega) * p->Kcs; break;
  case STICTION_BAM_M3: f = p->Kc + p->Kl * load; break;
  case STICTION_BAM_M4:
    s = stribeck_factor(p, omega);
    f = p->Kc + p->Kl * load + s * (p->Kcs + p->Kls * load);
    break;
  case STICTION_BAM_M5:
  case STICTION_BAM_M6:
    s = stribeck_factor(p, omega);
    f = p->Kc + fabs(p->Ke * tau_e - p->Km * tau_m) +
        s * (p->Kcs + fabs(p->Kes * tau_e - p->Kms * tau_m));
    if (p->model == STICTION_BAM_M6) f += s * m6_quadratic(p, tau_m, tau_e);
    break;
  default: f = 0.0; break;
  }
  if (frictionloss) *frictionloss = f;
  if (damping) *damping = p->Kv;
}

/* ds/domega of the Stribeck factor; 0 at rest for alpha > 1, the one-sided limit otherwise. */
static double stribeck_factor_derivative(const stiction_bam_params *p, double omega) {
  double x = fabs(omega / p->ws);
  if (omega == 0.0) return p->alpha > 1.0 ? 0.0 : -INFINITY;
  return -stribeck_factor(p, omega) * p->alpha * pow(x, p->alpha - 1.0) * sgn(omega) / p->ws;
}

/* Partials of M6's Q on the branch in force (zero off the gate). */
static void m6_quadratic_partials(const stiction_bam_params *p, double tau_m, double tau_e,
                                  double *dq_dtm, double *dq_dte) {
  *dq_dtm = *dq_dte = 0.0;
  if (sgn(tau_e) == sgn(tau_m)) return;
  if (fabs(tau_e) < fabs(tau_m)) *dq_dte = 2.0 * p->Keq * tau_e;
  else if (fabs(tau_e) > fabs(tau_m)) *dq_dtm = 2.0 * p->Kmq * tau_m;
}

void stiction_bam_friction_partials(const stiction_bam_params *p, double tau_m, double tau_e,
                                    double omega, double *d_tau_m, double *d_tau_e,
                                    double *d_omega) {
  double dtm = 0.0, dte = 0.0, dw = 0.0, s = 1.0, ds = 0.0;
  double sl = sgn(tau_e - tau_m), load = fabs(tau_e - tau_m);
  if (p->model != STICTION_BAM_M1 && p->model != STICTION_BAM_M3) {
    s = stribeck_factor(p, omega);
    ds = stribeck_factor_derivative(p, omega);
  }
  switch (p->model) {
  case STICTION_BAM_M2: dw = ds * p->Kcs; break;
  case STICTION_BAM_M3: dte = p->Kl * sl; dtm = -dte; break;
  case STICTION_BAM_M4:
    dte = (p->Kl + s * p->Kls) * sl;
    dtm = -dte;
    dw = ds * (p->Kcs + p->Kls * load);
    break;
  case STICTION_BAM_M5:
  case STICTION_BAM_M6: {
    double a = sgn(p->Ke * tau_e - p->Km * tau_m), b = sgn(p->Kes * tau_e - p->Kms * tau_m);
    double qm, qe;
    dte = p->Ke * a + s * p->Kes * b;
    dtm = -p->Km * a - s * p->Kms * b;
    dw = ds * (p->Kcs + fabs(p->Kes * tau_e - p->Kms * tau_m));
    if (p->model == STICTION_BAM_M6) {
      m6_quadratic_partials(p, tau_m, tau_e, &qm, &qe);
      dte += s * qe;
      dtm += s * qm;
      dw += ds * m6_quadratic(p, tau_m, tau_e);
    }
    break;
  }
  default: break;
  }
  if (d_tau_m) *d_tau_m = dtm;
  if (d_tau_e) *d_tau_e = dte;
  if (d_omega) *d_omega = dw;
}

double stiction_bam_static_limit(const stiction_bam_params *p, double tau_m, double tau_e) {
  double f;
  stiction_bam_friction(p, tau_m, tau_e, 0.0, &f, NULL);
  return f;
}

double stiction_bam_slip_torque(const stiction_bam_params *p, double tau_m, double tau_e,
                                double omega) {
  double f, kv;
  stiction_bam_friction(p, tau_m, tau_e, omega, &f, &kv);
  return -sgn(omega) * f - kv * omega;
}

/* Voltage servo with firmware P loop (§2.1): duty from the position error, optional current
 * limit, duty saturation, then a DC motor with back-EMF. */
static double voltage_servo(const stiction_bam_params *p, const servo_consts *c,
                            const stiction_bam_log *log, double goal, int enable, double q,
                            double omega, double *volts) {
  double d = log->kp * c->error_gain * (goal - q);
  if (p->current_limit > 0)
    d = clip(d, (p->kt * omega - p->R * p->current_limit) / log->vin,
             (p->kt * omega + p->R * p->current_limit) / log->vin);
  d = clip(d, -c->max_duty, c->max_duty);
  double u = log->vin * d;
  if (volts) *volts = u;
  return enable ? (p->kt / p->R) * (u - p->kt * omega) : 0.0;
}

/* eRob PD in current, clipped to 12 A and to the 48 V feasible torque band (§2.2). */
static double erob_servo(const stiction_bam_params *p, const stiction_bam_log *log,
                         double goal, int enable, double q, double omega) {
  double D = log->damping >= 0 ? log->damping
                               : (p->actuator == STICTION_BAM_EROB80_50 ? 1.0 : 2.0);
  double I = clip(log->kp * (goal - q) - D * sqrt(log->kp) * omega, -EROB_I_MAX, EROB_I_MAX);
  double tau = p->kt * (enable ? 1.0 : 0.0) * I;
  double emf = (p->kt * p->kt / p->R) * omega, lim = (p->kt / p->R) * EROB_BUS_V;
  return clip(tau, -lim - emf, lim - emf);
}

double stiction_bam_motor_torque(const stiction_bam_params *p, const stiction_bam_log *log,
                                 double goal, int enable, double q, double omega,
                                 double *volts) {
  servo_consts c;
  if (volts) *volts = 0.0;
  if (servo_constants(p->actuator, &c))
    return voltage_servo(p, &c, log, goal, enable, q, omega, volts);
  if (p->actuator == STICTION_BAM_EROB80_50 || p->actuator == STICTION_BAM_EROB80_100)
    return erob_servo(p, log, goal, enable, q, omega);
  return 0.0;
}

static double total_inertia(const stiction_bam_params *p, const stiction_bam_log *log) {
  double L2 = log->length * log->length;
  return (log->mass * L2 + log->arm_mass * L2 / 3.0) + p->armature;
}

void stiction_bam_step(const stiction_bam_params *p, const stiction_bam_log *log,
                       double goal, int enable, double *q, double *omega,
                       stiction_bam_step_info *info) {
  double dt = log->dt, J = total_inertia(p, log), w = *omega, volts;
  double tau_e = -(log->mass + log->arm_mass / 2.0) * BAM_G * log->length *
                 sin(*q + p->q_offset);
  double tau_m = stiction_bam_motor_torque(p, log, goal, enable, *q, w, &volts);
  double floss, damp;
  stiction_bam_friction(p, tau_m, tau_e, w, &floss, &damp);
  double budget = floss + damp * fabs(w);
  double tau_stop = (J / dt) * w + tau_m + tau_e;
  /* velocity-level Coulomb: friction cancels the stopping torque up to the budget (doc/bam.md §1.3 step 4) */
  double tau_f = clip(-tau_stop, -budget, budget);
  double a = (tau_m + tau_e + tau_f) / J;
  double w_new = clip(w + a * dt, -BAM_OMEGA_MAX, BAM_OMEGA_MAX);
  if (info)
    *info = (stiction_bam_step_info){*q, w, volts, tau_m, tau_e, floss, damp, budget,
                                     tau_stop, tau_f};
  /* BAM's position update uses the new velocity and a 1/2 a dt^2 term (doc/bam.md §1.3 step 5) */
  *q = *q + w_new * dt + 0.5 * a * dt * dt;
  *omega = w_new;
}

/* Whether the servo family has a model here (sts3215's goal rate limiter is unspecified). */
static int simulated(stiction_bam_actuator a) {
  servo_consts c;
  return servo_constants(a, &c) || a == STICTION_BAM_EROB80_50 || a == STICTION_BAM_EROB80_100;
}

int stiction_bam_rollout(const stiction_bam_params *p, const stiction_bam_log *log,
                         double *q_sim, stiction_bam_step_info *info) {
  if (!p || !log || log->n == 0 || !(log->dt > 0)) return STICTION_ERR_ARG;
  if (!simulated(p->actuator)) return STICTION_ERR_UNSUPPORTED;
  double q = log->position[0], w = log->speed[0];
  for (size_t k = 0; k < log->n; k++) {
    if (q_sim) q_sim[k] = q;
    stiction_bam_step(p, log, log->goal[k], log->enable[k], &q, &w, info ? &info[k] : NULL);
  }
  return STICTION_OK;
}

int stiction_bam_mae(const stiction_bam_params *p, const stiction_bam_log *log, double *mae) {
  if (!p || !log || !mae || log->n == 0 || !(log->dt > 0)) return STICTION_ERR_ARG;
  if (!simulated(p->actuator)) return STICTION_ERR_UNSUPPORTED;
  double q = log->position[0], w = log->speed[0], sum = 0.0;
  for (size_t k = 0; k < log->n; k++) {
    sum += fabs(q - log->position[k]);
    stiction_bam_step(p, log, log->goal[k], log->enable[k], &q, &w, NULL);
  }
  *mae = sum / (double)log->n;
  return STICTION_OK;
}
