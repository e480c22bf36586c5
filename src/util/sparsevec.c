/* Sparse vectors with a position index once long (sparsevec.h). */
#include "util/sparsevec.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SVEC_SHORT = 16 }; /* searched linearly up to this length */

static unsigned home(const st_svec *v, int i) {
  return ((unsigned)i * 2654435761u) & (unsigned)(v->tcap - 1);
}

static int reindex(st_svec *v, int tcap) {
  int *tab = malloc(sizeof(int) * (size_t)tcap);
  if (!tab) return -1;
  free(v->tab);
  v->tab = tab;
  v->tcap = tcap;
  for (int k = 0; k < tcap; k++) tab[k] = -1;
  for (int k = 0; k < v->n; k++) {
    unsigned t = home(v, v->idx[k]);
    while (tab[t] >= 0) t = (t + 1) & (unsigned)(tcap - 1);
    tab[t] = k;
  }
  return 0;
}

/* The table cell of index i, or -1. */
static int cell(const st_svec *v, int i) {
  for (unsigned t = home(v, i);; t = (t + 1) & (unsigned)(v->tcap - 1)) {
    if (v->tab[t] < 0) return -1;
    if (v->idx[v->tab[t]] == i) return (int)t;
  }
}

/* Doubles the room of v. The values and then the indices share one block: an elimination
 * makes two vectors per equation, most of them short, and a block each for the indices and
 * the values doubled the allocator's share of it. */
static int grow(st_svec *v) {
  int cap = 2 * v->cap + 4;
  char *b = realloc(v->val, (size_t)cap * (sizeof(double) + sizeof(int)));
  if (!b) return -1;
  int *idx = (int *)(b + (size_t)cap * sizeof(double));
  memmove(idx, b + (size_t)v->cap * sizeof(double), (size_t)v->n * sizeof(int));
  v->val = (double *)b;
  v->idx = idx;
  v->cap = cap;
  return 0;
}

void st_svec_free(st_svec *v) {
  free(v->val); /* idx lives in the same block */
  free(v->tab);
  *v = (st_svec){0};
}

void st_svec_clear(st_svec *v) {
  v->n = 0;
  free(v->tab);
  v->tab = NULL;
  v->tcap = 0;
}

int st_svec_find(const st_svec *v, int i) {
  if (!v->tab) {
    for (int k = 0; k < v->n; k++)
      if (v->idx[k] == i) return k;
    return -1;
  }
  int t = cell(v, i);
  return t < 0 ? -1 : v->tab[t];
}

double st_svec_get(const st_svec *v, int i) {
  int at = st_svec_find(v, i);
  return at < 0 ? 0 : v->val[at];
}

int st_svec_push(st_svec *v, int i, double x) {
  if (v->n == v->cap && grow(v)) return -1;
  v->idx[v->n] = i;
  v->val[v->n++] = x;
  if (v->n > SVEC_SHORT && 2 * v->n > v->tcap) {
    if (reindex(v, v->tcap ? 2 * v->tcap : 4 * SVEC_SHORT) == 0) return 0;
    v->n--; /* unindexed it would be lost to lookups */
    return -1;
  }
  if (v->tab) {
    unsigned t = home(v, i);
    while (v->tab[t] >= 0) t = (t + 1) & (unsigned)(v->tcap - 1);
    v->tab[t] = v->n - 1;
  }
  return 0;
}

void st_svec_remove(st_svec *v, int at) {
  int last = v->n - 1;
  if (v->tab) {
    /* free the cell of idx[at], then move back the cells whose probe ran through it */
    unsigned mask = (unsigned)(v->tcap - 1), j = (unsigned)cell(v, v->idx[at]);
    v->tab[j] = -1;
    for (unsigned i = (j + 1) & mask; v->tab[i] >= 0; i = (i + 1) & mask) {
      unsigned k = home(v, v->idx[v->tab[i]]);
      if (j < i ? (k <= j || k > i) : (k <= j && k > i)) {
        v->tab[j] = v->tab[i];
        v->tab[i] = -1;
        j = i;
      }
    }
    if (at != last) v->tab[cell(v, v->idx[last])] = at;
  }
  v->idx[at] = v->idx[last];
  v->val[at] = v->val[last];
  v->n--;
}

int st_svec_axpy(st_svec *v, double f, const st_svec *w, void (*added)(void *ctx, int i),
                 void *ctx) {
  for (int k = 0; k < w->n; k++) {
    int i = w->idx[k], at = st_svec_find(v, i);
    double add = f * w->val[k];
    if (at < 0) {
      if (st_svec_push(v, i, add)) return -1;
      if (added) added(ctx, i);
      continue;
    }
    double sum = v->val[at] + add;
    if (fabs(sum) <= 1e-10 * fmax(fabs(v->val[at]), fabs(add)))
      st_svec_remove(v, at);
    else
      v->val[at] = sum;
  }
  return 0;
}
