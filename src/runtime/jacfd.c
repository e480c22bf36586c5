/* Difference-quotient Jacobians over the model's sparsity pattern: df/dy of the ODE form on
 * CVODE, dF/dy + cj dF/dy' on IDA (the model's DAE pattern, or its ODE pattern when it has
 * no algebraic unknowns).
 *
 * Columns that share no row can be perturbed in one derivatives() call: the change of f_i
 * then comes from the one column of the group that row i depends on (Curtis, Powell and
 * Reid, "On the estimation of sparse Jacobian matrices", 1974). The groups are a greedy
 * colouring of the column intersection graph, computed once. A chain of N blocks needs a
 * handful of calls per Jacobian instead of 2N; the values are the ones column-by-column
 * differences would give, bit for bit, as long as the pattern holds every dependency. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "runtime/runtime.h"

/* On IDA the model's pattern of dF/dy + cj dF/dy' when it gives one; else the pattern of
 * df/dy with its diagonal, which is also that of dF/dy + cj dF/dy' when the model has no
 * algebraic unknowns: F = y' - f (the runtime's, or the DAE form of a compiled model
 * without blocks). */
int st_jacfd_choose(stiction_sim *sim) {
  const stiction_model *m = sim->model;
  sim->pat_cols = sim->pat_rows = NULL;
  int has_dae = m->size == sizeof *m && m->dae_jac_cols && m->dae_jac_rows; /* a newer table */
  if (sim->opt.solver == STICTION_SOLVER_IDA && m->residual && has_dae &&
      sim->n == m->n_states + m->n_algebraic) {
    sim->pat_cols = m->dae_jac_cols;
    sim->pat_rows = m->dae_jac_rows;
  } else if (m->ode_jac_cols && m->ode_jac_rows && sim->n == m->n_states) {
    sim->pat_cols = m->ode_jac_cols;
    sim->pat_rows = m->ode_jac_rows;
  }
  return sim->pat_cols != NULL;
}

int st_jacfd_nnz(const stiction_sim *sim) { return sim->pat_cols[sim->n]; }

/* Rows to columns (the transpose of the pattern), for the colouring. */
static int transpose(const int *cols, const int *rows, int n, int **tcols, int **trows) {
  int nnz = cols[n];
  *tcols = calloc((size_t)n + 1, sizeof(int));
  *trows = malloc(sizeof(int) * (size_t)(nnz > 0 ? nnz : 1));
  if (!*tcols || !*trows) return -1;
  for (int k = 0; k < nnz; k++) (*tcols)[rows[k] + 1]++;
  for (int i = 0; i < n; i++) (*tcols)[i + 1] += (*tcols)[i];
  int *next = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (!next) return -1;
  memcpy(next, *tcols, sizeof(int) * (size_t)n);
  for (int j = 0; j < n; j++)
    for (int k = cols[j]; k < cols[j + 1]; k++) (*trows)[next[rows[k]]++] = j;
  free(next);
  return 0;
}

/* Greedy colouring: column j takes the smallest group no earlier column sharing a row with
 * it has taken. */
static int colour(stiction_sim *sim, const int *tcols, const int *trows) {
  const int *cols = sim->pat_cols, *rows = sim->pat_rows;
  int n = sim->n;
  int *taken = malloc(sizeof(int) * (size_t)(n + 1));
  if (!taken) return -1;
  for (int c = 0; c <= n; c++) taken[c] = -1;
  sim->fd_ngroups = 0;
  for (int j = 0; j < n; j++) {
    for (int k = cols[j]; k < cols[j + 1]; k++)
      for (int m = tcols[rows[k]]; m < tcols[rows[k] + 1]; m++)
        if (trows[m] < j) taken[sim->fd_group[trows[m]]] = j;
    int c = 0;
    while (taken[c] == j) c++;
    sim->fd_group[j] = c;
    if (c + 1 > sim->fd_ngroups) sim->fd_ngroups = c + 1;
  }
  free(taken);
  return 0;
}

int st_jacfd_setup(stiction_sim *sim) {
  int n = sim->n, nnz = st_jacfd_nnz(sim);
  sim->fd_group = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  sim->jac_vals = malloc(sizeof(double) * (size_t)(nnz > 0 ? nnz : 1));
  if (!sim->fd_f0) sim->fd_f0 = calloc((size_t)n, sizeof(double));
  if (!sim->fd_f1) sim->fd_f1 = calloc((size_t)n, sizeof(double));
  if (!sim->fd_yp && sim->opt.solver == STICTION_SOLVER_IDA)
    sim->fd_yp = calloc((size_t)n, sizeof(double));
  int *tcols = NULL, *trows = NULL;
  int rc = (!sim->fd_group || !sim->jac_vals || !sim->fd_f0 || !sim->fd_f1 ||
            (sim->opt.solver == STICTION_SOLVER_IDA && !sim->fd_yp) ||
            transpose(sim->pat_cols, sim->pat_rows, n, &tcols, &trows) ||
            colour(sim, tcols, trows)) ? -1 : 0;
  free(tcols);
  free(trows);
  return rc ? st_sim_fail(sim, STICTION_ERR_NOMEM, "out of memory while grouping the Jacobian's columns") : 0;
}

/* The forward-difference step for y_j: sqrt(eps) relative to max(|y_j|, nominal_j). */
double st_fd_increment(const stiction_sim *sim, int j, double yj) {
  double nom = sim->model->nominal ? sim->model->nominal[j] : 1.0;
  double scale = fabs(yj) > nom ? fabs(yj) : nom;
  return sqrt(2.2e-16) * scale;
}

/* The columns of group g perturbed in yw (a copy of y): yw_j = y_j + inc_j, and in ypw (of
 * yp) by cj inc_j when not NULL. */
static void perturb_group(const stiction_sim *sim, int g, const double *y, double *yw,
                          const double *yp, double *ypw, double cj) {
  for (int j = 0; j < sim->n; j++)
    if (sim->fd_group[j] == g) {
      double inc = st_fd_increment(sim, j, y[j]);
      yw[j] = y[j] + inc;
      if (ypw) ypw[j] = yp[j] + cj * inc;
    }
}

/* The quotients (f1 - f0) / inc_j over the pattern of group g's columns into jac_vals, and
 * yw (and ypw) restored. */
static void group_quotients(stiction_sim *sim, int g, const double *y, double *yw,
                            const double *yp, double *ypw, const double *f1, const double *f0) {
  const int *cols = sim->pat_cols, *rows = sim->pat_rows;
  for (int j = 0; j < sim->n; j++) {
    if (sim->fd_group[j] != g) continue;
    double inc = yw[j] - y[j];
    for (int k = cols[j]; k < cols[j + 1]; k++) sim->jac_vals[k] = (f1[rows[k]] - f0[rows[k]]) / inc;
    yw[j] = y[j];
    if (ypw) ypw[j] = yp[j];
  }
}

int st_jacfd_ode(stiction_sim *sim, double t, const double *y, const double *fy) {
  double *yw = sim->fd_f0, *f1 = sim->fd_f1;
  memcpy(yw, y, sizeof(double) * (size_t)sim->n);
  for (int g = 0; g < sim->fd_ngroups; g++) {
    perturb_group(sim, g, y, yw, NULL, NULL, 0);
    int rc = st_call_derivatives(sim, t, yw, f1);
    sim->stats.nfe_fd++;
    group_quotients(sim, g, y, yw, NULL, NULL, f1, fy);
    if (rc) return rc;
  }
  return STICTION_OK;
}

/* dF/dy + cj dF/dy' over the pattern: y_j + inc and y'_j + cj inc at once give that
 * combination (as IDA's own difference quotients), one residual() call per group. */
int st_jacfd_dae(stiction_sim *sim, double t, double cj, const double *y, const double *yp,
                 const double *r) {
  size_t bytes = sizeof(double) * (size_t)sim->n;
  double *yw = sim->fd_f0, *ypw = sim->fd_yp, *r1 = sim->fd_f1;
  memcpy(yw, y, bytes);
  memcpy(ypw, yp, bytes);
  for (int g = 0; g < sim->fd_ngroups; g++) {
    perturb_group(sim, g, y, yw, yp, ypw, cj);
    int rc = st_call_residual(sim, t, yw, ypw, r1);
    sim->stats.nfe_fd++;
    group_quotients(sim, g, y, yw, yp, ypw, r1, r);
    if (rc) return rc;
  }
  return STICTION_OK;
}

void st_jacfd_to_dense(const stiction_sim *sim, double *J) {
  const int *cols = sim->pat_cols, *rows = sim->pat_rows;
  int n = sim->n;
  memset(J, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int j = 0; j < n; j++)
    for (int k = cols[j]; k < cols[j + 1]; k++) J[(size_t)j * n + rows[k]] = sim->jac_vals[k];
}

/* The pattern into a CSC matrix; values from jac_vals, or from the dense column-major J
 * when it is not NULL (an analytic Jacobian). */
void st_jacfd_to_csc(const stiction_sim *sim, const double *J, SUNMatrix A) {
  const int *cols = sim->pat_cols, *rows = sim->pat_rows;
  int n = sim->n;
  sunindextype *colptr = SUNSparseMatrix_IndexPointers(A);
  sunindextype *rowval = SUNSparseMatrix_IndexValues(A);
  sunrealtype *val = SUNSparseMatrix_Data(A);
  for (int j = 0; j <= n; j++) colptr[j] = cols[j];
  for (int j = 0; j < n; j++)
    for (int k = cols[j]; k < cols[j + 1]; k++) {
      rowval[k] = rows[k];
      val[k] = J ? J[(size_t)j * n + rows[k]] : sim->jac_vals[k];
    }
}
