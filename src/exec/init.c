/* Initialization: parameters, start values, and the initial system (initial equations for
 * the states whose start value is not fixed), solved by Newton from the start values with
 * initial() true. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "util/dense_lu.h"

void st_apply_parameters(st_compiled *cm) {
  cm->vm.event_mode = 0;
  for (int k = 0; k < cm->p.nparams; k++) {
    int i = cm->p.param_order[k];
    if (!cm->param_overridden[i] && cm->p.param_prog[i].n)
      cm->x[i] = st_vm_eval(&cm->vm, &cm->p.param_prog[i]);
  }
  st_eval_consts(cm);
}

static void apply_starts(st_compiled *cm) {
  for (int s = 0; s < cm->p.nslots; s++) {
    st_kind k = cm->p.slots[s].kind;
    if (k == K_PARAM || k == K_ALIAS || k == K_CONST) continue;
    double v = cm->p.start_prog[s].n ? st_vm_eval(&cm->vm, &cm->p.start_prog[s]) : 0;
    if (cm->start_set && cm->start_set[s]) v = cm->start_value[s]; /* st_instance_set_start */
    cm->x[s] = cm->p.slots[s].is_bool ? v != 0 : v;
  }
}

static int is_free_state(const st_compiled *cm, int i) {
  int s = cm->p.state_slot[i];
  return !cm->p.slots[s].fixed; /* alias elimination may have moved a fixed start here */
}

/* Continuous variables with fixed = true that index reduction did not keep as states (J2.w
 * of two inertias joined by a clutch whose w_rel was preferred): their start values become
 * initial equations `v = start` that determine the free states (Modelica 3.6 section 8.6). */
typedef struct fixed_algebraics {
  int n;
  int *slot;
  double *start;
} fixed_algebraics;

static int is_fixed_algebraic(const st_compiled *cm, int s) {
  if (!cm->p.slots[s].fixed) return 0;
  /* a derivative slot carries the fixed start of its alias: Inertia's a(fixed = true) is
   * der(w) = start, a steady state (Blocks.Examples.PID_Controller) */
  if (cm->p.slots[s].kind == K_DER) return 1;
  return s < cm->p.flat->nvars && cm->p.slots[s].kind == K_ALG &&
         cm->p.flat->vars[s].variability == ST_V_CONTINUOUS;
}

/* Collects them with their start values (cm->x holds the start values when called). */
static int collect_fixed_algebraics(const st_compiled *cm, fixed_algebraics *fa) {
  int n = 0;
  for (int s = 0; s < cm->p.nslots; s++) n += is_fixed_algebraic(cm, s);
  fa->n = 0;
  fa->slot = malloc(sizeof(int) * (size_t)(n + 1));
  fa->start = malloc(sizeof(double) * (size_t)(n + 1));
  if (!fa->slot || !fa->start) return -1;
  for (int s = 0; s < cm->p.nslots; s++)
    if (is_fixed_algebraic(cm, s)) {
      fa->slot[fa->n] = s;
      fa->start[fa->n++] = cm->x[s];
    }
  return 0;
}

static int initial_residuals(st_compiled *cm, const fixed_algebraics *fa, double *r) {
  if (cm->joint_r) { /* solve_joint: the nonlinear blocks' residuals follow */
    cm->joint_r = r + cm->p.ninit + (fa ? fa->n : 0);
    cm->joint_pos = 0;
  }
  if (st_eval_blocks(cm, 1)) return -1;
  for (int i = 0; i < cm->p.ninit; i++) r[i] = st_vm_eval(&cm->vm, &cm->p.init_res[i]);
  for (int k = 0; fa && k < fa->n; k++) r[cm->p.ninit + k] = cm->x[fa->slot[k]] - fa->start[k];
  return 0;
}

/* NaN when any entry is: a residual that does not evaluate is not small. */
static double max_abs(const double *v, int n) {
  double m = 0;
  for (int i = 0; i < n; i++) {
    if (isnan(v[i])) return NAN;
    if (fabs(v[i]) > m) m = fabs(v[i]);
  }
  return m;
}

/* The rows that depend on one unknown alone at the current point (a fixed start of a speed
 * that fixes a state, w = w0) take a scalar Newton step of their own, the others wait: the
 * rest is then often linear (a machine's currents at the speed w0), where the joint damped
 * step from w = 0 stalled on the products of speed and current (MSL IMC_DCBraking's steady
 * state der(i) = 0 at w0). Returns 1 when it moved something. */
static int singleton_step(st_compiled *cm, const double *J, const double *r, const int *unk, int n,
                          unsigned char *done) {
  int moved = 0;
  for (int i = 0; i < n; i++) {
    int j1 = -1, count = 0;
    for (int j = 0; j < n && count < 2; j++)
      if (J[i + j * n] != 0) { j1 = j; count++; }
    if (count != 1 || !(fabs(r[i]) >= 1e-10) || !isfinite(J[i + j1 * n])) continue;
    double step = r[i] / J[i + j1 * n];
    if (done[j1] || !isfinite(step)) continue; /* another row of this unknown moved it */
    cm->x[unk[j1]] -= step;
    done[j1] = 1;
    moved = 1;
  }
  memset(done, 0, (size_t)n);
  return moved;
}

/* Whether explicit_initial_states sets slot s: a free state, or with algebraics (solve_joint)
 * also an algebraic variable, which the joint system then starts from. */
static int settable(const st_compiled *cm, int s, int algebraics) {
  if (s < 0) return 0;
  if (cm->p.slots[s].kind == K_STATE) return is_free_state(cm, cm->p.slots[s].state);
  for (int k = 0; k < cm->p.ninit_params; k++)
    if (cm->p.init_params[k] == s) return 1;
  return algebraics && cm->p.slots[s].kind == K_ALG;
}

/* An initial equation `x = e` of a free state x and an expression of parameters sets x
 * before anything is evaluated: the blocks then start from it, not from x's start value
 * (HeatingNPN_NORGate's HeatCapacitor1.T = 293.15; at the default 0 K its transistors'
 * equations have no solution). Newton finds these residuals 0. */
static int explicit_initial_pass(st_compiled *cm, int algebraics) {
  int moved = 0;
  for (int e = 0; e < cm->p.ninit; e++) {
    const st_ceq *q = &cm->p.init_eqs[e];
    double sign = 1;
    const st_fexpr *other = q->rhs;
    int s = q->lhs->kind == FX_VAR ? st_resolve_ref(cm, q->lhs, &sign) : -1;
    if (!settable(cm, s, algebraics)) {
      other = q->lhs;
      s = q->rhs->kind == FX_VAR ? st_resolve_ref(cm, q->rhs, &sign) : -1;
    }
    if (!settable(cm, s, algebraics) ||
        (st_expr_deps(cm, other) & (DEP_TIME | DEP_CONT | DEP_DISC)))
      continue;
    double r = st_vm_eval(&cm->vm, &cm->p.init_res[e]); /* sign x - e, or e - sign x */
    if (isfinite(r) && r != 0) cm->x[s] -= (other == q->rhs ? r : -r) * sign, moved++;
  }
  return moved;
}

/* A parameter with fixed = false may be given by another one (Fluid's pipe flow models:
 * dp_small = system.dp_small, then dp_nominal = 1e3*dp_small), so the pass is repeated
 * while it moves something, at most once per such parameter more. */
static void explicit_initial_states(st_compiled *cm, int algebraics) {
  for (int pass = 0; pass <= cm->p.ninit_params; pass++)
    if (!explicit_initial_pass(cm, algebraics)) break;
}

/* Union-find root of node k (rows 0..n-1, columns n..2n-1 of a Jacobian). */
static int uf_root(int *parent, int k) {
  while (parent[k] != k) k = parent[k] = parent[parent[k]];
  return k;
}

/* Keeps the Newton step 0 for the unknowns of decoupled parts of the Jacobian whose
 * residuals are already 0: J and dx are compressed to the other rows and columns, in
 * place. A part whose equations hold stays where its start values put it, as when the
 * system is solved block by block; in one joint step a nearly flat column of such a part
 * (a hysteresis model's initialization variable, whose residual is cubic at its start)
 * took a huge step to a false root. Returns the size of the compressed system (n when
 * nothing is left out). */
static int drop_settled_parts(double *J, double *dx, const double *r, int n, int *keep) {
  int *parent = keep + n, *rowkeep = parent + 2 * n, *busy = rowkeep + n, m = 0, mr = 0;
  for (int k = 0; k < 2 * n; k++) parent[k] = k, busy[k] = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if (J[i + j * n] != 0) parent[uf_root(parent, i)] = uf_root(parent, n + j);
  for (int i = 0; i < n; i++)
    if (!(fabs(r[i]) < 1e-10)) busy[uf_root(parent, i)] = 1;
  for (int j = 0; j < n; j++) m += keep[j] = busy[uf_root(parent, n + j)];
  for (int i = 0; i < n; i++) mr += rowkeep[i] = busy[uf_root(parent, i)];
  if (m == n || m != mr || m == 0) return n; /* not square: the joint step decides */
  for (int j = 0, jj = 0; j < n; j++) {
    if (!keep[j]) continue;
    for (int i = 0, ii = 0; i < n; i++)
      if (rowkeep[i]) J[ii++ + jj * m] = J[i + j * n];
    jj++;
  }
  for (int i = 0, ii = 0; i < n; i++)
    if (rowkeep[i]) dx[ii++] = dx[i];
  return m;
}

/* dx of the compressed system back to all n unknowns, 0 for those left where they are. */
static void expand_step(double *dx, const int *keep, int n, int m) {
  for (int j = n - 1, k = m - 1; j >= 0; j--) dx[j] = keep[j] ? dx[k--] : 0;
}

/* Whether every residual is below 1e-10 of the size of its row's terms, sum over j of
 * |dr_i/dx_j| * max(1, |x_j|): a motor's der(i) = (u - R i)/L is in A/s with L of 1e-3 H,
 * and its last bits of 1e-10 are not reached where a friction's kink halves the steps. */
static int scaled_small(const double *J, const double *r, const double *x, const int *unk,
                        int n) {
  for (int i = 0; i < n; i++) {
    double size = 1;
    for (int j = 0; j < n; j++) size += fabs(J[i + j * n]) * fmax(1, fabs(x[unk[j]]));
    if (!(fabs(r[i]) <= 1e-10 * size)) return 0;
  }
  return 1;
}

/* Unknowns that the solve moved by rounding alone (1e-22 for a shaft speed whose equations
 * held at its start value 0, moved only through the LU of a system it shares with the motor
 * currents) go back to their start values when the residuals stay as small: a block-by-block
 * solve leaves them there, and a relation at initialization (`initial() and w_relfric < 0`
 * of a friction at rest) then takes the start value, not the sign of the noise. */
static void snap_to_starts(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n,
                           const double *x0, double *r, double *moved) {
  int any = 0;
  if (initial_residuals(cm, fa, r)) return;
  double before = max_abs(r, n);
  for (int j = 0; j < n; j++) {
    double *xj = &cm->x[unk[j]];
    moved[j] = *xj;
    if (*xj != x0[j] && fabs(*xj - x0[j]) <= 1e-13 * fmax(1, fabs(x0[j]))) *xj = x0[j], any = 1;
  }
  if (!any) return;
  if (!initial_residuals(cm, fa, r) && max_abs(r, n) <= fmax(1e-10, 2 * before)) return;
  for (int j = 0; j < n; j++) cm->x[unk[j]] = moved[j];
  initial_residuals(cm, fa, r);
}

/* Newton with a difference-quotient Jacobian (it runs once per simulation); with
 * singletons, the single-unknown rows take their own steps first (singleton_step). A
 * singular Jacobian takes the minimum-norm step that ends nearest the point the solve
 * started from: a friction locked at rest makes the acceleration a_start = 0 of its shaft
 * hold by itself and leaves the steady-state motor current undetermined (MSL RobotR3). */
static int solve_initial(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n,
                         int singletons) {
  double *J = malloc(sizeof(double) * (size_t)(2 * n * n + 6 * n + 1));
  size_t bytes = (size_t)cm->p.nslots * sizeof *cm->x;
  double *base = malloc(bytes + sizeof(double));
  int64_t *piv = malloc(sizeof(int64_t) * (size_t)(n + 1));
  unsigned char *done = calloc((size_t)n + 1, 1), *sel_all = malloc((size_t)n + 1);
  int *keep = malloc(sizeof(int) * (size_t)(6 * n + 1));
  if (!J || !piv || !done || !keep || !sel_all || !base) {
    free(J); free(piv); free(done); free(keep); free(sel_all); free(base);
    return -1;
  }
  memset(sel_all, 1, (size_t)n);
  double *r = J + n * n, *r1 = r + n, *dx = r1 + n, *Jc = dx + n, *dxc = Jc + n * n,
         *x0 = dxc + n, *toward = x0 + n;
  for (int j = 0; j < n; j++) x0[j] = cm->x[unk[j]];
  int rc = -1;
  cm->init_eval_failed = 0;
  for (int it = 0; it < 100; it++) {
    if (initial_residuals(cm, fa, r)) {
      cm->init_eval_failed = it == 0; /* not even the start values evaluate */
      break;
    }
    double rn = max_abs(r, n);
    if (rn < 1e-10) { rc = 0; break; }
    memcpy(base, cm->x, bytes);
    for (int j = 0; j < n; j++) {
      double save = cm->x[unk[j]], h = 1e-7 * (1 + fabs(save));
      cm->x[unk[j]] = save + h;
      if (initial_residuals(cm, fa, r1)) { /* the other side, the domain may end here */
        memcpy(cm->x, base, bytes);
        h = -h;
        cm->x[unk[j]] = save + h;
        if (initial_residuals(cm, fa, r1))
          for (int i = 0; i < n; i++) r1[i] = r[i];
      }
      for (int i = 0; i < n; i++) J[i + j * n] = (r1[i] - r[i]) / h;
      memcpy(cm->x, base, bytes); /* each column from the blocks' solution at the iterate */
    }
    int small = scaled_small(J, r, cm->x, unk, n); /* before LU overwrites J */
    if (singletons && it < 10 && (singletons = singleton_step(cm, J, r, unk, n, done))) continue;
    singletons = 0;
    for (int i = 0; i < n; i++) dx[i] = -r[i];
    int m = drop_settled_parts(J, dx, r, n, keep);
    memcpy(Jc, J, sizeof(double) * (size_t)(m * m));
    memcpy(dxc, dx, sizeof(double) * (size_t)m);
    if (st_dense_lu_solve(J, m, piv, dx)) { /* singular: the minimum-norm step */
      memcpy(dx, dxc, sizeof(double) * (size_t)m);
      for (int j = 0, k = 0; j < n; j++)
        if (m == n || keep[j]) toward[k++] = x0[j] - cm->x[unk[j]];
      if (st_min_norm_solve_toward(Jc, m, dx, sel_all, toward)) break;
    }
    if (m < n) expand_step(dx, keep, n, m);
    double lambda = 1;
    for (int k = 0; k < 30; k++, lambda *= 0.5) {
      memcpy(cm->x, base, bytes);
      for (int j = 0; j < n; j++) cm->x[unk[j]] += lambda * dx[j];
      if (!initial_residuals(cm, fa, r1) && max_abs(r1, n) < rn) break;
      memcpy(cm->x, base, bytes);
    }
    if (lambda < 1e-8) { /* no descent left: a solution when small for their scale */
      rc = small ? 0 : -1;
      break;
    }
  }
  if (rc == 0) snap_to_starts(cm, fa, unk, n, x0, r, toward);
  free(base);
  free(J);
  free(piv);
  free(done);
  free(keep);
  free(sel_all);
  return rc;
}

/* inc[e * nstates + i] = 1 when initial equation e names state i (directly or through an
 * alias; not inside pre()). */
static void mark_states(const st_compiled *cm, const st_fexpr *e, unsigned char *row) {
  if (!e || (e->kind == FX_BUILTIN && e->op == FB_PRE)) return;
  double sign;
  int s = st_resolve_ref(cm, e, &sign);
  if (s >= 0) {
    if (cm->p.slots[s].kind == K_STATE) row[cm->p.slots[s].state] = 1;
    return;
  }
  for (int i = 0; i < e->nargs; i++) mark_states(cm, e->args[i], row);
}

static int augment(const unsigned char *inc, int ns, int e, const unsigned char *usable,
                   int *state_eq, unsigned char *seen) {
  for (int i = 0; i < ns; i++) {
    if (!inc[e * ns + i] || !usable[i] || seen[i]) continue;
    seen[i] = 1;
    if (state_eq[i] < 0 || augment(inc, ns, state_eq[i], usable, state_eq, seen)) {
      state_eq[i] = e;
      return 1;
    }
  }
  return 0;
}

/* The states whose fixed attribute would balance the initial system. Under-determined: the
 * free states left unmatched by a matching of the initial equations to the free states they
 * name (fixing one already determined by an equation would over-determine it); over-
 * determined: the fixed states the initial equations name. The equations are matched by
 * the states they name directly: one that reaches the states only through algebraic
 * variables leaves the list longer, never wrong. Falls back to every candidate. */
static void suggest_fixed(st_compiled *cm, int over, unsigned char *pick) {
  int ns = cm->p.nstates, ne = cm->p.ninit;
  unsigned char *inc = calloc((size_t)(ne * ns) + 1, 1), *usable = calloc((size_t)ns + 1, 2);
  int *state_eq = malloc(sizeof(int) * (size_t)(ns + 1));
  for (int i = 0; i < ns; i++) pick[i] = is_free_state(cm, i) != over;
  if (!inc || !usable || !state_eq) goto done;
  for (int e = 0; e < ne; e++) {
    mark_states(cm, cm->p.init_eqs[e].lhs, inc + e * ns);
    mark_states(cm, cm->p.init_eqs[e].rhs, inc + e * ns);
  }
  int any = 0;
  for (int i = 0; i < ns; i++) {
    usable[i] = pick[i];
    state_eq[i] = -1;
    if (over) {
      int named = 0;
      for (int e = 0; e < ne; e++) named |= inc[e * ns + i];
      any |= pick[i] = pick[i] && named;
    }
  }
  if (over) {
    if (!any)
      for (int i = 0; i < ns; i++) pick[i] = usable[i];
    goto done;
  }
  for (int e = 0; e < ne; e++) {
    memset(usable + ns, 0, (size_t)ns);
    augment(inc, ns, e, usable, state_eq, usable + ns);
  }
  for (int i = 0; i < ns; i++) pick[i] = usable[i] && state_eq[i] < 0;
done:
  free(inc);
  free(usable);
  free(state_eq);
}

static void report_count(st_compiled *cm, int nfree) {
  int over = cm->p.ninit > nfree;
  if (over)
    st_error(cm->diag, cm->p.init_eqs[0].loc, "the initial system is over-determined: %d initial "
             "equations for %d states without fixed = true", cm->p.ninit, nfree);
  else
    st_error(cm->diag, cm->p.init_eqs[0].loc, "the initial system is under-determined: %d initial "
             "equations for %d states without fixed = true", cm->p.ninit, nfree);
  unsigned char *pick = malloc((size_t)cm->p.nstates + 1);
  if (!pick) return;
  suggest_fixed(cm, over, pick);
  for (int i = 0; i < cm->p.nstates; i++) {
    if (!pick[i]) continue;
    const st_slot *s = &cm->p.slots[cm->p.state_slot[i]];
    if (over)
      st_note(cm->diag, s->loc, "'%s' has fixed = true; setting fixed = false would balance it",
              s->name);
    else
      st_note(cm->diag, s->loc, "'%s' could be given fixed = true", s->name);
  }
  free(pick);
}

/* An under-determined initial system: the states named keep their start values (Dymola and
 * OpenModelica do the same, with a warning). */
static void keep_starts(st_compiled *cm, const int *slots, int n, int nfree) {
  char *names = NULL;
  for (int i = 0; i < n; i++) {
    char *grown = st_format("%s%s'%s'", names ? names : "", names ? ", " : "",
                            cm->p.slots[slots[i]].name);
    free(names);
    if (!(names = grown)) return;
  }
  st_warning(cm->diag, cm->p.init_eqs[0].loc, "the initial system is under-determined: %d "
             "equations for %d states without fixed = true; %s %s", nfree - n, nfree,
             names ? names : "", n == 1 ? "keeps its start value" : "keep their start values");
  free(names);
}

/* The free states and the parameters with fixed = false the initial system solves for. */
static int count_free(const st_compiled *cm) {
  int nfree = cm->p.ninit_params;
  for (int i = 0; i < cm->p.nstates; i++) nfree += is_free_state(cm, i);
  return nfree;
}

/* Checked when compiling: more initial equations than states without fixed = true is an
 * error. Fewer: the states the equations do not determine keep their start values, as
 * Modelica tools do (a warning at initialization names them; initialize()). */
int st_check_initial_counts(st_compiled *cm) {
  int nfree = count_free(cm);
  if (cm->p.ninit <= nfree) return 0;
  report_count(cm, nfree);
  return -1;
}

/* How many of the fixed algebraics take part: all of them when they, with the initial
 * equations, do not over-determine the free states (choose_unknowns picks the states they
 * determine when they are fewer); none otherwise (then, as before, a model whose start
 * values were consistent before index reduction still starts from them). */
static int used_fixed_algebraics(const st_compiled *cm, const fixed_algebraics *fa, int nfree) {
  return fa->n > 0 && cm->p.ninit + fa->n <= nfree ? fa->n : 0;
}

/* choose_unknowns by structure, when the blocks cannot be evaluated at the start values
 * (HeatingNPN_NORGate's transistors): the free states matched to the initial equations
 * that name them directly go to the front of unk. 0 when every equation has its state. */
static int choose_unknowns_by_structure(st_compiled *cm, int *unk, int n) {
  unsigned char *pick = malloc((size_t)cm->p.nstates + 1);
  int *order = malloc(sizeof(int) * (size_t)(n + 1)), k = 0, rc = -1;
  if (!pick || !order || cm->p.ninit_params) goto done; /* matches states only */
  suggest_fixed(cm, 0, pick); /* pick: the free states no equation determines */
  for (int j = 0; j < n; j++)
    if (!pick[cm->p.slots[unk[j]].state]) order[k++] = unk[j];
  if (k != cm->p.ninit) goto done;
  for (int j = 0; j < n; j++)
    if (pick[cm->p.slots[unk[j]].state]) order[k++] = unk[j];
  memcpy(unk, order, sizeof(int) * (size_t)n);
  rc = 0;
done:
  free(pick);
  free(order);
  return rc;
}

/* Fewer initial equations and fixed algebraics than free states (m < n): the free states
 * they determine, found from the difference-quotient Jacobian at the start values by
 * elimination with complete pivoting (m columns with the largest pivots), are moved to the
 * front of unk; the others keep their start values. Before, such a model used none of its
 * fixed starts: a mass held by a damper (whose s_rel, v_rel are the preferred states) started
 * at rest whatever its v(start, fixed = true), as soon as another free state sat anywhere in
 * the model. Returns 0, or -1 when the Jacobian has rank < m. */
static int choose_unknowns(st_compiled *cm, const fixed_algebraics *fa, int *unk, int n) {
  int m = cm->p.ninit + fa->n, rc = -1;
  double *J = malloc(sizeof(double) * (size_t)(m * n + 2 * m + 1));
  int *used = calloc((size_t)(n + m) + 1, sizeof(int));
  if (!J || !used) goto done;
  double *r = J + m * n, *r1 = r + m;
  if (initial_residuals(cm, fa, r)) goto done;
  for (int j = 0; j < n; j++) {
    double *xj = &cm->x[unk[j]], save = *xj, h = 1e-7 * (1 + fabs(save));
    *xj = save + h;
    int bad = initial_residuals(cm, fa, r1);
    *xj = save;
    if (bad) goto done;
    for (int i = 0; i < m; i++) J[i * n + j] = (r1[i] - r[i]) / h;
  }
  int *row_done = used + n;
  for (int k = 0; k < m; k++) {
    int pi = -1, pj = -1;
    double best = 1e-9;
    for (int i = 0; i < m; i++)
      for (int j = 0; j < n && !row_done[i]; j++)
        if (!used[j] && fabs(J[i * n + j]) > best) { best = fabs(J[i * n + j]); pi = i; pj = j; }
    if (pi < 0) goto done;
    row_done[pi] = used[pj] = 1;
    for (int i = 0; i < m; i++) {
      if (row_done[i]) continue;
      double f = J[i * n + pj] / J[pi * n + pj];
      for (int j = 0; j < n; j++) J[i * n + j] -= f * J[pi * n + j];
    }
  }
  int *order = (int *)J, k = 0; /* J is no longer needed */
  for (int j = 0; j < n; j++) if (used[j]) order[k++] = unk[j];
  for (int j = 0; j < n; j++) if (!used[j]) order[k++] = unk[j];
  memcpy(unk, order, sizeof(int) * (size_t)n);
  rc = 0;
done:
  free(J);
  free(used);
  st_eval_blocks(cm, 1); /* the values at the start values again */
  return rc;
}

/* The initial equations of when-assigned variables, as assignments. They may refer to each
 * other in any order (Pulse: T_start uses count), so the list is swept until nothing changes;
 * n sweeps settle any acyclic order. */
static void initial_assignments(st_compiled *cm) {
  /* pre(v) and v are one unknown of the initial problem (the when-clauses are not active):
   * `pre(state) = s0; r = f(pre(state))` reads s0 (the MSL noise blocks) */
  memcpy(cm->pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x);
  for (int sweep = 0; sweep < cm->p.ninit_assign; sweep++) {
    int changed = 0;
    for (int i = 0; i < cm->p.ninit_assign; i++) {
      int s = cm->p.init_assign[i].target;
      double v = st_vm_eval(&cm->vm, &cm->p.init_assign_prog[i]);
      if (cm->p.slots[s].is_bool) v = v != 0;
      changed += v != cm->x[s];
      cm->x[s] = cm->pre[s] = v;
    }
    if (!changed) break;
  }
}

/* The initial equations of when-assigned variables and parameters with fixed = false that read
 * continuous unknowns, again at the solved values: an algebraic variable is known only now (a
 * prismatic joint's positiveBranch = selectBranch(.., r_a, r_b) from the positions the
 * kinematics give). Those of pre(d) stay as set before (d itself is what the equations
 * compute). The number of values that changed. */
static int reassign_initial(st_compiled *cm) {
  int changed = 0;
  for (int i = 0; i < cm->p.ninit_assign; i++) {
    int s = cm->p.init_assign[i].target;
    /* only those that read continuous unknowns: evaluating the others again would repeat
     * their side effects (initializeImpureRandom restarts the generator) */
    if (cm->p.slots[s].kind != K_WHEN || !cm->p.init_assign_late[i]) continue;
    double v = st_vm_eval(&cm->vm, &cm->p.init_assign_prog[i]);
    if (cm->p.slots[s].is_bool) v = v != 0;
    if (v == cm->x[s] || isnan(v)) continue;
    changed++;
    cm->x[s] = cm->pre[s] = cm->init_pre[s] = v;
    cm->error_loc = cm->p.init_assign[i].loc; /* where a failure after the change points */
  }
  return changed;
}

/* The initial system solved again until the initial equations of when-assigned variables
 * agree with the solution it gives (as an event iteration; a bounded number of rounds). */
static int settle_initial(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n,
                          int solve) {
  for (int round = 0; round <= cm->p.ninit_assign; round++) {
    if (!reassign_initial(cm)) return 0;
    if (solve && solve_initial(cm, fa, unk, n, 0)) {
      st_set_error(cm, "the initial system has no solution after the initial equations of "
                   "discrete variables were evaluated at its solution");
      return -1;
    }
    if (st_eval_blocks_initial(cm)) return -1;
  }
  st_set_error(cm, "the initial equations of discrete variables do not settle (each "
               "solution of the initial system changes them again)");
  return -1;
}

/* A fixed start value is part of the initial system (Modelica 3.6 section 8.6): one the
 * solved system does not reproduce was dropped because the other equations already
 * determine that variable (an inertia held by a rigid connection, w(start = 2, fixed =
 * true)) -- an over-determined, inconsistent initial system, reported with the variable
 * whose fixed could be changed (issue 4, item 6). A consistent redundant one (the same
 * speed fixed on two rigidly joined inertias) passes. */
static int check_fixed_starts(st_compiled *cm, const fixed_algebraics *all) {
  for (int k = 0; k < all->n; k++) {
    int s = all->slot[k];
    double v = cm->x[s], start = all->start[k];
    if (fabs(v - start) <= 1e-8 * (1 + fabs(start))) continue;
    st_error(cm->diag, cm->p.slots[s].loc, "the initial system is over-determined: '%s' has "
             "fixed = true and start = %.17g, but the other equations make it %.17g",
             cm->p.slots[s].name, start, v);
    st_note(cm->diag, cm->p.slots[s].loc, "setting fixed = false for '%s' would balance it",
            cm->p.slots[s].name);
    return -1;
  }
  return 0;
}

/* The redundant initial equations (no continuous unknown) must hold at the initialized
 * values; Dymola drops consistent ones the same way. */
static int check_redundant(st_compiled *cm) {
  for (int i = 0; i < cm->p.ninit_checks; i++) {
    double r = st_vm_eval(&cm->vm, &cm->p.init_check_res[i]);
    if (fabs(r) <= 1e-10) continue;
    st_error(cm->diag, cm->p.init_checks[i].loc, "this initial equation names no continuous "
             "unknown and does not hold at the start (residual %.17g): it contradicts the "
             "parameters, the equations or the start values of the discrete variables", r);
    return -1;
  }
  return 0;
}

int st_zero_parameters_hold(st_compiled *cm) {
  for (int s = 0; s < cm->p.flat->nvars; s++)
    if (cm->p.zero_param && cm->p.zero_param[s] && cm->p.slots[s].kind == K_PARAM &&
        cm->x[s] != 0) {
      st_fail(cm, cm->p.slots[s].loc, "parameter '%s' was 0 when the model was compiled and "
              "its equations were simplified for that; it cannot become %.17g",
              cm->p.slots[s].name, cm->x[s]);
      cm->reported = 1;
      return -1;
    }
  for (int s = 0; cm->p.held_param && s < cm->p.flat->nvars; s++)
    if (!isnan(cm->p.held_param[s]) && cm->x[s] != cm->p.held_param[s]) {
      st_fail(cm, cm->p.slots[s].loc, "parameter '%s' (final or Evaluate = true) was %.17g "
              "when the model was compiled and decided an if-expression; it cannot become "
              "%.17g", cm->p.slots[s].name, cm->p.held_param[s], cm->x[s]);
      cm->reported = 1;
      return -1;
    }
  return 0;
}

/* After a failed Newton: again from the same point, the single-unknown rows first. Only
 * then, so that what initialized before keeps its solution to the last bit (a brake at rest
 * whose mode follows the sign of a force of 1e-9). 0 when that converged. */
static int retry_singletons(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n,
                            const double *x0) {
  if (!x0) return -1;
  for (int j = 0; j < n; j++) cm->x[unk[j]] = x0[j];
  return solve_initial(cm, fa, unk, n, 1);
}

/* The assignment block that computes slot s, or NULL. */
static const st_block *assignment_of(const st_compiled *cm, int s) {
  for (int k = 0; k < cm->nblocks; k++)
    if (cm->blocks[k].kind == BK_ASSIGN && cm->blocks[k].slots[0] == s) return &cm->blocks[k];
  return NULL;
}

/* A fixed algebraic whose assignment is affine in one unknown alone (a solenoid's armature
 * position x(fixed = true) = the load's position s - L/2) sets that unknown so that it
 * holds, from x0 (as a tool that solves the assignment for the state does): at the start
 * s = 0 the air gap is 0 and a flux tube's force 0/0 does not evaluate, so Newton never
 * took its first step. Checked affine at three points; how many unknowns it moved. */
static int seed_from_fixed_algebraics(st_compiled *cm, const fixed_algebraics *fa,
                                      const int *unk, int n, const double *x0) {
  if (!x0) return 0;
  for (int j = 0; j < n; j++) cm->x[unk[j]] = x0[j];
  int moved = 0;
  for (int k = 0; k < fa->n; k++) {
    const st_block *b = assignment_of(cm, fa->slot[k]);
    if (!b) continue;
    double v0 = st_vm_eval(&cm->vm, &b->assign);
    int j1 = -1, count = 0;
    for (int j = 0; j < n && count < 2; j++) {
      double save = cm->x[unk[j]];
      cm->x[unk[j]] = save + 1;
      if (st_vm_eval(&cm->vm, &b->assign) != v0) { j1 = j; count++; }
      cm->x[unk[j]] = save;
    }
    if (count != 1 || !isfinite(v0)) continue;
    double *xj = &cm->x[unk[j1]], s0 = *xj, h = 1 + fabs(s0);
    *xj = s0 + h;
    double v1 = st_vm_eval(&cm->vm, &b->assign);
    *xj = s0 + 2 * h;
    double v2 = st_vm_eval(&cm->vm, &b->assign), slope = (v1 - v0) / h;
    int affine = isfinite(slope) && slope != 0 &&
                 fabs(v2 - v0 - 2 * slope * h) <= 1e-9 * (fabs(v0) + fabs(v2) + fabs(slope * h));
    *xj = affine ? s0 + (fa->start[k] - v0) / slope : s0;
    moved += affine;
  }
  return moved;
}

/* The unknowns without a start value (0 by default) set to 1; how many. */
static int unset_to_one(st_compiled *cm, const int *unk, int n) {
  int k = 0;
  for (int j = 0; j < n; j++)
    if (unk[j] < cm->p.nstart_prog && !cm->p.start_prog[unk[j]].n &&
        !(cm->start_set && cm->start_set[unk[j]])) {
      cm->x[unk[j]] = 1;
      k++;
    }
  return k;
}

/* After a failed Newton: the unknowns without a start value (0 by default: a vessel's mass
 * m, with u = U/m) start again from 1, the starts given kept; 0 when there is none. */
static int restart_unset(st_compiled *cm, const int *unk, int n) {
  apply_starts(cm);
  return unset_to_one(cm, unk, n);
}

/* After a failed Newton: the free states and the unknowns of the nonlinear blocks as one
 * system (as Dymola and OpenModelica build the initial system), the blocks' equations
 * joining the initial ones. The nested solve needs a solvable block at every iterate of the
 * states; a vessel whose states are m and U (u = U/m) has none at their defaults, while
 * its initial equations p = p0, h = h0 determine the block's own unknowns directly. The
 * blocks start from their start values, the initial equations `v = parameter expression`
 * of their unknowns applied first. A mixed block joins with its discrete values held; they
 * are swept at the solution, and the system solved again until they stay. 0 when it
 * converged. */
static int solve_joint(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n) {
  restart_unset(cm, unk, n); /* a vessel's m = 0 makes u = U/m infinite */
  explicit_initial_states(cm, 1);
  for (int k = 0; k < cm->nblocks; k++) cm->blocks[k].joint = 0;
  cm->joint_probe = 1; /* which blocks do not solve here */
  int bad = st_eval_blocks(cm, 1);
  cm->joint_probe = 0;
  int nj = st_joint_unknowns(cm, NULL), rc = -1;
  int *all = malloc(sizeof(int) * (size_t)(n + nj + 1));
  double *r = malloc(sizeof(double) * (size_t)(n + nj + 1));
  if (!all || !r || nj == 0 || bad) goto done;
  memcpy(all, unk, sizeof(int) * (size_t)n);
  st_joint_unknowns(cm, all + n);
  unset_to_one(cm, all + n, nj); /* T = 0 K in d = p/(R T) */
  explicit_initial_states(cm, 1);
  /* a mixed block's discretes are held in the solve: solved again while the solution
   * changes them (a bounded fixed point, as fixed_point does for the block alone) */
  for (int round = 0; round < 2 * nj + 10; round++) {
    cm->joint_r = r; /* on; initial_residuals points it at each residual vector */
    rc = solve_initial(cm, fa, all, n + nj, 0);
    cm->joint_r = NULL;
    if (rc || !st_joint_discrete_sweep(cm)) break;
    rc = -1;
  }
done:
  free(all);
  free(r);
  return rc;
}

/* One point of the homotopy path: the initial system (n unknowns; 0: the blocks alone). */
static int solved_at_lambda(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n) {
  return (n == 0 || !solve_initial(cm, fa, unk, n, 0)) && !st_eval_blocks_initial(cm);
}

/* homotopy(actual, simplified) (Modelica 3.6 section 3.7.4.4), when the initial system
 * fails from the start values: it is solved again from them with every homotopy() at its
 * simplified expression (lambda = 0), then along lambda to 1, each point from the one before.
 * Dymola's references take the solution the start values lead to where one exists (MSL
 * SignalGenerator: an opamp in positive feedback with homotopyType = UpperLimit starts at
 * its lower limit, which r2.i's start value gives), so the path is the fallback, as in
 * OpenModelica with -noHomotopyOnFirstTry. 1 when it reached lambda = 1 (the solution is in
 * x), else 0 with the failed values left in place. */
static int walk_homotopy(st_compiled *cm, const fixed_algebraics *fa, const int *unk, int n,
                         const double *starts) {
  size_t bytes = (size_t)cm->p.nslots * sizeof *cm->x;
  double *failed = malloc(bytes), *last = malloc(bytes);
  int ok = failed && last && starts;
  if (ok) {
    memcpy(failed, cm->x, bytes);
    memcpy(cm->x, starts, bytes);
  }
  cm->vm.lambda = 0;
  ok = ok && solved_at_lambda(cm, fa, unk, n);
  for (double at = 0, h = 0.25; ok && at < 1;) {
    double next = at + h < 1 ? at + h : 1;
    memcpy(last, cm->x, bytes);
    cm->vm.lambda = next;
    if (solved_at_lambda(cm, fa, unk, n)) {
      at = next;
      h = h < 0.25 ? 2 * h : h;
    } else {
      memcpy(cm->x, last, bytes);
      ok = (h *= 0.5) >= 1.0 / 1024;
    }
  }
  cm->vm.lambda = 1;
  if (!ok && failed) memcpy(cm->x, failed, bytes);
  if (ok) { /* a failure on the way is no failure of the initialization */
    free(cm->error);
    cm->error = NULL;
    cm->init_eval_failed = 0;
  }
  free(failed);
  free(last);
  return ok;
}

static double *save_unknowns(const st_compiled *cm, const int *unk, int n) {
  double *x0 = malloc(sizeof(double) * (size_t)(n + 1));
  for (int j = 0; x0 && j < n; j++) x0[j] = cm->x[unk[j]];
  return x0;
}

int st_initialize(st_compiled *cm, double t0) {
  cm->gen++;
  for (int i = 0; i < cm->nasserts; i++) cm->asserts[i].warned = 0; /* a new run */
  cm->last_event_t = NAN;
  cm->initialized = 0;
  memset(cm->init_fired, 0, (size_t)cm->p.nwc + 1);
  cm->vm.event_done_t = cm->vm.prev_event_t = -INFINITY;
  cm->vm.time = t0;
  cm->vm.initial = 1;
  st_apply_parameters(cm);
  if (st_check_failed_parameters(cm)) {
    cm->reported = 1;
    return -1;
  }
  if (st_zero_parameters_hold(cm)) return -1;
  apply_starts(cm);
  st_dynset_reset(cm); /* the selection as compiled, the set states from their candidates */
  if (st_run_initial_algorithms(cm)) {
    st_fail(cm, cm->error_loc, "initialization failed: %s", cm->error);
    cm->reported = 1;
    return -1;
  }
  initial_assignments(cm);
  memcpy(cm->pre, cm->x, (size_t)cm->p.nslots * sizeof *cm->x);
  memcpy(cm->init_pre, cm->pre, (size_t)cm->p.nslots * sizeof *cm->x);
  memset(cm->wc, 0, (size_t)(cm->p.nwc > 0 ? cm->p.nwc : 1) * sizeof *cm->wc);
  explicit_initial_states(cm, 0);
  int nfree = 0;
  fixed_algebraics fa = {0, NULL, NULL};
  int *unk = malloc(sizeof(int) * (size_t)(cm->p.nstates + cm->p.ninit_params + 1));
  if (!unk || collect_fixed_algebraics(cm, &fa)) {
    free(unk);
    free(fa.slot);
    free(fa.start);
    return -1;
  }
  for (int i = 0; i < cm->p.nstates; i++)
    if (is_free_state(cm, i)) unk[nfree++] = cm->p.state_slot[i];
  for (int k = 0; k < cm->p.ninit_params; k++) unk[nfree++] = cm->p.init_params[k];
  int nfixed = fa.n;
  fa.n = used_fixed_algebraics(cm, &fa, nfree);
  int neq = cm->p.ninit + fa.n;
  if (neq > 0 && neq < nfree) {
    if (!choose_unknowns(cm, &fa, unk, nfree) ||
        (fa.n == 0 && !choose_unknowns_by_structure(cm, unk, nfree))) {
      if (cm->p.ninit > 0) keep_starts(cm, unk + neq, nfree - neq, nfree);
      nfree = neq; /* the chosen states are unk[0 .. neq) */
    } else if (cm->p.ninit == 0) {
      fa.n = neq = 0;
    }
  }
  int rc = 0;
  double *x0 = NULL, *starts = NULL;
  size_t bytes = (size_t)cm->p.nslots * sizeof *cm->x;
  if (cm->p.nhomotopy > 0 && (starts = malloc(bytes))) memcpy(starts, cm->x, bytes);
  if (neq > 0 && neq != nfree) {
    report_count(cm, nfree);
    rc = -1;
  } else if (neq > 0 && (x0 = save_unknowns(cm, unk, nfree), solve_initial(cm, &fa, unk, nfree, 0)) &&
             retry_singletons(cm, &fa, unk, nfree, x0) &&
             (!seed_from_fixed_algebraics(cm, &fa, unk, nfree, x0) ||
              solve_initial(cm, &fa, unk, nfree, 1)) &&
             (!restart_unset(cm, unk, nfree) || solve_initial(cm, &fa, unk, nfree, 0)) &&
             solve_joint(cm, &fa, unk, nfree) && !walk_homotopy(cm, &fa, unk, nfree, starts)) {
    st_loc loc = cm->p.ninit > 0 ? cm->p.init_eqs[0].loc : cm->p.slots[fa.slot[0]].loc;
    if (cm->init_eval_failed)
      st_error(cm->diag, loc, "the initial system has no solution: at the start values %s",
               cm->error ? cm->error : "the equations cannot be evaluated");
    else
      st_error(cm->diag, loc, "the initial system has no solution (Newton from the start "
               "values did not converge)");
    rc = -1;
  } else if ((st_eval_blocks_initial(cm) && !walk_homotopy(cm, &fa, unk, neq, starts)) ||
             settle_initial(cm, &fa, unk, nfree, neq > 0)) {
    st_fail(cm, cm->error_loc, "initialization failed: %s",
            cm->error ? cm->error : "evaluation failed");
    rc = -1;
  } else {
    fa.n = nfixed; /* every fixed start, also those the solve did not use */
    rc = check_fixed_starts(cm, &fa) || check_redundant(cm);
    if (!rc && st_clock_start_ticks(cm)) {
      st_fail(cm, cm->error_loc, "initialization failed: %s",
              cm->error ? cm->error : "evaluation failed");
      rc = -1;
    }
  }
  cm->reported |= rc != 0;
  free(unk);
  free(x0);
  free(starts);
  free(fa.slot);
  free(fa.start);
  return rc;
}

