/* Modelica functions compiled to a small stack machine: the one evaluator of function bodies,
 * for the compiled model's OP_CALL (compile/func_calls.c) and for calls while flattening
 * (front/interp.c). A call does not walk st_fstmt trees, and its tangent is exact forward mode
 * instead of a difference quotient.
 *
 * A function is compiled once per argument signature (the shapes of the arrays passed at a
 * call site; Modelica's `table[:, :]` gets its size only there): then every local has a fixed
 * place and shape in a frame of doubles, size(table, 1) is a constant, subscripts are bound
 * checked at run time. Statements become jumps (if, for, while, break, return); a call of
 * another function runs its compiled body in a new frame, up to ST_FVM_MAX_DEPTH nested
 * calls (recursion is bounded, never a crash); the tangent pass carries d(value) along every
 * frame slot and stack entry.
 *
 * Arrays: element-wise operators and one-argument built-ins, products of vectors and
 * matrices, sum/product/min/max, zeros/ones/fill/identity of sizes known at compile time,
 * cross, transpose, vector/scalar/matrix (shape only), comprehensions over known ranges and
 * slices with known ranges or index arrays (unrolled), cat(1, ...). Strings are numbers of
 * texts (st_fvm_string): concatenation, comparison and String() make texts the machine owns
 * until the next top-level call. External functions: those stiction provides run as an
 * instruction (external.h); C code the model brings runs through the hook its user installs
 * (st_fvm_set_external: compile/extcall.c marshals the frame's values for libffi). Known at
 * compile time: literals, size(), pinned arguments, bindings of protected locals never
 * reassigned, and operators and calls of functions on those (run on the machine while
 * compiling); an if with a known condition compiles only its branch, a loop over a known
 * empty range nothing. What the compiler does not handle (slices of expressions, sizes that
 * depend on input values it is not given, arrays of Strings, diagonal/linspace) it reports
 * with a reason, and the call fails with it (compile/func_calls.c, front/interp.c, --dump). */
#ifndef ST_FUNC_FUNC_COMPILE_H
#define ST_FUNC_FUNC_COMPILE_H

#include <stddef.h>
#include <stdio.h>

#include "front/flat.h"

#define ST_FVM_MAX_ARGS 256 /* a record input counts one per field (Spice3's MOS: 157) */
#define ST_FVM_MAX_PINNED 32 /* the first arguments, the only ones that can be pinned */
#define ST_FVM_MAX_DEPTH 64 /* nested calls: deeper recursion fails the call */

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

/* Where argument a starts among the row-major elements of arguments of shapes ndims[i],
 * dims[i] (a signature's, a call site's). */
int st_arg_offset(const int *ndims, const int (*dims)[4], int a);

typedef struct st_fvm st_fvm;

/* A value as external C code gets it (compile/extcall.c maps it to C, Modelica 3.6 section
 * 12.9.1): a scalar, or row-major elements of up to 4 dimensions; Integers and Booleans are
 * held as doubles, a String by its text. */
typedef struct st_fval {
  int ndims;
  int dims[4];
  int n;       /* number of elements */
  double s;    /* the value of a scalar */
  double *d;   /* elements of an array (in the machine's frame or stack), NULL for a scalar */
  const char *str; /* a String scalar's text (read only), else NULL */
  const char **strs; /* a String array's texts, else NULL */
} st_fval;

static inline st_fval st_fval_scalar(double x) {
  st_fval v = {0, {0, 0, 0, 0}, 1, x, 0, 0, 0};
  return v;
}

/* Runs the C code of function k (functions[k].ext set, not an entry stiction provides):
 * locals are its locals over the machine's frame (inputs given, outputs sized and zeroed,
 * arrays in place), args[0..nargs) the values of the external clause's arguments (nargs -1:
 * the default form). The hook writes the outputs into locals (array elements in place; a
 * String output's text must live until the next top-level call). 0, or -1 when the call
 * fails (the hook keeps why). */
typedef int (*st_fvm_external)(void *ctx, int k, st_fval *locals, const st_fval *args,
                               int nargs);
/* Installs the hook; without one a call of C code fails when it runs. */
void st_fvm_set_external(st_fvm *vm, st_fvm_external hook, void *ctx);
/* Whether C code (through the hook) is compiled: fn has an external clause for C code stiction
 * does not provide itself. */
int st_fvm_is_c_code(const st_ffunction *fn);
/* Whether the tangent of compiled c is exact: no C code runs on its way without a derivative
 * annotation (else its tangent counts as zero: the caller differences instead). */
int st_fvm_exact_tangent(const st_fvm *vm, int c);

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
 * 61 instructions" or "...: not compiled (why)". */
void st_fvm_dump(const st_fvm *vm, FILE *out);
/* Instructions of compiled function c. */
int st_fvm_length(const st_fvm *vm, int c);
/* Shape of output number `output` of compiled c: element count, ndims in *ndims; -1 when
 * there is no such output. */
int st_fvm_output_shape(const st_fvm *vm, int c, int output, int *ndims);

/* The dimensions of output number `output` of compiled c in dims; its ndims, -1 when there
 * is no such output. */
int st_fvm_output_dims(const st_fvm *vm, int c, int output, int dims[4]);

/* Strings are values by number: a String local, argument or literal holds the number of its
 * text (1, 2, ...), the same number for the same text. A text made while running
 * (concatenation, String(), a C function's result) has a negative number and lives until the
 * next top-level run (st_fvm_run). st_fvm_string gives the number of str (borrowed: it must
 * outlive the machine), -1 when out of memory; st_fvm_string_text the text of number x, ""
 * for anything else. */
int st_fvm_string(st_fvm *vm, const char *str);
const char *st_fvm_string_text(const st_fvm *vm, double x);
/* Gives `to` the strings of `from` with the same numbers (a clone's machine, before it
 * compiles anything). 0, or -1 when out of memory. */
int st_fvm_copy_strings(st_fvm *to, const st_fvm *from);

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
/* Records a failure of a call of function k the machine could not run (why: the compiler's
 * reason). -1. */
int st_fvm_fail(st_fvm *vm, int k, const char *why);
/* The assert the last failure reports, NULL when it is no assert. */
const st_fstmt *st_fvm_failed_assert(const st_fvm *vm);
void st_fvm_clear_failure(st_fvm *vm);
/* How many bodies the machine has run since it was made (calls answered from a kept last
 * run not counted): what the reuse of results saves, observable. */
long st_fvm_bodies_run(const st_fvm *vm);

#endif
