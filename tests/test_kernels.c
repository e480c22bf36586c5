/* The runtime's own SUNDIALS kernels (src/runtime/nvector_ops.c, dense_ops.c) against the
 * library's: every vector operation, the dense LU factor/solve and the matrix operations
 * must give the same bits on the same inputs (aliasing, signed zeros, special coefficients,
 * singular matrices), clones must inherit the kernels, and a simulation must run on them. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_dense.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <stiction/stiction.h>

#include "runtime/runtime.h"
#include "util/dense_lu.h"
#include "testutil.h"

#define MAXN 9

static SUNContext ctx;

static void setup(void) { ck_assert_int_eq(st_sun_context_create(&ctx), 0); }
static void teardown(void) { SUNContext_Free(&ctx); }

/* Deterministic values with the awkward ones mixed in. */
static double sample(unsigned *seed, int i) {
  static const double special[] = {0.0, -0.0, 1.0, -1.0, 1e-300, -3e300, 0.1, 2.5};
  *seed = *seed * 1103515245u + 12345u;
  if (i % 3 == 0) return special[(*seed >> 8) % 8];
  return ((double)((*seed >> 4) % 2000001) - 1000000.0) / 3333.0;
}

static void fill(N_Vector v, unsigned *seed) {
  for (sunindextype i = 0; i < NV_LENGTH_S(v); i++) NV_Ith_S(v, i) = sample(seed, (int)i);
}

static void expect_same(N_Vector a, N_Vector b, const char *what) {
  ck_assert_msg(memcmp(NV_DATA_S(a), NV_DATA_S(b), (size_t)NV_LENGTH_S(a) * sizeof(double)) == 0,
                "%s differs from the library", what);
}

static void expect_same_real(double a, double b, const char *what) {
  ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "%s: %.17g vs library %.17g", what, a, b);
}

/* Pairs (fast, library) of vectors with equal contents. */
typedef struct pair {
  N_Vector fast, lib;
} pair;

static pair pair_new(int n, unsigned *seed) {
  pair p = {N_VNew_Serial(n, ctx), N_VNew_Serial(n, ctx)};
  st_nvector_use_fast_ops(p.fast);
  fill(p.fast, seed);
  memcpy(NV_DATA_S(p.lib), NV_DATA_S(p.fast), (size_t)n * sizeof(double));
  return p;
}

static void pair_free(pair p) {
  N_VDestroy(p.fast);
  N_VDestroy(p.lib);
}

static const double coefs[] = {1.0, -1.0, 0.0, 2.5, -2.5, 0.3};
#define NCOEF ((int)(sizeof coefs / sizeof coefs[0]))

/* z = a x + b y for every coefficient pair and every aliasing of z. */
START_TEST(linear_sum_bit_identical) {
  unsigned seed = 7;
  for (int n = 1; n <= MAXN; n++)
    for (int ia = 0; ia < NCOEF; ia++)
      for (int ib = 0; ib < NCOEF; ib++)
        for (int alias = 0; alias < 3; alias++) {
          pair x = pair_new(n, &seed), y = pair_new(n, &seed), z = pair_new(n, &seed);
          double a = coefs[ia], b = coefs[ib];
          N_Vector zf = alias == 0 ? z.fast : alias == 1 ? x.fast : y.fast;
          N_Vector zl = alias == 0 ? z.lib : alias == 1 ? x.lib : y.lib;
          N_VLinearSum(a, x.fast, b, y.fast, zf);
          N_VLinearSum_Serial(a, x.lib, b, y.lib, zl);
          expect_same(zf, zl, "linear sum");
          pair_free(x), pair_free(y), pair_free(z);
        }
}
END_TEST

START_TEST(elementwise_ops_bit_identical) {
  unsigned seed = 11;
  for (int n = 1; n <= MAXN; n++)
    for (int ic = 0; ic < NCOEF; ic++) {
      double c = coefs[ic];
      pair x = pair_new(n, &seed), y = pair_new(n, &seed), z = pair_new(n, &seed);
      N_VScale(c, x.fast, z.fast), N_VScale_Serial(c, x.lib, z.lib);
      expect_same(z.fast, z.lib, "scale");
      N_VScale(c, y.fast, y.fast), N_VScale_Serial(c, y.lib, y.lib);
      expect_same(y.fast, y.lib, "scale in place");
      N_VConst(c, z.fast), N_VConst_Serial(c, z.lib);
      expect_same(z.fast, z.lib, "const");
      N_VAddConst(x.fast, c, z.fast), N_VAddConst_Serial(x.lib, c, z.lib);
      expect_same(z.fast, z.lib, "add const");
      N_VCompare(fabs(c), x.fast, z.fast), N_VCompare_Serial(fabs(c), x.lib, z.lib);
      expect_same(z.fast, z.lib, "compare");
      N_VProd(x.fast, y.fast, z.fast), N_VProd_Serial(x.lib, y.lib, z.lib);
      expect_same(z.fast, z.lib, "prod");
      N_VDiv(x.fast, y.fast, z.fast), N_VDiv_Serial(x.lib, y.lib, z.lib);
      expect_same(z.fast, z.lib, "div");
      N_VAbs(x.fast, z.fast), N_VAbs_Serial(x.lib, z.lib);
      expect_same(z.fast, z.lib, "abs");
      N_VInv(x.fast, z.fast), N_VInv_Serial(x.lib, z.lib);
      expect_same(z.fast, z.lib, "inv");
      int tf = N_VInvTest(y.fast, z.fast), tl = N_VInvTest_Serial(y.lib, z.lib);
      ck_assert_int_eq(tf, tl);
      expect_same(z.fast, z.lib, "inv test");
      pair_free(x), pair_free(y), pair_free(z);
    }
}
END_TEST

START_TEST(reductions_bit_identical) {
  unsigned seed = 13;
  for (int n = 1; n <= MAXN; n++)
    for (int rep = 0; rep < 20; rep++) {
      pair x = pair_new(n, &seed), w = pair_new(n, &seed), id = pair_new(n, &seed);
      expect_same_real(N_VWrmsNorm(x.fast, w.fast), N_VWrmsNorm_Serial(x.lib, w.lib), "wrms");
      expect_same_real(N_VWrmsNormMask(x.fast, w.fast, id.fast),
                       N_VWrmsNormMask_Serial(x.lib, w.lib, id.lib), "wrms mask");
      expect_same_real(N_VWL2Norm(x.fast, w.fast), N_VWL2Norm_Serial(x.lib, w.lib), "wl2");
      expect_same_real(N_VDotProd(x.fast, w.fast), N_VDotProd_Serial(x.lib, w.lib), "dot");
      expect_same_real(N_VMaxNorm(x.fast), N_VMaxNorm_Serial(x.lib), "max norm");
      expect_same_real(N_VMin(x.fast), N_VMin_Serial(x.lib), "min");
      expect_same_real(N_VL1Norm(x.fast), N_VL1Norm_Serial(x.lib), "l1");
      expect_same_real(N_VMinQuotient(x.fast, w.fast), N_VMinQuotient_Serial(x.lib, w.lib),
                       "min quotient");
      pair_free(x), pair_free(w), pair_free(id);
    }
}
END_TEST

/* Constraint masks: c in {0, +-1, +-2} against signs of x including zeros. */
START_TEST(constraint_mask_bit_identical) {
  static const double cs[] = {0.0, 1.0, -1.0, 2.0, -2.0};
  unsigned seed = 17;
  for (int n = 1; n <= MAXN; n++)
    for (int rep = 0; rep < 20; rep++) {
      pair c = pair_new(n, &seed), x = pair_new(n, &seed), m = pair_new(n, &seed);
      for (int i = 0; i < n; i++) NV_Ith_S(c.fast, i) = NV_Ith_S(c.lib, i) = cs[(rep + i) % 5];
      int tf = N_VConstrMask(c.fast, x.fast, m.fast), tl = N_VConstrMask_Serial(c.lib, x.lib, m.lib);
      ck_assert_int_eq(tf, tl);
      expect_same(m.fast, m.lib, "constraint mask");
      pair_free(c), pair_free(x), pair_free(m);
    }
}
END_TEST

/* A clone (how CVODE and IDA make their work vectors) carries the runtime's kernels. */
START_TEST(clones_inherit_kernels) {
  N_Vector v = N_VNew_Serial(4, ctx);
  void (*library)(sunrealtype, N_Vector, sunrealtype, N_Vector, N_Vector) = v->ops->nvlinearsum;
  st_nvector_use_fast_ops(v);
  ck_assert(v->ops->nvlinearsum != library);
  N_Vector w = N_VClone(v);
  ck_assert(w->ops->nvlinearsum == v->ops->nvlinearsum);
  ck_assert(w->ops->nvwrmsnorm == v->ops->nvwrmsnorm);
  N_VDestroy(w);
  N_VDestroy(v);
}
END_TEST

/* ---- dense LU ---------------------------------------------------------------------------- */

static void fill_matrix(SUNMatrix A, unsigned *seed, int singular) {
  sunindextype n = SM_COLUMNS_D(A);
  for (sunindextype j = 0; j < n; j++)
    for (sunindextype i = 0; i < n; i++) SM_ELEMENT_D(A, i, j) = sample(seed, (int)(i + j));
  if (singular && n > 1) /* column 1 a copy of column 0 */
    for (sunindextype i = 0; i < n; i++) SM_ELEMENT_D(A, i, 1) = SM_ELEMENT_D(A, i, 0);
}

/* Factor and solve through the solver object against SUNDlsMat_denseGETRF/GETRS. */
static void check_lu(int n, int singular, unsigned *seed) {
  SUNMatrix A = SUNDenseMatrix(n, n, ctx), B = SUNDenseMatrix(n, n, ctx);
  N_Vector y = N_VNew_Serial(n, ctx), b = N_VNew_Serial(n, ctx), x = N_VNew_Serial(n, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  st_dense_use_fast_ops(A, LS);
  fill_matrix(A, seed, singular);
  SUNMatCopy(A, B); /* through the runtime's copy */
  ck_assert(memcmp(SM_DATA_D(A), SM_DATA_D(B), (size_t)(n * n) * sizeof(double)) == 0);
  sunindextype piv[MAXN];
  sunindextype lib_flag = SUNDlsMat_denseGETRF(SM_COLS_D(B), n, n, piv);
  int rc = SUNLinSolSetup(LS, A);
  ck_assert_int_eq(SUNLinSolLastFlag(LS), lib_flag);
  ck_assert_int_eq(rc != 0, lib_flag != 0);
  ck_assert(memcmp(SM_DATA_D(A), SM_DATA_D(B), (size_t)(n * n) * sizeof(double)) == 0);
  if (!lib_flag) {
    fill(b, seed);
    double lib[MAXN];
    memcpy(lib, NV_DATA_S(b), (size_t)n * sizeof(double));
    SUNDlsMat_denseGETRS(SM_COLS_D(B), n, piv, lib);
    ck_assert_int_eq(SUNLinSolSolve(LS, A, x, b, 0.0), 0);
    ck_assert(memcmp(NV_DATA_S(x), lib, (size_t)n * sizeof(double)) == 0);
  }
  SUNLinSolFree(LS);
  N_VDestroy(y), N_VDestroy(b), N_VDestroy(x);
  SUNMatDestroy(A), SUNMatDestroy(B);
}

/* The one dense LU (util/dense_lu.h) directly: A x = b with x = (1, -2, 3), where the second
 * elimination step swaps rows again (pivots 2, 2), so the multipliers of the first column
 * move: the swaps must all be applied to b before the forward substitution. A zero column
 * and a NaN pivot are refused by the solve. */
START_TEST(dense_lu_later_row_swap_and_refusals) {
  double A[9] = {1, 2, 4, 5, 1, 2, 0, 1, 1}; /* column-major rows (1 5 0; 2 1 1; 4 2 1) */
  double b[3] = {-9, 3, 3};
  int64_t piv[3];
  ck_assert_int_eq(st_dense_lu_factor(A, 3, piv), 0);
  ck_assert_int_eq(piv[0], 2);
  ck_assert_int_eq(piv[1], 2);
  st_dense_lu_apply(A, 3, piv, b);
  ck_assert_double_eq_tol(b[0], 1, 1e-14);
  ck_assert_double_eq_tol(b[1], -2, 1e-14);
  ck_assert_double_eq_tol(b[2], 3, 1e-14);
  double A2[9] = {1, 2, 4, 5, 1, 2, 0, 1, 1}, b2[3] = {-9, 3, 3};
  ck_assert_int_eq(st_dense_lu_solve(A2, 3, piv, b2), 0);
  ck_assert(memcmp(b, b2, sizeof b) == 0);
  double S[9] = {1, 3, 5, 0, 0, 0, 2, 4, 6}, bs[3] = {1, 1, 2};
  ck_assert_int_eq(st_dense_lu_factor(S, 3, piv), 2); /* the second pivot is zero */
  double S2[9] = {1, 3, 5, 0, 0, 0, 2, 4, 6};
  ck_assert_int_eq(st_dense_lu_solve(S2, 3, piv, bs), -1);
  double N[4] = {NAN, 0, 0, 1}, bn[2] = {1, 1};
  ck_assert_int_eq(st_dense_lu_solve(N, 2, piv, bn), -1);
}
END_TEST

START_TEST(dense_lu_bit_identical) {
  unsigned seed = 19;
  for (int n = 1; n <= MAXN; n++)
    for (int rep = 0; rep < 10; rep++) check_lu(n, rep % 5 == 4, &seed);
}
END_TEST

START_TEST(dense_scale_add_identity_bit_identical) {
  unsigned seed = 23;
  for (int n = 1; n <= MAXN; n++)
    for (int ic = 0; ic < NCOEF; ic++) {
      SUNMatrix A = SUNDenseMatrix(n, n, ctx), B = SUNDenseMatrix(n, n, ctx);
      st_dense_use_fast_ops(A, NULL);
      fill_matrix(A, &seed, 0);
      SUNMatCopy_Dense(A, B);
      ck_assert_int_eq(SUNMatScaleAddI(coefs[ic], A), 0);
      ck_assert_int_eq(SUNMatScaleAddI_Dense(coefs[ic], B), 0);
      ck_assert(memcmp(SM_DATA_D(A), SM_DATA_D(B), (size_t)(n * n) * sizeof(double)) == 0);
      SUNMatDestroy(A), SUNMatDestroy(B);
    }
}
END_TEST

/* ---- in a simulation ------------------------------------------------------------------- */

typedef struct probe {
  stiction_sim *sim;
  int calls, vectors_ours, solver_ours;
} probe;

static int probe_start(void *ud, double t0, double *y, double *yp) {
  y[0] = 1.0, y[1] = 0.0;
  return 0;
}

/* y0' = y1, y1' = -100 y0 - y1 (stiff enough for Newton); records which kernels run. */
static int probe_rhs(void *ud, double t, const double *y, double *ydot) {
  probe *p = ud;
  stiction_sim *sim = p->sim;
  p->calls++;
  p->vectors_ours += sim->y->ops->nvlinearsum != N_VLinearSum_Serial;
  p->solver_ours += sim->LS->ops->solve != SUNLinSolSolve_Dense;
  ydot[0] = y[1];
  ydot[1] = -100.0 * y[0] - y[1];
  return 0;
}

/* The runtime installs the kernels for CVODE and IDA, and the result is y(1) of the damped
 * oscillator (closed form). */
START_TEST(simulation_runs_on_runtime_kernels) {
  static const char *const names[2] = {"x", "v"};
  stiction_model m = {.size = sizeof(stiction_model), .name = "oscillator", .n_states = 2, .state_names = names,
                      .start_values = probe_start, .derivatives = probe_rhs};
  stiction_options opt;
  stiction_options_init(&opt);
  opt.stop_time = 1.0;
  opt.rtol = 1e-10;
  opt.solver = _i ? STICTION_SOLVER_IDA : STICTION_SOLVER_CVODE_BDF;
  probe p = {0};
  p.sim = stiction_sim_new(&m, &p, &opt);
  ck_assert_int_eq(stiction_sim_run(p.sim), STICTION_OK);
  ck_assert_int_gt(p.calls, 10);
  ck_assert_int_eq(p.vectors_ours, p.calls);
  ck_assert_int_eq(p.solver_ours, p.calls);
  /* x = e^{-t/2} (cos wt + sin(wt) / (2w)), w = sqrt(100 - 1/4) */
  double w = sqrt(99.75), x1 = exp(-0.5) * (cos(w) + sin(w) / (2 * w));
  ck_assert_double_eq_tol(NV_Ith_S(p.sim->y, 0), x1, 1e-7);
  stiction_sim_free(p.sim);
}
END_TEST

int main(void) {
  Suite *s = suite_create("kernels");
  TCase *tc = st_test_case(s, "sundials", 0, ST_TESTS(linear_sum_bit_identical,
                           elementwise_ops_bit_identical, reductions_bit_identical,
                           constraint_mask_bit_identical, clones_inherit_kernels,
                           dense_lu_bit_identical, dense_lu_later_row_swap_and_refusals,
                           dense_scale_add_identity_bit_identical));
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, simulation_runs_on_runtime_kernels, 0, 2);
  return st_test_main(s);
}
