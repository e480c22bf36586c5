/* Building and evaluating flat expressions (st_fexpr of flat.h) inside the front end:
 * constructors in an arena, and constant evaluation of parameter expressions (needed for
 * array sizes, conditional components, for-ranges, if-equations on parameters). */
#ifndef ST_FRONT_FEXPR_H
#define ST_FRONT_FEXPR_H

#include <math.h>

#include "front/flat.h"

st_fexpr *st_fx_new(st_arena *a, st_fexpr_kind kind, int op, int nargs, st_loc loc);
st_fexpr *st_fx_real(st_arena *a, double v, st_loc loc);
st_fexpr *st_fx_bool(st_arena *a, int v, st_loc loc);
st_fexpr *st_fx_var(st_arena *a, int index, st_loc loc);
st_fexpr *st_fx_binary(st_arena *a, st_fop op, st_fexpr *l, st_fexpr *r, st_loc loc);
st_fexpr *st_fx_unary(st_arena *a, st_fop op, st_fexpr *x, st_loc loc);
/* A copy of node e with an args array of its own (the arguments still e's), for rewriting
 * passes that replace some arguments; NULL when out of memory. */
st_fexpr *st_fx_copy_node(st_arena *a, const st_fexpr *e);
/* The equation lhs = rhs (FE_EQUAL, origin ""), as the compiler's lowering passes add them. */
st_feq *st_fx_equation(st_arena *a, st_fexpr *lhs, st_fexpr *rhs, st_loc loc);

/* Where the evaluator finds the value of a variable: the binding of a constant or parameter,
 * or NULL when the variable has no fixed value (a continuous or discrete variable, or a
 * parameter without binding). */
typedef st_fexpr *(*st_fx_binding_fn)(void *ctx, int var);

/* Evaluates a scalar expression of constants and parameters. 0 on success with *out set;
 * -1 when it depends on a non-constant (time, a state, pre(), a parameter without value) or
 * is not a scalar number/Boolean/enumeration. Cycles in bindings give -1. */
int st_fx_eval(const st_fexpr *e, st_fx_binding_fn binding, void *ctx, double *out);

/* Evaluates a user-function call (FX_CALL) to a scalar; -1 if it cannot. */
typedef int (*st_fx_call_fn)(void *ctx, const st_fexpr *call, double *out);
int st_fx_eval_ex(const st_fexpr *e, st_fx_binding_fn binding, st_fx_call_fn call, void *ctx,
                  double *out);

/* The scalar operations of the evaluator, for the function interpreter: 0 on success, -1
 * for operators that are not pure numeric functions (built-ins: st_fx_apply_builtin1/2
 * below). */
int st_fx_apply_binary(st_fop op, double x, double y, double *out);

/* The result type of an expression (Real for numbers, Boolean for relations and logic);
 * vars gives the variable types. FX_ARRAY reports its first element's type. */
st_ftype st_fx_type(const st_fexpr *e, const st_fvar *vars);

/* Whether e only depends on constants and parameters (no time, no variables of higher
 * variability, no pre/der/initial...). */
int st_fx_is_parametric(const st_fexpr *e, const st_fvar *vars);
/* Whether e reads a function local (FX_LOCAL). */
int st_fx_uses_local(const st_fexpr *e);

/* The one table of the values of built-ins that are pure functions of their arguments, for
 * every evaluator: flattening (flat_expr.c), the function machine (func_vm.c) and the model's
 * machine (bytecode.c, which adds the derivatives): 0, or -1 for event operators (pre,
 * edge, ...) and the built-ins that are not numeric functions. Inline: the machines call it
 * per operation. */
static inline int st_fx_apply_builtin1(st_builtin b, double x, double *out) {
  switch (b) {
  case FB_NOEVENT: case FB_SMOOTH: *out = x; return 0;
  case FB_ABS: *out = fabs(x); return 0;
  case FB_SIGN: *out = (x > 0) - (x < 0); return 0;
  case FB_SQRT: *out = sqrt(x); return 0;
  case FB_SIN: *out = sin(x); return 0;
  case FB_COS: *out = cos(x); return 0;
  case FB_TAN: *out = tan(x); return 0;
  case FB_ASIN: *out = asin(x); return 0;
  case FB_ACOS: *out = acos(x); return 0;
  case FB_ATAN: *out = atan(x); return 0;
  case FB_SINH: *out = sinh(x); return 0;
  case FB_COSH: *out = cosh(x); return 0;
  case FB_TANH: *out = tanh(x); return 0;
  case FB_EXP: *out = exp(x); return 0;
  case FB_LOG: *out = log(x); return 0;
  case FB_LOG10: *out = log10(x); return 0;
  case FB_FLOOR: case FB_INTEGER: *out = floor(x); return 0;
  case FB_CEIL: *out = ceil(x); return 0;
  default: return -1;
  }
}

static inline int st_fx_apply_builtin2(st_builtin b, double x, double y, double *out) {
  switch (b) {
  case FB_MIN: *out = x < y ? x : y; return 0;
  case FB_MAX: *out = x > y ? x : y; return 0;
  case FB_ATAN2: *out = atan2(x, y); return 0;
  case FB_MOD: *out = x - floor(x / y) * y; return 0;
  case FB_REM: *out = x - trunc(x / y) * y; return 0;
  case FB_DIV: *out = trunc(x / y); return 0;
  case FB_HOMOTOPY: *out = x; return 0; /* the actual expression */
  default: return -1;
  }
}

#endif
