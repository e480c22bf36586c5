/* Evaluating the blocks in BLT order: assignments, LU / damped Newton with the exact
 * Jacobian from the dual interpreter, and the fixed-point iteration of mixed
 * continuous/discrete systems (Otter, Elmqvist, Mattsson 1999, section 6): fix the discrete
 * unknowns, solve the real part, re-evaluate the discrete unknowns, until nothing changes;
 * a repeated discrete vector is a cycle, after which all combinations of the Boolean unknowns
 * are tried (small systems only). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "exec/sparse_block.h"
#include "util/dense_lu.h"

/* A pivot d = +-2^e: x / d == x * (1 / d) bit for bit (1 / d is exact, and both are the one
 * rounding of the same real number x * 2^-e, subnormal results included); the multiplication
 * does not wait 13-20 cycles for a divider. Mechanical models give such pivots all the time:
 * unit coefficients of the connection equations, m = 1. */
static int exact_reciprocal(double d) {
  int e;
  double m = frexp(d, &e);
  return (m == 0.5 || m == -0.5) && e > -1000 && e < 1000;
}

/* The nonzeros of LU factors (util/dense_lu.h) in the order st_dense_lu_apply uses them: for
 * each k, the multipliers L(i,k), i > k, then the entries U(i,k), i < k, of column k above its
 * diagonal U(k,k) (sp_diag). Algebraic loops of connected components are sparse (a few
 * unknowns per equation) and stay sparse under elimination, so the substitutions touch a
 * small fraction of the n*n entries. */
static void sparse_factors(st_block *b) {
  int n = b->n, m = 0;
  st_factors *f = b->fac;
  const double *LU = f->lu;
  for (int k = 0; k < n; k++) {
    const double *col = LU + (size_t)k * (size_t)n;
    f->sp_start[2 * k] = m;
    for (int i = k + 1; i < n; i++)
      if (col[i] != 0) { f->sp_idx[m] = i; f->sp_val[m++] = col[i]; }
    f->sp_start[2 * k + 1] = m;
    for (int i = 0; i < k; i++)
      if (col[i] != 0) { f->sp_idx[m] = i; f->sp_val[m++] = col[i]; }
    double d = col[k];
    f->sp_recip[k] = (unsigned char)exact_reciprocal(d);
    f->sp_diag[k] = f->sp_recip[k] ? 1 / d : d;
  }
  f->sp_start[2 * n] = m;
  /* the swaps applied to the positions 0..n-1: where each entry of the permuted b comes from */
  for (int k = 0; k < n; k++) f->sp_perm[k] = k;
  for (int k = 0; k < n; k++) {
    int p = (int)f->lupiv[k], t = f->sp_perm[k];
    f->sp_perm[k] = f->sp_perm[p];
    f->sp_perm[p] = t;
  }
}

/* st_dense_lu_apply over the nonzeros only, on x = -r: the same operations on the same
 * values, so the same result (a skipped term is an exact zero; the row swaps and the negation
 * only move values and flip signs, done here in one gather through sp_perm). */
static void sparse_apply(const st_block *b, const double *restrict r, double *restrict x) {
  int n = b->n;
  const st_factors *f = b->fac;
  const int *restrict st = f->sp_start, *restrict idx = f->sp_idx, *restrict perm = f->sp_perm;
  const double *restrict v = f->sp_val, *restrict diag = f->sp_diag;
  const unsigned char *restrict recip = f->sp_recip;
  for (int k = 0; k < n; k++) x[k] = -r[perm[k]];
  for (int k = 0; k < n; k++)
    for (int q = st[2 * k]; q < st[2 * k + 1]; q++) x[idx[q]] -= v[q] * x[k];
  for (int k = n - 1; k >= 0; k--) {
    double xk = recip[k] ? x[k] * diag[k] : x[k] / diag[k];
    x[k] = xk;
    for (int q = st[2 * k + 1]; q < st[2 * k + 2]; q++) x[idx[q]] -= v[q] * xk;
  }
}

/* Residuals in cm->r and the Jacobian: one dual pass per structural nonzero (column j: the
 * residuals that mention unknown j, blocks.c). With val (KLU's array, in the pattern's
 * order) only the nonzeros are written; without, the dense cm->J, its other entries zero.
 * A large loop couples each unknown to a few equations, so the sparse form is O(nnz): the
 * dense one clears n^2 entries per call (9.6 MB for MultiBody's EngineV6 loop of 1097). */
static void residual_jacobian(st_compiled *cm, const st_block *b, double *val) {
  int n = b->n;
  for (int i = 0; i < n; i++) cm->r[i] = st_vm_eval(&cm->vm, &b->res[i]);
  if (!val) memset(cm->J, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int j = 0; j < n; j++) {
    cm->xd[b->slots[j]] = 1;
    for (int q = b->jac_start[j]; q < b->jac_start[j + 1]; q++) {
      int i = b->jac_rows[q];
      st_vm_eval_dual(&cm->vm, &b->res[i], val ? &val[q] : &cm->J[i + (size_t)j * (size_t)n]);
    }
    cm->xd[b->slots[j]] = 0;
  }
}

/* Room for an n x n Jacobian in cm->J. It is sized by the largest block solved by dense LU
 * (build.c dense_sizes); a KLU block needs it only for a singular step (the min-norm
 * solution, minnorm.c) or when KLU refused its pattern, and then it grows, up to
 * ST_DENSE_LAZY_MAX unknowns: beyond, n^2 doubles and an O(n^3) solve are out of reach, and
 * the block fails as singular. 0, or -1 without room. */
#define ST_DENSE_LAZY_MAX 4096
static int dense_room(st_compiled *cm, int n) {
  if (n <= cm->jdim) return 0;
  if (n > ST_DENSE_LAZY_MAX) return -1;
  double *J = st_arena_alloc(cm->iarena, sizeof(double) * (size_t)n * (size_t)n);
  if (!J) return -1;
  cm->J = J;
  cm->jdim = n;
  return 0;
}

static double *klu_values(st_block *b);

/* The factors of a frozen linear block for this event interval: KLU's for a large sparse
 * block, else dense LU's with their nonzeros gathered (sparse_factors). */
static int factor_frozen(st_compiled *cm, st_block *b) {
  int n = b->n;
  if (st_block_uses_klu(b)) {
    double *val = klu_values(b);
    if (!val) return -1; /* KLU refused the pattern: the Newton step below */
    residual_jacobian(cm, b, val);
    return st_sparse_block_factor(b->sparse);
  }
  residual_jacobian(cm, b, NULL);
  memcpy(b->fac->lu, cm->J, sizeof(double) * (size_t)n * (size_t)n);
  if (st_dense_lu_factor(b->fac->lu, n, b->fac->lupiv) || !st_dense_lu_finite(b->fac->lu, n))
    return -1;
  sparse_factors(b);
  return 0;
}

/* A linear block with coefficients frozen between events reuses its LU factors: only the
 * residuals are evaluated (the right-hand side is the hot path). */
static int cached_linear(st_compiled *cm, st_block *b) {
  int n = b->n;
  if (b->gen != cm->gen) {
    if (factor_frozen(cm, b)) return -1;
    b->gen = cm->gen;
  } else {
    for (int i = 0; i < n; i++) cm->r[i] = st_vm_eval(&cm->vm, &b->hot_res[i]);
  }
  st_linear_step(cm, b, cm->r);
  return 0;
}

/* x += J^-1 (-r) with the block's cached factors (current: cached_linear or a tape checked
 * b->gen). KLU's solve of factors that passed klu_factor fails only on bad arguments. */
void st_linear_step(st_compiled *cm, const st_block *b, const double *r) {
  int n = b->n;
  double *restrict dx = cm->dx, *restrict x = cm->x;
  const int *restrict slots = b->slots;
  if (b->sparse) {
    for (int i = 0; i < n; i++) dx[i] = -r[i];
    st_sparse_block_apply(b->sparse, dx);
  } else {
    sparse_apply(b, r, dx);
  }
  for (int i = 0; i < n; i++) x[slots[i]] += dx[i];
}

/* The magnitude of the terms of each residual at the iterate: |r_i| + sum_j |J_ij x_j|, from
 * the structural nonzeros (before the solve overwrites J). A residual is solved when it is
 * rounding of these terms (linear_solved). */
static void term_scales(st_compiled *cm, const st_block *b, const double *val) {
  int n = b->n;
  for (int i = 0; i < n; i++) cm->term_scale[i] = fabs(cm->r[i]);
  for (int j = 0; j < n; j++) {
    double xj = fabs(cm->x[b->slots[j]]);
    for (int q = b->jac_start[j]; q < b->jac_start[j + 1]; q++) {
      int i = b->jac_rows[q];
      cm->term_scale[i] += fabs(val ? val[q] : cm->J[i + (size_t)j * (size_t)n]) * xj;
    }
  }
}

/* After the one step of a linear block: each residual within 1e-9 (1 + r0) of the start's
 * largest r0, or rounding of its own terms. An event pass starting from the solution (the
 * frozen pass before it solved the same system) has r0 = rounding already: with unknowns of
 * 1e11 (the voltage kick of an interrupted inductor current in Machines' IMC_Transformer at
 * its switch-over) that is 1e-5, which no absolute bound accepts; an inconsistent singular
 * system (min-norm step) keeps residuals far above the rounding of its terms. */
static int linear_solved(st_compiled *cm, const st_block *b, double r0) {
  for (int i = 0; i < b->n; i++) {
    double r = fabs(st_vm_eval(&cm->vm, &b->res[i]));
    if (!(r <= 1e-9 * (1 + r0) || r <= 1e-12 * cm->term_scale[i])) return 0; /* NaN fails */
  }
  return 1;
}

static double residual_norm(st_compiled *cm, const st_block *b) {
  double m = 0;
  for (int i = 0; i < b->n; i++) {
    double r = fabs(st_vm_eval(&cm->vm, &b->res[i]));
    if (isnan(r)) return r; /* a NaN fails every test of the norm */
    if (r > m) m = r;
  }
  return m;
}

/* A singular Jacobian: a solution of the linearized residuals (minnorm.c). A consistent
 * singular system (two locked friction elements on one shaft) is solved; an inconsistent one
 * is caught by the residual checks below. Which of its solutions is taken decides the mode
 * logic that reads it (the break-away tests compare the locked elements' constraint torques
 * with their limits), so the metric is that of the unknowns the block's discrete equations
 * compare: among all solutions, the one where they have the least sum of squares (for two
 * elements locked on one motion, the minimum-norm split of the constraint torques). Measured
 * over all unknowns instead, the split would depend on how many helpers carry a torque
 * (flange torques, a gear's quadrant losses, what alias elimination leaves), and in
 * LossyGearDemo2 at t = 0.3083 it pushed the gear beyond its own limit, so both elements broke
 * away and the mixed system cycled. Without compared unknowns: the minimum-norm solution. A
 * block pinned by along_null_line takes the solution nearest its pin instead. */
static int singular_step(st_compiled *cm, const st_block *b) {
  int n = b->n;
  if (dense_room(cm, n)) return -1;
  residual_jacobian(cm, b, NULL);
  /* min-norm x_new of J x_new = J x - r, as a step dx = x_new - x */
  for (int i = 0; i < n; i++) {
    double jx = 0;
    for (int j = 0; j < n; j++) jx += cm->J[i + (size_t)j * (size_t)n] * cm->x[b->slots[j]];
    cm->dx[i] = jx - cm->r[i];
  }
  if (st_min_norm_solve_toward(cm->J, n, cm->dx, b->compared, b->pinned ? b->pin : NULL))
    return -1;
  for (int i = 0; i < n; i++) cm->dx[i] -= cm->x[b->slots[i]];
  return 0;
}

/* KLU's array of Jacobian values for a large sparse block (decided at its first solve), NULL
 * for a block solved by dense LU in cm->J. */
static double *klu_values(st_block *b) {
  if (!b->sparse_decided) {
    b->sparse_decided = 1;
    if (st_block_uses_klu(b)) b->sparse = st_sparse_block_new(b->n, b->jac_start, b->jac_rows);
  }
  return b->sparse ? st_sparse_block_values(b->sparse) : NULL;
}

/* J dx = -r for the current Newton iterate: KLU from its values for a large sparse block,
 * else dense LU (cm->J is overwritten by its factors or left as it was). */
int st_block_uses_klu(const st_block *b) {
  return b->jac_start && b->jac_rows && st_sparse_block_wanted(b->n, b->jac_start[b->n]);
}

static int block_lu_solve(st_compiled *cm, st_block *b, const double *val) {
  if (val) return st_sparse_block_solve(b->sparse, cm->dx);
  return st_dense_lu_solve(cm->J, b->n, cm->piv, cm->dx);
}

/* Damped Newton halves a step while the residual grows; undamped (damped = 0) it takes full
 * steps, which cross the kinks of a piecewise linear residual where the damped iteration
 * stalls (an op-amp's limiter with positive feedback, Analog's InvertingSchmittTrigger:
 * parked on the corner V0*v_in = Vps, no shorter step lowers the residual). -1 when it
 * fails, -2 when it stopped on a singular Jacobian with the residual not 0. */
static int newton(st_compiled *cm, st_block *b, int damped) {
  int n = b->n;
  /* a singular frozen system (two locked elements) falls through to the min-norm step */
  if (b->const_jac && !cm->vm.event_mode && cached_linear(cm, b) == 0) return 0;
  double *val = klu_values(b);
  if (!val && dense_room(cm, n)) return -1;
  if (val && b->const_jac) b->gen = -1; /* KLU's factors change: cached_linear refactors */
  for (int it = 0; it < 50; it++) {
    residual_jacobian(cm, b, val);
    double r0 = 0;
    for (int i = 0; i < n; i++) {
      if (fabs(cm->r[i]) > r0) r0 = fabs(cm->r[i]);
      cm->dx[i] = -cm->r[i];
    }
    if (b->linear) term_scales(cm, b, val);
    int singular = block_lu_solve(cm, b, val) != 0;
    if (singular && singular_step(cm, b)) return -1;
    double step = 0;
    for (int i = 0; i < n; i++) {
      cm->x0[i] = cm->x[b->slots[i]];
      cm->x[b->slots[i]] += cm->dx[i];
      double rel = fabs(cm->dx[i]) / (1 + fabs(cm->x0[i]));
      if (rel > step) step = rel;
    }
    /* a linear block is solved by one step; ill-conditioned (rcond 1e-8 in QuasiStatic
     * IMC_Transformer's 348-unknown switch-over) the rounding of that step may exceed
     * linear_solved's bound, and a second or third step refines it */
    if (b->linear) {
      if (linear_solved(cm, b, r0)) return 0; /* evaluated once: this is the hot path */
      if (it == 2) return -1;
      continue;
    }
    /* a vanishing step solves the system, unless the Jacobian was singular: the min-norm
     * step of an inconsistent one is 0 too (h*h = 4 from h = 0 stayed at 0, silently) */
    if (step < 1e-13) return !singular || residual_norm(cm, b) < 1e-8 ? 0 : -2;
    /* damping: halve the step while the residual grows */
    for (int k = 0; damped && k < 20 && !(residual_norm(cm, b) < r0 || r0 == 0); k++)
      for (int i = 0; i < n; i++) {
        cm->dx[i] *= 0.5;
        cm->x[b->slots[i]] = cm->x0[i] + cm->dx[i];
      }
    if (step < 1e-10 && residual_norm(cm, b) <= 1e-10 * (1 + r0)) return 0;
  }
  return residual_norm(cm, b) < 1e-8 ? 0 : -1;
}

/* A torn block (tearing.c): the assignments in order at the current tear values, then the
 * residuals in r; returns their largest magnitude (NaN when one is NaN). */
static double torn_residuals(st_compiled *cm, const st_block *b, double *r) {
  for (int s = 0; s < b->nseq; s++)
    cm->x[b->slots[b->seq_var[s]]] = st_vm_eval(&cm->vm, &b->seq[s]);
  double m = 0;
  int nan = 0;
  for (int k = 0; k < b->ntear; k++) {
    r[k] = st_vm_eval(&cm->vm, &b->res[b->tear_res[k]]);
    nan |= isnan(r[k]);
    if (fabs(r[k]) > m) m = fabs(r[k]);
  }
  return nan ? NAN : m;
}

/* The exact Jacobian of the torn residuals: per tear variable, its tangent carried through
 * the assignments it reaches (their tangents set in xd as they are computed), then the
 * residuals it reaches. Needs the assignments evaluated at the iterate (torn_residuals). */
static void torn_jacobian(st_compiled *cm, const st_block *b) {
  int m = b->ntear;
  memset(cm->J, 0, sizeof(double) * (size_t)(m * m));
  for (int k = 0; k < m; k++) {
    cm->xd[b->slots[b->tear[k]]] = 1;
    for (int q = b->tear_col[k]; q < b->tear_col[k + 1]; q++) {
      int it = b->tear_item[q];
      if (it >= 0) {
        double d = 0;
        st_vm_eval_dual(&cm->vm, &b->seq[it], &d);
        cm->xd[b->slots[b->seq_var[it]]] = d;
      } else {
        st_vm_eval_dual(&cm->vm, &b->res[b->tear_res[-1 - it]], &cm->J[(-1 - it) + k * m]);
      }
    }
    cm->xd[b->slots[b->tear[k]]] = 0;
    for (int q = b->tear_col[k]; q < b->tear_col[k + 1]; q++)
      if (b->tear_item[q] >= 0) cm->xd[b->slots[b->seq_var[b->tear_item[q]]]] = 0;
  }
}

/* Damped Newton over the tear variables, as newton() does over all unknowns. A residual or
 * an assignment that is not finite at an iterate (a division by zero in the sequence) fails
 * it: solve_real then runs the Newton over all unknowns from the values before. */
static int torn_newton(st_compiled *cm, const st_block *b) {
  int m = b->ntear;
  double rn = torn_residuals(cm, b, cm->r);
  for (int it = 0; it < 50; it++) {
    if (!isfinite(rn)) return -1;
    if (rn == 0) return 0;
    double r0 = rn;
    torn_jacobian(cm, b);
    for (int k = 0; k < m; k++) cm->dx[k] = -cm->r[k];
    if (st_dense_lu_solve(cm->J, m, cm->piv, cm->dx)) return -2;
    double step = 0;
    for (int k = 0; k < m; k++) {
      double *x = &cm->x[b->slots[b->tear[k]]];
      cm->x0[k] = *x;
      *x += cm->dx[k];
      double rel = fabs(cm->dx[k]) / (1 + fabs(cm->x0[k]));
      if (rel > step) step = rel;
    }
    rn = torn_residuals(cm, b, cm->r);
    if (step < 1e-13) return isfinite(rn) ? 0 : -1;
    for (int h = 0; h < 20 && !(rn < r0); h++) { /* damping: halve while it grows */
      for (int k = 0; k < m; k++) {
        cm->dx[k] *= 0.5;
        cm->x[b->slots[b->tear[k]]] = cm->x0[k] + cm->dx[k];
      }
      rn = torn_residuals(cm, b, cm->r);
    }
    if (step < 1e-10 && rn <= 1e-10 * (1 + r0)) return 0;
  }
  return rn < 1e-8 ? 0 : -1;
}

/* The residual of a block torn to one variable at tear value t. */
static double torn_residual_at(st_compiled *cm, const st_block *b, double t) {
  cm->x[b->slots[b->tear[0]]] = t;
  torn_residuals(cm, b, cm->r);
  return cm->r[0];
}

/* One tear variable whose Newton failed: a root bracketed by steps from t0 doubling outward
 * on both sides (the nearest sign change), then regula falsi with the Illinois rule. Newton
 * cycles where a piecewise linear residual has its root only beyond a kink (an op-amp limiter
 * with positive feedback switching to the other saturation, Analog's SchmittTrigger); a
 * sign change of a continuous residual always holds a root. 0 with the root set, -1 when no
 * sign change is found or the residual is not continuous there. */
static int torn_bracket(st_compiled *cm, const st_block *b, double t0) {
  double r0 = torn_residual_at(cm, b, t0);
  if (!isfinite(r0)) return -1;
  double a = t0, ra = r0, c = t0, rc = NAN;
  for (int k = 0; k < 64 && !(ra * rc < 0); k++) {
    double h = 1e-6 * (1 + fabs(t0)) * ldexp(1, k);
    for (int side = 0; side < 2 && !(ra * rc < 0); side++) {
      c = side ? t0 - h : t0 + h;
      rc = torn_residual_at(cm, b, c);
      if (!isfinite(rc)) rc = NAN;
    }
  }
  if (!(ra * rc < 0)) return -1;
  /* the bracket [a, c] shrinks to two neighbouring doubles at most */
  for (int it = 0, last = 0; it < 200 && fabs(c - a) > 4e-16 * fmax(fabs(a), fabs(c)); it++) {
    double m = (a * rc - c * ra) / (rc - ra);
    if (!(m > fmin(a, c) && m < fmax(a, c))) m = 0.5 * (a + c);
    double rm = torn_residual_at(cm, b, m);
    if (!isfinite(rm)) return -1;
    if (rm == 0) return 0;
    if (rm * rc < 0) { /* the root lies in [m, c]: a takes m */
      a = m, ra = rm;
      if (last == -1) rc *= 0.5; /* Illinois: c kept twice, its weight halved */
      last = -1;
    } else {
      c = m, rc = rm;
      if (last == 1) ra *= 0.5;
      last = 1;
    }
  }
  double t = fabs(ra) < fabs(rc) ? a : c;
  double rn = fabs(torn_residual_at(cm, b, t));
  return rn < 1e-8 ? 0 : -1;
}

/* How far the block's unknowns moved from cm->xsave, each relative to 1 + its size there. */
static double moved_from_start(const st_compiled *cm, const st_block *b) {
  double d = 0;
  for (int i = 0; i < b->n; i++)
    d = fmax(d, fabs(cm->x[b->slots[i]] - cm->xsave[i]) / (1 + fabs(cm->xsave[i])));
  return d;
}

/* A Newton that stopped on a singular Jacobian with the residual not 0 (a stationary point:
 * dp = k*m_flow*|m_flow| from m_flow = 0, whose slope is 0 there) starts again beside the
 * values before (cm->xsave; torn: the tear variables moved, the rest follows), on both
 * sides: off the point the slope leads to a root. When both sides find one (an abrupt
 * expansion has a root for either flow direction), the one nearer the values before is
 * kept, the one the start values select. 0 when a side converged. */
static int beside_start(st_compiled *cm, st_block *b, int torn) {
  double *first = NULL, d_first = INFINITY;
  for (int side = 1; side >= -1; side -= 2) {
    for (int i = 0; i < b->n; i++) {
      int move = !torn;
      for (int k = 0; torn && k < b->ntear; k++) move |= b->tear[k] == i;
      double x0 = cm->xsave[i];
      cm->x[b->slots[i]] = move ? x0 + side * 1e-3 * (1 + fabs(x0)) : x0;
    }
    if ((torn ? torn_newton(cm, b) : newton(cm, b, 1)) != 0) continue;
    double d = moved_from_start(cm, b);
    if (!first && (first = malloc(sizeof(double) * (size_t)b->n))) {
      for (int i = 0; i < b->n; i++) first[i] = cm->x[b->slots[i]];
      d_first = d;
      continue;
    }
    if (first && d >= d_first)
      for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = first[i];
    free(first);
    return 0;
  }
  if (!first) return -1;
  for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = first[i];
  free(first);
  return 0;
}

/* A torn block first iterates over its tear variables (one tear variable: a bracketed root
 * when Newton fails); when that fails, the Newton over all unknowns starts from the values
 * the block had before. */
static int torn_solve(st_compiled *cm, st_block *b) {
  for (int i = 0; i < b->n; i++) cm->xsave[i] = cm->x[b->slots[i]];
  int rc = torn_newton(cm, b);
  if (rc == 0) return 0;
  if (rc == -2 && beside_start(cm, b, 1) == 0) return 0;
  if (b->ntear == 1 && torn_bracket(cm, b, cm->xsave[b->tear[0]]) == 0) return 0;
  for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = cm->xsave[i];
  return -1;
}

/* A nonlinear block starts its Newton from its solution at the latest time not after t
 * (when the last solve was at a later time: a trial point of the integrator further ahead,
 * rejected). The solution there may lie on another branch -- an op-amp with positive
 * feedback has two saturated solutions between its thresholds -- and the shorter step that
 * follows would stay on it: Analog's Multivibrator flipped before its capacitor reached the
 * threshold. OpenModelica likewise starts from the values of the accepted steps. */
static void seed_from_past(st_compiled *cm, st_block *b) {
  if (!b->nseed) return;
  double t = cm->vm.time;
  for (int k = 1; k <= b->nseed; k++) {
    int e = (b->seed_head + ST_SEEDS - k) % ST_SEEDS;
    if (b->seed_t[e] > t) continue;
    if (k > 1)
      for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = b->seed[e * b->n + i];
    return;
  }
}

static void seed_record(st_compiled *cm, st_block *b) {
  if (!b->seed) return;
  int last = (b->seed_head + ST_SEEDS - 1) % ST_SEEDS, e = last;
  if (!b->nseed || b->seed_t[last] != cm->vm.time) {
    e = b->seed_head;
    b->seed_head = (e + 1) % ST_SEEDS;
    if (b->nseed < ST_SEEDS) b->nseed++;
  }
  b->seed_t[e] = cm->vm.time;
  for (int i = 0; i < b->n; i++) b->seed[e * b->n + i] = cm->x[b->slots[i]];
}

void st_forget_seeds(st_compiled *cm) {
  for (int k = 0; k < cm->nblocks; k++) cm->blocks[k].nseed = cm->blocks[k].seed_head = 0;
}

static int solve_nonlinear(st_compiled *cm, st_block *b);

static int solve_real(st_compiled *cm, st_block *b) {
  if (b->kind == BK_ASSIGN) {
    cm->x[b->slots[0]] = st_vm_eval(&cm->vm, cm->vm.event_mode ? &b->assign : b->hot_assign);
    return 0;
  }
  if (!b->seed) return solve_nonlinear(cm, b);
  seed_from_past(cm, b);
  if (solve_nonlinear(cm, b)) return -1;
  seed_record(cm, b);
  return 0;
}

/* A torn block whose Newton over all unknowns failed from the values it had before: the
 * point its assignments give at the tear variables' values before, where all of them hold
 * but the tear residuals. A start value of 0 that the assignments would have replaced (a
 * pump's efficiency eta = 0 in W = dp*V/eta) made the residual 0/0 there, while the torn
 * Newton failed on a singular Jacobian (at zero flow a massless pump's energy balance does
 * not see its enthalpy). 1 when the point evaluates, else 0 with the values before. */
static int sequence_start(st_compiled *cm, const st_block *b) {
  if (!b->ntear) return 0;
  for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = cm->xsave[i];
  if (isfinite(torn_residuals(cm, b, cm->r))) return 1;
  for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = cm->xsave[i];
  return 0;
}

/* Newton over all unknowns from the values before: damped, then undamped from where that
 * stopped; for a torn block then from the point of its assignments (sequence_start); when
 * one of them stalled on a singular Jacobian, from beside the start (beside_start). */
static int untorn_newton(st_compiled *cm, st_block *b) {
  int rc = newton(cm, b, 1), stalled = rc == -2;
  if (rc && !b->linear) stalled |= (rc = newton(cm, b, 0)) == -2;
  if (rc && sequence_start(cm, b)) stalled |= (rc = newton(cm, b, 1)) == -2;
  if (rc && stalled) rc = beside_start(cm, b, 0);
  return rc;
}

static int solve_nonlinear(st_compiled *cm, st_block *b) {
  if (b->ntear && torn_solve(cm, b) == 0) return 0;
  for (int i = 0; i < b->n; i++) cm->xsave[i] = cm->x[b->slots[i]];
  /* a failed damped Newton goes on undamped from where it stopped */
  if (untorn_newton(cm, b)) {
    /* the next call (a shorter step) starts from where this one did, not from the
     * iterate that went astray */
    for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = cm->xsave[i];
    cm->error_loc = cm->p.eqs[b->eqs[0]].loc;
    st_set_error(cm, "%s system for %s%s has no solution at time %.17g",
             b->linear ? "linear" : "nonlinear", cm->p.slots[b->slots[0]].name,
             b->n > 1 ? ", ..." : "", cm->vm.time);
    return -1;
  }
  return 0;
}

/* One Gauss-Seidel sweep over the discrete assignments; returns how many changed. */
static int discrete_sweep(st_compiled *cm, const st_block *b) {
  int changed = 0;
  for (int i = 0; i < b->nd; i++) {
    double v = st_vm_eval(&cm->vm, &b->dexpr[i]);
    if (cm->p.slots[b->dslots[i]].is_bool) v = v != 0;
    if (v != cm->x[b->dslots[i]]) changed++;
    cm->x[b->dslots[i]] = v;
  }
  return changed;
}

/* 1 + the history row equal to the current discrete vector, or 0 */
static int seen_before(const st_compiled *cm, const st_block *b, int nhist) {
  for (int h = 0; h < nhist; h++) {
    const double *v = cm->hist + (size_t)h * (size_t)b->nd;
    int same = 1;
    for (int i = 0; i < b->nd && same; i++) same = v[i] == cm->x[b->dslots[i]];
    if (same) return h + 1;
  }
  return 0;
}

static int row_is_pre(const st_compiled *cm, const st_block *b, int h) {
  const double *v = cm->hist + (size_t)h * (size_t)b->nd;
  for (int i = 0; i < b->nd; i++)
    if (v[i] != cm->pre[b->dslots[i]]) return 0;
  return 1;
}

static void remember(st_compiled *cm, const st_block *b, int h) {
  for (int i = 0; i < b->nd; i++) cm->hist[(size_t)h * (size_t)b->nd + (size_t)i] = cm->x[b->dslots[i]];
}

/* Restores the discrete vector saved in history row h. */
static void recall(st_compiled *cm, const st_block *b, int h) {
  for (int i = 0; i < b->nd; i++) cm->x[b->dslots[i]] = cm->hist[(size_t)h * (size_t)b->nd + (size_t)i];
}

/* The discrete vector of history row 0 reproduces itself at the real values now held. */
static int reproduces(st_compiled *cm, const st_block *b) {
  discrete_sweep(cm, b);
  if (seen_before(cm, b, 1)) return 1;
  recall(cm, b, 0);
  return 0;
}

/* A singular real part has a line of solutions; the least compared values that singular_step
 * takes may lie on the side of a comparison that rejects the discrete vector (row 0) while
 * other points of the line accept it. Two tanks whose overflow ports are both closed leave the
 * pressure in the pipe between them undetermined (Fluid's TanksWithOverflow): the least
 * values put one port's s above zero, which opens it, and opened it has no flow, so s = 0
 * closes it again, while any pressure below ambient keeps both closed. Along the null
 * direction v of the Jacobian at the solution x, each compared unknown crosses zero at one
 * point; just beside each crossing, nearest first, the block is solved again pinned there
 * (singular_step moves to the solution nearest the pin) and kept when the vector reproduces
 * itself. The pin stays for the solves until the next exhaustive search. */
static int along_null_line(st_compiled *cm, st_block *b) {
  int n = b->n, found = 0;
  double *xs = malloc(sizeof(double) * 2 * (size_t)n), *v = xs + n;
  if (!xs) return -1;
  for (int i = 0; i < n; i++) xs[i] = cm->x[b->slots[i]];
  if (dense_room(cm, n)) n = 0; /* nothing to search */
  else residual_jacobian(cm, b, NULL);
  if (n && !st_null_direction(cm->J, n, v)) n = 0;
  double tried = 0; /* |t| of the candidates tried so far: nearest first */
  for (int round = 0; round < 2 * n && !found; round++) {
    double best = INFINITY;
    for (int j = 0; j < n; j++) {
      if (!b->compared[j] || fabs(v[j]) < 1e-9) continue;
      for (int side = -1; side <= 1; side += 2) {
        double t = (side * 1e-6 * fmax(fabs(xs[j]), 1e-9) - xs[j]) / v[j];
        if (fabs(t) > tried && fabs(t) < fabs(best)) best = t;
      }
    }
    if (!isfinite(best)) break;
    tried = fabs(best);
    for (int i = 0; i < n; i++) b->pin[i] = cm->x[b->slots[i]] = xs[i] + best * v[i];
    b->pinned = 1;
    found = solve_real(cm, b) == 0 && reproduces(cm, b);
  }
  if (!found) {
    b->pinned = 0;
    for (int i = 0; i < b->n; i++) cm->x[b->slots[i]] = xs[i];
  }
  free(xs);
  return found ? 0 : -1;
}

/* All 2^nd combinations of Boolean unknowns: accept the first that reproduces itself; failing
 * that, the first whose singular real part has a solution that reproduces it. */
static int exhaustive(st_compiled *cm, st_block *b) {
  for (int i = 0; i < b->nd; i++)
    if (!cm->p.slots[b->dslots[i]].is_bool) return -1;
  if (b->nd > 12) return -1;
  b->pinned = 0;
  unsigned char solved[1 << 12]; /* the vectors whose real part solved in the first pass */
  for (int pass = 0; pass < (b->pin ? 2 : 1); pass++)
    for (long mask = 0; mask < (1L << b->nd); mask++) {
      if (pass == 1 && !solved[mask]) continue;
      for (int i = 0; i < b->nd; i++) cm->x[b->dslots[i]] = (double)((mask >> i) & 1);
      solved[mask] = !(b->n && solve_real(cm, b));
      if (!solved[mask]) continue;
      remember(cm, b, 0);
      if (reproduces(cm, b) || (pass == 1 && along_null_line(cm, b) == 0)) return 0;
    }
  return -1;
}

static void report_inconsistent(st_compiled *cm, const st_block *b) {
  cm->error_loc = cm->p.eqs[b->deqs[0]].loc;
  st_set_error(cm, "mixed system has no consistent solution at time %.17g: ", cm->vm.time);
  for (int i = 0; i < b->nd + b->n; i++)
    st_set_error(cm, "%s%s%s", cm->error ? cm->error : "", i ? ", " : "",
                 cm->p.slots[i < b->nd ? b->dslots[i] : b->slots[i - b->nd]].name);
}


/* Inside an event iteration a fixed point that cycles is not fatal (MSL issue #1741;
 * doc/compiler.md, mixed systems): the last discrete vector the sweep produced is kept, the
 * real part is solved for it, and the next pass of the event iteration (with pre() updated)
 * decides. LossyGearDemo2 at t = 0.0636: the bearing's break-away test sa > tau0_max sits
 * exactly on its threshold once the gear locks, so within one pass it alternates; with
 * pre(mode) = Forward in the next pass it settles. st_event_update reports the error if the
 * pass changed no discrete value (the next pass would repeat this one). */
static int accept_unsettled(st_compiled *cm, st_block *b, int row) {
  recall(cm, b, row);
  if (b->n && solve_real(cm, b)) return -1;
  report_inconsistent(cm, b);
  cm->mixed_unsettled++;
  return 0;
}

/* Which vector of a cycle the event iteration goes on with (row `to` of the history): the
 * latest, unless it is the pass's pre() vector — the next pass would then repeat this one —
 * and another member of the cycle changes something. Rotational.HeatLosses at t = 0.5305: a
 * one-way clutch alternates between locked (its lock torque exceeds the break-away limit) and
 * starting forward (sliding, sa falls below that limit); kept locked the next pass repeats,
 * kept starting, pre(startForward) lowers the limit to tau0 and the pass after it settles. */
static void keep_from_cycle(st_compiled *cm, const st_block *b, int first, int last, int to) {
  remember(cm, b, to);
  if (!row_is_pre(cm, b, to))
    return;
  for (int h = last; h > first; h--)
    if (!row_is_pre(cm, b, h)) {
      memcpy(cm->hist + (size_t)to * (size_t)b->nd, cm->hist + (size_t)h * (size_t)b->nd,
             (size_t)b->nd * sizeof *cm->hist);
      return;
    }
}

static int fixed_point(st_compiled *cm, st_block *b) {
  int maxit = 2 * b->nd + 10;
  for (int it = 0; it < maxit; it++) {
    if (b->n && solve_real(cm, b)) break;
    remember(cm, b, it);
    int changed = discrete_sweep(cm, b);
    if (it + 1 > cm->mixed_iter_max) cm->mixed_iter_max = it + 1;
    if (!changed) return 0;
    int first = seen_before(cm, b, it + 1) - 1; /* the cycle is rows first..it */
    if (first >= 0) {
      if (!cm->lenient_mixed) break;
      keep_from_cycle(cm, b, first, it, maxit);
      if (exhaustive(cm, b) == 0) return 0;
      return accept_unsettled(cm, b, maxit);
    }
  }
  if (exhaustive(cm, b) == 0) return 0;
  report_inconsistent(cm, b);
  return -1;
}

/* DAE form (dae.c): the block's residuals at the algebraic values IDA holds, no solve. */
static void dae_residuals(st_compiled *cm, const st_block *b) {
  for (int i = 0; i < b->n; i++) cm->dae_r[b->dae_off + i] = st_vm_eval(&cm->vm, &b->hot_res[i]);
}

/* The initial system solved jointly (init.c solve_joint): the residuals of a nonlinear
 * block at its unknowns' current values, no solve. */
static int is_joint(const st_compiled *cm, const st_block *b) {
  return cm->joint_r && b->joint;
}

/* joint_probe: a nonlinear block that does not solve is marked, the others go on from its
 * unknowns' current values. A mixed block whose nonlinear real part does not solve joins too,
 * its discrete values held; st_eval_blocks_initial then settles them by its fixed point from
 * the joint solution (Fluid NonCircularPipes: a pipe's outflow enthalpy at p = 0). */
static int probe_block(st_block *b) {
  if (!(b->kind == BK_SOLVE || b->kind == BK_MIXED) || b->linear || b->n <= 0) return -1;
  b->joint = 1;
  return 0;
}

static void joint_residuals(st_compiled *cm, const st_block *b) {
  for (int i = 0; i < b->n; i++) cm->joint_r[cm->joint_pos++] = st_vm_eval(&cm->vm, &b->res[i]);
}

int st_joint_unknowns(const st_compiled *cm, int *slots) {
  int n = 0;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    if (!b->joint) continue;
    for (int i = 0; slots && i < b->n; i++) slots[n + i] = b->slots[i];
    n += b->n;
  }
  return n;
}

int st_joint_discrete_sweep(st_compiled *cm) {
  int changed = 0;
  cm->vm.event_mode = 1;
  cm->gen++; /* relations read the joint solution */
  for (int k = 0; k < cm->nblocks; k++)
    if (cm->blocks[k].joint && cm->blocks[k].kind == BK_MIXED)
      changed += discrete_sweep(cm, &cm->blocks[k]);
  return changed;
}

static int eval_block(st_compiled *cm, st_block *b, int event_mode) {
  if (cm->dae && !event_mode && b->dae_off >= 0) {
    dae_residuals(cm, b);
    return 0;
  }
  if (!event_mode && !b->varying) return 0; /* values of the last event pass hold */
  if (event_mode && is_joint(cm, b)) { /* the initial system only: off the continuous path */
    joint_residuals(cm, b);
    return 0;
  }
  if (b->kind == BK_ALGORITHM) return st_run_algorithm(cm, b->alg);
  if (b->kind == BK_ASSIGN || b->kind == BK_SOLVE) return solve_real(cm, b);
  if (!event_mode) return b->n ? solve_real(cm, b) : 0; /* discretes frozen */
  return fixed_point(cm, b);
}

int st_eval_block_event(st_compiled *cm, int k) {
  return eval_block(cm, &cm->blocks[k], 1);
}

int st_eval_blocks(st_compiled *cm, int event_mode) {
  cm->vm.event_mode = event_mode;
  if (event_mode) cm->gen++; /* discrete values and relations may change */
  else st_spec_refresh(cm); /* they are frozen until the next */
  if (!event_mode && st_tape_run_all(cm) == 0) return 0;
  if (event_mode) cm->block_evals += cm->nblocks;
  for (int k = 0; k < cm->nblocks; k++)
    if (eval_block(cm, &cm->blocks[k], event_mode) &&
        (!cm->joint_probe || probe_block(&cm->blocks[k])))
      return -1;
  st_sync_aliases(cm);
  return 0;
}

int st_eval_blocks_initial(st_compiled *cm) {
  int nwc = cm->p.nwc > 0 ? cm->p.nwc : 1, rc = 0;
  int *block_of = malloc((size_t)(cm->p.nslots + 1) * sizeof *block_of);
  unsigned char *pending = malloc((size_t)nwc);
  if (!block_of || !pending) {
    free(block_of);
    free(pending);
    return -1;
  }
  for (int s = 0; s < cm->p.nslots; s++) block_of[s] = -1;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    for (int i = 0; i < b->n; i++) block_of[b->slots[i]] = k;
    for (int i = 0; i < b->nd; i++) block_of[b->dslots[i]] = k;
  }
  for (int w = 0; w < cm->p.nwhens; w++)
    for (int i = 0; i < cm->p.whens[w].nbranches; i++)
      pending[cm->p.whens[w].wc + i] = (unsigned char)cm->p.whens[w].branches[i].has_initial;
  cm->vm.event_mode = 1;
  cm->gen++;
  for (int k = 0; k < cm->nblocks && !rc; k++) {
    st_initial_whens_before(cm, block_of, k, pending);
    rc = eval_block(cm, &cm->blocks[k], 1);
  }
  if (!rc) st_sync_aliases(cm);
  free(block_of);
  free(pending);
  return rc ? -1 : 0;
}

/* A discrete variable given by sample() (Blocks.Discrete's sampleTrigger = sample(...)) holds
 * the true of its last instant until the next event evaluates it; its left limit there is
 * false (sample() is false between its instants), else `when sampleTrigger` finds pre() true
 * and never fires again once no other event falls between two instants (a zero-order hold
 * in PowerConverters' SignalPWM froze its duty cycle). Recomputes those variables with
 * relations held and sample() false, before pre() is taken at a new event instant. */
void st_discrete_left_limits(st_compiled *cm) {
  int mode = cm->vm.event_mode;
  cm->vm.event_mode = cm->vm.left_limit = 1;
  for (int k = 0; k < cm->nblocks; k++) {
    const st_block *b = &cm->blocks[k];
    if (b->kind == BK_DISCRETE && b->n == 0 && b->samples) discrete_sweep(cm, b);
  }
  cm->vm.left_limit = 0;
  cm->vm.event_mode = mode;
}

int st_eval_slice(st_compiled *cm, const unsigned char *need) {
  cm->vm.event_mode = 0;
  for (int k = 0; k < cm->nblocks; k++)
    if (need[k] && eval_block(cm, &cm->blocks[k], 0)) return -1;
  st_sync_aliases(cm);
  return 0;
}
