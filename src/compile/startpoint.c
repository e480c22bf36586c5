/* The start point of index reduction's numeric check (index.c numeric_picks): the values the
 * unknowns have where the run begins, as far as the compiler can tell before initialization,
 * and the Jacobian entries of the equations there.
 *
 * Parameters take their values, every other variable its start value (0 without one); then
 * the algebraic variables without a start attribute of their own are computed from the
 * equations as written, each as soon as one of its equations has it as the only algebraic
 * variable not yet computed and solves for it symbolically. A frame's orientation matrix thus
 * follows from the joint angles' starts through the chain of joints, where its start (0)
 * would have made every coefficient it enters 0. The point need not be consistent (the
 * starts of states that initialization moves stay as given): it is where the nonlinear
 * coefficients are evaluated instead of made-up values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "exec/bytecode.h"

struct st_start_point {
  st_compiled *cm;
  int n, ne;          /* slots, equations (index reduction adds more after) */
  double *x, *xd;     /* values, tangent scratch (all 0 between calls) */
  st_prog *res;       /* per equation: lhs - rhs, emitted on first use */
  unsigned char *emitted;
  st_diag *quiet;     /* cm->diag while emitting */
};

/* Evaluates p at the point (the compiler's evaluator, pointed at sp's arrays). */
static double eval_at(st_start_point *sp, const st_prog *p, int tangent, double *dot) {
  st_vm *vm = &sp->cm->vm;
  double *x = vm->x, *pre = vm->pre, *xd = vm->xd;
  int em = vm->event_mode;
  vm->x = vm->pre = sp->x;
  vm->xd = sp->xd;
  vm->event_mode = 0;
  double v = tangent ? st_vm_eval_dual(vm, p, dot) : st_vm_eval(vm, p);
  vm->x = x;
  vm->pre = pre;
  vm->xd = xd;
  vm->event_mode = em;
  return v;
}

/* e calls an impure or external function: such a call may read state that only the run sets
 * up (an external object, a random generator's seed) and is not made at compile time. */
static int calls_outside(const st_compiled *cm, const st_fexpr *e) {
  if (!e) return 0;
  if ((e->kind == FX_CALL || e->kind == FX_CALL_DER) && e->index >= 0 &&
      e->index < cm->p.flat->nfunctions) {
    const st_ffunction *fn = &cm->p.flat->functions[e->index];
    if (fn->external_name || fn->ext || fn->is_impure) return 1;
  }
  for (int i = 0; i < e->nargs; i++)
    if (calls_outside(cm, e->args[i])) return 1;
  return 0;
}

static int has_own_start(const st_compiled *cm, int s) {
  return s < cm->p.flat->nvars && cm->p.flat->vars[s].start;
}

static void starts(st_start_point *sp) {
  st_compiled *cm = sp->cm;
  int n0 = cm->p.nstart_prog < sp->n ? cm->p.nstart_prog : sp->n;
  for (int s = 0; s < n0; s++) {
    st_kind k = cm->p.slots[s].kind;
    if (k == K_PARAM || k == K_CONST) sp->x[s] = cm->x[s];
  }
  for (int s = 0; s < n0; s++) { /* starts may read parameters (and other starts: as init.c) */
    st_kind k = cm->p.slots[s].kind;
    if (k == K_PARAM || k == K_CONST || !cm->p.start_prog[s].n) continue;
    double v = eval_at(sp, &cm->p.start_prog[s], 0, NULL);
    sp->x[s] = isfinite(v) ? v : 0;
  }
}

/* Unknowns of one equation, each once (scratch for the propagation). */
typedef struct uk_list { int *s, n, cap, failed; } uk_list;

static void add_unknown(void *ctx, int slot) {
  uk_list *u = ctx;
  for (int i = 0; i < u->n; i++)
    if (u->s[i] == slot) return;
  if (u->n == u->cap) {
    int cap = u->cap ? 2 * u->cap : 16;
    int *g = realloc(u->s, sizeof(int) * (size_t)cap);
    if (!g) { u->failed = 1; return; }
    u->s = g;
    u->cap = cap;
  }
  u->s[u->n++] = slot;
}

static int pending(const st_start_point *sp, const unsigned char *known, int s) {
  return !known[s] && sp->cm->p.slots[s].kind == K_ALG;
}

/* Solves equation e for u and stores the value; 1 when it did. */
static int solve_for(st_start_point *sp, int e, int u) {
  st_compiled *cm = sp->cm;
  const st_ceq *q = &cm->p.eqs[e];
  if (calls_outside(cm, q->lhs) || calls_outside(cm, q->rhs)) return 0;
  st_fexpr *x = st_sym_solve(cm, q->lhs, q->rhs, u);
  st_prog p = {0};
  if (!x || st_emit(cm, &p, x, EMIT_PLAIN)) { st_prog_free(&p); return 0; }
  double v = eval_at(sp, &p, 0, NULL);
  st_prog_free(&p);
  if (!isfinite(v)) return 0;
  sp->x[u] = v;
  return 1;
}

/* The algebraic values from the equations as written (worklist over the equations with one
 * algebraic variable left). -1 when out of memory. */
static int propagate(st_start_point *sp) {
  st_compiled *cm = sp->cm;
  int ne = cm->p.neqs, ns = sp->n, rc = -1;
  uk_list u = {0};
  int *off = calloc((size_t)ne + 1, sizeof(int)), *cnt = calloc((size_t)ne + 1, sizeof(int));
  int *soff = calloc((size_t)ns + 2, sizeof(int)), *work = malloc(sizeof(int) * ((size_t)ne + 1));
  unsigned char *known = calloc((size_t)ns + 1, 1);
  int *list = NULL, *seq = NULL, nl = 0, cap = 0;
  if (!off || !cnt || !soff || !work || !known) goto out;
  for (int s = 0; s < ns; s++) known[s] = cm->p.slots[s].kind != K_ALG || has_own_start(cm, s);
  for (int e = 0; e < ne; e++) { /* each equation's pending unknowns, listed */
    const st_ceq *q = &cm->p.eqs[e];
    off[e] = nl;
    if (q->differentiated || q->algorithm || q->target >= 0) continue;
    u.n = 0;
    st_expr_unknowns(cm, q->lhs, add_unknown, &u);
    st_expr_unknowns(cm, q->rhs, add_unknown, &u);
    if (u.failed) goto out;
    for (int i = 0; i < u.n; i++) {
      if (!pending(sp, known, u.s[i])) continue;
      if (nl == cap) {
        cap = cap ? 2 * cap : 1024;
        int *g = realloc(list, sizeof(int) * (size_t)cap);
        if (!g) goto out;
        list = g;
      }
      list[nl++] = u.s[i];
      cnt[e]++;
      soff[u.s[i] + 2]++;
    }
  }
  off[ne] = nl;
  for (int s = 0; s < ns; s++) soff[s + 2] += soff[s + 1];
  seq = malloc(sizeof(int) * ((size_t)nl + 1)); /* per slot: its equations (CSR) */
  if (!seq) goto out;
  for (int e = 0; e < ne; e++)
    for (int i = off[e]; i < off[e + 1]; i++) seq[soff[list[i] + 1]++] = e;
  int nw = 0;
  for (int e = 0; e < ne; e++)
    if (cnt[e] == 1) work[nw++] = e;
  while (nw > 0) {
    int e = work[--nw], v = -1;
    if (cnt[e] != 1) continue;
    for (int i = off[e]; i < off[e + 1] && v < 0; i++)
      if (!known[list[i]]) v = list[i];
    if (v < 0 || !solve_for(sp, e, v)) continue;
    known[v] = 1;
    for (int i = soff[v]; i < soff[v + 1]; i++)
      if (--cnt[seq[i]] == 1) work[nw++] = seq[i];
  }
  rc = 0;
out:
  free(u.s); free(off); free(cnt); free(soff); free(work); free(known); free(list); free(seq);
  return rc;
}

/* The emissions here are tries: what they cannot compile is no error of the model. */
static st_diag *hush(st_compiled *cm, st_diag *quiet) {
  st_diag *loud = cm->diag;
  cm->diag = quiet;
  return loud;
}

st_start_point *st_start_point_new(st_compiled *cm) {
  st_start_point *sp = calloc(1, sizeof *sp);
  if (!sp) return NULL;
  sp->quiet = st_diag_new(NULL);
  sp->cm = cm;
  sp->n = cm->p.nslots;
  sp->ne = cm->p.neqs;
  sp->x = calloc((size_t)sp->n + 1, sizeof(double));
  sp->xd = calloc((size_t)sp->n + 1, sizeof(double));
  sp->res = calloc((size_t)cm->p.neqs + 1, sizeof(st_prog));
  sp->emitted = calloc((size_t)cm->p.neqs + 1, 1);
  if (!sp->x || !sp->xd || !sp->res || !sp->emitted || !sp->quiet) {
    st_start_point_free(sp);
    return NULL;
  }
  starts(sp);
  st_diag *loud = hush(cm, sp->quiet);
  int bad = propagate(sp);
  cm->diag = loud;
  if (bad) {
    st_start_point_free(sp);
    return NULL;
  }
  return sp;
}

/* d(lhs - rhs of equation e)/d slot at the point; 0 with *v, -1 when it has no finite value
 * there (an emission that failed, a division by a start value of 0) or is not evaluated at
 * compile time (an algorithm's output, a call of an impure or external function). */
int st_start_point_entry(st_start_point *sp, int e, int slot, double *v) {
  st_compiled *cm = sp->cm;
  if (e >= sp->ne || slot >= sp->n) return -1;
  const st_ceq *q = &cm->p.eqs[e];
  if (!sp->emitted[e]) { /* left empty: not evaluated here */
    sp->emitted[e] = 1;
    if (q->algorithm || calls_outside(cm, q->lhs) || calls_outside(cm, q->rhs)) return -1;
    st_fexpr *r = st_sym_bin(cm->p.arena, FOP_SUB, q->lhs, q->rhs);
    st_diag *loud = hush(cm, sp->quiet);
    if (!r || st_emit(cm, &sp->res[e], r, EMIT_PLAIN)) st_prog_free(&sp->res[e]);
    cm->diag = loud;
  }
  if (!sp->res[e].n) return -1;
  double dot = 0;
  sp->xd[slot] = 1;
  eval_at(sp, &sp->res[e], 1, &dot);
  sp->xd[slot] = 0;
  if (!isfinite(dot)) return -1;
  *v = dot;
  return 0;
}

void st_start_point_free(st_start_point *sp) {
  if (!sp) return;
  for (int e = 0; sp->res && e < sp->ne; e++) st_prog_free(&sp->res[e]);
  free(sp->x);
  free(sp->xd);
  free(sp->res);
  free(sp->emitted);
  if (sp->quiet) st_diag_free(sp->quiet);
  free(sp);
}
