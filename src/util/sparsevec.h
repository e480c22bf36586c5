/* A sparse vector of (index, value) entries in insertion order, the last entry moving into
 * the place of a dropped one. A long vector keeps a position index beside its entries (open
 * addressing, linear probing), so that finding an entry costs the same at any length: in
 * a sparse elimination one row may take a new unknown at each step while every row added
 * to it stays short (a chain of components), and a linear search per entry made the
 * elimination quadratic. */
#ifndef ST_UTIL_SPARSEVEC_H
#define ST_UTIL_SPARSEVEC_H

typedef struct st_svec {
  int n, cap;
  int *idx;    /* in the block of val (one allocation) */
  double *val;
  int *tab, tcap; /* position of an index, -1 free; NULL while the vector is short */
} st_svec;

/* A zeroed st_svec is an empty vector. */
void st_svec_free(st_svec *v);
/* Empties v (keeps its entry arrays). */
void st_svec_clear(st_svec *v);
/* Appends (i, x); i must not be in v. -1 when out of memory. */
int st_svec_push(st_svec *v, int i, double x);
/* The position of index i in v, or -1. */
int st_svec_find(const st_svec *v, int i);
/* The value at index i (0 when absent). */
double st_svec_get(const st_svec *v, int i);
/* Drops the entry at position at; the last entry takes its place. */
void st_svec_remove(st_svec *v, int at);
/* v += f w; an entry whose sum cancels to rounding (|sum| <= 1e-10 of its larger term) is
 * dropped. Calls added(ctx, i) for each index new in v (when added is not NULL). -1 when
 * out of memory. */
int st_svec_axpy(st_svec *v, double f, const st_svec *w, void (*added)(void *ctx, int i),
                 void *ctx);

#endif
