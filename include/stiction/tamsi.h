/*
 * TAMSI: one velocity-level time step of a multibody system with regularised Coulomb
 * friction, solved implicitly by Newton-Raphson with an iteration limiter on the change of
 * direction of the tangential velocities (after Drake's ImplicitStribeckSolver / TamsiSolver;
 * Castro et al., IEEE RA-L 5(2), 2020; limiter after Uchida, Sherman & Delp 2015).
 * Documentation: doc/tamsi.md.
 *
 * The unknown is v (nv generalized velocities) solving
 *
 *     M v = p* + dt Jn^T fn(v) + dt Jt^T ft(v)
 *
 * with friction ft_i = -mu(s_i) fn_i vt_i / ||vt_i||_s per contact and, for two-way coupling,
 * the compliant normal force fn_i = (1 - d_i vn_i)+ (fn0_i - dt k_i vn_i)+. One-way coupling
 * takes fn as given.
 *
 *   stiction_tamsi *s;
 *   stiction_tamsi_create(3, &s);
 *   stiction_tamsi_set_one_way(s, M, Jn, Jt, p_star, fn, mu);   // or _set_two_way
 *   int r = stiction_tamsi_solve(s, dt, v_guess);               // < 0: misuse, else result
 *   if (r == STICTION_TAMSI_SUCCESS) use(stiction_tamsi_v(s));
 *   stiction_tamsi_free(s);
 *
 * Storage: matrices are dense, row-major, described by stiction_tamsi_mat. Ownership: the
 * arrays given to the set-up calls are BORROWED, not copied: they must stay valid and
 * unchanged until the next set-up call on the same solver or stiction_tamsi_free(). Arrays
 * returned by getters belong to the solver; they are valid until the next set-up or solve
 * call. A solver is not thread-safe, but independent solvers may run in parallel.
 */
#ifndef STICTION_TAMSI_H
#define STICTION_TAMSI_H

#ifdef __cplusplus
extern "C" {
#endif

/* Outcome of a solve (the values are Drake's). Never an abort: on failure the getters
 * describe the last iterate. */
typedef enum stiction_tamsi_result {
  STICTION_TAMSI_SUCCESS = 0,
  STICTION_TAMSI_MAX_ITERATIONS_REACHED = 1,
  STICTION_TAMSI_LINEAR_SOLVER_FAILED = 2, /* singular/indefinite Newton matrix, non-finite step */
  STICTION_TAMSI_ALPHA_SOLVER_FAILED = 3   /* the limiter's quadratic had no positive root */
} stiction_tamsi_result;

/* "success", "max_iterations_reached", "linear_solver_failed", "alpha_solver_failed", or
 * "unknown" for anything else. Static string. */
const char *stiction_tamsi_result_name(int result);

typedef struct stiction_tamsi_params {
  double stiction_tolerance; /* v_s [m/s] > 0; default 1e-4 */
  double relative_tolerance; /* r in (0, 1); tolerance r*v_s [m/s]; default 1e-2 */
  double theta_max;          /* max. direction change of vt per iteration, (0, pi]; pi/3 */
  int max_iterations;        /* >= 1; default 100 */
} stiction_tamsi_params;

/* Drake's defaults (doc/tamsi.md). */
stiction_tamsi_params stiction_tamsi_default_params(void);

/* Dense row-major matrix view (entry (i, j) at data[i*cols + j]) and vector view. data may
 * be NULL only when there are no entries. */
typedef struct stiction_tamsi_mat {
  int rows, cols;
  const double *data;
} stiction_tamsi_mat;

typedef struct stiction_tamsi_vec {
  int size;
  const double *data;
} stiction_tamsi_vec;

typedef struct stiction_tamsi stiction_tamsi;

/* A solver for nv >= 0 generalized velocities (nv = 0 is the "empty world", allowed as in
 * Drake). *out is owned by the caller (stiction_tamsi_free). STICTION_ERR_ARG if nv < 0 or
 * out is NULL, STICTION_ERR_NOMEM. */
int stiction_tamsi_create(int nv, stiction_tamsi **out);
void stiction_tamsi_free(stiction_tamsi *s);

int stiction_tamsi_nv(const stiction_tamsi *s);
/* Number of contacts of the current data (0 before set-up). */
int stiction_tamsi_nc(const stiction_tamsi *s);

/* STICTION_ERR_ARG (and nothing changed) unless every value is finite and in range. */
int stiction_tamsi_set_params(stiction_tamsi *s, const stiction_tamsi_params *p);
stiction_tamsi_params stiction_tamsi_get_params(const stiction_tamsi *s);

/* One-way coupling: fn given. nc = Jn.rows; sizes must be M nv x nv, Jn nc x nv,
 * Jt 2nc x nv (rows 2i, 2i+1: the two tangent directions of contact i), p_star nv, fn nc,
 * mu nc. Jn rows give the separation velocity (positive when the bodies move apart).
 * STICTION_ERR_ARG on a size mismatch, STICTION_ERR_STATE if this solver was set up for
 * two-way coupling before (a solver keeps its scheme, as in Drake), STICTION_ERR_NOMEM. */
int stiction_tamsi_set_one_way(stiction_tamsi *s, stiction_tamsi_mat M, stiction_tamsi_mat Jn,
                               stiction_tamsi_mat Jt, stiction_tamsi_vec p_star,
                               stiction_tamsi_vec fn, stiction_tamsi_vec mu);

/* Two-way coupling: fn_i = (1 - d_i vn_i)+ (fn0_i - dt k_i vn_i)+, where fn0 = k x0 is the
 * normal force at the start of the step (x0 the penetration). fn0, stiffness, dissipation
 * [s/m] and mu have nc entries. Errors as for the one-way call (STICTION_ERR_STATE after a
 * one-way set-up). */
int stiction_tamsi_set_two_way(stiction_tamsi *s, stiction_tamsi_mat M, stiction_tamsi_mat Jn,
                               stiction_tamsi_mat Jt, stiction_tamsi_vec p_star,
                               stiction_tamsi_vec fn0, stiction_tamsi_vec stiffness,
                               stiction_tamsi_vec dissipation, stiction_tamsi_vec mu);

/* Solves one step of length dt > 0 from the guess v_guess (nv entries, borrowed for the
 * call). Returns a stiction_tamsi_result (>= 0), or a negative stiction_status on misuse:
 * STICTION_ERR_STATE before any set-up, STICTION_ERR_ARG for dt <= 0, non-finite dt or a NULL
 * guess with nv > 0. The getters below then describe the final iterate. */
int stiction_tamsi_solve(stiction_tamsi *s, double dt, const double *v_guess);

/* A one-line explanation of the last set-up error (or "" if none). Owned by the solver. */
const char *stiction_tamsi_error(const stiction_tamsi *s);

/* Results of the last solve; NULL before the first solve. Sizes: v, tau_f, tau nv; vn, fn nc;
 * vt, ft 2nc. tau_f = Jt^T ft is the generalized friction force, tau = tau_f + Jn^T fn the
 * generalized contact force (forces, not impulses). */
const double *stiction_tamsi_v(const stiction_tamsi *s);
const double *stiction_tamsi_vn(const stiction_tamsi *s);
const double *stiction_tamsi_vt(const stiction_tamsi *s);
const double *stiction_tamsi_fn(const stiction_tamsi *s);
const double *stiction_tamsi_ft(const stiction_tamsi *s);
const double *stiction_tamsi_tau_f(const stiction_tamsi *s);
const double *stiction_tamsi_tau(const stiction_tamsi *s);

/* Iteration statistics of the last solve: the number of Newton updates, and per update the
 * 2-norm of the full tangential velocity step (the "residual" tested against r*v_s) and
 * the limiter's alpha. Arrays have stiction_tamsi_iterations() entries (except that the
 * contact-free case reports 1 iteration and one residual 0 with alpha 1). */
int stiction_tamsi_iterations(const stiction_tamsi *s);
const double *stiction_tamsi_residuals(const stiction_tamsi *s);
const double *stiction_tamsi_alphas(const stiction_tamsi *s);
/* The last residual, 0 if there was none. */
double stiction_tamsi_vt_residual(const stiction_tamsi *s);

#ifdef __cplusplus
}
#endif

#endif
