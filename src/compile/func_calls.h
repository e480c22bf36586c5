/* User functions (Modelica functions with an algorithm section) called from compiled
 * equations.
 *
 * The bytecode pushes every scalar element of the call's arguments (arrays in row-major
 * order, their shapes fixed at compile time) and OP_CALL hands them to st_fcall_eval(), which
 * returns the first (or selected) output. Each call site's function is compiled for the
 * site's argument shapes (func_compile.h) and runs on that machine (the one the front end
 * uses for parameter bindings), value and exact tangent; through C code of an external clause
 * the tangent is the derivative annotation's or a difference quotient. A call the compiler
 * refuses fails (NaN) with the reason; --dump lists every body (st_fcalls_dump). */
#ifndef ST_COMPILE_FUNCTION_H
#define ST_COMPILE_FUNCTION_H

#include <stdio.h>

#include "front/flat.h"

typedef struct st_fcalls st_fcalls;

/* Arguments of one call (a record input counts one per field: Spice3's MOS temperature
 * function takes several parameter records, well over 128). */
#define ST_FCALL_MAX_ARGS 512

/* A call table for the functions of flat (which must outlive it). NULL when out of memory. */
st_fcalls *st_fcalls_new(const st_flat_model *flat);
void st_fcalls_free(st_fcalls *fc); /* safe on NULL */
/* The same call sites on machines of their own (compiled bodies, pins): one per
 * instance of a compiled program, so instances run in parallel. NULL for NULL fc or when out
 * of memory. */
st_fcalls *st_fcalls_clone(const st_fcalls *fc);

/* Registers one call site with argument shapes ndims[i], dims[4*i..4*i+ndims[i]) for the
 * nargs arguments. Returns the call index, or -1 (out of memory, too many arguments). */
int st_fcalls_add(st_fcalls *fc, int function, int nargs, const int *ndims, const int *dims);
/* A call site for the directional derivative of call site `base` (FX_CALL_DER): it takes
 * base's argument elements followed by as many tangent elements of the same shapes and
 * returns the derivative of base's output along them (st_fcall_dual of base); its own
 * tangent is a difference quotient (base may be a tangent site: a second derivative).
 * Returns the call index, or -1 (out of memory, too many arguments). */
int st_fcalls_add_tangent(st_fcalls *fc, int base);
/* A site returning element `element` (1-based, row-major) of call site k's output, run on
 * the argument elements (and tangents) k took last: it pops nothing (width 0). emit.c puts
 * it after k's OP_CALL in the same straight-line code, so the elements of an array-valued
 * argument cost one evaluation of its own arguments, not one each (nested calls of array
 * functions grew as n^depth). Returns the call index, or -1 (out of memory, k a replay). */
int st_fcalls_add_replay(st_fcalls *fc, int k, int element);
/* A new site like plain site k (its function, argument shapes and compiled bodies) that
 * returns the first output: another output or element of the same call, selected after
 * (emit.c st_emit_again). Returns the call index, or -1 (out of memory, k a tangent or
 * replay site). */
int st_fcalls_add_like(st_fcalls *fc, int k);
/* Makes call `call` return output number `output` (0-based, in declaration order) instead of
 * the first: one element of a tuple equation (a, b) = f(x). -1 when f has fewer outputs. */
int st_fcall_select_output(st_fcalls *fc, int call, int output);
/* Call site k returns element `element` (1-based, row-major) of its array output. */
void st_fcall_select_element(st_fcalls *fc, int k, int element);
/* The number (>= 1) that stands for String constant str on the stack (the same text, the
 * same number): a String input of a call receives the text of the number pushed for it
 * (emit.c pushes strings so; conditional strings are numbers chosen by if). str is borrowed
 * and must outlive fc and its clones. -1 when out of memory. */
int st_fcalls_string(st_fcalls *fc, const char *str);
/* Why function `function` (an external C function) cannot be called: its code could not be
 * built or loaded, its symbol is missing (extlib.h); NULL when it can. */
const char *st_fcalls_external_error(const st_fcalls *fc, int function);
/* Number of scalar values the call pops from the stack. */
int st_fcall_width(const st_fcalls *fc, int call);
/* Calls answered from a site's last arguments and value since fc was made (func_calls.c
 * last_hit): a pure call with the arguments it had last does not run again. */
long st_fcalls_site_hits(const st_fcalls *fc);
/* Sites that took the argument shapes and bodies of an earlier site instead of their own
 * (st_fcalls_add: the function's previous site had the same shapes; st_fcalls_add_like);
 * 0 for NULL. */
long st_fcalls_shapes_shared(const st_fcalls *fc);

/* The first (or selected) output of call `call` for the argument elements args[0..width). NaN when the
 * body cannot be evaluated (an unsupported construct, a failed assert, an index out of
 * range): the solver then rejects the step with a clear message about a NaN residual. */
double st_fcall_eval(st_fcalls *fc, int call, const double *args);
/* The value, and in *dot its directional derivative along dargs: exact through the
 * function's derivative annotation when it has one, else exact forward mode through the
 * compiled body, else (an interpreted body) a one-sided finite difference in
 * the direction dargs: function bodies are piecewise smooth
 * (tempInterpol1 is piecewise linear), so a forward difference with a relative step of
 * sqrt(machine epsilon) is exact on a segment and only needs to be good enough for Newton. */
double st_fcall_dual(st_fcalls *fc, int call, const double *args, const double *dargs,
                     double *dot);

/* What the last compiled call that failed reported ("function 'f' (file:line:col): ..."),
 * "" when none failed since st_fcalls_clear_failure(): added to the located run-time error
 * (runerror.c clears it after every evaluation whose results are all finite). keep: the
 * failure's NaN may still sit in an unknown those results do not hold (an output, with the
 * derivatives checked), so it stays the answer until a newer failure or a clear without keep. */
const char *st_fcalls_failure(const st_fcalls *fc);
void st_fcalls_clear_failure(st_fcalls *fc, int keep);
/* Per function and argument signature: compiled (instructions) or interpreted, and why. */
void st_fcalls_dump(const st_fcalls *fc, FILE *out);

#endif
