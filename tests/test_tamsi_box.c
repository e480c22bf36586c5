/* Box on an incline stepped with TAMSI against the Coulomb closed form (issue 7, "Demo"):
 * stick time t* = v0 / (g (mu cos a - sin a)), distance v0^2 / (2 g (mu cos a - sin a)),
 * creep after sticking bounded by the stiction tolerance and equal to the regularised law's
 * steady slip v_s (1 - sqrt(1 - rho)), rho = tan a / mu (doc/tamsi.md, Model). */
#include <check.h>
#include <math.h>
#include <string.h>

#include <stiction/stiction.h>
#include <stiction/tamsi.h>

#include "tamsi/tamsi_box.h"
#include "testutil.h"

static void check_sticks(double angle, double mu, double v0, double dt) {
  st_tamsi_box_params p;
  st_tamsi_box_defaults(&p);
  p.angle_deg = angle;
  p.mu = mu;
  p.v0 = v0;
  p.dt = dt;
  double a = angle * M_PI / 180, decel = p.gravity * (mu * cos(a) - sin(a));
  double t_star = v0 / decel;
  p.t_end = t_star + 0.5;
  st_tamsi_box_result r;
  char msg[256];
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_OK);
  ck_assert_int_eq(r.result, STICTION_TAMSI_SUCCESS);
  ck_assert_double_eq_tol(r.t_stick_coulomb, t_star, 1e-12);
  /* Discrete decay: v drops by decel*dt per step until |v| < v_s, i.e. within one step of t*
   * plus the time v_s/decel spent inside the stiction circle. */
  ck_assert_msg(fabs(r.t_stick - t_star) <= dt + p.stiction_tolerance / decel + 1e-12,
                "angle %g dt %g: sticks at %.9g, Coulomb %.9g", angle, dt, r.t_stick, t_star);
  ck_assert_double_le(r.creep_max, p.stiction_tolerance);
  double rho = tan(a) / mu, creep = p.stiction_tolerance * (1 - sqrt(1 - rho));
  ck_assert_double_eq_tol(r.creep_regularised, creep, 1e-18);
  if (rho > 0)
    ck_assert_msg(fabs(r.creep - creep) <= 0.01 * creep, "creep %g vs %g", r.creep, creep);
  else /* no load along the ground: the slip dies out */
    ck_assert_double_le(r.creep, 1e-3 * p.stiction_tolerance);
  /* Distance: the closed form less half a step of v0 (the first step already moves at
   * v0 - decel*dt), plus the creep, both small. */
  double x_star = v0 * v0 / (2 * decel);
  ck_assert_msg(fabs(r.x_end - x_star) <= v0 * dt + p.stiction_tolerance * p.t_end,
                "slid %.9g, Coulomb %.9g", r.x_end, x_star);
}

START_TEST(box_sticks_at_coulomb_time) {
  check_sticks(20, 0.5, 1.0, 1e-3);
  check_sticks(20, 0.5, 1.0, 2.5e-4);
  check_sticks(10, 0.5, 2.0, 1e-3);
  check_sticks(25, 0.6, 0.5, 1e-3);
  check_sticks(0, 0.3, 1.0, 1e-3); /* flat ground: rho = 0, creep ~ 0 */
}
END_TEST

/* Past the friction angle the box accelerates: v = v0 + g (sin a - mu cos a) t exactly, as
 * the friction force saturates at mu fn while sliding. */
START_TEST(box_slides_past_friction_angle) {
  st_tamsi_box_params p;
  st_tamsi_box_defaults(&p);
  p.angle_deg = 30;
  p.mu = 0.4;
  p.t_end = 1.0;
  st_tamsi_box_result r;
  char msg[256];
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_OK);
  ck_assert_double_eq(r.t_stick, -1);
  ck_assert_double_eq(r.t_stick_coulomb, -1);
  double a = M_PI / 6, acc = p.gravity * (sin(a) - p.mu * cos(a));
  ck_assert_double_eq_tol(r.creep, p.v0 + acc * 1.0, 1e-9);
  ck_assert_int_eq(r.steps, 1000);
}
END_TEST

/* With few Newton iterations allowed the step where the box sticks fails; the driver redoes
 * it in sub-steps (Drake's plant driver) and the stick time is unchanged. With even fewer
 * iterations every attempt fails: a status, and the steps done before are kept. */
START_TEST(box_substeps_failed_steps) {
  st_tamsi_box_params p;
  st_tamsi_box_defaults(&p);
  p.v0 = 2;
  p.t_end = 2;
  p.max_iterations = 4;
  st_tamsi_box_result r;
  char msg[256];
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_OK);
  ck_assert_int_ge(r.substepped, 1);
  ck_assert_int_ge(r.max_substeps, 2);
  ck_assert_int_le(r.max_substeps, ST_TAMSI_BOX_MAX_SUBSTEPS);
  ck_assert_double_le(fabs(r.t_stick - r.t_stick_coulomb), p.dt + 1e-4);
  p.max_iterations = 3;
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_ERR_SOLVER);
  ck_assert_int_eq(r.result, STICTION_TAMSI_MAX_ITERATIONS_REACHED);
  ck_assert_int_gt(r.steps, 1000); /* it slides fine until the stick transition */
  ck_assert_ptr_nonnull(strstr(msg, "max_iterations_reached"));
}
END_TEST

/* Drake's box_test (spec section 8.5): m = 1, g = 10, mu = 1, a 5 N push on flat ground,
 * penetration allowance 1e-4, v_s = 1e-4, 0.5 s at dt = 1e-3: contact force (-5, 10) within
 * relative 4e-12, drift below v_s t = 5e-5 m, slip below v_s. */
START_TEST(box_in_stiction_drake) {
  st_tamsi_box_params p;
  st_tamsi_box_defaults(&p);
  p.gravity = 10;
  p.angle_deg = 0;
  p.mu = 1;
  p.force = 5;
  p.v0 = 0;
  p.t_end = 0.5;
  st_tamsi_box_result r;
  char msg[256];
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_OK);
  ck_assert_double_eq_tol(r.ft_end, -5, 5 * 4e-12);
  ck_assert_double_eq_tol(r.fn_end, 10, 10 * 4e-12);
  ck_assert_double_lt(fabs(r.x_end), 5e-5);
  ck_assert_double_lt(r.creep, p.stiction_tolerance);
  ck_assert_double_eq(r.t_stick, p.dt); /* stuck from the first step */
}
END_TEST

START_TEST(box_rejects_bad_parameters) {
  st_tamsi_box_params p;
  st_tamsi_box_result r;
  char msg[256];
  double *fields[] = {&p.mass, &p.dt, &p.t_end, &p.stiction_tolerance, &p.penetration_allowance};
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    st_tamsi_box_defaults(&p);
    *fields[i] = 0;
    ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_ERR_ARG);
    ck_assert_int_gt(strlen(msg), 0);
  }
  st_tamsi_box_defaults(&p);
  p.angle_deg = 90;
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_ERR_ARG);
  p.angle_deg = NAN;
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_ERR_ARG);
  st_tamsi_box_defaults(&p);
  p.max_iterations = 0;
  ck_assert_int_eq(st_tamsi_box_run(&p, NULL, &r, msg, sizeof msg), STICTION_ERR_ARG);
}
END_TEST

ST_TEST_MAIN("tamsi_box", "incline", 0,
             box_sticks_at_coulomb_time, box_slides_past_friction_angle,
             box_substeps_failed_steps, box_in_stiction_drake, box_rejects_bad_parameters)
