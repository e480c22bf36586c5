/* Tearing of nonlinear blocks (Elmqvist and Otter 1994; Cellier and Kofman 2006, chapter 7):
 * a causal sequence of explicit assignments computes most unknowns of the block from a few
 * tear variables, and Newton iterates over the tear variables only, on the residuals of the
 * equations left over. A loop like R = 1/G, G = mu0 mu_r(B) A/l, B = Phi/A, ... from all
 * unknowns at 0 has an infinite residual at the first Newton iterate over all unknowns; torn
 * with Phi as the tear variable, every assignment is defined.
 *
 * An equation is an assignment for a variable when the variable occurs once and the path to
 * it inverts only additions, negations, divisions where it is the numerator and products with
 * a nonzero constant or parameter factor (no division by a quantity that may be 0 is
 * introduced; the expression the variable equals may of course divide, as 1/G does).
 * The heuristic: repeatedly assign the equations with one unknown left; when none is left,
 * tear the unknown that occurs in the most remaining equations, counting first those where it
 * is the last but one unknown; ties go to variables with a start value, a nominal value or
 * stateSelect prefer/always (their start is a meaningful first iterate); a second run that
 * tears the unknowns with a start value first is kept when it tears fewer. solve.c runs the
 * torn Newton and falls back to the Newton over all unknowns when it fails. */
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"

/* A factor that is a nonzero constant or an expression of parameters and constants that is
 * not 0 at translation (a joint axis n = {0, 0, 1} gives products n[1] * x: dividing by them
 * made every torn iterate infinite in MultiBody's EngineV6). A parameter set to 0 for a run
 * makes the torn solve fail there, and the Newton over all unknowns takes over. */
static int safe_factor(const st_compiled *cm, const st_fexpr *f, const unsigned char *in) {
  double v;
  if (f->kind == FX_REAL) return f->value != 0;
  if (st_sym_depends(cm, f, in) || (st_expr_deps(cm, f) & (DEP_TIME | DEP_CONT | DEP_DISC)))
    return 0;
  return st_sym_param_value(cm, f, &v) || v != 0;
}

/* The single occurrence of slot in e is reached through invertible, safe nodes only. */
static int safe_path(const st_compiled *cm, const st_fexpr *e, int slot,
                     const unsigned char *in) {
  while (st_ref_slot(cm, e) != slot) {
    if (e->kind == FX_UNARY && e->op == FOP_NEG) {
      e = e->args[0];
      continue;
    }
    if (e->kind != FX_BINARY) return 0;
    int left = st_sym_count(cm, e->args[0], slot) > 0;
    const st_fexpr *other = e->args[left ? 1 : 0];
    switch (e->op) {
    case FOP_ADD: case FOP_SUB: break;
    case FOP_MUL: if (!safe_factor(cm, other, in)) return 0; break;
    case FOP_DIV: if (!left) return 0; break; /* x / d = r gives x = r d */
    default: return 0;
    }
    e = e->args[left ? 0 : 1];
  }
  return 1;
}

/* lhs = rhs can be turned by st_sym_solve into slot = expression without a new division by
 * something that may vanish (if-equations: branch by branch). */
static int safe_solve(const st_compiled *cm, const st_fexpr *lhs, const st_fexpr *rhs, int slot,
                      const unsigned char *in) {
  int nl = st_sym_count(cm, lhs, slot), nr = st_sym_count(cm, rhs, slot);
  if (nl + nr == 1) return safe_path(cm, nl ? lhs : rhs, slot, in);
  const st_fexpr *e = nr ? rhs : lhs, *other = nr ? lhs : rhs;
  if ((nl && nr) || e->kind != FX_IF || e->nargs != 3 || st_sym_count(cm, e->args[0], slot))
    return 0;
  return safe_solve(cm, e->args[1], other, slot, in) && safe_solve(cm, e->args[2], other, slot, in);
}

typedef struct tear_ctx {
  st_compiled *cm;
  st_block *b;
  int n;
  int *row_start, *row_var; /* equation i: its unknowns (indices into b->slots) */
  unsigned char *solvable;  /* per entry of row_var */
  unsigned char *known, *done;
  int *left;                /* per equation: unknowns not yet known */
  int *assigned_eq;         /* per variable: equation that assigns it, -1 torn or open */
  int *order;               /* the sequence: variables in assignment order */
  int norder;
  int *tear;
  int ntear;
} tear_ctx;

/* Equation rows from the block's Jacobian pattern (by column, blocks.c). */
static int build_rows(tear_ctx *t) {
  st_block *b = t->b;
  int n = t->n, nnz = b->jac_start[n];
  t->row_start = calloc((size_t)n + 1, sizeof(int));
  t->row_var = malloc(sizeof(int) * (size_t)(nnz + 1));
  t->solvable = calloc((size_t)nnz + 1, 1);
  unsigned char *in = calloc((size_t)t->cm->p.nslots + 1, 1);
  if (!t->row_start || !t->row_var || !t->solvable || !in) { free(in); return -1; }
  for (int q = 0; q < nnz; q++) t->row_start[b->jac_rows[q] + 1]++;
  for (int i = 0; i < n; i++) t->row_start[i + 1] += t->row_start[i];
  int *fill = malloc(sizeof(int) * (size_t)n);
  if (!fill) { free(in); return -1; }
  memcpy(fill, t->row_start, sizeof(int) * (size_t)n);
  for (int j = 0; j < n; j++) {
    in[b->slots[j]] = 1;
    for (int q = b->jac_start[j]; q < b->jac_start[j + 1]; q++) t->row_var[fill[b->jac_rows[q]]++] = j;
  }
  free(fill);
  for (int i = 0; i < n; i++) {
    const st_ceq *eq = &t->cm->p.eqs[b->eqs[i]];
    for (int q = t->row_start[i]; q < t->row_start[i + 1]; q++)
      t->solvable[q] = (unsigned char)safe_solve(t->cm, eq->lhs, eq->rhs, b->slots[t->row_var[q]], in);
  }
  free(in);
  return 0;
}

static void make_known(tear_ctx *t, int j) {
  t->known[j] = 1;
  const st_block *b = t->b;
  for (int q = b->jac_start[j]; q < b->jac_start[j + 1]; q++) t->left[b->jac_rows[q]]--;
}

/* Assigns one equation with a single unknown left that is solvable for it; 0 when none. */
static int assign_one(tear_ctx *t) {
  for (int i = 0; i < t->n; i++) {
    if (t->done[i] || t->left[i] != 1) continue;
    for (int q = t->row_start[i]; q < t->row_start[i + 1]; q++) {
      int j = t->row_var[q];
      if (t->known[j]) continue;
      if (!t->solvable[q]) break;
      t->done[i] = 1;
      t->assigned_eq[j] = i;
      t->order[t->norder++] = j;
      make_known(t, j);
      return 1;
    }
  }
  return 0;
}

/* Start value, nominal value or stateSelect prefer/always: a meaningful first iterate. With
 * moved, also a start value an alias handed over (spring1.lineForce.r_rel_0's start is
 * spring1.r_rel_0's after alias elimination). */
static int preferred(st_compiled *cm, int slot, int moved) {
  if (moved && slot < cm->p.nstart_prog && cm->p.start_prog[slot].n)
    return st_vm_eval(&cm->vm, &cm->p.start_prog[slot]) != 0 ? 2 : 1;
  int f = cm->p.slots[slot].flat;
  if (f < 0 || f >= cm->p.flat->nvars) return 0;
  const st_fvar *v = &cm->p.flat->vars[f];
  return v->start || v->nominal || v->state_select >= ST_SS_PREFER;
}

/* starts_first: the preferred variables before any other (a second greedy run: a massless
 * node between three MultiBody springs is torn at the relative position given a start, 3
 * tear variables with a meaningful first iterate, where counting occurrences tore the
 * springs' lengths s, which divide e_rel_0 = r_rel_0/s, and the node's position: 6) */
static int pick_tear(tear_ctx *t, int starts_first) {
  int best = -1;
  long best_score = -1;
  for (int j = 0; j < t->n; j++) {
    if (t->known[j]) continue;
    long last_but_one = 0, occurs = 0;
    const st_block *b = t->b;
    for (int q = b->jac_start[j]; q < b->jac_start[j + 1]; q++) {
      int i = b->jac_rows[q];
      if (t->done[i]) continue;
      occurs++;
      last_but_one += t->left[i] == 2;
    }
    long pref = preferred(t->cm, b->slots[j], starts_first);
    long score = starts_first ? pref * (1L << 40) + last_but_one * 4096 + occurs
                              : (last_but_one * 4096 + occurs) * 2 + pref;
    if (score > best_score) best_score = score, best = j;
  }
  return best;
}

/* Which tear variables each unknown depends on through the sequence (dep[j * ntear + k]). */
static unsigned char *dependencies(const tear_ctx *t) {
  int n = t->n, m = t->ntear;
  unsigned char *dep = calloc((size_t)n * (size_t)m + 1, 1);
  if (!dep) return NULL;
  for (int k = 0; k < m; k++) dep[(size_t)t->tear[k] * (size_t)m + (size_t)k] = 1;
  for (int s = 0; s < t->norder; s++) {
    int j = t->order[s], i = t->assigned_eq[j];
    if (i < 0) continue; /* a tear variable */
    for (int q = t->row_start[i]; q < t->row_start[i + 1]; q++)
      for (int k = 0; k < m; k++)
        dep[(size_t)j * (size_t)m + (size_t)k] |= dep[(size_t)t->row_var[q] * (size_t)m + (size_t)k];
  }
  return dep;
}

static int augment(const unsigned char *inc, int m, int r, int *col_row, unsigned char *seen) {
  for (int k = 0; k < m; k++) {
    if (!inc[(size_t)r * (size_t)m + (size_t)k] || seen[k]) continue;
    seen[k] = 1;
    if (col_row[k] < 0 || augment(inc, m, col_row[k], col_row, seen)) {
      col_row[k] = r;
      return 1;
    }
  }
  return 0;
}

/* The residual equations, their incidence on the tear variables, and whether it admits a
 * perfect matching (else the torn Jacobian is singular for every value: not torn). */
static int residuals_regular(const tear_ctx *t, const unsigned char *dep, int *res_eq,
                             unsigned char *inc) {
  int n = t->n, m = t->ntear, r = 0;
  for (int i = 0; i < n; i++) {
    if (t->done[i]) continue;
    if (r == m) return 0;
    res_eq[r] = i;
    for (int q = t->row_start[i]; q < t->row_start[i + 1]; q++)
      for (int k = 0; k < m; k++)
        inc[(size_t)r * (size_t)m + (size_t)k] |= dep[(size_t)t->row_var[q] * (size_t)m + (size_t)k];
    r++;
  }
  if (r != m) return 0;
  int *col_row = malloc(sizeof(int) * (size_t)m);
  unsigned char *seen = malloc((size_t)m);
  int ok = col_row && seen;
  for (int k = 0; ok && k < m; k++) col_row[k] = -1;
  for (int i = 0; ok && i < m; i++) {
    memset(seen, 0, (size_t)m);
    ok = augment(inc, m, i, col_row, seen);
  }
  free(col_row);
  free(seen);
  return ok;
}

/* The torn form in the block: assignments in order (programs of the solved equations), tear
 * variables, residual equations, and per tear variable the assignments and residuals whose
 * tangents it reaches (solve.c evaluates only those). */
static int store(tear_ctx *t, const unsigned char *dep, const int *res_eq,
                 const unsigned char *inc) {
  st_compiled *cm = t->cm;
  st_block *b = t->b;
  st_arena *A = cm->p.arena;
  int m = t->ntear, nseq = t->n - m;
  b->tear = st_arena_alloc(A, sizeof(int) * (size_t)m);
  b->tear_res = st_arena_alloc(A, sizeof(int) * (size_t)m);
  b->seq_var = st_arena_alloc(A, sizeof(int) * (size_t)(nseq + 1));
  b->seq = st_arena_alloc(A, sizeof(st_prog) * (size_t)(nseq + 1));
  b->tear_col = st_arena_alloc(A, sizeof(int) * (size_t)(m + 1));
  if (!b->tear || !b->tear_res || !b->seq_var || !b->seq || !b->tear_col) return -1;
  memset(b->seq, 0, sizeof(st_prog) * (size_t)(nseq + 1));
  memcpy(b->tear, t->tear, sizeof(int) * (size_t)m);
  memcpy(b->tear_res, res_eq, sizeof(int) * (size_t)m);
  int s = 0;
  for (int o = 0; o < t->norder; o++) {
    int j = t->order[o], i = t->assigned_eq[j];
    if (i < 0) continue;
    const st_ceq *eq = &cm->p.eqs[b->eqs[i]];
    st_fexpr *sol = st_sym_solve(cm, eq->lhs, eq->rhs, b->slots[j]);
    if (!sol) return 0; /* not torn after all (b->ntear stays 0) */
    b->seq_var[s] = j;
    b->nseq = s + 1; /* emitted programs are freed with the block (st_tear_free) */
    if (st_emit(cm, &b->seq[s], sol, 0) || st_prog_fuse(&b->seq[s])) return -1;
    s++;
  }
  int nitems = 0;
  for (int k = 0; k < m; k++) {
    for (int q = 0; q < nseq; q++) nitems += dep[(size_t)b->seq_var[q] * (size_t)m + (size_t)k];
    for (int r = 0; r < m; r++) nitems += inc[(size_t)r * (size_t)m + (size_t)k];
  }
  b->tear_item = st_arena_alloc(A, sizeof(int) * (size_t)(nitems + 1));
  if (!b->tear_item) return -1;
  int p = 0;
  for (int k = 0; k < m; k++) {
    b->tear_col[k] = p;
    for (int q = 0; q < nseq; q++)
      if (dep[(size_t)b->seq_var[q] * (size_t)m + (size_t)k]) b->tear_item[p++] = q;
    for (int r = 0; r < m; r++)
      if (inc[(size_t)r * (size_t)m + (size_t)k]) b->tear_item[p++] = -1 - r;
  }
  b->tear_col[m] = p;
  b->ntear = m;
  return 0;
}

static void tear_free(tear_ctx *t) {
  free(t->row_start);
  free(t->row_var);
  free(t->solvable);
  free(t->known);
  free(t->done);
  free(t->left);
  free(t->assigned_eq);
  free(t->order);
  free(t->tear);
}

/* How meaningful the tear variables' first iterates are: preferred() summed (2 for a
 * nonzero start value). */
static long tear_preference(const tear_ctx *t) {
  long sum = 0;
  for (int k = 0; k < t->ntear; k++) sum += preferred(t->cm, t->b->slots[t->tear[k]], 1);
  return sum;
}

/* One greedy run from nothing known: the sequence and the tear variables in t. */
static void greedy(tear_ctx *t, int starts_first) {
  int n = t->n;
  memset(t->known, 0, (size_t)n);
  memset(t->done, 0, (size_t)n);
  t->norder = t->ntear = 0;
  for (int i = 0; i < n; i++) t->left[i] = t->row_start[i + 1] - t->row_start[i];
  for (int j = 0; j < n; j++) t->assigned_eq[j] = -1;
  while (t->norder < n) {
    if (assign_one(t)) continue;
    int j = pick_tear(t, starts_first);
    if (j < 0) break;
    t->tear[t->ntear++] = j;
    t->order[t->norder++] = j;
    make_known(t, j);
  }
}

int st_tear_block(st_compiled *cm, st_block *b) {
  int n = b->n, rc = 0;
  /* linear blocks are not torn: a torn linear step loses accuracy where the eliminated
   * coefficients differ by orders of magnitude (quasi-static machines: IMC_DOL's 172-unknown
   * loop torn to 25 left its currents outside the reference tube, and slow) */
  if ((b->kind != BK_SOLVE && b->kind != BK_MIXED) || b->linear || n < 2 || !b->jac_start ||
      !b->jac_rows)
    return 0;
  tear_ctx t = {.cm = cm, .b = b, .n = n};
  t.known = calloc((size_t)n, 1);
  t.done = calloc((size_t)n, 1);
  t.left = malloc(sizeof(int) * (size_t)n);
  t.assigned_eq = malloc(sizeof(int) * (size_t)n);
  t.order = malloc(sizeof(int) * (size_t)n);
  t.tear = malloc(sizeof(int) * (size_t)n);
  if (!t.known || !t.done || !t.left || !t.assigned_eq || !t.order || !t.tear || build_rows(&t)) {
    tear_free(&t);
    return -1;
  }
  /* the run with the variables that have a start value first is kept when it tears fewer,
   * or as many with more meaningful first iterates (MSL SignalGenerator: r2.i's start picks
   * the opamp's lower limit, a tear at the node voltage started at 0, the unstable middle) */
  greedy(&t, 1);
  int ntear_starts = t.ntear;
  long pref_starts = tear_preference(&t);
  greedy(&t, 0);
  if (ntear_starts < t.ntear || (ntear_starts == t.ntear && pref_starts > tear_preference(&t)))
    greedy(&t, 1);
  if (t.ntear > 0 && t.ntear < n) {
    unsigned char *dep = dependencies(&t);
    unsigned char *inc = calloc((size_t)t.ntear * (size_t)t.ntear + 1, 1);
    int *res_eq = malloc(sizeof(int) * (size_t)t.ntear);
    if (!dep || !inc || !res_eq) rc = -1;
    else if (residuals_regular(&t, dep, res_eq, inc)) rc = store(&t, dep, res_eq, inc);
    free(dep);
    free(inc);
    free(res_eq);
  }
  tear_free(&t);
  return rc;
}

void st_tear_free(st_block *b) {
  for (int s = 0; b->seq && s < b->nseq; s++) st_prog_free(&b->seq[s]);
}
