/* Internals shared by the function compiler (func_compile.c) and its machine (func_vm.c). */
#ifndef ST_FUNC_FUNC_VM_IMPL_H
#define ST_FUNC_FUNC_VM_IMPL_H

#include "func/external.h"
#include "func/func_compile.h"
#include "util/diag.h"

/* Instructions. The stack holds scalars; an array value is its elements in row-major order
 * (a call pushes its arguments that way and pops them into the callee's frame). */
typedef enum fop {
  F_CONST,   /* push k */
  F_LOAD,    /* push frame[a] */
  F_STORE,   /* pop into frame[a] */
  F_LOADI,   /* pop b subscripts (1-based) of local a, push that element */
  F_STOREI,  /* pop the value, then b subscripts of local a; store the element */
  F_PUSHN,   /* push frame[a .. a+b) */
  F_POPN,    /* pop b values into frame[a .. a+b) */
  F_LOADT,   /* replace the top (a 0-based position) by frame[a + top] */
  F_SLICE,   /* local a[...] with ':' in the dimensions of bit mask b: pops the other
                subscripts, pushes the slice's elements in row-major order */
  F_ADD, F_SUB, F_MUL, F_DIV, F_POW, F_NEG,
  F_CMP,     /* a: FOP_LT .. FOP_NE; pops b, a; pushes 0/1 */
  F_NOT,
  F_FN1,     /* a: st_builtin of one argument, on each of the top b elements (one when b <= 1) */
  F_FN2,     /* a: st_builtin of two arguments */
  F_EW,      /* element-wise a (st_fop) over b elements; k: 0 array op array, 1 scalar op
                array, 2 array op scalar */
  F_NEGN,    /* negate the top b elements */
  F_MATMUL,  /* matrix product: a rows, b inner, k columns; pops A (a*b) and B (b*k), pushes
                A B (a*k elements; a vector is one row or one column) */
  F_REDUCE,  /* a: FB_SUM, FB_PRODUCT, FB_AMIN or FB_AMAX of the top b elements (b >= 1 for
                the last two): pops them, pushes the result */
  F_FILLN,   /* pushes b more copies of the top */
  F_CROSS,   /* pops two 3-vectors, pushes their cross product */
  F_TRANSPOSE, /* the top a x b matrix becomes its b x a transpose */
  F_JZ,      /* pop; jump to a when zero */
  F_JMP,     /* jump to a */
  F_LOOP,    /* jump to a, counting the iteration (a runaway loop fails the call) */
  F_RANGEN,  /* pops stop, step, start: pushes the number of elements of start:step:stop */
  F_ASSERT,  /* pop; 0 fails the call when a (the level) is 0 (error); b: the statement in
                asserts[] (its message, when a string literal, and location) */
  F_CALL,    /* run compiled function a on its popped arguments; push output b, or all
                outputs one after the other when b < 0; k >= 0: the compiled derivative
                function (annotation) that gives the tangents */
  F_EXT,     /* the external entry ext[a] (external.h) on its b popped scalar arguments;
                push its value (its tangent from the library's exact partials) */
  F_CEXT,    /* C code through the hook: the clause cext[a], its b pushed argument elements
                popped; outputs written into the frame (tangents zero) */
  F_SCAT,    /* pops two String numbers, pushes the number of their concatenation */
  F_SCMP,    /* a: FOP_LT .. FOP_NE on the texts of two popped String numbers; pushes 0/1 */
  F_STR,     /* String(x, significantDigits, minimumLength, leftJustified, format): a is the
                st_strfmt_kind; pops the five, pushes the number of the text */
  F_FAILMSG, /* pops a String number: the error-level assert asserts[a] fails with that text */
  F_RET
} fop;

typedef struct fins {
  int op, a, b;
  double k;
} fins;

/* Where a local lives in the frame, and its shape. */
typedef struct lshape {
  int off, n, ndims;
  int dims[4];
} lshape;

#define FVM_MAX_CARGS 64 /* arguments of an external clause (compile/extcall.c's limit) */

/* An external clause of C code as compiled: which of its arguments the machine pushes (the
 * others, locals and records, the marshaller reads from the frame), and their shapes. */
typedef struct fcext {
  int nargs;  /* the clause's, -1: the default form */
  int width;  /* stack elements pushed */
  unsigned char pushed[FVM_MAX_CARGS], is_str[FVM_MAX_CARGS];
  int ndims[FVM_MAX_CARGS], n[FVM_MAX_CARGS];
  int dims[FVM_MAX_CARGS][4];
} fcext;

typedef struct cfn {
  int fn;          /* index in functions[] */
  st_fsig sig;
  int state;       /* 0 being compiled, 1 compiled, -1 not compilable (why) */
  int want_pin;    /* refused for want of the value of this argument, else -1 */
  char why[200];
  lshape *loc;     /* per local of the function, then per temporary of indexed_expr */
  int ntemps;
  int nframe;      /* doubles of the frame (locals and loop temporaries) */
  int given[ST_FVM_MAX_ARGS]; /* the local of argument i */
  int width;       /* argument elements popped by a call */
  int *outs, nout; /* the output locals, in declaration order */
  fins *code;
  int n, cap;
  const st_fstmt **asserts; /* the assert statements, for the failure message */
  int nasserts;
  int sp, maxsp;   /* stack depth while compiling, and its maximum */
  int opaque;      /* C code runs on its way without a derivative annotation: no tangent */
  /* The last top-level run (func_vm.c run_frame): its argument elements, their tangents, then
   * a frame's values and tangents of which only the outputs are kept; memo_kind 0 none, 1
   * values, 2 values and tangents. */
  double *memo;
  int memo_kind;
} cfn;

#define FVM_LEVELS (ST_FVM_MAX_DEPTH + 1)

struct st_fvm {
  const st_ffunction *functions;
  int nfunctions;
  cfn *c;
  int nc, capc;
  double *level[FVM_LEVELS]; /* per call depth: frame, stack and their tangents */
  size_t level_size[FVM_LEVELS];
  long steps;                /* loop iterations of the current top-level call */
  long bodies;               /* bodies run (exec) since the machine was made */
  st_extcall *ext;           /* the external entries the compiled bodies call (F_EXT) */
  int next, capext;
  double *tmp;               /* the tangents a derivative function gave (func_vm.c) */
  size_t tmp_size;
  const char **strings;      /* String values by number - 1 (borrowed texts: literals of the
                                functions, the program's constants; st_fvm_string) */
  int nstrings, capstrings;
  char **made;               /* texts made while running, by -number - 1 (owned; freed at the
                                next top-level run) */
  int nmade, capmade;
  st_fvm_external external;  /* runs C code (F_CEXT), NULL: such calls fail */
  void *external_ctx;
  fcext *cext;               /* the external clauses F_CEXT runs */
  int ncext, capcext;
  st_fval *views;            /* F_CEXT's locals and clause arguments (no C code calls back) */
  int nviews;
  const char **texts;        /* F_CEXT's String arrays as texts */
  int ntexts;
  char *failure; /* malloc'd; NULL when none */
  const st_fstmt *failed_assert; /* the assert the failure reports, or NULL */
  int compiling; /* st_fvm_compile calls under way (callees, values known while compiling) */
};

/* Doubles one activation of f needs: frame and stack, values and tangents. */
static inline size_t st_fvm_need(const cfn *f) {
  return 2 * ((size_t)f->nframe + (size_t)f->maxsp + 1);
}

#endif
