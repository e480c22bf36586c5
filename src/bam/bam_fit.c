/* BAM identification (bam.md §4): search spaces, the batched training loss on a worker pool,
 * and the CMA-ES fit with its best-so-far file and progress lines. See bam_fit.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <stiction/stiction.h>

#include "bam/bam_fit.h"

/* ---- search space ------------------------------------------------------------------------ */

/* Each model's parameters (bam.md §3.1): the motor ones, then the friction budget's. */
static const char *const motor_keys[] = {"kt", "R", "armature", "q_offset"};
static const char *const m1_keys[] = {"friction_base", "friction_viscous"};
static const char *const m2_keys[] = {"friction_base", "friction_stribeck", "dtheta_stribeck",
                                      "alpha", "friction_viscous"};
static const char *const m3_keys[] = {"friction_base", "load_friction_base", "friction_viscous"};
static const char *const m4_keys[] = {"friction_base", "friction_stribeck", "load_friction_base",
                                      "load_friction_stribeck", "dtheta_stribeck", "alpha",
                                      "friction_viscous"};
static const char *const m6_keys[] = {
    "friction_base", "friction_stribeck", "load_friction_motor", "load_friction_external",
    "load_friction_motor_stribeck", "load_friction_external_stribeck", "dtheta_stribeck",
    "alpha", "friction_viscous", "load_friction_motor_quad", "load_friction_external_quad"};

static size_t friction_keys(stiction_bam_model m, const char *const **keys) {
  switch (m) {
  case STICTION_BAM_M1: *keys = m1_keys; return 2;
  case STICTION_BAM_M2: *keys = m2_keys; return 5;
  case STICTION_BAM_M3: *keys = m3_keys; return 3;
  case STICTION_BAM_M4: *keys = m4_keys; return 7;
  case STICTION_BAM_M5: *keys = m6_keys; return 9; /* M6 without the two quadratic terms */
  case STICTION_BAM_M6: *keys = m6_keys; return 11;
  default: *keys = NULL; return 0;
  }
}

typedef struct key_box {
  const char *key;
  double lo, hi;
} key_box;

/* Dynamixel search bounds of bam.md §3.1 (friction) */
static const key_box friction_boxes[] = {
    {"friction_base", 0, 0.2},          {"friction_viscous", 0, 1.0},
    {"friction_stribeck", 0, 0.2},      {"dtheta_stribeck", 0.1, 3.0},
    {"alpha", 1.0, 10.0},               {"load_friction_base", 0, 0.5},
    {"load_friction_stribeck", 0, 1.0}, {"load_friction_motor", 0, 0.5},
    {"load_friction_external", 0, 0.5}, {"load_friction_motor_stribeck", 0, 1.0},
    {"load_friction_external_stribeck", 0, 1.0}, {"load_friction_motor_quad", 0, 0.01},
    {"load_friction_external_quad", 0, 0.01},    {"q_offset", -0.1, 0.1},
};

/* Motor bounds per actuator (bam.md §2 tables) and the widened friction boxes of eRob and
 * XL-320 (`max_friction_base`, `max_load_friction`, `max_viscous_friction`). */
static int actuator_box(stiction_bam_actuator a, const char *key, double *lo, double *hi) {
  double kt[2], R[2], arm[2];
  switch (a) {
  case STICTION_BAM_MX64:
  case STICTION_BAM_MX106: kt[0] = 1.0, kt[1] = 3.0, R[0] = 1.0, R[1] = 5.0, arm[0] = 0.001, arm[1] = 0.05; break;
  case STICTION_BAM_XL320: kt[0] = 0.25, kt[1] = 1.5, R[0] = 3, R[1] = 40, arm[0] = 1e-4, arm[1] = 0.01; break;
  case STICTION_BAM_XL330: kt[0] = 0.1, kt[1] = 3.0, R[0] = 2.0, R[1] = 5.0, arm[0] = 1e-4, arm[1] = 0.05; break;
  case STICTION_BAM_EROB80_50:
  case STICTION_BAM_EROB80_100: kt[0] = 1, kt[1] = 15, R[0] = 0.1, R[1] = 3.5, arm[0] = 0.001, arm[1] = 2.0; break;
  default: return 0;
  }
  int erob = a == STICTION_BAM_EROB80_50 || a == STICTION_BAM_EROB80_100;
  const double *pair = !strcmp(key, "kt") ? kt : !strcmp(key, "R") ? R
                     : !strcmp(key, "armature") ? arm : NULL;
  if (pair) {
    *lo = pair[0], *hi = pair[1];
    return 1;
  }
  if (erob && (!strcmp(key, "friction_base") || !strcmp(key, "friction_stribeck")))
    return *lo = 0, *hi = 10, 1;
  if (erob && !strcmp(key, "friction_viscous")) return *lo = 0, *hi = 30, 1;
  if ((erob || a == STICTION_BAM_XL320) && !strcmp(key, "load_friction_base"))
    return *lo = 0, *hi = 1, 1;
  for (size_t i = 0; i < sizeof friction_boxes / sizeof friction_boxes[0]; i++)
    if (!strcmp(key, friction_boxes[i].key)) return *lo = friction_boxes[i].lo, *hi = friction_boxes[i].hi, 1;
  return 0;
}

static int add_key(st_bam_space *s, const char *key) {
  double lo, hi;
  if (!actuator_box(s->base.actuator, key, &lo, &hi)) return STICTION_ERR_UNSUPPORTED;
  s->keys[s->nkeys++] = key;
  s->free_keys[s->n] = key;
  s->offset[s->n] = (size_t)((char *)st_bam_param_field(&s->base, key) - (char *)&s->base);
  s->lo[s->n] = lo;
  s->hi[s->n++] = hi;
  return STICTION_OK;
}

int st_bam_space_init(st_bam_space *s, stiction_bam_model model, stiction_bam_actuator actuator) {
  const char *const *fk;
  size_t nf = friction_keys(model, &fk);
  *s = (st_bam_space){0};
  stiction_bam_params_default(&s->base, model, actuator);
  if (!nf) return STICTION_ERR_ARG;
  int st = STICTION_OK;
  for (size_t i = 0; !st && i < 4; i++) st = add_key(s, motor_keys[i]);
  for (size_t i = 0; !st && i < nf; i++) st = add_key(s, fk[i]);
  return st;
}

int st_bam_space_freeze(st_bam_space *s, const char *key, double value) {
  for (size_t i = 0; i < s->n; i++)
    if (!strcmp(s->free_keys[i], key)) {
      *st_bam_param_field(&s->base, key) = value;
      for (size_t j = i + 1; j < s->n; j++) {
        s->free_keys[j - 1] = s->free_keys[j];
        s->offset[j - 1] = s->offset[j];
        s->lo[j - 1] = s->lo[j];
        s->hi[j - 1] = s->hi[j];
      }
      s->n--;
      return STICTION_OK;
    }
  for (size_t i = 0; i < s->nkeys; i++) /* frozen twice: the last value counts */
    if (!strcmp(s->keys[i], key)) return *st_bam_param_field(&s->base, key) = value, STICTION_OK;
  return STICTION_ERR_NOT_FOUND;
}

void st_bam_space_params(const st_bam_space *s, const double *u, stiction_bam_params *p) {
  *p = s->base;
  for (size_t i = 0; i < s->n; i++)
    *(double *)((char *)p + s->offset[i]) = s->lo[i] + u[i] * (s->hi[i] - s->lo[i]);
}

void st_bam_space_unit(const st_bam_space *s, const stiction_bam_params *p, double *u) {
  for (size_t i = 0; i < s->n; i++) {
    double v = *(const double *)((const char *)p + s->offset[i]);
    u[i] = fmin(1.0, fmax(0.0, (v - s->lo[i]) / (s->hi[i] - s->lo[i])));
  }
}

void st_bam_params_embed(stiction_bam_params *p, stiction_bam_model model) {
  int from_load = p->model == STICTION_BAM_M3 || p->model == STICTION_BAM_M4;
  if (from_load && (model == STICTION_BAM_M5 || model == STICTION_BAM_M6)) {
    /* K_l |tau_e - tau_m| = |K_l tau_e - K_l tau_m| */
    p->Km = p->Ke = p->Kl;
    p->Kms = p->Kes = p->Kls;
  }
  p->model = model;
}

/* ---- loss ---------------------------------------------------------------------------------- */

int st_bam_loss_init(st_bam_loss *L, const stiction_bam_log *const *logs, size_t nlogs,
                     const st_bam_space *s, st_pool *pool) {
  *L = (st_bam_loss){logs, nlogs, 0, s, pool, NULL, s->n, NULL, 0};
  if (!nlogs) return STICTION_ERR_ARG;
  L->steps = logs[0]->n;
  for (size_t j = 1; j < nlogs; j++)
    if (logs[j]->n < L->steps) L->steps = logs[j]->n; /* BAM's batch: the shortest log */
  return STICTION_OK;
}

void st_bam_loss_free(st_bam_loss *L) {
  free(L->mae);
  *L = (st_bam_loss){0};
}

/* Work item = (candidate, log): one truncated rollout into its own slot. */
static void loss_item(void *ctx, size_t item) {
  st_bam_loss *L = ctx;
  size_t k = item / L->nlogs, j = item % L->nlogs;
  stiction_bam_params p;
  st_bam_space_params(L->space, L->X + k * L->n, &p);
  stiction_bam_log view = *L->logs[j];
  view.n = L->steps;
  double m = INFINITY;
  if (stiction_bam_mae(&p, &view, &m) || !isfinite(m)) m = INFINITY;
  L->mae[item] = m;
}

void st_bam_loss_eval(void *ctx, const double *X, size_t count, size_t n, double *f) {
  st_bam_loss *L = ctx;
  if (count > L->cap) { /* grows only when a restart enlarges the population */
    double *m = realloc(L->mae, count * L->nlogs * sizeof *m);
    if (!m) {
      for (size_t k = 0; k < count; k++) f[k] = INFINITY;
      return;
    }
    L->mae = m;
    L->cap = count;
  }
  L->X = X;
  L->n = n;
  st_pool_run(L->pool, count * L->nlogs, loss_item, L);
  for (size_t k = 0; k < count; k++) { /* summed in log order: independent of the threads */
    double sum = 0;
    for (size_t j = 0; j < L->nlogs; j++) sum += L->mae[k * L->nlogs + j];
    f[k] = sum / (double)L->nlogs;
  }
}

double st_bam_mean_mae(const stiction_bam_params *p, const stiction_bam_log *const *logs,
                       size_t nlogs, int skip_up_and_down) {
  double sum = 0;
  size_t cnt = 0;
  for (size_t j = 0; j < nlogs; j++) {
    double m;
    if (skip_up_and_down && !strcmp(logs[j]->trajectory, "up_and_down")) continue;
    if (stiction_bam_mae(p, logs[j], &m)) return NAN;
    sum += m;
    cnt++;
  }
  return cnt ? sum / (double)cnt : NAN;
}

/* ---- the fit ------------------------------------------------------------------------------- */

typedef struct fit_ctx {
  st_bam_loss loss;
  const st_bam_space *space;
  const stiction_bam_log *const *val;
  size_t nval;
  const st_bam_fit_opts *o;
  double last_report;
  int dirty;            /* the best changed since the last report */
  int write_failed;
  char *errbuf;
  size_t errlen;
} fit_ctx;

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Writes the best-so-far file and prints one progress line. */
static void report(fit_ctx *c, long evals, const double *best_x, double best_f, int restart,
                   size_t lambda) {
  stiction_bam_params p;
  st_bam_space_params(c->space, best_x, &p);
  if (c->dirty && c->o->output && !c->write_failed &&
      st_bam_params_write(c->o->output, &p, c->space->keys, c->space->nkeys, c->errbuf,
                          c->errlen))
    c->write_failed = 1;
  if (c->o->progress) {
    fprintf(c->o->progress, "%s trial %ld/%ld  train %.4f mrad", stiction_bam_model_name(p.model),
            evals, c->o->trials, 1e3 * best_f);
    if (c->nval)
      fprintf(c->o->progress, "  validation %.4f mrad", 1e3 * st_bam_mean_mae(&p, c->val, c->nval, 0));
    if (lambda) fprintf(c->o->progress, "  (run %d, population %zu)\n", restart + 1, lambda);
    else fprintf(c->o->progress, "  (done after %d restarts)\n", restart);
    fflush(c->o->progress);
  }
  c->dirty = 0;
}

static int fit_progress(void *ctx, long evals, const double *best_x, double best_f,
                        int improved, int restart, size_t lambda) {
  fit_ctx *c = ctx;
  c->dirty |= improved;
  double t = now_seconds(), since = t - c->last_report;
  /* a new best is saved and shown within the interval; without one, a line now and then */
  if ((c->dirty && since >= c->o->progress_seconds) || since >= 5 * c->o->progress_seconds) {
    report(c, evals, best_x, best_f, restart, lambda);
    c->last_report = t;
  }
  return c->write_failed; /* a best that cannot be saved ends the run */
}

int st_bam_fit(const st_bam_space *s, const stiction_bam_log *const *train, size_t ntrain,
               const stiction_bam_log *const *val, size_t nval, st_pool *pool,
               const st_bam_fit_opts *o, st_bam_fit_result *res, char *errbuf, size_t errlen) {
  fit_ctx c = {.space = s, .val = val, .nval = nval, .o = o, .errbuf = errbuf, .errlen = errlen};
  double x0[ST_BAM_MAX_KEYS], best[ST_BAM_MAX_KEYS];
  if (s->n == 0) {
    snprintf(errbuf, errlen, "no free parameter left to fit");
    return STICTION_ERR_ARG;
  }
  int st = st_bam_loss_init(&c.loss, train, ntrain, s, pool);
  if (st) {
    snprintf(errbuf, errlen, "no training log");
    return st;
  }
  if (o->from) st_bam_space_unit(s, o->from, x0);
  st_cmaes_config cfg = {s->n, o->seed, o->trials, 0.0, o->from ? x0 : NULL, o->restarts};
  c.last_report = now_seconds();
  st = st_cmaes_minimize(&cfg, st_bam_loss_eval, fit_progress, &c, best, &res->cmaes);
  c.dirty = 1; /* the final write and line in any case */
  if (!st && !c.write_failed) report(&c, res->cmaes.evals, best, res->cmaes.best_f,
                                     res->cmaes.restarts, 0);
  if (!st && c.write_failed) st = STICTION_ERR_IO;
  else if (st) snprintf(errbuf, errlen, "%s", stiction_strerror(st));
  st_bam_space_params(s, best, &res->best);
  res->train_loss = res->cmaes.best_f;
  st_bam_loss_free(&c.loss);
  return st;
}
