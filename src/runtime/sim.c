/* The simulation handle: creation, accessors and the failure message. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvector/nvector_serial.h>

#include "runtime/runtime.h"
#include "util/diag.h"

double st_wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Records the first failure of a run; later ones are consequences and are dropped. */
int st_sim_fail(stiction_sim *sim, int status, const char *fmt, ...) {
  if (sim->error) return status;
  va_list ap;
  va_start(ap, fmt);
  sim->error = st_vformat(fmt, ap);
  va_end(ap);
  return status;
}

stiction_sim *stiction_sim_new(const stiction_model *model, void *user_data,
                               const stiction_options *opt) {
  stiction_sim *sim = calloc(1, sizeof *sim);
  if (!sim) return NULL;
  sim->model = model;
  sim->ud = user_data;
  if (opt) sim->opt = *opt;
  else stiction_options_init(&sim->opt);
  sim->next_time_event = INFINITY;
  return sim;
}

static void free_sundials(stiction_sim *sim) {
  if (sim->ops && sim->mem) sim->ops->destroy(sim);
  sim->mem = NULL;
  if (sim->LS) SUNLinSolFree(sim->LS);
  if (sim->A) SUNMatDestroy(sim->A);
  if (sim->y) N_VDestroy(sim->y);
  if (sim->yp) N_VDestroy(sim->yp);
  if (sim->id) N_VDestroy(sim->id);
  if (sim->atolv) N_VDestroy(sim->atolv);
  if (sim->ys) N_VDestroy(sim->ys);
  sim->LS = NULL;
  sim->A = NULL;
  sim->y = sim->yp = sim->id = sim->atolv = sim->ys = NULL;
  if (sim->ctx) SUNContext_Free(&sim->ctx);
  sim->ctx = NULL;
}

static void free_work(stiction_sim *sim) {
  void *arrays[] = {sim->names, sim->row, sim->row_left, sim->g, sim->rootsfound, sim->fired, sim->fired_dir,
                    sim->d_before, sim->d_prev, sim->d_cur, sim->changed, sim->ring_t,
                    sim->ring_fired, sim->jac_dense, sim->fd_f0, sim->fd_f1, sim->fd_yp, sim->fd_group,
                    sim->jac_vals, sim->probe, sim->yp_left, sim->smp_found, sim->smp_prev,
                    sim->smp_lo, sim->smp_hi, sim->smp_mid};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
}

void stiction_sim_free(stiction_sim *sim) {
  if (!sim) return;
  free_sundials(sim);
  free_work(sim);
  free(sim->error);
  free(sim);
}

int stiction_sim_set_sink(stiction_sim *sim, const stiction_sink *sink) {
  if (!sim || (sink && sink->size != sizeof *sink)) return STICTION_ERR_ARG;
  if (sink) sim->sink = *sink;
  else memset(&sim->sink, 0, sizeof sim->sink);
  return STICTION_OK;
}

int stiction_sim_set_event_listener(stiction_sim *sim, stiction_event_listener fn,
                                    void *user_data) {
  if (!sim) return STICTION_ERR_ARG;
  sim->listener = fn;
  sim->listener_ud = user_data;
  return STICTION_OK;
}

const char *stiction_sim_error(const stiction_sim *sim) { return sim && sim->error ? sim->error : ""; }

double stiction_sim_time(const stiction_sim *sim) { return sim ? sim->t : NAN; }

const char *stiction_sim_terminated(const stiction_sim *sim) {
  return sim && sim->terminated ? sim->terminate_message : NULL;
}

const stiction_stats *stiction_sim_stats(const stiction_sim *sim) {
  return sim ? &sim->stats : NULL;
}

int st_reserve_vectors(stiction_sim *sim, const char *integrator) {
  enum { VECTORS = 32 }; /* CVODE Adams: history (13) and work vectors; IDA fewer */
  size_t n = (size_t)(sim->n > 0 ? sim->n : 1);
  void *probe = malloc(VECTORS * (n * sizeof(double) + 256));
  if (!probe)
    return st_sim_fail(sim, STICTION_ERR_NOMEM, "out of memory while starting %s", integrator);
  free(probe);
  return STICTION_OK;
}
