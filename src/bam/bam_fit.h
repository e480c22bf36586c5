/* BAM identification (bam.md §4): the search space of a model (BAM's parameters and bounds),
 * the training loss (mean per-log MAE of closed-loop rollouts, logs cut to the shortest as BAM
 * batches them) evaluated on a worker pool, and the CMA-ES fit that writes its best-so-far
 * parameter file as it goes. Internal to stiction (the command and the tests). */
#ifndef ST_BAM_BAM_FIT_H
#define ST_BAM_BAM_FIT_H

#include <stdint.h>
#include <stdio.h>

#include <stiction/bam.h>

#include "bam/cmaes.h"
#include "util/pool.h"

#define ST_BAM_MAX_KEYS 20

/* The parameters a model fits and which of them are free, with their boxes. */
typedef struct st_bam_space {
  stiction_bam_params base;           /* defaults and frozen values */
  size_t nkeys;                       /* the model's parameters (written to the JSON) */
  const char *keys[ST_BAM_MAX_KEYS];
  size_t n;                           /* free parameters */
  const char *free_keys[ST_BAM_MAX_KEYS];
  size_t offset[ST_BAM_MAX_KEYS];     /* byte offset of free parameter i in the struct */
  double lo[ST_BAM_MAX_KEYS], hi[ST_BAM_MAX_KEYS];
} st_bam_space;

/* BAM's parameters and search bounds for model/actuator (bam.md §2, §3.1), all free.
 * STICTION_ERR_UNSUPPORTED for an actuator that is not simulated. */
int st_bam_space_init(st_bam_space *s, stiction_bam_model model, stiction_bam_actuator actuator);

/* Freezes parameter `key` at `value` (BAM's --set). STICTION_ERR_NOT_FOUND if the model has
 * no such parameter. */
int st_bam_space_freeze(st_bam_space *s, const char *key, double value);

/* Unit-box point u (n values in [0,1]) -> parameters, and back (clipped into the box). */
void st_bam_space_params(const st_bam_space *s, const double *u, stiction_bam_params *p);
void st_bam_space_unit(const st_bam_space *s, const stiction_bam_params *p, double *u);

/* A parameter set of another model as a start for `model`: the nested models keep their
 * optimum (M3's K_l becomes M5/M6's K_m = K_e, K_ls their K_ms = K_es; absent terms 0). */
void st_bam_params_embed(stiction_bam_params *p, stiction_bam_model model);

/* Address of the parameter of JSON key `key` in *p, NULL if there is none (bam_io.c). */
double *st_bam_param_field(stiction_bam_params *p, const char *key);

/* BAM's parameter JSON ({key: value, ..., "model", "actuator"}) for the given keys, written
 * to a temporary file beside `path` and renamed over it (bam_io.c). */
int st_bam_params_write(const char *path, const stiction_bam_params *p,
                        const char *const *keys, size_t nkeys, char *errbuf, size_t errlen);

/* Training loss: mean over logs of the MAE over the first `steps` samples. */
typedef struct st_bam_loss {
  const stiction_bam_log *const *logs;
  size_t nlogs, steps;
  const st_bam_space *space;
  st_pool *pool;
  const double *X;      /* the batch being evaluated */
  size_t n;
  double *mae;          /* [cap * nlogs] per candidate and log */
  size_t cap;
} st_bam_loss;

/* steps = the shortest log's length. The pool is borrowed. */
int st_bam_loss_init(st_bam_loss *L, const stiction_bam_log *const *logs, size_t nlogs,
                     const st_bam_space *s, st_pool *pool);
void st_bam_loss_free(st_bam_loss *L);

/* f[k] = loss of unit-box point X[k*n..], k < count (the st_cmaes_eval_fn of the fit). */
void st_bam_loss_eval(void *L, const double *X, size_t count, size_t n, double *f);

/* Mean per-log MAE over whole logs (bam.mae's figure); with skip_up_and_down, without those
 * logs (bam.md §8.3). NAN when no log counts. */
double st_bam_mean_mae(const stiction_bam_params *p, const stiction_bam_log *const *logs,
                       size_t nlogs, int skip_up_and_down);

typedef struct st_bam_fit_opts {
  long trials;
  uint64_t seed;
  st_cmaes_restarts restarts;
  const stiction_bam_params *from; /* start of the first run; NULL = the box centre */
  const char *output;              /* best-so-far file, rewritten during the run; may be NULL */
  FILE *progress;                  /* progress lines; NULL = quiet */
  double progress_seconds;         /* at most one line (and one file write) per interval */
} st_bam_fit_opts;

typedef struct st_bam_fit_result {
  stiction_bam_params best;
  double train_loss;     /* the fitted loss */
  st_cmaes_result cmaes;
} st_bam_fit_result;

/* Fits the free parameters of s on train (loss above); val may be empty. */
int st_bam_fit(const st_bam_space *s, const stiction_bam_log *const *train, size_t ntrain,
               const stiction_bam_log *const *val, size_t nval, st_pool *pool,
               const st_bam_fit_opts *o, st_bam_fit_result *res, char *errbuf, size_t errlen);

#endif
