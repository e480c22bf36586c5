/* Matrix and linear solver for either integrator, and the Jacobian for the KLU path.
 *
 * Dense (SUNDIALS dense LU) is the default. KLU is used when asked for, or by AUTO above
 * STICTION_KLU_THRESHOLD unknowns. When the model gives the pattern of df/dy (CVODE, or IDA
 * without algebraic unknowns) or of dF/dy + cj dF/dy' (IDA) the KLU matrix has that pattern and difference quotients are
 * grouped (jacfd.c), on the dense path too; otherwise KLU gets the full pattern. SUNDIALS cannot
 * difference-quotient a sparse Jacobian, so on the KLU path the runtime computes it: from
 * the model's analytic Jacobian when there is one, else by forward differences. */
#include <math.h>
#include <string.h>

#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <stdlib.h>

#include "runtime/runtime.h"

static int want_klu(const stiction_sim *sim) {
  if (sim->opt.linear_solver == STICTION_LINSOL_KLU) return 1;
  return sim->opt.linear_solver == STICTION_LINSOL_AUTO && sim->n > STICTION_KLU_THRESHOLD;
}

static int create_klu(stiction_sim *sim) {
  sunindextype n = sim->n;
  size_t nn = (size_t)sim->n * (size_t)sim->n;
  /* the dense scratch holds analytic or column-by-column Jacobians; the grouped path of a
   * model with a pattern writes its values straight into the sparse matrix */
  int need_dense = !sim->use_pattern || sim->model->ode_jacobian ||
                   (sim->opt.solver == STICTION_SOLVER_IDA && sim->model->dae_jacobian);
  if (need_dense) sim->jac_dense = calloc(nn, sizeof(double));
  if (!sim->fd_f0) sim->fd_f0 = calloc((size_t)sim->n, sizeof(double));
  if (!sim->fd_f1) sim->fd_f1 = calloc((size_t)sim->n, sizeof(double));
  if ((need_dense && !sim->jac_dense) || !sim->fd_f0 || !sim->fd_f1) return STICTION_ERR_NOMEM;
  sunindextype nnz = sim->use_pattern ? st_jacfd_nnz(sim) : n * n;
  sim->A = SUNSparseMatrix(n, n, nnz > 0 ? nnz : 1, CSC_MAT, sim->ctx);
  if (sim->A) sim->LS = SUNLinSol_KLU(sim->y, sim->A, sim->ctx);
  sim->use_klu = 1;
  return sim->LS ? STICTION_OK : STICTION_ERR_NOMEM;
}

int st_linsol_create(stiction_sim *sim) {
  sim->use_pattern = st_jacfd_choose(sim);
  if (sim->use_pattern) {
    int rc = st_jacfd_setup(sim);
    if (rc) return rc;
  }
  if (want_klu(sim)) {
    int rc = create_klu(sim);
    return rc ? st_sim_fail(sim, rc, "out of memory while creating the KLU linear solver")
              : STICTION_OK;
  }
  sim->A = SUNDenseMatrix(sim->n, sim->n, sim->ctx);
  if (sim->A) sim->LS = SUNLinSol_Dense(sim->y, sim->A, sim->ctx);
  st_dense_use_fast_ops(sim->A, sim->LS);
  return sim->LS ? STICTION_OK
                 : st_sim_fail(sim, STICTION_ERR_NOMEM,
                               "out of memory while creating the dense linear solver");
}

/* Copies the dense column-major scratch into J with the full pattern. */
static void dense_to_csc(const stiction_sim *sim, SUNMatrix J) {
  sunindextype n = sim->n;
  sunindextype *colptr = SUNSparseMatrix_IndexPointers(J);
  sunindextype *rowval = SUNSparseMatrix_IndexValues(J);
  sunrealtype *val = SUNSparseMatrix_Data(J);
  for (sunindextype j = 0; j < n; j++) {
    colptr[j] = j * n;
    for (sunindextype i = 0; i < n; i++) {
      rowval[j * n + i] = i;
      val[j * n + i] = sim->jac_dense[j * n + i];
    }
  }
  colptr[n] = n * n;
}

/* df/dy by forward differences into jac_dense. */
static int fd_ode(stiction_sim *sim, double t, const double *y, const double *fy) {
  int n = sim->n;
  double *yw = sim->fd_f0, *f1 = sim->fd_f1;
  memcpy(yw, y, (size_t)n * sizeof(double));
  for (int j = 0; j < n; j++) {
    double inc = st_fd_increment(sim, j, y[j]);
    yw[j] = y[j] + inc;
    int rc = st_call_derivatives(sim, t, yw, f1);
    yw[j] = y[j];
    sim->stats.nfe_fd++;
    if (rc) return rc;
    for (int i = 0; i < n; i++) sim->jac_dense[(size_t)j * n + i] = (f1[i] - fy[i]) / inc;
  }
  return STICTION_OK;
}

/* df/dy over the model's pattern: analytic values picked from the dense Jacobian, else
 * grouped difference quotients (jacfd.c). */
static int pattern_jacobian(stiction_sim *sim, double t, const double *y, const double *fy,
                            SUNMatrix J) {
  if (sim->model->ode_jacobian) {
    if (sim->model->ode_jacobian(sim->ud, t, y, fy, sim->jac_dense))
      return st_sim_fail(sim, STICTION_ERR_CALLBACK, "ode_jacobian() failed at t = %.17g", t);
    st_jacfd_to_csc(sim, sim->jac_dense, J);
    return STICTION_OK;
  }
  int rc = st_jacfd_ode(sim, t, y, fy);
  if (!rc) st_jacfd_to_csc(sim, NULL, J);
  return rc;
}

int st_klu_ode_jacobian(stiction_sim *sim, double t, N_Vector y, N_Vector fy, SUNMatrix J) {
  const double *yd = N_VGetArrayPointer(y), *fd = N_VGetArrayPointer(fy);
  int rc;
  if (sim->use_pattern) return pattern_jacobian(sim, t, yd, fd, J);
  if (sim->model->ode_jacobian) {
    rc = sim->model->ode_jacobian(sim->ud, t, yd, fd, sim->jac_dense);
    if (rc) return st_sim_fail(sim, STICTION_ERR_CALLBACK, "ode_jacobian() failed at t = %.17g", t);
  } else {
    rc = fd_ode(sim, t, yd, fd);
    if (rc) return rc;
  }
  dense_to_csc(sim, J);
  return STICTION_OK;
}

/* dF/dy + cj dF/dyp by forward differences: perturbing y_j by inc and yp_j by cj*inc at once
 * gives exactly that combination in one residual call per column. */
static int fd_dae(stiction_sim *sim, double t, double cj, N_Vector y, N_Vector yp, N_Vector r) {
  int n = sim->n;
  double *yd = N_VGetArrayPointer(y), *ypd = N_VGetArrayPointer(yp);
  const double *r0 = N_VGetArrayPointer(r);
  for (int j = 0; j < n; j++) {
    double yj = yd[j], ypj = ypd[j], inc = st_fd_increment(sim, j, yj);
    yd[j] = yj + inc;
    ypd[j] = ypj + cj * inc;
    int rc = st_call_residual(sim, t, yd, ypd, sim->fd_f1);
    yd[j] = yj;
    ypd[j] = ypj;
    sim->stats.nfe_fd++;
    if (rc) return rc;
    for (int i = 0; i < n; i++) sim->jac_dense[(size_t)j * n + i] = (sim->fd_f1[i] - r0[i]) / inc;
  }
  return STICTION_OK;
}

/* An ODE model's df/dy as the iteration matrix -df/dy + cj I (IDA's y' stands in for f). */
static int ode_as_dae(stiction_sim *sim, double t, double cj, N_Vector y, N_Vector yp) {
  int n = sim->n;
  double *J = sim->jac_dense;
  if (sim->model->ode_jacobian(sim->ud, t, N_VGetArrayPointer(y), N_VGetArrayPointer(yp), J))
    return st_sim_fail(sim, STICTION_ERR_CALLBACK, "ode_jacobian() failed at t = %.17g", t);
  for (int i = 0; i < n * n; i++) J[i] = -J[i];
  for (int i = 0; i < n; i++) J[i + i * n] += cj;
  return STICTION_OK;
}

int st_klu_dae_jacobian(stiction_sim *sim, double t, double cj, N_Vector y, N_Vector yp,
                        N_Vector r, SUNMatrix J) {
  int rc;
  int analytic = sim->model->dae_jacobian || (!sim->model->residual && sim->model->ode_jacobian);
  if (sim->use_pattern && !analytic) {
    rc = st_jacfd_dae(sim, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                      N_VGetArrayPointer(r));
    if (!rc) st_jacfd_to_csc(sim, NULL, J);
    return rc;
  }
  if (!sim->model->residual && sim->model->ode_jacobian) {
    rc = ode_as_dae(sim, t, cj, y, yp);
    if (rc) return rc;
  } else if (sim->model->dae_jacobian) {
    rc = sim->model->dae_jacobian(sim->ud, t, cj, N_VGetArrayPointer(y), N_VGetArrayPointer(yp),
                                  sim->jac_dense);
    if (rc) return st_sim_fail(sim, STICTION_ERR_CALLBACK, "dae_jacobian() failed at t = %.17g", t);
  } else {
    rc = fd_dae(sim, t, cj, y, yp, r);
    if (rc) return rc;
  }
  if (sim->use_pattern) st_jacfd_to_csc(sim, sim->jac_dense, J);
  else dense_to_csc(sim, J);
  return STICTION_OK;
}
