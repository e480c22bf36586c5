/* CMA-ES (Hansen's tutorial, arXiv:1604.00772, Table 1 defaults with negative weights) and its
 * BIPOP/IPOP restart schedule (Hansen, GECCO 2009). See cmaes.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "bam/cmaes.h"

#define MAX_RESAMPLE 100   /* the `cmaes` package's n_max_resampling */
#define TOL_FUN 1e-12
#define TOL_X_REL 1e-12    /* relative to sigma0 */
#define TOL_X_UP 1e4
#define TOL_CONDITION 1e14

/* ---- random numbers: xoshiro256** seeded by splitmix64 ----------------------------------- */

typedef struct rng {
  uint64_t s[4];
  double spare;
  int has_spare;
} rng;

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void rng_seed(rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
  r->has_spare = 0;
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r) {
  uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}

/* Uniform in [0, 1). */
static double rng_uniform(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* Standard normal (Marsaglia's polar method, the second value kept). */
static double rng_normal(rng *r) {
  if (r->has_spare) {
    r->has_spare = 0;
    return r->spare;
  }
  double u, v, s;
  do {
    u = 2.0 * rng_uniform(r) - 1.0;
    v = 2.0 * rng_uniform(r) - 1.0;
    s = u * u + v * v;
  } while (s >= 1.0 || s == 0.0);
  double k = sqrt(-2.0 * log(s) / s);
  r->spare = v * k;
  r->has_spare = 1;
  return u * k;
}

/* ---- symmetric eigendecomposition (cyclic Jacobi; n is a few tens at most) ---------------- */

/* A (n x n, symmetric, destroyed) = B diag(d) B^T; B's columns are the eigenvectors. */
static void jacobi_eigen(double *A, size_t n, double *d, double *B) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) B[i * n + j] = i == j;
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0.0, diag = 0.0;
    for (size_t i = 0; i < n; i++) {
      diag += A[i * n + i] * A[i * n + i];
      for (size_t j = i + 1; j < n; j++) off += A[i * n + j] * A[i * n + j];
    }
    if (off <= 1e-30 * diag || off == 0.0) break;
    for (size_t p = 0; p < n; p++)
      for (size_t q = p + 1; q < n; q++) {
        double apq = A[p * n + q];
        if (apq == 0.0) continue;
        double theta = (A[q * n + q] - A[p * n + p]) / (2.0 * apq);
        double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (size_t k = 0; k < n; k++) { /* A <- A J (columns p, q) */
          double akp = A[k * n + p], akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (size_t k = 0; k < n; k++) { /* A <- J^T A (rows p, q) */
          double apk = A[p * n + k], aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (size_t k = 0; k < n; k++) { /* B <- B J */
          double bkp = B[k * n + p], bkq = B[k * n + q];
          B[k * n + p] = c * bkp - s * bkq;
          B[k * n + q] = s * bkp + c * bkq;
        }
      }
  }
  for (size_t i = 0; i < n; i++) d[i] = A[i * n + i];
}

/* ---- one CMA-ES run ------------------------------------------------------------------------ */

typedef struct ranked {
  double f;
  size_t i;
} ranked;

typedef struct run {
  size_t n, lambda, mu;
  double sigma, sigma0, mueff, cs, ds, cc, c1, cmu, chi_n, sum_w;
  double *w;                 /* [lambda] recombination weights (negative beyond mu) */
  double *m, *C, *B, *D, *pc, *ps, *tmp, *Cwork; /* D: sqrt of the eigenvalues */
  double *Z, *Y, *X, *f;     /* [lambda * n] normal, B D z, candidates; [lambda] values */
  ranked *order;
  double *hist;              /* best value of the last nhist generations (ring) */
  size_t nhist, hist_len;
  long gen;
} run;

static void run_free(run *r) {
  free(r->w);
  free(r->m);
  free(r->order);
  free(r->hist);
  *r = (run){0};
}

/* One allocation for all the double arrays of a run (the slab starts at r->m). */
static int run_alloc(run *r, size_t n, size_t lambda) {
  size_t nn = n * n, ln = lambda * n;
  r->nhist = 10 + (size_t)ceil(30.0 * (double)n / (double)lambda);
  r->w = malloc(lambda * sizeof *r->w);
  r->m = malloc((3 * nn + 7 * n + 3 * ln + lambda) * sizeof(double));
  r->order = malloc(lambda * sizeof *r->order);
  r->hist = malloc(r->nhist * sizeof *r->hist);
  if (!r->w || !r->m || !r->order || !r->hist) return STICTION_ERR_NOMEM;
  r->C = r->m + n;
  r->B = r->C + nn;
  r->Cwork = r->B + nn;
  r->tmp = r->Cwork + nn; /* 3 n scratch */
  r->D = r->tmp + 3 * n;
  r->pc = r->D + n;
  r->ps = r->pc + n;
  r->Z = r->ps + n;
  r->Y = r->Z + ln;
  r->X = r->Y + ln;
  r->f = r->X + ln;
  return STICTION_OK;
}

/* Strategy constants of the tutorial's Table 1 (alpha_cov = 2, c_m = 1). */
static void set_constants(run *r) {
  size_t n = r->n, lambda = r->lambda, mu = lambda / 2;
  double dn = (double)n, sp = 0, sp2 = 0, sn = 0, sn2 = 0;
  r->mu = mu;
  for (size_t i = 0; i < lambda; i++) {
    double wi = log((lambda + 1) / 2.0) - log((double)(i + 1));
    r->w[i] = wi;
    if (i < mu) sp += wi, sp2 += wi * wi;
    else sn += wi, sn2 += wi * wi;
  }
  r->mueff = sp * sp / sp2;
  double mueff_neg = sn2 > 0 ? sn * sn / sn2 : 0.0;
  r->cs = (r->mueff + 2) / (dn + r->mueff + 5);
  r->ds = 1 + 2 * fmax(0.0, sqrt((r->mueff - 1) / (dn + 1)) - 1) + r->cs;
  r->cc = (4 + r->mueff / dn) / (dn + 4 + 2 * r->mueff / dn);
  r->c1 = 2 / ((dn + 1.3) * (dn + 1.3) + r->mueff);
  r->cmu = fmin(1 - r->c1, 2 * (r->mueff - 2 + 1 / r->mueff) /
                               ((dn + 2) * (dn + 2) + 2 * r->mueff / 2));
  double a_mu = 1 + r->c1 / r->cmu, a_mueff = 1 + 2 * mueff_neg / (r->mueff + 2);
  double a_posdef = (1 - r->c1 - r->cmu) / (dn * r->cmu);
  double a_neg = fmin(a_mu, fmin(a_mueff, a_posdef));
  r->sum_w = 0;
  for (size_t i = 0; i < lambda; i++) {
    r->w[i] = i < mu ? r->w[i] / sp : a_neg * r->w[i] / fabs(sn);
    r->sum_w += r->w[i];
  }
  r->chi_n = sqrt(dn) * (1 - 1 / (4 * dn) + 1 / (21 * dn * dn));
}

static int run_start(run *r, size_t n, size_t lambda, const double *mean, double sigma,
                     double sigma0) {
  *r = (run){0};
  r->n = n;
  r->lambda = lambda;
  if (run_alloc(r, n, lambda)) return STICTION_ERR_NOMEM;
  set_constants(r);
  memcpy(r->m, mean, n * sizeof *mean);
  memset(r->C, 0, n * n * sizeof(double));
  memset(r->B, 0, n * n * sizeof(double));
  for (size_t i = 0; i < n; i++) {
    r->C[i * n + i] = r->B[i * n + i] = r->D[i] = 1.0;
    r->pc[i] = r->ps[i] = 0.0;
  }
  r->sigma = sigma;
  r->sigma0 = sigma0;
  return STICTION_OK;
}

static int in_box(const double *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!(x[i] >= 0.0 && x[i] <= 1.0)) return 0;
  return 1;
}

/* One candidate: z ~ N(0, I), y = B D z, x = m + sigma y; resampled while outside the box,
 * then clipped (y recomputed from the clipped x, as the update must see the evaluated x). */
static void sample(run *r, rng *g, size_t k) {
  size_t n = r->n;
  double *z = r->Z + k * n, *y = r->Y + k * n, *x = r->X + k * n;
  for (int attempt = 0; attempt <= MAX_RESAMPLE; attempt++) {
    for (size_t i = 0; i < n; i++) z[i] = rng_normal(g) * r->D[i];
    for (size_t i = 0; i < n; i++) {
      double s = 0;
      for (size_t j = 0; j < n; j++) s += r->B[i * n + j] * z[j];
      y[i] = s;
      x[i] = r->m[i] + r->sigma * s;
    }
    if (in_box(x, n)) return;
  }
  for (size_t i = 0; i < n; i++) {
    x[i] = fmin(1.0, fmax(0.0, x[i]));
    y[i] = (x[i] - r->m[i]) / r->sigma;
  }
}

/* out = C^{-1/2} y = B D^{-1} B^T y */
static void inv_sqrt_c(const run *r, const double *y, double *out, double *scratch) {
  size_t n = r->n;
  for (size_t j = 0; j < n; j++) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += r->B[i * n + j] * y[i];
    scratch[j] = s / r->D[j];
  }
  for (size_t i = 0; i < n; i++) {
    double s = 0;
    for (size_t j = 0; j < n; j++) s += r->B[i * n + j] * scratch[j];
    out[i] = s;
  }
}

static int cmp_ranked(const void *a, const void *b) {
  const ranked *x = a, *y = b;
  if (x->f != y->f) return x->f < y->f ? -1 : 1;
  return x->i < y->i ? -1 : (x->i > y->i);
}

/* Mean, evolution paths, covariance (rank-one + rank-mu with negative weights), step size. */
static void update(run *r) {
  size_t n = r->n, lambda = r->lambda;
  double *yw = r->tmp, *scratch = r->tmp + n, *v = scratch + n;
  for (size_t i = 0; i < n; i++) yw[i] = 0;
  for (size_t k = 0; k < r->mu; k++)
    for (size_t i = 0; i < n; i++) yw[i] += r->w[k] * r->Y[r->order[k].i * n + i];
  for (size_t i = 0; i < n; i++) r->m[i] += r->sigma * yw[i];
  inv_sqrt_c(r, yw, v, scratch);
  double cs = sqrt(r->cs * (2 - r->cs) * r->mueff), psn = 0;
  for (size_t i = 0; i < n; i++) {
    r->ps[i] = (1 - r->cs) * r->ps[i] + cs * v[i];
    psn += r->ps[i] * r->ps[i];
  }
  psn = sqrt(psn);
  double denom = sqrt(1 - pow(1 - r->cs, 2.0 * (double)(r->gen + 1)));
  int hs = psn / denom < (1.4 + 2.0 / ((double)n + 1)) * r->chi_n;
  double cc = sqrt(r->cc * (2 - r->cc) * r->mueff);
  for (size_t i = 0; i < n; i++) r->pc[i] = (1 - r->cc) * r->pc[i] + hs * cc * yw[i];
  double dh = (1 - hs) * r->cc * (2 - r->cc);
  double keep = 1 + r->c1 * dh - r->c1 - r->cmu * r->sum_w;
  for (size_t i = 0; i < n * n; i++) r->C[i] *= keep;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) r->C[i * n + j] += r->c1 * r->pc[i] * r->pc[j];
  for (size_t k = 0; k < lambda; k++) {
    const double *y = r->Y + r->order[k].i * n;
    double wk = r->w[k];
    if (wk < 0) { /* negative weights rescaled by n / |C^{-1/2} y|^2 (tutorial eq. 46) */
      inv_sqrt_c(r, y, v, scratch);
      double q = 0;
      for (size_t i = 0; i < n; i++) q += v[i] * v[i];
      wk *= q > 0 ? (double)n / q : 0.0;
    }
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) r->C[i * n + j] += r->cmu * wk * y[i] * y[j];
  }
  r->sigma *= exp(fmin(1.0, (r->cs / r->ds) * (psn / r->chi_n - 1)));
}

/* Eigendecomposition of C into B and D (D = sqrt of the eigenvalues, floored above 0). */
static void decompose(run *r) {
  size_t n = r->n;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < i; j++) r->C[i * n + j] = r->C[j * n + i]; /* keep it symmetric */
  memcpy(r->Cwork, r->C, n * n * sizeof(double));
  jacobi_eigen(r->Cwork, n, r->D, r->B);
  for (size_t i = 0; i < n; i++) r->D[i] = sqrt(fmax(r->D[i], 1e-300));
}

/* The `cmaes` package's stopping rules: flat values, tiny or huge steps, no effect on the
 * mean, ill-conditioned C. */
static int should_stop(const run *r) {
  size_t n = r->n;
  double lo = r->f[r->order[0].i], hi = r->f[r->order[r->lambda - 1].i];
  if (r->hist_len >= r->nhist) {
    for (size_t i = 0; i < r->nhist; i++) lo = fmin(lo, r->hist[i]), hi = fmax(hi, r->hist[i]);
    if (hi - lo < TOL_FUN) return 1;
  }
  int small = 1;
  double dmax = 0, dmin = INFINITY;
  for (size_t i = 0; i < n; i++) {
    if (r->sigma * r->pc[i] >= TOL_X_REL * r->sigma0 ||
        r->sigma * sqrt(r->C[i * n + i]) >= TOL_X_REL * r->sigma0)
      small = 0;
    dmax = fmax(dmax, r->D[i]);
    dmin = fmin(dmin, r->D[i]);
  }
  if (small || r->sigma * dmax > TOL_X_UP) return 1;
  size_t a = (size_t)(r->gen % (long)n);
  int axis_effect = 0;
  for (size_t i = 0; i < n; i++)
    if (r->m[i] != r->m[i] + 0.1 * r->sigma * r->D[a] * r->B[i * n + a]) axis_effect = 1;
  if (!axis_effect) return 1;
  for (size_t i = 0; i < n; i++)
    if (r->m[i] == r->m[i] + 0.2 * r->sigma * sqrt(r->C[i * n + i])) return 1;
  return dmax * dmax / (dmin * dmin) > TOL_CONDITION;
}

/* ---- the restart driver ---------------------------------------------------------------- */

size_t st_cmaes_default_lambda(size_t n) { return 4 + (size_t)floor(3.0 * log((double)n)); }

typedef struct driver {
  const st_cmaes_config *cfg;
  st_cmaes_eval_fn eval;
  st_cmaes_progress_fn progress;
  void *ctx;
  double *best_x, best_f;
  long evals, gens;
  int restart;
  int stop;
} driver;

/* Evaluates `count` candidates and keeps the best; then reports progress. */
static void evaluate(driver *dv, run *r, size_t count) {
  size_t n = r->n;
  dv->eval(dv->ctx, r->X, count, n, r->f);
  int improved = 0;
  for (size_t k = 0; k < count; k++) {
    if (!isfinite(r->f[k])) r->f[k] = INFINITY;
    r->order[k] = (ranked){r->f[k], k};
    if (r->f[k] < dv->best_f) {
      dv->best_f = r->f[k];
      memcpy(dv->best_x, r->X + k * n, n * sizeof(double));
      improved = 1;
    }
  }
  dv->evals += (long)count;
  if (dv->progress &&
      dv->progress(dv->ctx, dv->evals, dv->best_x, dv->best_f, improved, dv->restart, r->lambda))
    dv->stop = 1;
}

/* Runs CMA-ES from mean with (lambda, sigma) until a stopping rule or the budget. */
static int one_run(driver *dv, rng *g, const double *mean, size_t lambda, double sigma) {
  size_t n = dv->cfg->n;
  run r;
  double sigma0 = dv->cfg->sigma0 > 0 ? dv->cfg->sigma0 : 1.0 / 6.0;
  if (run_start(&r, n, lambda, mean, sigma, sigma0)) {
    run_free(&r);
    return STICTION_ERR_NOMEM;
  }
  while (!dv->stop && dv->evals < dv->cfg->max_evals) {
    for (size_t k = 0; k < lambda; k++) sample(&r, g, k);
    long left = dv->cfg->max_evals - dv->evals;
    size_t count = (long)lambda < left ? lambda : (size_t)left;
    evaluate(dv, &r, count);
    if (count < lambda) break; /* the budget ended inside this generation */
    qsort(r.order, lambda, sizeof *r.order, cmp_ranked);
    update(&r);
    decompose(&r);
    dv->gens++;
    r.hist[r.gen % (long)r.nhist] = r.f[r.order[0].i];
    if (r.hist_len < r.nhist) r.hist_len++;
    r.gen++;
    if (should_stop(&r)) break;
  }
  run_free(&r);
  return STICTION_OK;
}

static void random_mean(rng *g, double *m, size_t n) {
  for (size_t i = 0; i < n; i++) m[i] = rng_uniform(g);
}

/* BIPOP (Hansen 2009): after the first run, the regime that has used fewer evaluations runs
 * next: large = default lambda doubled per large restart with sigma0; small = lambda_def *
 * (lambda_large / (2 lambda_def))^(U^2) with sigma0 * 10^(-2U). IPOP: always large. */
static int restarts(driver *dv, rng *g, double *mean) {
  const st_cmaes_config *cfg = dv->cfg;
  size_t n = cfg->n, lam_def = st_cmaes_default_lambda(n), lam_large = lam_def;
  double sigma0 = cfg->sigma0 > 0 ? cfg->sigma0 : 1.0 / 6.0;
  long used_large = dv->evals, used_small = 0;
  while (!dv->stop && dv->evals < cfg->max_evals) {
    long before = dv->evals;
    size_t lambda;
    double sigma = sigma0;
    int small = cfg->restarts == ST_CMAES_BIPOP && used_small < used_large;
    if (small) {
      double u = rng_uniform(g), v = rng_uniform(g);
      lambda = (size_t)floor((double)lam_def *
                             pow(0.5 * (double)lam_large / (double)lam_def, u * u));
      if (lambda < lam_def) lambda = lam_def;
      sigma = sigma0 * pow(10.0, -2.0 * v);
    } else {
      lam_large *= 2;
      lambda = lam_large;
    }
    random_mean(g, mean, n);
    dv->restart++;
    if (one_run(dv, g, mean, lambda, sigma)) return STICTION_ERR_NOMEM;
    if (small) used_small += dv->evals - before;
    else used_large += dv->evals - before;
  }
  return STICTION_OK;
}

int st_cmaes_minimize(const st_cmaes_config *cfg, st_cmaes_eval_fn eval,
                      st_cmaes_progress_fn progress, void *ctx, double *best_x,
                      st_cmaes_result *res) {
  if (!cfg || cfg->n == 0 || !eval || !best_x || cfg->max_evals < 1) return STICTION_ERR_ARG;
  size_t n = cfg->n;
  double *mean = malloc(n * sizeof *mean);
  if (!mean) return STICTION_ERR_NOMEM;
  rng g;
  rng_seed(&g, cfg->seed);
  driver dv = {cfg, eval, progress, ctx, best_x, INFINITY, 0, 0, 0, 0};
  for (size_t i = 0; i < n; i++) {
    mean[i] = cfg->x0 ? fmin(1.0, fmax(0.0, cfg->x0[i])) : 0.5;
    best_x[i] = mean[i];
  }
  double sigma0 = cfg->sigma0 > 0 ? cfg->sigma0 : 1.0 / 6.0;
  if (cfg->x0) { /* a given start is evaluated first: the result is never worse than it */
    dv.eval(ctx, mean, 1, n, &dv.best_f);
    if (!isfinite(dv.best_f)) dv.best_f = INFINITY;
    dv.evals = 1;
  }
  int st = one_run(&dv, &g, mean, st_cmaes_default_lambda(n), sigma0);
  if (!st && cfg->restarts != ST_CMAES_NO_RESTART) st = restarts(&dv, &g, mean);
  free(mean);
  if (res) *res = (st_cmaes_result){dv.best_f, dv.evals, dv.gens, dv.restart};
  return st;
}
