/* The built-in functions' values with their derivative factors, and the relations, as both
 * machines compute them: the model's bytecode (src/exec/bytecode.c) and the function machine
 * (func_vm.c). The values themselves come from the one table of built-in values,
 * st_fx_apply_builtin1/2 (front/flat_expr.h), which flattening uses too. */
#ifndef ST_FUNC_BUILTIN_H
#define ST_FUNC_BUILTIN_H

#include "front/flat.h" /* FOP_LT .. FOP_NE */

/* Value of a one-argument built-in (the table of front/flat_expr.h) and its derivative factor
 * d f / d a. */
double st_fn1(int builtin, double a, double *dfa);
double st_fn2(int builtin, double a, double b, double *dfa, double *dfb);

/* The relation op (FOP_LT .. FOP_NE) of a and b as 0/1: the model's machine and the function
 * machine (func_vm.c) compare the same way; inline because it is most of a table look-up. */
static inline double st_compare(int op, double a, double b) {
  switch (op) {
  case FOP_LT: return a < b;
  case FOP_LE: return a <= b;
  case FOP_GT: return a > b;
  case FOP_GE: return a >= b;
  case FOP_EQ: return a == b;
  default: return a != b;
  }
}

#endif
