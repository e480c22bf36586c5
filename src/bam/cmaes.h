/* CMA-ES with BIPOP or IPOP restarts in the unit box [0,1]^n, written from N. Hansen, "The CMA
 * Evolution Strategy: A Tutorial" (arXiv:1604.00772, defaults of its Table 1 with negative
 * weights) and "Benchmarking a BI-Population CMA-ES on the BBOB-2009 Function Testbed"
 * (GECCO 2009) for the restart regimes.
 *
 * Box constraints as the `cmaes` package behind Optuna (BAM's optimizer, bam.md §4) handles
 * them: a candidate outside the box is resampled, up to 100 times, then clipped; the update
 * uses the candidate actually evaluated.
 *
 * The caller evaluates whole generations (eval callback) so that it can spread them over
 * threads; every random number is drawn here, in one thread, from the seed: a run is a
 * function of the seed and the objective only. */
#ifndef ST_BAM_CMAES_H
#define ST_BAM_CMAES_H

#include <stddef.h>
#include <stdint.h>

typedef enum st_cmaes_restarts {
  ST_CMAES_NO_RESTART = 0,
  ST_CMAES_IPOP,  /* population doubles at every restart */
  ST_CMAES_BIPOP  /* alternates large (doubling) and small (random) populations by budget */
} st_cmaes_restarts;

typedef struct st_cmaes_config {
  size_t n;              /* dimension (>= 1) */
  uint64_t seed;
  long max_evals;        /* evaluation budget (the last generation is cut to fit) */
  double sigma0;         /* initial step size in the unit box; 0 = 1/6 (Optuna's choice) */
  const double *x0;      /* mean of the first run, in [0,1]^n; NULL = the box centre */
  st_cmaes_restarts restarts;
} st_cmaes_config;

/* f[i] = objective of candidate X[i*n .. i*n+n-1], i < count; non-finite values count as +inf. */
typedef void (*st_cmaes_eval_fn)(void *ctx, const double *X, size_t count, size_t n, double *f);

/* Called after every generation: evaluations so far, the best point and value so far, and
 * whether this generation improved it. Returning non-zero stops the search. */
typedef int (*st_cmaes_progress_fn)(void *ctx, long evals, const double *best_x, double best_f,
                                    int improved, int restart, size_t lambda);

typedef struct st_cmaes_result {
  double best_f;
  long evals, generations;
  int restarts;          /* runs started after the first */
} st_cmaes_result;

/* Minimizes; best_x (n doubles) receives the best point. Returns STICTION_OK or
 * STICTION_ERR_NOMEM / STICTION_ERR_ARG. */
int st_cmaes_minimize(const st_cmaes_config *cfg, st_cmaes_eval_fn eval,
                      st_cmaes_progress_fn progress, void *ctx, double *best_x,
                      st_cmaes_result *res);

/* Default population size 4 + floor(3 ln n) (tutorial, Table 1). */
size_t st_cmaes_default_lambda(size_t n);

#endif
