/* Dynamic state selection: the run-time side of index.c's state sets (st_dynset).
 *
 * A set stands for a group of equations (n, differentiated by index reduction) and its free
 * candidates (k derivatives, all dummies): nstate states s[j] = sum_i A[j][i] var[i]; its
 * fixed candidates are dummies whatever the choice (index.c set_cut).
 * The selection A lives in K_WHEN slots of the instance, so the compiled program is shared and
 * the choice is per run. The choice is good while the Jacobian of the group's residuals with
 * respect to the dummies (the candidates not selected) is well conditioned. Its measure: the
 * smallest pivot of an elimination with complete pivoting over the dummies' columns, once
 * the fixed columns are eliminated (pivots the choice does not change); the best
 * choice takes columns by preference class (order, stateSelect) first and by the largest
 * pivot within a class. The set's indicator is q(current) - ST_DYN_FRACTION q(best): where it
 * crosses 0 the runtime stops at an event, and the pass there selects the best choice and
 * gives the new states their values at the consistent point (a reinit). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

/* Switch when the current dummies' smallest pivot falls below this fraction of the best. */
#define ST_DYN_FRACTION 0.1

typedef struct read_ctx { int *s, n, cap, failed; } read_ctx;

static void add_read(void *p, int slot) {
  read_ctx *c = p;
  for (int i = 0; i < c->n; i++)
    if (c->s[i] == slot) return;
  if (c->n == c->cap) {
    int cap = 2 * c->cap + 16;
    int *g = realloc(c->s, sizeof(int) * (size_t)cap);
    if (!g) { c->failed = 1; return; }
    c->s = g;
    c->cap = cap;
  }
  c->s[c->n++] = slot;
}

/* The residuals that read each column (colptr/colrow): the Jacobian is evaluated per column
 * on those only. */
static int column_rows(st_compiled *cm, st_dynset *ds) {
  int ncol = ds->ncand + ds->nfix;
  read_ctx *rr = calloc((size_t)ds->neq + 1, sizeof *rr);
  ds->colptr = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)(ncol + 1));
  int rc = -1, nnz = 0;
  if (!rr || !ds->colptr) goto out;
  for (int i = 0; i < ds->neq; i++) {
    st_expr_unknowns(cm, ds->resid[i], add_read, &rr[i]);
    if (rr[i].failed) goto out;
  }
  for (int pass = 0; pass < 2; pass++) { /* count, then fill */
    nnz = 0;
    for (int c = 0; c < ncol; c++) {
      ds->colptr[c] = nnz;
      for (int i = 0; i < ds->neq; i++)
        for (int k = 0; k < rr[i].n; k++)
          if (rr[i].s[k] == ds->cand[c]) {
            if (pass) ds->colrow[nnz] = i;
            nnz++;
          }
    }
    ds->colptr[ncol] = nnz;
    if (!pass && !(ds->colrow = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)nnz + 1))) goto out;
  }
  rc = 0;
out:
  for (int i = 0; rr && i < ds->neq; i++) free(rr[i].s);
  free(rr);
  return rc;
}

int st_dynset_emit(st_compiled *cm) {
  for (int k = 0; k < cm->p.ndyn; k++) {
    st_dynset *ds = &cm->p.dyn[k];
    ds->res = st_arena_alloc(cm->p.arena, sizeof(st_prog) * (size_t)ds->neq + 1);
    if (!ds->res) return -1;
    memset(ds->res, 0, sizeof(st_prog) * (size_t)ds->neq);
    read_ctx c = {0};
    for (int i = 0; i < ds->neq; i++) {
      if (st_emit(cm, &ds->res[i], ds->resid[i], EMIT_PLAIN)) { free(c.s); return -1; }
      st_expr_unknowns(cm, ds->resid[i], add_read, &c);
    }
    if (c.failed) { free(c.s); return -1; }
    ds->nread = c.n;
    ds->read = st_arena_alloc(cm->p.arena, sizeof(int) * (size_t)c.n + 1);
    if (!ds->read) { free(c.s); return -1; }
    if (c.n) memcpy(ds->read, c.s, sizeof(int) * (size_t)c.n);
    free(c.s);
    if (column_rows(cm, ds)) return -1;
  }
  return 0;
}

static void select_candidates(st_compiled *cm, const st_dynset *ds, const int *sel) {
  for (int j = 0; j < ds->nstate; j++)
    for (int i = 0; i < ds->ncand; i++) {
      int a = ds->a[j * ds->ncand + i];
      cm->x[a] = cm->pre[a] = i == sel[j];
    }
}

void st_dynset_reset(st_compiled *cm) {
  cm->dyn_switches = 0;
  for (int k = 0; k < cm->p.ndyn; k++) {
    const st_dynset *ds = &cm->p.dyn[k];
    select_candidates(cm, ds, ds->init_sel);
    for (int j = 0; j < ds->nstate; j++) { /* a start for the initial Newton */
      double sign;
      int v = st_value_slot(cm, ds->var[ds->init_sel[j]], &sign);
      cm->x[ds->state[j]] = sign * cm->x[v];
    }
  }
}

/* The candidate each state stands for now (sel[j]). */
static void current(const st_compiled *cm, const st_dynset *ds, int *sel) {
  for (int j = 0; j < ds->nstate; j++) {
    sel[j] = 0;
    for (int i = 0; i < ds->ncand; i++)
      if (cm->x[ds->a[j * ds->ncand + i]] != 0) sel[j] = i;
  }
}

/* J (neq x (ncand + nfix), row-major) at the current values, one forward-mode pass per
 * column over the residuals that read it: the eliminated aliases the residuals read are
 * brought up to date first (they were compiled before elimination). */
static int jacobian(st_compiled *cm, const st_dynset *ds, double *J) {
  int ncol = ds->ncand + ds->nfix;
  for (int i = 0; i < ds->nread; i++) {
    int s = ds->read[i];
    if (cm->p.slots[s].kind != K_ALIAS) continue;
    double sign;
    int v = st_value_slot(cm, s, &sign);
    cm->x[s] = sign * cm->x[v];
  }
  memset(J, 0, sizeof(double) * (size_t)(ds->neq * ncol));
  double *xd = cm->vm.xd;
  for (int c = 0; c < ncol; c++) {
    int s = ds->cand[c];
    xd[s] = 1;
    for (int k = ds->colptr[c]; k < ds->colptr[c + 1]; k++) {
      int e = ds->colrow[k];
      double dot = 0;
      st_vm_eval_dual(&cm->vm, &ds->res[e], &dot);
      J[e * ncol + c] = dot;
    }
    xd[s] = 0;
  }
  for (int i = 0; i < ds->neq * ncol; i++)
    if (!isfinite(J[i])) return -1;
  return 0;
}

/* The class a column is eliminated in, higher first: the fixed columns, then the free ones
 * with use[c] set, by preference class when tiered. */
static int column_class(const st_dynset *ds, int c, int tiered) {
  return c >= ds->ncand ? INT_MAX : tiered ? ds->tier[c] : 0;
}

/* Complete pivoting class by class (column_class); marks the free pivot columns in dummy[]
 * and returns the smallest pivot among them (0 when the columns do not reach full row rank).
 * M is overwritten. */
static double eliminate(const st_dynset *ds, double *M, const unsigned char *use, int tiered,
                        unsigned char *dummy, unsigned char *rowdone) {
  int n = ds->neq, k = ds->ncand + ds->nfix, rank = 0;
  double qmin = INFINITY, scale = 0;
  for (int i = 0; i < n * k; i++) scale = fmax(scale, fabs(M[i]));
  memset(dummy, 0, (size_t)k);
  memset(rowdone, 0, (size_t)n);
  while (rank < n) {
    int cls = INT_MIN, any = 0; /* the highest class with a usable column left */
    for (int c = 0; c < k; c++)
      if ((c >= ds->ncand || use[c]) && !dummy[c] && (!any || column_class(ds, c, tiered) > cls)) {
        cls = column_class(ds, c, tiered);
        any = 1;
      }
    if (!any) return 0;
    int br = -1, bc = -1;
    double best = 1e-13 * scale;
    for (int c = 0; c < k; c++) {
      if ((c < ds->ncand && !use[c]) || dummy[c] || column_class(ds, c, tiered) != cls) continue;
      for (int r = 0; r < n; r++)
        if (!rowdone[r] && fabs(M[r * k + c]) > best) { best = fabs(M[r * k + c]); br = r; bc = c; }
    }
    if (br < 0) {
      for (int c = 0; c < k; c++) /* this class is exhausted: the next one */
        if (column_class(ds, c, tiered) == cls && !dummy[c]) dummy[c] = 2;
      continue;
    }
    double piv = M[br * k + bc];
    for (int r = 0; r < n; r++) {
      if (rowdone[r] || r == br || M[r * k + bc] == 0) continue;
      double f = M[r * k + bc] / piv;
      for (int c = 0; c < k; c++) M[r * k + c] -= f * M[br * k + c];
    }
    rowdone[br] = 1;
    dummy[bc] = 1;
    if (bc < ds->ncand) qmin = fmin(qmin, fabs(piv));
    rank++;
  }
  for (int c = 0; c < k; c++) dummy[c] = dummy[c] == 1;
  return qmin;
}

/* The quality of the current choice and of the best one (its dummies in best[], over the
 * free candidates); -1 when the Jacobian has no finite value here. */
static int assess(st_compiled *cm, const st_dynset *ds, double *qcur, double *qbest,
                  unsigned char *best) {
  int n = ds->neq, k = ds->ncand + ds->nfix;
  double *J = malloc(sizeof(double) * (size_t)(2 * n * k) + 1);
  unsigned char *use = malloc((size_t)(2 * k + n) + 1);
  int *sel = malloc(sizeof(int) * (size_t)ds->nstate + 1);
  int rc = -1;
  if (J && use && sel && !jacobian(cm, ds, J)) {
    unsigned char *tmp = use + k, *rowdone = use + 2 * k;
    current(cm, ds, sel);
    memset(use, 1, (size_t)k);
    for (int j = 0; j < ds->nstate; j++) use[sel[j]] = 0;
    memcpy(J + n * k, J, sizeof(double) * (size_t)(n * k));
    *qcur = eliminate(ds, J + n * k, use, 0, tmp, rowdone);
    memset(use, 1, (size_t)k);
    *qbest = eliminate(ds, J, use, 1, tmp, rowdone);
    memcpy(best, tmp, (size_t)ds->ncand);
    rc = 0;
  }
  free(J);
  free(use);
  free(sel);
  return rc;
}

double st_dynset_margin(st_compiled *cm, int k) {
  const st_dynset *ds = &cm->p.dyn[k];
  unsigned char *best = malloc((size_t)ds->ncand + 1);
  double qcur = 0, qbest = 0;
  int bad = !best || assess(cm, ds, &qcur, &qbest, best);
  free(best);
  if (bad) return 1; /* no measure here: no switch */
  return qcur - ST_DYN_FRACTION * qbest;
}

/* After an event pass (x[] consistent at t): every set whose choice degraded takes the best
 * one, its states the values of the candidates they now stand for. */
int st_dynset_event(st_compiled *cm, double *y, stiction_event_info *info) {
  for (int k = 0; k < cm->p.ndyn; k++) {
    const st_dynset *ds = &cm->p.dyn[k];
    unsigned char *best = malloc((size_t)ds->ncand + 1);
    int *sel = malloc(sizeof(int) * (size_t)ds->nstate + 1);
    double qcur = 0, qbest = 0;
    if (!best || !sel) { free(best); free(sel); return -1; }
    int skip = assess(cm, ds, &qcur, &qbest, best) || !(qbest > 0) ||
               qcur - ST_DYN_FRACTION * qbest > 0;
    for (int i = 0, j = 0; !skip && i < ds->ncand; i++)
      if (!best[i] && j < ds->nstate) sel[j++] = i;
    if (!skip) {
      select_candidates(cm, ds, sel);
      for (int j = 0; j < ds->nstate; j++) {
        double sign;
        int v = st_value_slot(cm, ds->var[sel[j]], &sign), s = ds->state[j];
        cm->x[s] = sign * cm->x[v];
        y[cm->p.slots[s].state] = cm->x[s];
      }
      cm->dyn_switches++;
      info->states_changed = info->discrete_changed = info->equations_changed = 1;
    }
    free(best);
    free(sel);
  }
  return 0;
}
