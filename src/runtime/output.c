/* Result rows to the sink: time first, then the model's recorded variables. */
#include "runtime/runtime.h"

#include <nvector/nvector_serial.h>

int st_output_begin(stiction_sim *sim) {
  sim->names[0] = "time";
  for (int i = 0; i < sim->model->n_outputs; i++) sim->names[i + 1] = sim->model->output_names[i];
  if (!sim->sink.begin) return STICTION_OK;
  int rc = sim->sink.begin(sim->sink.user_data, sim->ncols, sim->names);
  if (rc == STICTION_ERR_NOMEM)
    return st_sim_fail(sim, rc, "out of memory while the result sink took the columns");
  return rc ? st_sim_fail(sim, STICTION_ERR_IO, "result sink refused the columns (status %d)", rc)
            : STICTION_OK;
}

/* Fills values (ncols) at t from the current y and discrete state. yp is passed as for
 * indicators(): IDA's y', or NULL in the ODE form on CVODE. Why not interpolate y' at every
 * grid row: it costs as much as the row itself (a tenth of a run on the friction block) and
 * the outputs of an ODE model are functions of (t, y). */
static int output_values(stiction_sim *sim, double t, double *values) {
  values[0] = t;
  const double *yp = sim->ops == &st_ida_ops ? N_VGetArrayPointer(sim->yp) : NULL;
  return st_call_outputs(sim, t, N_VGetArrayPointer(sim->y), yp, values + 1);
}

/* Without a row() to take them the recorded variables are not computed at all: nothing could
 * read them (the event listener gets discrete values only), and at a grid row they cost a whole
 * evaluation of the model -- on Leine's belt, with 12,000 rows against 1,100 right-hand sides,
 * most of a run (doc/compiler.md, "Performance"). The rows are still counted. */
static int output_wanted(const stiction_sim *sim) { return sim->sink.row != NULL; }

static int output_send(stiction_sim *sim, const double *values) {
  sim->stats.rows++;
  if (!sim->sink.row) return STICTION_OK;
  int rc = sim->sink.row(sim->sink.user_data, values);
  return rc ? st_sim_fail(sim, STICTION_ERR_IO, "result sink failed at t = %.17g (status %d)",
                          values[0], rc)
            : STICTION_OK;
}

/* Why the clock is read only with a sink: clock_gettime costs 30-100 ns on this kind of virtual
 * machine (kvm-clock through the vDSO), a third of a run of Leine's belt when it was read
 * around every row and step; the integration time is what the other phases leave (run.c). */
int st_output_hold_left(stiction_sim *sim, double t) {
  sim->row_left_set = 0;
  if (!output_wanted(sim)) return STICTION_OK;
  double w0 = st_wall_now();
  int rc = output_values(sim, t, sim->row_left);
  sim->row_left_set = !rc;
  sim->stats.wall_output += st_wall_now() - w0;
  return rc;
}

int st_output_left(stiction_sim *sim) {
  if (!sim->row_left_set) {
    sim->stats.rows++;
    return STICTION_OK;
  }
  double w0 = st_wall_now();
  int rc = output_send(sim, sim->row_left);
  sim->row_left_set = 0;
  sim->stats.wall_output += st_wall_now() - w0;
  return rc;
}

int st_output_row(stiction_sim *sim, double t) {
  if (!output_wanted(sim)) {
    sim->stats.rows++;
    return STICTION_OK;
  }
  double w0 = st_wall_now();
  int rc = output_values(sim, t, sim->row);
  if (!rc) rc = output_send(sim, sim->row);
  sim->stats.wall_output += st_wall_now() - w0;
  return rc;
}
