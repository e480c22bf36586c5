/* External functions provided by stiction itself (doc/library.md, "External functions"):
 * a Modelica function declared `external "C" y = stiction_friction_sign(law, v, w)` is bound
 * at compile time to an entry of this table, which evaluates the friction library of
 * include/stiction/friction.h and bam.h directly, value and partial derivatives together.
 * Nothing is loaded at run time: the names are a closed list, anything else is a located
 * compile error. The friction library is a leaf (like libm), so compile calling it keeps the
 * one-way data flow of doc/architecture.md. */
#ifndef ST_FUNC_EXTERNAL_H
#define ST_FUNC_EXTERNAL_H

#include <stddef.h>

#include "front/flat.h"

/* Most scalar arguments of an entry (the bound of OP_CALL's argument list, func_calls.c). */
#define ST_EXTFN_MAX_ARGS 16

/* Value of the entry at x[0..arity). When grad is not NULL, grad[i] receives d value/d x[i]
 * where the library gives it (exactly, as the C function returns it), NAN where it does not
 * (then the caller differences in that direction); Integer arguments (law, model) get 0. */
typedef double (*st_extfn_eval)(const double *x, double *grad);

typedef struct st_extfn {
  const char *name; /* the C name written in the external clause */
  int arity;        /* scalar Real/Integer arguments, in the clause's order */
  st_extfn_eval eval;
} st_extfn;

/* The entry called name, or NULL. */
const st_extfn *st_extfn_find(const char *name);

/* "a, b, c": every name of the table, for the error message of an unknown one (truncated
 * to len bytes, always terminated). */
void st_extfn_names(char *buf, size_t len);

/* One bound call: the entry and, for each of its arguments, the position of the input it
 * takes among the call's arguments (the inputs in declaration order, all scalars). */
typedef struct st_extcall {
  const st_extfn *fn;
  int from[ST_EXTFN_MAX_ARGS];
} st_extcall;

/* Binds fn (fn->external_name set), called with nargs scalar arguments. 0, or -1 with a
 * one-line reason in why[0..len) (unknown name with the known ones, wrong arity, arguments
 * that are not inputs, not exactly one output). */
int st_extcall_bind(st_extcall *c, const st_ffunction *fn, int nargs, char *why, size_t len);

/* The value for the call's arguments args. */
double st_extcall_eval(const st_extcall *c, const double *args);

/* The value, and in *dot the directional derivative along dargs: the library's exact
 * partials, a forward difference only in the directions of arguments it has none for. */
double st_extcall_dual(const st_extcall *c, const double *args, const double *dargs,
                       double *dot);

#endif
