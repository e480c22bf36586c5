/* Routines with the FORTRAN 77 calling convention (gfortran's: lower-case names with a
 * trailing underscore, every argument by reference, arrays in column-major order, each
 * CHARACTER argument's length appended as a size_t), called by tests/data/extc/Fortran.mo. */
#include <stddef.h>

/* a is m x n (leading dimension lda), b is n x m: b(j, i) = a(i, j); w = sum of a(i, j) times
 * (i + 10 j), which tells the order of the elements; k is m x n INTEGER, updated in place:
 * k(i, j) = k(i, j) + 10 i + j; info = the length of the CHARACTER label, negative when its
 * first letter is not 'T'. */
void extcmat_(const int *m, const int *n, const double *a, const int *lda, double *b, double *w,
              int *k, const char *label, int *info, size_t label_len) {
  *w = 0;
  for (int j = 1; j <= *n; j++)
    for (int i = 1; i <= *m; i++) {
      double aij = a[(i - 1) + (size_t)(j - 1) * *lda];
      b[(j - 1) + (size_t)(i - 1) * *n] = aij;
      *w += aij * (i + 10 * j);
      k[(i - 1) + (size_t)(j - 1) * *m] += 10 * i + j;
    }
  *info = label[0] == 'T' ? (int)label_len : -(int)label_len;
}

/* A DOUBLE PRECISION FUNCTION: the dot product of x and y scaled by s. */
double extcdot_(const int *n, const double *x, const double *y, const double *s) {
  double d = 0;
  for (int i = 0; i < *n; i++) d += x[i] * y[i];
  return *s * d;
}
