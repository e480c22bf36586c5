/* The tree-walking evaluator of user function bodies (st_ffunction of flat.h): what the
 * function machine of src/func (func_compile.h) refuses runs here, at flattening time
 * (interp.c) and at the compiled model's OP_CALL (src/compile/func_calls.c: C code through the
 * external hook, operations on strings). To be retired once the machine covers those.
 *
 * Values are real scalars or row-major arrays of up to 4 dimensions; Integers and Booleans
 * are held as doubles. Bodies may use assignments (also to elements and tuples of outputs),
 * if/for/while/break/return, assert, calls of other functions (external C ones through a hook), arrays with subscripts, slices
 * (a[:, j]), `end`, ranges, size(). Anything else (strings, records, external functions,
 * when/reinit/terminate, an error-level assert that fails, a runaway loop) makes the call
 * fail (-1), never a crash. All temporaries live in a scratch pool that the evaluator owns
 * and reuses: the hot path allocates nothing once the pool has grown to the largest call. */
#ifndef ST_FRONT_FEVAL_H
#define ST_FRONT_FEVAL_H

#include "front/flat.h"

typedef struct st_fval {
  int ndims;
  int dims[4];
  int n;       /* number of elements */
  double s;    /* the value of a scalar */
  double *d;   /* elements of an array, NULL for a scalar */
  const char *str; /* a String scalar (constant text or the hook's; read only), else NULL */
  const char **strs; /* a String array: the texts of its elements (d holds zeros), else NULL */
} st_fval;

typedef struct st_feval st_feval;

/* An evaluator for the functions functions[0..nfunctions) (borrowed; calls in the bodies
 * refer to them by index). NULL when out of memory. */
st_feval *st_feval_new(const st_ffunction *functions, int nfunctions);
void st_feval_free(st_feval *fe); /* safe on NULL */

/* Runs the C code of function k (functions[k].ext set): locals are its locals with the inputs
 * given and the outputs sized and zeroed, args[0..nargs) the values of the external clause's
 * arguments (nargs -1: the default call). The hook writes the outputs into locals (array
 * elements in place). 0, or -1 when the call fails. */
typedef int (*st_feval_external)(void *ctx, int k, st_fval *locals, const st_fval *args,
                                 int nargs);
/* Installs the hook (compile/function.c); without one an external function fails the call. */
void st_feval_set_external(st_feval *fe, st_feval_external hook, void *ctx);

/* Runs function k on args (the first nargs inputs; the others take their defaults) and sets
 * *out to its output number `output` (0-based, declaration order; -1: none, the call runs for
 * its asserts). 0, or -1 when the call fails. Arrays in *out live in the scratch pool until
 * the next call. */
int st_feval_call(st_feval *fe, int k, const st_fval *args, int nargs, int output,
                  st_fval *out);

/* The error-level assert that failed the last st_feval_call (in function *function), NULL
 * when it failed otherwise or did not fail. */
const st_fstmt *st_feval_failed_assert(const st_feval *fe, int *function);
/* That assert's message as it evaluated when it failed (String() of the values then), NULL
 * when no assert failed the last call. */
const char *st_feval_failed_message(const st_feval *fe);

/* A scalar value (inline: the evaluator makes one per operation). */
static inline st_fval st_fval_scalar(double x) {
  st_fval v = {0, {0, 0, 0, 0}, 1, x, 0, 0, 0};
  return v;
}

#endif
