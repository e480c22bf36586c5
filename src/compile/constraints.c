/* Hidden constraints between states: linear combinations of equations with constant
 * coefficients in which every unknown but the states cancels. The currents of a network that
 * touches the rest only through inductors and has no path to ground sum to zero, yet no
 * equation says so: each branch current occurs in two node equations with opposite signs,
 * so only their sum shows it (the inductors feeding a rectifier whose DC side floats; a
 * machine winding's zero-sequence current through a floating star point). A structural
 * analysis cannot see the cancellation: all those inductor currents become states, the
 * algebraic system of the node potentials is singular, and an initialization that names
 * all but one of them (as Modelica tools need) is under-determined.
 *
 * Sparse Gaussian elimination over the equations that are linear with coefficients of
 * numbers and parameters eliminates every unknown that is not a state (fewest occurrences
 * first); a row that is left with states only is such a constraint. It is a combination of
 * its own equation (coefficient 1) and of pivot rows, which never contain it, so replacing
 * that equation by the combination keeps the system equivalent -- and index reduction then
 * differentiates the constraint like any other (Pantelides) and state selection drops one
 * of its states. The parameters in the coefficients keep their values (held_param). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/model_impl.h"
#include "util/sparsevec.h"

typedef struct hc {
  st_compiled *cm;
  int nrows;
  int *eq;             /* row -> equation */
  st_svec *row, *prov; /* coefficients over slots; multipliers over rows (the provenance) */
  unsigned char *pivot, *modified;
  int **col_rows, *col_n, *col_cap; /* per slot: rows that may hold it (stale allowed) */
  int *tmp, ntmp, captmp;
  int row_now;                      /* the row being changed (for on_added) */
  int failed;
} hc;

static int continuous_slot(const st_compiled *cm, int s) {
  st_kind k = cm->p.slots[s].kind;
  return k == K_STATE || k == K_DER || k == K_ALG;
}

static void col_add(hc *h, int slot, int row) {
  if (h->col_n[slot] == h->col_cap[slot]) {
    int cap = 2 * h->col_cap[slot] + 4;
    int *l = realloc(h->col_rows[slot], sizeof(int) * (size_t)cap);
    if (!l) { h->failed = 1; return; }
    h->col_rows[slot] = l;
    h->col_cap[slot] = cap;
  }
  h->col_rows[slot][h->col_n[slot]++] = row;
}

/* The continuous slots an expression reads (outside pre()), each once per call site. */
static void collect_slots(hc *h, const st_fexpr *e) {
  if (!e || (e->kind == FX_BUILTIN && e->op == FB_PRE)) return;
  int s = st_ref_slot(h->cm, e);
  if (s >= 0) {
    if (!continuous_slot(h->cm, s)) return;
    if (h->ntmp == h->captmp) {
      int cap = 2 * h->captmp + 16, *t = realloc(h->tmp, sizeof(int) * (size_t)cap);
      if (!t) { h->failed = 1; return; }
      h->tmp = t;
      h->captmp = cap;
    }
    h->tmp[h->ntmp++] = s;
    return;
  }
  for (int i = 0; i < e->nargs; i++) collect_slots(h, e->args[i]);
}

/* Row of equation e when it is linear with exact coefficients in its continuous unknowns
 * (and states); 1 when made, 0 when e is not such an equation. */
static int linear_row(hc *h, int e, st_svec *row) {
  const st_ceq *q = &h->cm->p.eqs[e];
  if (q->target >= 0 || q->algorithm) return 0;
  h->ntmp = 0;
  collect_slots(h, q->lhs);
  collect_slots(h, q->rhs);
  if (h->failed || h->ntmp == 0) return 0;
  for (int k = 0; k < h->ntmp; k++) {
    int s = h->tmp[k];
    if (st_svec_find(row, s) >= 0) continue;
    double a = 0, b = 0;
    int ra = st_sym_coefficient(h->cm, q->lhs, s, &a), rb = st_sym_coefficient(h->cm, q->rhs, s, &b);
    if (ra == ST_COEF_GENERIC || rb == ST_COEF_GENERIC) { st_svec_clear(row); return 0; }
    double c = (ra ? a : 0) - (rb ? b : 0);
    if (c != 0 && isfinite(c) && st_svec_push(row, s, c)) { h->failed = 1; return 0; }
  }
  return row->n > 0;
}

static void on_added(void *ctx, int slot) {
  hc *h = ctx;
  col_add(h, slot, h->row_now);
}

/* A row is live while it is no pivot; it still holds slot when its coefficient is there. */
static int live_count(hc *h, int slot) {
  int n = 0;
  for (int k = 0; k < h->col_n[slot]; k++) {
    int r = h->col_rows[slot][k];
    if (!h->pivot[r] && st_svec_get(&h->row[r], slot) != 0) h->col_rows[slot][n++] = r;
  }
  h->col_n[slot] = n;
  return n;
}

/* Eliminates slot from the live rows with the shortest of them as pivot. */
static int eliminate(hc *h, int slot) {
  int n = live_count(h, slot);
  if (n == 0) return 0;
  int p = h->col_rows[slot][0];
  for (int k = 1; k < n; k++) {
    int r = h->col_rows[slot][k];
    if (h->row[r].n < h->row[p].n) p = r;
  }
  h->pivot[p] = 1;
  double a = st_svec_get(&h->row[p], slot);
  /* the list may grow while rows take new slots: copy the rows first */
  int *rows = malloc(sizeof(int) * (size_t)n);
  if (!rows) return -1;
  memcpy(rows, h->col_rows[slot], sizeof(int) * (size_t)n);
  for (int k = 0; k < n; k++) {
    int r = rows[k];
    if (r == p) continue;
    double f = -st_svec_get(&h->row[r], slot) / a;
    h->row_now = r;
    if (st_svec_axpy(&h->row[r], f, &h->row[p], on_added, h) ||
        st_svec_axpy(&h->prov[r], f, &h->prov[p], NULL, NULL)) {
      free(rows);
      return -1;
    }
    /* the pivot's own slot cancels exactly: drop any rounding left of it */
    int left = st_svec_find(&h->row[r], slot);
    if (left >= 0) st_svec_remove(&h->row[r], left);
    h->modified[r] = 1;
  }
  free(rows);
  return h->failed ? -1 : 0;
}

/* ---- the constraint as an equation -------------------------------------------------------- */

static int has_continuous(const st_compiled *cm, const st_fexpr *e) {
  if (!e || (e->kind == FX_BUILTIN && e->op == FB_PRE)) return 0;
  int s = st_ref_slot(cm, e);
  if (s >= 0) return continuous_slot(cm, s);
  for (int i = 0; i < e->nargs; i++)
    if (has_continuous(cm, e->args[i])) return 1;
  return 0;
}

/* e without its terms in continuous unknowns (e linear in them): the part of numbers,
 * parameters, time and discrete values; NULL when that is 0. *bad on what cannot be split. */
static st_fexpr *known_part(st_compiled *cm, const st_fexpr *e, int *bad) {
  if (!has_continuous(cm, e)) return (st_fexpr *)e;
  if (st_ref_slot(cm, e) >= 0) return NULL;
  st_arena *a = cm->p.arena;
  if (e->kind == FX_UNARY && e->op == FOP_NEG) {
    st_fexpr *x = known_part(cm, e->args[0], bad);
    if (!x) return NULL;
    st_fexpr *n = st_sym_node(a, FX_UNARY, FOP_NEG, 1);
    if (n) n->args[0] = x;
    return n;
  }
  if (e->kind != FX_BINARY) { *bad = 1; return NULL; }
  st_fexpr *x, *y;
  switch (e->op) {
  case FOP_ADD:
  case FOP_SUB:
    x = known_part(cm, e->args[0], bad);
    y = known_part(cm, e->args[1], bad);
    if (!y) return x;
    if (!x) {
      if (e->op == FOP_ADD) return y;
      st_fexpr *n = st_sym_node(a, FX_UNARY, FOP_NEG, 1);
      if (n) n->args[0] = y;
      return n;
    }
    return st_sym_bin(a, e->op, x, y);
  case FOP_MUL: {
    int left = has_continuous(cm, e->args[0]);
    x = known_part(cm, e->args[left ? 0 : 1], bad);
    return x ? st_sym_bin(a, FOP_MUL, left ? x : e->args[0], left ? e->args[1] : x) : NULL;
  }
  case FOP_DIV:
    x = known_part(cm, e->args[0], bad);
    return x ? st_sym_bin(a, FOP_DIV, x, e->args[1]) : NULL;
  default: *bad = 1; return NULL;
  }
}

/* The parameters that make up coefficients of unknowns keep their values at run time. */
static void hold_parameters(st_compiled *cm, const st_fexpr *e, int in_coef) {
  if (!e) return;
  int s = st_ref_slot(cm, e);
  if (s >= 0) {
    if (in_coef && cm->p.slots[s].kind == K_PARAM && s < cm->p.flat->nvars && cm->p.held_param)
      cm->p.held_param[s] = cm->x[s];
    return;
  }
  int coef = in_coef;
  if (!in_coef && e->kind == FX_BINARY && (e->op == FOP_MUL || e->op == FOP_DIV)) {
    for (int i = 0; i < e->nargs; i++)
      hold_parameters(cm, e->args[i], !has_continuous(cm, e->args[i]));
    return;
  }
  if (!in_coef && !has_continuous(cm, e)) return;
  for (int i = 0; i < e->nargs; i++) hold_parameters(cm, e->args[i], coef);
}

static st_fexpr *scaled(st_arena *a, double c, st_fexpr *x) {
  if (c == 1) return x;
  if (c == -1) {
    st_fexpr *n = st_sym_node(a, FX_UNARY, FOP_NEG, 1);
    if (n) n->args[0] = x;
    return n;
  }
  return st_sym_bin(a, FOP_MUL, st_sym_num(a, c), x);
}

static st_fexpr *sum(st_arena *a, st_fexpr *acc, st_fexpr *t) {
  if (!t) return acc;
  return acc ? st_sym_bin(a, FOP_ADD, acc, t) : t;
}

/* Equation of row r becomes sum(c_s s) + sum(m_k known_k) = 0. */
static int replace_equation(hc *h, int r) {
  st_compiled *cm = h->cm;
  st_arena *a = cm->p.arena;
  st_fexpr *lhs = NULL;
  const st_svec *row = &h->row[r], *prov = &h->prov[r];
  for (int k = 0; k < row->n; k++) {
    st_fexpr *v = st_sym_node(a, FX_VAR, 0, 0);
    if (!v) return -1;
    v->index = row->idx[k];
    v->loc = cm->p.eqs[h->eq[r]].loc;
    lhs = sum(a, lhs, scaled(a, row->val[k], v));
  }
  for (int k = 0; k < prov->n; k++) {
    const st_ceq *q = &cm->p.eqs[h->eq[prov->idx[k]]];
    int bad = 0;
    st_fexpr *l = known_part(cm, q->lhs, &bad), *rr = known_part(cm, q->rhs, &bad);
    if (bad) return 1; /* kept as it was: the combination is only used when it is exact */
    st_fexpr *t = rr ? (l ? st_sym_bin(a, FOP_SUB, l, rr) : scaled(a, -1, rr)) : l;
    if (t) lhs = sum(a, lhs, scaled(a, prov->val[k], t));
  }
  for (int k = 0; k < prov->n; k++) {
    const st_ceq *q = &cm->p.eqs[h->eq[prov->idx[k]]];
    hold_parameters(cm, q->lhs, 0);
    hold_parameters(cm, q->rhs, 0);
  }
  if (!lhs) return -1;
  st_ceq *q = &cm->p.eqs[h->eq[r]];
  q->lhs = lhs;
  q->rhs = st_sym_num(a, 0);
  q->origin = "a linear combination of equations that leaves only states (this one and the "
              "node or balance equations of its network)";
  return q->rhs ? 0 : -1;
}

/* ---- the cheap proof that there is none --------------------------------------------------- */

/* 1 when no combination of the linear rows can leave states only, shown without building
 * them. A continuous non-state unknown c that one remaining equation r alone reads forces r's
 * multiplier in any such combination to 0 (its coefficient of c is nonzero and no other row
 * cancels it), so r goes and the others may then have unknowns of their own: when every
 * equation reading such unknowns goes (a chain of assignments, Pantelides' matching in
 * triangular form), nothing is left to combine. The pattern is collect_slots' (each linear
 * row's entries are among it, fewer rows and entries only make more singletons); the
 * coefficient is looked at only for the entry that removes a row: an equation that is not
 * linear in c is no row at all, an exact zero removes nothing. Where no equation reads a
 * state at all (a linear loop of algebraic unknowns), no combination can have one either.
 * Linear in the occurrences. */
static int nothing_to_combine(st_compiled *cm, int *nrows) {
  int ne = cm->p.neqs, ns = cm->p.nslots, rc = -1, nidx = 0, capidx = 0, left = 0, ntop = 0;
  int any_state = 0;
  hc h = {.cm = cm};
  int *rstart = malloc(sizeof(int) * ((size_t)ne + 1)), *ridx = NULL;
  int *ccount = calloc((size_t)ns + 1, sizeof(int)), *cstart = calloc((size_t)ns + 2, sizeof(int));
  int *seen = calloc((size_t)ns + 1, sizeof(int)), *cidx = NULL, *stack = NULL;
  unsigned char *gone = calloc((size_t)ne + 1, 1);
  if (!rstart || !ccount || !cstart || !seen || !gone) goto out;
  for (int e = 0; e < ne; e++) {
    const st_ceq *q = &cm->p.eqs[e];
    rstart[e] = nidx;
    if (q->target >= 0 || q->algorithm) continue;
    h.ntmp = 0;
    collect_slots(&h, q->lhs);
    collect_slots(&h, q->rhs);
    if (h.failed) goto out;
    for (int k = 0; k < h.ntmp; k++) {
      int s = h.tmp[k];
      if (cm->p.slots[s].kind == K_STATE) any_state = 1;
      if (cm->p.slots[s].kind == K_STATE || seen[s] == e + 1) continue;
      seen[s] = e + 1;
      if (nidx == capidx) {
        capidx = 2 * capidx + 64;
        int *t = realloc(ridx, sizeof(int) * (size_t)capidx);
        if (!t) goto out;
        ridx = t;
      }
      ridx[nidx++] = s;
      ccount[s]++;
    }
    left += nidx > rstart[e];
  }
  rstart[ne] = nidx;
  *nrows = left;
  if (!any_state) { /* every combination is free of states too: no constraint among them */
    rc = 1;
    goto out;
  }
  /* columns as lists of equations */
  for (int s = 0; s < ns; s++) cstart[s + 1] = cstart[s] + ccount[s];
  cidx = malloc(sizeof(int) * ((size_t)nidx + 1));
  stack = malloc(sizeof(int) * ((size_t)ns + 1));
  if (!cidx || !stack) goto out;
  memset(seen, 0, sizeof(int) * (size_t)ns);
  for (int e = 0; e < ne; e++)
    for (int k = rstart[e]; k < rstart[e + 1]; k++) cidx[cstart[ridx[k]] + seen[ridx[k]]++] = e;
  for (int s = 0; s < ns; s++)
    if (ccount[s] == 1) stack[ntop++] = s;
  while (ntop > 0 && left > 0) {
    int c = stack[--ntop], r = -1;
    if (ccount[c] != 1) continue;
    for (int k = cstart[c]; k < cstart[c + 1] && r < 0; k++)
      if (!gone[cidx[k]]) r = cidx[k];
    const st_ceq *q = &cm->p.eqs[r];
    double a = 0, b = 0;
    int ra = st_sym_coefficient(cm, q->lhs, c, &a), rb = st_sym_coefficient(cm, q->rhs, c, &b);
    double coef = (ra ? a : 0) - (rb ? b : 0);
    if (ra != ST_COEF_GENERIC && rb != ST_COEF_GENERIC && !(coef != 0 && isfinite(coef)))
      continue; /* no entry of the row after all: c stays, r may go by another unknown */
    gone[r] = 1;
    left--;
    for (int k = rstart[r]; k < rstart[r + 1]; k++)
      if (--ccount[ridx[k]] == 1) stack[ntop++] = ridx[k];
  }
  rc = left == 0;
out:
  free(h.tmp); free(rstart); free(ridx); free(ccount); free(cstart); free(seen); free(cidx);
  free(stack); free(gone);
  return rc;
}

/* ---- driver ------------------------------------------------------------------------------- */

typedef struct heap_item { int count, slot; } heap_item;

static void heap_push(heap_item *hp, int *n, heap_item x) {
  int i = (*n)++;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (hp[p].count < x.count || (hp[p].count == x.count && hp[p].slot <= x.slot)) break;
    hp[i] = hp[p];
    i = p;
  }
  hp[i] = x;
}

static heap_item heap_pop(heap_item *hp, int *n) {
  heap_item top = hp[0], x = hp[--(*n)];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && (hp[c + 1].count < hp[c].count ||
                       (hp[c + 1].count == hp[c].count && hp[c + 1].slot < hp[c].slot)))
      c++;
    if (x.count < hp[c].count || (x.count == hp[c].count && x.slot <= hp[c].slot)) break;
    hp[i] = hp[c];
    i = c;
  }
  if (*n > 0) hp[i] = x;
  return top;
}

int st_hidden_constraints(st_compiled *cm, int replace) {
  int ne = cm->p.neqs, ns = cm->p.nslots, found = 0, rc = -1, nheap = 0, nrows = 0;
  int none = nothing_to_combine(cm, &nrows);
  if (none < 0) return -1;
  if (none) {
    cm->p.hc_skipped++;
    return 0;
  }
  hc h = {cm, 0, malloc(sizeof(int) * ((size_t)ne + 1)), calloc((size_t)ne + 1, sizeof(st_svec)),
          calloc((size_t)ne + 1, sizeof(st_svec)), calloc((size_t)ne + 1, 1),
          calloc((size_t)ne + 1, 1), calloc((size_t)ns + 1, sizeof(int *)),
          calloc((size_t)ns + 1, sizeof(int)), calloc((size_t)ns + 1, sizeof(int)), NULL, 0, 0, 0, 0};
  heap_item *hp = NULL;
  if (!h.eq || !h.row || !h.prov || !h.pivot || !h.modified || !h.col_rows || !h.col_n || !h.col_cap)
    goto out;
  for (int e = 0; e < ne; e++) {
    st_svec *row = &h.row[h.nrows];
    if (!linear_row(&h, e, row)) {
      if (h.failed) goto out;
      continue;
    }
    if (st_svec_push(&h.prov[h.nrows], h.nrows, 1)) goto out;
    h.eq[h.nrows] = e;
    for (int k = 0; k < row->n; k++) col_add(&h, row->idx[k], h.nrows);
    h.nrows++;
  }
  cm->p.hc_rows += h.nrows;
  hp = malloc(sizeof *hp * ((size_t)ns + 1));
  if (!hp || h.failed) goto out;
  for (int s = 0; s < ns; s++)
    if (h.col_n[s] > 0 && cm->p.slots[s].kind != K_STATE)
      heap_push(hp, &nheap, (heap_item){h.col_n[s], s});
  while (nheap > 0) {
    heap_item it = heap_pop(hp, &nheap);
    int n = live_count(&h, it.slot);
    if (n > it.count) { /* fill-in made it longer: later */
      heap_push(hp, &nheap, (heap_item){n, it.slot});
      continue;
    }
    if (eliminate(&h, it.slot)) goto out;
  }
  for (int r = 0; r < h.nrows; r++) {
    if (h.pivot[r] || !h.modified[r] || h.row[r].n == 0) continue;
    found++;
    if (replace && replace_equation(&h, r) < 0) goto out;
  }
  rc = found;
out:
  for (int r = 0; h.row && h.prov && r < ne; r++) {
    st_svec_free(&h.row[r]);
    st_svec_free(&h.prov[r]);
  }
  for (int s = 0; h.col_rows && s < ns; s++) free(h.col_rows[s]);
  free(h.eq); free(h.row); free(h.prov); free(h.pivot); free(h.modified);
  free(h.col_rows); free(h.col_n); free(h.col_cap); free(h.tmp); free(hp);
  return rc;
}
