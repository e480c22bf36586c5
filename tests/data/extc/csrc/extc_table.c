/* A table object read from a text file of "x y" lines or given as a matrix, for
 * tests/test_extc.c (file_table): linear interpolation, the largest abscissa, and a named
 * error when the file cannot be read. */
#include <stdio.h>
#include <stdlib.h>

#include "ModelicaUtilities.h"

typedef struct extc_table {
  double *x, *y;
  int n;
} extc_table;

void *extc_table_open(const char *fileName, const double *table, int nrow, int ncol) {
  extc_table *t = calloc(1, sizeof *t);
  if (!t) ModelicaError("extc_table_open: out of memory");
  if (nrow > 0 && ncol >= 2) {
    t->x = malloc(nrow * sizeof(double));
    t->y = malloc(nrow * sizeof(double));
    for (int i = 0; i < nrow; i++) t->x[i] = table[i * ncol], t->y[i] = table[i * ncol + 1];
    t->n = nrow;
    return t;
  }
  FILE *f = fopen(fileName, "r");
  if (!f) {
    free(t);
    ModelicaFormatError("extc_table_open: cannot read the table file \"%s\"", fileName);
  }
  double a, b;
  int cap = 0;
  while (fscanf(f, "%lf %lf", &a, &b) == 2) {
    if (t->n == cap) {
      cap = cap ? 2 * cap : 64;
      t->x = realloc(t->x, cap * sizeof(double));
      t->y = realloc(t->y, cap * sizeof(double));
    }
    t->x[t->n] = a;
    t->y[t->n++] = b;
  }
  fclose(f);
  return t;
}

void extc_table_close(void *p) {
  extc_table *t = p;
  free(t->x);
  free(t->y);
  free(t);
}

double extc_table_value(void *p, double x) {
  extc_table *t = p;
  if (t->n == 0) return 0;
  if (x <= t->x[0]) return t->y[0];
  for (int i = 1; i < t->n; i++)
    if (x <= t->x[i])
      return t->y[i - 1] + (t->y[i] - t->y[i - 1]) * (x - t->x[i - 1]) / (t->x[i] - t->x[i - 1]);
  return t->y[t->n - 1];
}

double extc_table_tmax(void *p) {
  extc_table *t = p;
  return t->n ? t->x[t->n - 1] : 0;
}
