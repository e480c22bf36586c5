/* Calls into the model with the runtime's checks: a non-zero return becomes
 * STICTION_ERR_CALLBACK and a NaN/Inf becomes STICTION_ERR_NONFINITE, both with a message
 * naming the callback, the variable and the time. */
#include <math.h>

#include "runtime/runtime.h"
#include "util/finite.h"

static const char *model_name(const stiction_sim *sim) {
  return sim->model->name ? sim->model->name : "model";
}

static int failed(stiction_sim *sim, const char *what, double t, int rc) {
  return st_sim_fail(sim, STICTION_ERR_CALLBACK, "%s: %s() failed (returned %d) at t = %.17g",
                     model_name(sim), what, rc, t);
}

/* Finds the first non-finite entry. Why the sum first: one addition per entry instead of a
 * classification on the hot path; a sum of finite values that overflows falls through to the
 * exact scan, which names only an entry that is itself NaN or Inf (util/finite.h). */
int st_check_finite(stiction_sim *sim, double t, const double *v, int n, const char *what,
                    const char *const *names) {
  if (st_sum_is_finite(v, n)) return STICTION_OK;
  int i = st_first_nonfinite(v, n);
  if (i < 0) return STICTION_OK;
  if (names && names[i])
    return st_sim_fail(sim, STICTION_ERR_NONFINITE, "%s: %s() gave %g for %s at t = %.17g",
                       model_name(sim), what, v[i], names[i], t);
  return st_sim_fail(sim, STICTION_ERR_NONFINITE, "%s: %s() gave %g for entry %d at t = %.17g",
                     model_name(sim), what, v[i], i, t);
}

int st_call_start(stiction_sim *sim, double t, double *y, double *yp) {
  int rc = sim->model->start_values(sim->ud, t, y, yp);
  if (rc) return failed(sim, "start_values", t, rc);
  return st_check_finite(sim, t, y, sim->n, "start_values", sim->model->state_names);
}

int st_call_derivatives_trial(stiction_sim *sim, double t, const double *y, double *ydot) {
  int rc = sim->model->derivatives(sim->ud, t, y, ydot);
  if (rc > 0 && sim->model->size == sizeof *sim->model && sim->model->report_failure) {
    sim->trial_failed = 1;
    sim->trial_t = t;
    sim->trial_rc = rc;
    return ST_TRIAL_FAILED;
  }
  if (rc) return failed(sim, "derivatives", t, rc);
  return st_check_finite(sim, t, ydot, sim->nx, "derivatives", sim->model->state_names);
}

int st_report_trial_failure(stiction_sim *sim) {
  if (!sim->trial_failed) return STICTION_OK;
  sim->trial_failed = 0;
  sim->model->report_failure(sim->ud);
  return failed(sim, "derivatives", sim->trial_t, sim->trial_rc);
}

int st_call_derivatives(stiction_sim *sim, double t, const double *y, double *ydot) {
  int rc = st_call_derivatives_trial(sim, t, y, ydot);
  return rc == ST_TRIAL_FAILED ? st_report_trial_failure(sim) : rc;
}

int st_call_residual(stiction_sim *sim, double t, const double *y, const double *yp, double *r) {
  if (!sim->model->residual) {
    /* ODE model on IDA: F = yp - f(t, y) */
    int rc = st_call_derivatives(sim, t, y, r);
    if (rc) return rc;
    for (int i = 0; i < sim->nx; i++) r[i] = yp[i] - r[i];
    return STICTION_OK;
  }
  int rc = sim->model->residual(sim->ud, t, y, yp, r);
  if (rc) return failed(sim, "residual", t, rc);
  return st_check_finite(sim, t, r, sim->n, "residual", NULL);
}

int st_call_indicators(stiction_sim *sim, double t, const double *y, const double *yp, double *g) {
  int rc = sim->model->indicators(sim->ud, t, y, yp, g);
  if (rc) return failed(sim, "indicators", t, rc);
  return st_check_finite(sim, t, g, sim->ng, "indicators", sim->model->indicator_names);
}

int st_call_outputs(stiction_sim *sim, double t, const double *y, const double *yp, double *out) {
  if (sim->model->n_outputs == 0) return STICTION_OK;
  int rc = sim->model->outputs(sim->ud, t, y, yp, out);
  if (rc) return failed(sim, "outputs", t, rc);
  return st_check_finite(sim, t, out, sim->model->n_outputs, "outputs", sim->model->output_names);
}

/* Discrete values for the event log; all zero when the model cannot report them. */
int st_call_discrete(stiction_sim *sim, double *d) {
  if (sim->nd == 0) return STICTION_OK;
  if (!sim->model->get_discrete) {
    for (int i = 0; i < sim->nd; i++) d[i] = 0;
    return STICTION_OK;
  }
  int rc = sim->model->get_discrete(sim->ud, d);
  if (rc) return failed(sim, "get_discrete", sim->t, rc);
  return STICTION_OK;
}
