/* BAM ("Better Actuator Models", Duclusaud et al., ICRA 2025) servo-actuator models: the
 * friction budgets M1..M6, the servo (motor + firmware) models and BAM's discrete reference
 * simulator, reproduced exactly (spec: doc/bam.md, "BAM-discrete" tier).
 *
 * Conventions: q [rad] (0 = pendulum hanging down), omega = dq/dt [rad/s], tau_m motor torque
 * and tau_e external (gravity) torque acting on the joint, J*a = tau_m + tau_e + tau_f.
 * Parameter and log structs are plain data owned by the caller; stiction_bam_log_read()
 * allocates a log that the caller releases with stiction_bam_log_free(). No global state. */
#ifndef STICTION_BAM_H
#define STICTION_BAM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Friction budget models (doc/bam.md §3). */
typedef enum stiction_bam_model {
  STICTION_BAM_M1 = 1, /* Coulomb + viscous */
  STICTION_BAM_M2,     /* + Stribeck */
  STICTION_BAM_M3,     /* load-dependent */
  STICTION_BAM_M4,     /* Stribeck + load */
  STICTION_BAM_M5,     /* directional */
  STICTION_BAM_M6      /* directional + quadratic (with the opposite-sign gate) */
} stiction_bam_model;

/* Servo families (doc/bam.md §2). */
typedef enum stiction_bam_actuator {
  STICTION_BAM_MX64 = 1, /* voltage servo, Dynamixel MX-64 */
  STICTION_BAM_MX106,    /* voltage servo, Dynamixel MX-106 */
  STICTION_BAM_XL320,    /* voltage servo, Dynamixel XL-320 */
  STICTION_BAM_XL330,    /* voltage servo, Dynamixel XL330 */
  STICTION_BAM_EROB80_50,  /* current PD servo, eRob80:50 */
  STICTION_BAM_EROB80_100, /* current PD servo, eRob80:100 */
  STICTION_BAM_STS3215     /* recognised but not simulated (its goal rate limiter is unspecified) */
} stiction_bam_actuator;

/* Every fitted parameter (JSON keys of doc/bam.md §3.1 in comments). Keys a model does not use
 * are ignored by it. */
typedef struct stiction_bam_params {
  stiction_bam_model model;       /* "model": "m1".."m6" */
  stiction_bam_actuator actuator; /* "actuator" */
  double kt;        /* "kt" torque constant at the output [N m/A] */
  double R;         /* "R" winding resistance [ohm] (BAM default 2.0) */
  double armature;  /* "armature" reflected rotor inertia [kg m^2] */
  double q_offset;  /* "q_offset" gravity-angle offset [rad] (default 0) */
  double current_limit; /* firmware current limit [A] for voltage servos; 0 = none */
  double Kc;   /* "friction_base" */
  double Kv;   /* "friction_viscous" */
  double Kcs;  /* "friction_stribeck" */
  double ws;   /* "dtheta_stribeck" [rad/s] */
  double alpha;/* "alpha" */
  double Kl;   /* "load_friction_base" (M3, M4) */
  double Kls;  /* "load_friction_stribeck" (M4) */
  double Km, Ke;   /* "load_friction_motor", "load_friction_external" (M5, M6) */
  double Kms, Kes; /* "load_friction_motor_stribeck", "load_friction_external_stribeck" */
  double Kmq, Keq; /* "load_friction_motor_quad", "load_friction_external_quad" (M6) */
} stiction_bam_params;

/* One processed log (doc/bam.md §5.2): header constants and n samples at period dt. */
typedef struct stiction_bam_log {
  double mass, arm_mass, length; /* [kg], [kg] (0 if absent), [m] */
  double kp, vin, dt;            /* firmware gain, header supply voltage [V], period [s] */
  double damping;                /* eRob "damping" key; < 0 if absent */
  char trajectory[32];           /* "trajectory" header (e.g. "up_and_down"); "" if absent */
  size_t n;                      /* number of samples */
  double *position, *speed, *goal; /* [n] each; speed is 0 if the log has none */
  unsigned char *enable;           /* [n] torque_enable (0/1) */
} stiction_bam_log;

/* Everything BAM computes in one step (the columns of the reference rollout CSVs, doc/bam.md §6.1). */
typedef struct stiction_bam_step_info {
  double q, omega;       /* state at the start of the step */
  double volts;          /* u = vin * duty (voltage servos); 0 for current servos */
  double tau_m, tau_e;   /* motor and gravity torque */
  double frictionloss;   /* budget minus the viscous part */
  double damping;        /* Kv */
  double budget;         /* frictionloss + damping*|omega| */
  double tau_stop;       /* (J/dt)*omega + tau_m + tau_e */
  double tau_f;          /* friction actually applied */
} stiction_bam_step_info;

/* Sets *p to BAM's defaults for the given model/actuator (R = 2, q_offset = 0, ...). */
void stiction_bam_params_default(stiction_bam_params *p, stiction_bam_model model,
                                 stiction_bam_actuator actuator);

/* Friction budget of §3: frictionloss and damping (= Kv); the budget is
 * frictionloss + damping*|omega|. */
void stiction_bam_friction(const stiction_bam_params *p, double tau_m, double tau_e,
                           double omega, double *frictionloss, double *damping);

/* Partial derivatives of frictionloss with respect to tau_m, tau_e and omega (for Jacobians of
 * the continuous tier, doc/bam.md §7). The |.| terms give one-sided values on their kinks
 * (sign(0) = 0), and M6 jumps at |tau_e| = |tau_m| unless K_eq = K_mq. Outputs may be NULL. */
void stiction_bam_friction_partials(const stiction_bam_params *p, double tau_m, double tau_e,
                                    double omega, double *d_tau_m, double *d_tau_e,
                                    double *d_omega);

/* Continuous stuck/slip tier (doc/bam.md §7): the static limit is the budget at rest,
 * tau_fm(tau_m, tau_e, 0); stuck <=> omega = 0 and |tau_m + tau_e| <= limit. */
double stiction_bam_static_limit(const stiction_bam_params *p, double tau_m, double tau_e);

/* Friction torque while sliding: -sign(omega)*frictionloss(tau_m, tau_e, omega) - Kv*omega. */
double stiction_bam_slip_torque(const stiction_bam_params *p, double tau_m, double tau_e,
                                double omega);

/* Servo model of §2: motor torque for goal/enable at state (q, omega); *volts (may be NULL)
 * receives the applied voltage of voltage servos (0 otherwise). Log supplies kp, vin, damping. */
double stiction_bam_motor_torque(const stiction_bam_params *p, const stiction_bam_log *log,
                                 double goal, int enable, double q, double omega,
                                 double *volts);

/* One step of the reference simulator (§1.3) from (*q, *omega) in place; *info may be NULL. */
void stiction_bam_step(const stiction_bam_params *p, const stiction_bam_log *log,
                       double goal, int enable, double *q, double *omega,
                       stiction_bam_step_info *info);

/* Closed-loop rollout over the whole log from its initial state (§1.2, §4): q_sim[k] (and
 * info[k], if info is not NULL) describe the state before step k, k = 0..n-1; both arrays are
 * caller-owned with log->n entries (q_sim may be NULL). Returns STICTION_OK, or
 * STICTION_ERR_UNSUPPORTED for an actuator that is not simulated, STICTION_ERR_ARG. */
int stiction_bam_rollout(const stiction_bam_params *p, const stiction_bam_log *log,
                         double *q_sim, stiction_bam_step_info *info);

/* Per-log MAE (1/n) sum |q_sim[k] - position[k]| of the closed-loop rollout (§4). */
int stiction_bam_mae(const stiction_bam_params *p, const stiction_bam_log *log, double *mae);

/* Readers (json-c). On failure they return a negative status and, if errbuf is not NULL, write
 * a one-line message "FILE: reason" into errbuf (errlen bytes). */
int stiction_bam_params_read(const char *path, stiction_bam_params *p, char *errbuf,
                             size_t errlen);
int stiction_bam_log_read(const char *path, stiction_bam_log **log, char *errbuf,
                          size_t errlen);
void stiction_bam_log_free(stiction_bam_log *log);

/* Names: "m1".."m6" and the actuator keys of doc/bam.md §2 ("xl330", ...); NULL/0 if unknown. */
const char *stiction_bam_model_name(stiction_bam_model m);
const char *stiction_bam_actuator_name(stiction_bam_actuator a);
stiction_bam_model stiction_bam_model_from_name(const char *name);
stiction_bam_actuator stiction_bam_actuator_from_name(const char *name);

#ifdef __cplusplus
}
#endif
#endif
