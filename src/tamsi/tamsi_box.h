/* Box sliding to rest on an incline, time stepped with TAMSI (two-way coupling), compared
 * with the Coulomb closed form. Run by `stiction tamsi --demo box`; see doc/tamsi.md. */
#ifndef ST_FRICTION_TAMSI_BOX_H
#define ST_FRICTION_TAMSI_BOX_H

#include <stdio.h>

typedef struct st_tamsi_box_params {
  double mass;       /* [kg] */
  double gravity;    /* [m/s^2] */
  double angle_deg;  /* incline angle [deg], 0 <= angle < 90 */
  double mu;         /* friction coefficient (static = kinetic) */
  double v0;         /* initial speed down the slope [m/s] */
  double force;      /* constant push down the slope [N] (default 0) */
  double dt;         /* time step [s] */
  double t_end;      /* simulated time [s] */
  double stiction_tolerance;     /* v_s [m/s] */
  double penetration_allowance;  /* [m]; k = m g / allowance, critical damping */
  int max_iterations;            /* Newton iterations per solve (Drake's plant: 20) */
} st_tamsi_box_params;

/* A failed step is retried as 2, 3, ... up to this many sub-steps (Drake's plant driver). */
#define ST_TAMSI_BOX_MAX_SUBSTEPS 20

typedef struct st_tamsi_box_result {
  double t_stick;       /* first time with |slip| < v_s, or -1 if the box never sticks */
  double t_stick_coulomb; /* closed form v0 / (g (mu cos - sin)), -1 if it never sticks */
  double creep;         /* slip speed at t_end [m/s] */
  double creep_max;     /* largest slip speed after t_stick [m/s] */
  double creep_regularised; /* v_s (1 - sqrt(1 - rho)), rho = tan(angle)/mu (spec section 2) */
  double x_end;         /* distance slid [m] */
  double fn_end, ft_end; /* normal and friction force of the last step [N] */
  int steps, max_iterations; /* steps done; most Newton iterations in one step */
  int result;           /* last solver result (STICTION_TAMSI_*) */
  int substepped;       /* steps that needed sub-stepping */
  int max_substeps;     /* most sub-steps used for one step (0: none needed) */
} st_tamsi_box_result;

void st_tamsi_box_defaults(st_tamsi_box_params *p);

/* Runs the demo. If trace is not NULL, writes a CSV row per step (t,x,v,vn,fn,ft).
 * Returns STICTION_OK, STICTION_ERR_ARG (bad parameters; msg says which), STICTION_ERR_NOMEM
 * or STICTION_ERR_SOLVER (a step failed; r describes the steps before it). */
int st_tamsi_box_run(const st_tamsi_box_params *p, FILE *trace, st_tamsi_box_result *r,
                     char *msg, size_t msglen);

#endif
