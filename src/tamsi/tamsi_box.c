/* Box on an incline, stepped with TAMSI. Generalized velocities v = (slip speed down the
 * slope, normal speed away from the slope); one point contact with Jn = [0 1] and
 * Jt = [[1 0], [0 0]] (the second tangent direction is out of plane). The normal force is
 * compliant (two-way coupling) with k = m g / allowance and critical damping, the recipe of
 * doc/tamsi.md; the box starts at its static penetration, so the normal
 * direction stays in equilibrium and the slope direction follows Coulomb's law: with an
 * optional push F down the slope, m a = m g sin a + F - mu m g cos a, so the box stops at
 * t* = v0 / (g (mu cos a - sin a) - F/m). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stiction/stiction.h>
#include <stiction/tamsi.h>

#include "tamsi/tamsi_box.h"

void st_tamsi_box_defaults(st_tamsi_box_params *p) {
  *p = (st_tamsi_box_params){.mass = 1.0, .gravity = 9.81, .angle_deg = 20.0, .mu = 0.5,
                             .v0 = 1.0, .dt = 1e-3, .t_end = 1.5, .stiction_tolerance = 1e-4,
                             .penetration_allowance = 1e-4, .max_iterations = 20};
}

static const char *check_params(const st_tamsi_box_params *p) {
  if (!(p->mass > 0) || !isfinite(p->mass)) return "mass must be > 0";
  if (!(p->gravity > 0) || !isfinite(p->gravity)) return "gravity must be > 0";
  if (!(p->angle_deg >= 0 && p->angle_deg < 90)) return "angle must be in [0, 90) degrees";
  if (!(p->mu >= 0) || !isfinite(p->mu)) return "mu must be >= 0";
  if (!(p->v0 >= 0) || !isfinite(p->v0)) return "v0 must be >= 0";
  if (!(p->force >= 0) || !isfinite(p->force)) return "force must be >= 0";
  if (!(p->dt > 0) || !isfinite(p->dt)) return "dt must be > 0";
  if (!(p->t_end > 0) || !(p->t_end / p->dt <= 1e8)) return "t_end must be > 0 and t_end/dt <= 1e8";
  if (!(p->stiction_tolerance > 0) || !isfinite(p->stiction_tolerance))
    return "stiction tolerance must be > 0";
  if (!(p->max_iterations >= 1)) return "max_iterations must be >= 1";
  if (!(p->penetration_allowance > 0) || !isfinite(p->penetration_allowance))
    return "penetration allowance must be > 0";
  return NULL;
}

/* The Coulomb closed forms (no regularisation): stick time, and the regularised creep speed
 * of spec section 2 for the load ratio rho = (m g sin + F) / (mu m g cos). */
static void closed_form(const st_tamsi_box_params *p, st_tamsi_box_result *r) {
  double a = p->angle_deg * M_PI / 180.0, m = p->mass, g = p->gravity;
  double drive = m * g * sin(a) + p->force, grip = p->mu * m * g * cos(a);
  double decel = (grip - drive) / m;
  r->t_stick_coulomb = decel > 0 ? p->v0 / decel : -1;
  double rho = grip > 0 ? drive / grip : INFINITY;
  r->creep_regularised = rho <= 1 ? p->stiction_tolerance * (1 - sqrt(1 - rho)) : -1;
}

typedef struct box_state {
  double M[4], Jn[2], Jt[4], p_star[2], fn0[1], k[1], d[1], mu[1];
  double v[2], tau[2];
  double x, pen; /* distance down the slope, penetration */
} box_state;

static void box_init(const st_tamsi_box_params *p, box_state *b) {
  memset(b, 0, sizeof *b);
  double a = p->angle_deg * M_PI / 180.0, m = p->mass, g = p->gravity;
  b->M[0] = b->M[3] = m;
  b->Jn[1] = 1;
  b->Jt[0] = 1;
  b->k[0] = m * g / p->penetration_allowance;
  b->d[0] = (1.0 / sqrt(b->k[0] / m)) / p->penetration_allowance; /* damping ratio 1 */
  b->mu[0] = p->mu;
  b->tau[0] = m * g * sin(a) + p->force;
  b->tau[1] = -m * g * cos(a);
  b->pen = m * g * cos(a) / b->k[0]; /* static penetration: fn0 balances the weight */
  b->v[0] = p->v0;
}

/* One TAMSI step of length h: p* = M v + h tau, fn0 = k x; positions follow the new
 * velocities. */
static int box_step(stiction_tamsi *s, double h, box_state *b) {
  b->p_star[0] = b->M[0] * b->v[0] + h * b->tau[0];
  b->p_star[1] = b->M[3] * b->v[1] + h * b->tau[1];
  b->fn0[0] = b->k[0] * fmax(b->pen, 0.0);
  int rc = stiction_tamsi_set_two_way(
      s, (stiction_tamsi_mat){2, 2, b->M}, (stiction_tamsi_mat){1, 2, b->Jn},
      (stiction_tamsi_mat){2, 2, b->Jt}, (stiction_tamsi_vec){2, b->p_star},
      (stiction_tamsi_vec){1, b->fn0}, (stiction_tamsi_vec){1, b->k},
      (stiction_tamsi_vec){1, b->d}, (stiction_tamsi_vec){1, b->mu});
  if (rc) return rc;
  rc = stiction_tamsi_solve(s, h, b->v);
  if (rc != STICTION_TAMSI_SUCCESS) return rc;
  memcpy(b->v, stiction_tamsi_v(s), sizeof b->v);
  b->x += h * b->v[0];
  b->pen -= h * b->v[1];
  return STICTION_OK;
}

/* Drake's plant driver (spec section 7): if the step fails, redo it as N = 2, 3, ..., 20
 * equal sub-steps from the same state, each with its own p* and penetration update. */
static int step_with_retry(stiction_tamsi *s, const st_tamsi_box_params *p, box_state *b,
                           st_tamsi_box_result *r) {
  box_state start = *b;
  int rc = box_step(s, p->dt, b);
  for (int n = 2; n <= ST_TAMSI_BOX_MAX_SUBSTEPS && rc != STICTION_OK; n++) {
    *b = start;
    rc = STICTION_OK;
    for (int k = 0; k < n && rc == STICTION_OK; k++) rc = box_step(s, p->dt / n, b);
    if (rc == STICTION_OK) {
      r->substepped++;
      if (n > r->max_substeps) r->max_substeps = n;
    }
  }
  return rc;
}

static void record(const st_tamsi_box_params *p, const stiction_tamsi *s, const box_state *b,
                   double t, st_tamsi_box_result *r, FILE *trace) {
  double slip = fabs(b->v[0]);
  if (r->t_stick < 0 && slip < p->stiction_tolerance) r->t_stick = t;
  if (r->t_stick >= 0 && slip > r->creep_max) r->creep_max = slip;
  r->creep = slip;
  r->x_end = b->x;
  r->fn_end = stiction_tamsi_fn(s)[0];
  r->ft_end = stiction_tamsi_ft(s)[0];
  if (stiction_tamsi_iterations(s) > r->max_iterations)
    r->max_iterations = stiction_tamsi_iterations(s);
  if (trace)
    fprintf(trace, "%.9g,%.12g,%.12g,%.12g,%.12g,%.12g\n", t, b->x, b->v[0], b->v[1],
            stiction_tamsi_fn(s)[0], stiction_tamsi_ft(s)[0]);
}

int st_tamsi_box_run(const st_tamsi_box_params *p, FILE *trace, st_tamsi_box_result *r,
                     char *msg, size_t msglen) {
  memset(r, 0, sizeof *r);
  r->t_stick = -1;
  const char *bad = check_params(p);
  if (bad) {
    snprintf(msg, msglen, "%s", bad);
    return STICTION_ERR_ARG;
  }
  closed_form(p, r);
  stiction_tamsi *s;
  if (stiction_tamsi_create(2, &s)) {
    snprintf(msg, msglen, "out of memory");
    return STICTION_ERR_NOMEM;
  }
  stiction_tamsi_params sp = stiction_tamsi_default_params();
  sp.stiction_tolerance = p->stiction_tolerance;
  sp.max_iterations = p->max_iterations;
  stiction_tamsi_set_params(s, &sp);
  box_state b;
  box_init(p, &b);
  if (trace) fprintf(trace, "t,x,v,vn,fn,ft\n");
  long n = lround(ceil(p->t_end / p->dt - 1e-9));
  int rc = STICTION_OK;
  for (long i = 1; i <= n && rc == STICTION_OK; i++) {
    rc = step_with_retry(s, p, &b, r);
    r->result = rc;
    if (rc == STICTION_OK) {
      r->steps = (int)i;
      record(p, s, &b, (double)i * p->dt, r, trace);
    } else {
      snprintf(msg, msglen, "step %ld (t = %g s), also with up to %d sub-steps: TAMSI solver: %s",
               i, (double)i * p->dt, ST_TAMSI_BOX_MAX_SUBSTEPS,
               rc > 0 ? stiction_tamsi_result_name(rc) : stiction_strerror(rc));
    }
  }
  stiction_tamsi_free(s);
  return rc == STICTION_OK ? STICTION_OK : STICTION_ERR_SOLVER;
}
