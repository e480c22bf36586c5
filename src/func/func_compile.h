/* Modelica functions compiled to a small stack machine (issue 4 item 7), so that a call from
 * the model's bytecode (OP_CALL) does not walk st_fstmt trees, and so that its tangent is
 * exact forward mode instead of a difference quotient.
 *
 * A function is compiled once per argument signature (the shapes of the arrays passed at a
 * call site; Modelica's `table[:, :]` gets its size only there): then every local has a fixed
 * place and shape in a frame of doubles, size(table, 1) is a constant, subscripts are bound
 * checked at run time. Statements become jumps (if, for, while, break, return); a call of
 * another function runs its compiled body in a new frame, up to ST_FVM_MAX_DEPTH nested
 * calls (recursion is bounded, never a crash). Values are computed with the same IEEE
 * operations, in the same order, as the tree walker of front/func_eval.c, so both give the same
 * bits; the tangent pass carries d(value) along every frame slot and stack entry.
 *
 * Arrays: element-wise operators and one-argument built-ins, products of vectors and
 * matrices, sum/product/min/max, zeros/ones/fill/identity of sizes known at compile time,
 * cross, transpose, vector/scalar/matrix (shape only), comprehensions over known ranges and
 * slices with known ranges or index arrays (unrolled). Known at compile time: literals,
 * size(), pinned arguments, bindings of protected locals never reassigned, and operators and
 * calls of functions on those (run on the machine while compiling); an if with a known
 * condition compiles only its branch, a loop over a known empty range nothing. What the
 * compiler does not handle (slices of expressions, sizes that depend on input values it is
 * not given, strings, external C functions, cat/diagonal/linspace) it reports with a reason,
 * and the caller keeps using the tree walker for that function (compile/func_calls.c,
 * --dump). */
#ifndef ST_FUNC_FUNC_COMPILE_H
#define ST_FUNC_FUNC_COMPILE_H

#include <stddef.h>
#include <stdio.h>

#include "front/flat.h"

#define ST_FVM_MAX_ARGS 256 /* a record input counts one per field (Spice3's MOS: 157) */
#define ST_FVM_MAX_PINNED 32 /* the first arguments, the only ones that can be pinned */
#define ST_FVM_MAX_DEPTH 64 /* nested calls, as the tree walker's bound */

/* The shapes of the arguments of one call (ndims 0: a scalar), and the values of the
 * Integer arguments that size arrays of the function (`output Real table[n, 2]`): a body
 * compiled for pinned values may only run on arguments with those values. */
typedef struct st_fsig {
  int nargs;
  int ndims[ST_FVM_MAX_ARGS];
  int dims[ST_FVM_MAX_ARGS][4];
  unsigned pinned;             /* bit i (< ST_FVM_MAX_PINNED): argument i has the value pin[i] */
  double pin[ST_FVM_MAX_PINNED];
} st_fsig;

typedef struct st_fvm st_fvm;

/* A compiler and machine for functions[0..nfunctions) (borrowed). NULL when out of memory. */
st_fvm *st_fvm_new(const st_ffunction *functions, int nfunctions);
void st_fvm_free(st_fvm *vm); /* safe on NULL */

/* Compiles function k for signature sig (and every function it calls). Returns the compiled
 * function's index, or -1 with the reason in why[0..size) ("while loop: ..."). */
int st_fvm_compile(st_fvm *vm, int k, const st_fsig *sig, char *why, size_t size);
/* After st_fvm_compile() refused k for sig because an array's size depends on the value of
 * an argument: that argument's index (pin it and compile again); else -1. */
int st_fvm_wanted_pin(const st_fvm *vm, int k, const st_fsig *sig);
/* st_fvm_compile() for the argument elements x (row-major, as sig), pinning in *sig the
 * scalar arguments whose values size the function's arrays, one after the other, as the
 * compiler asks for them (st_fvm_wanted_pin). The compiled index, or -1 with the reason. */
int st_fvm_compile_for(st_fvm *vm, int k, st_fsig *sig, const double *x, char *why,
                       size_t size);
/* One line per function and signature compiled or refused: "  f(u, table[3, 2]): compiled,
 * 61 instructions" or "...: interpreted (why)". */
void st_fvm_dump(const st_fvm *vm, FILE *out);
/* Instructions of compiled function c. */
int st_fvm_length(const st_fvm *vm, int c);
/* Shape of output number `output` of compiled c: element count, ndims in *ndims; -1 when
 * there is no such output. */
int st_fvm_output_shape(const st_fvm *vm, int c, int output, int *ndims);

/* The dimensions of output number `output` of compiled c in dims; its ndims, -1 when there
 * is no such output. */
int st_fvm_output_dims(const st_fvm *vm, int c, int output, int dims[4]);

/* Runs compiled c on the argument elements x (row-major, as the signature) and writes the
 * elements of output `output` to out (-1: none, the call runs for its asserts). With dx (tangents of x) non-NULL it also writes their
 * tangents to dout. 0, or -1 when the call fails (an error-level assert, a subscript out of
 * range, recursion deeper than ST_FVM_MAX_DEPTH, a runaway loop): st_fvm_failure says what. */
int st_fvm_run(st_fvm *vm, int c, int output, const double *x, const double *dx, double *out,
               double *dout);
/* The same for element `element` (0-based, row-major) of that output only: *y, and its
 * tangent *dy when dx and dy are non-NULL. */
int st_fvm_run_element(st_fvm *vm, int c, int output, int element, const double *x,
                       const double *dx, double *y, double *dy);
/* The last failure ("function 'f' (file:line:col): ..."), "" when none since the last
 * st_fvm_clear_failure(). */
const char *st_fvm_failure(const st_fvm *vm);
/* Records the failure of assert a of function k (run by the tree walker, func_eval.h). -1. */
int st_fvm_assert_failed(st_fvm *vm, int k, const st_fstmt *a);
void st_fvm_clear_failure(st_fvm *vm);

#endif
