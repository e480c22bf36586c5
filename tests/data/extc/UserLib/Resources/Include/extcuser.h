/* The functions of the extcuser library (tests/data/extc/UserLib). */
#ifndef EXTCUSER_H
#define EXTCUSER_H
double extcuser_poly(const double *coef, double x);
void extcuser_minmax(const int *k, int n, int *lo, int *hi);
#endif
