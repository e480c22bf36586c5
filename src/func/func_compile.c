/* The function compiler (func_compile.h): st_ffunction bodies to the instructions of
 * func_vm_impl.h, one compiled copy per argument signature. Anything it does not handle is
 * refused with a reason, which the failed call reports. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/func_vm_impl.h"
#include "front/flat_expr.h"

#define MAX_PATCHES 256

typedef struct shape {
  int ndims, n;
  int dims[4];
} shape;

typedef struct cx {
  st_fvm *vm;
  int ci;                /* the function being compiled (vm->c moves while callees compile) */
  const st_ffunction *fn;
  int end;               /* value of `end` in the current subscript, -1 outside */
  int patches[MAX_PATCHES]; /* jumps of `break` waiting for the end of their loop */
  int npatches, loop_base, in_loop;
  int want;              /* an unpinned argument a size needed (static_int), else -1 */
  unsigned char *sizing; /* per local: its binding is being read as a size (pinned_num) */
  double probe;          /* > 0: a local not known now reads as probe (its index + 1) (moving) */
  char *why;
  size_t size;
} cx;

static cfn *cur(cx *c) { return &c->vm->c[c->ci]; }

static int refuse(cx *c, const char *fmt, ...) {
  if (c->why[0]) return -1; /* the innermost reason is the useful one */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->why, c->size, fmt, ap);
  va_end(ap);
  return -1;
}

/* Appends an instruction; delta is its effect on the stack depth. */
static int emit(cx *c, int op, int a, int b, double k, int delta) {
  cfn *f = cur(c);
  if (f->n == f->cap) {
    int cap = f->cap ? 2 * f->cap : 32;
    fins *p = realloc(f->code, (size_t)cap * sizeof *p);
    if (!p) return refuse(c, "out of memory");
    f->code = p;
    f->cap = cap;
  }
  f->code[f->n++] = (fins){op, a, b, k};
  f->sp += delta;
  if (f->sp > f->maxsp) f->maxsp = f->sp;
  return 0;
}

static int here(cx *c) { return cur(c)->n; }
static void patch(cx *c, int at, int target) { cur(c)->code[at].a = target; }

/* A frame region of n doubles for temporaries (loop bounds, tuple outputs). */
static int temp(cx *c, int n) {
  int off = cur(c)->nframe;
  cur(c)->nframe += n;
  return off;
}

static int same_shape(const shape *a, const shape *b) {
  if (a->ndims != b->ndims || a->n != b->n) return 0;
  for (int d = 0; d < a->ndims; d++)
    if (a->dims[d] != b->dims[d]) return 0;
  return 1;
}

static shape local_shape(cx *c, int k) {
  const lshape *l = &cur(c)->loc[k];
  shape s = {l->ndims, l->n, {0, 0, 0, 0}};
  memcpy(s.dims, l->dims, sizeof s.dims);
  return s;
}

static const shape scalar_shape = {0, 1, {0, 0, 0, 0}};

/* ------------------------------------------------------------------ sizes */

static int static_int(cx *c, const st_fexpr *e, int *v);

/* x as an int when it is one (sizes and pinned arguments; the range check first keeps the
 * conversion defined). */
static int as_int(double x, int *v) {
  if (!(x >= -1e9 && x <= 1e9) || x != (double)(int)x) return -1;
  *v = (int)x;
  return 0;
}

static int assigns_expr(const st_fexpr *t, int k) {
  return t && ((t->kind == FX_LOCAL && t->index == k) ||
               (t->kind == FX_INDEX && t->nargs > 0 && assigns_expr(t->args[0], k)));
}

/* Whether some statement of list assigns local k (also as a loop variable). */
static int assigns(const st_fstmt_list *list, int k) {
  for (int i = 0; i < list->n; i++) {
    const st_fstmt *s = list->items[i];
    if (assigns_expr(s->target, k) || (s->kind == FS_FOR && s->loop_local == k)) return 1;
    for (int t = 0; t < s->ntargets; t++)
      if (assigns_expr(s->targets[t], k)) return 1;
    int nb = s->kind == FS_IF ? s->nconds + 1 : s->kind == FS_FOR || s->kind == FS_WHILE;
    for (int b = 0; b < nb; b++)
      if (assigns(&s->branches[b], k)) return 1;
  }
  return 0;
}

static int static_num(cx *c, const st_fexpr *e, double *v);

/* The value of local k when it is an argument pinned by the signature; else -1, noting an
 * unpinned argument in c->want (the caller may pin it and compile again). */
static int pinned_num(cx *c, int k, double *v) {
  const cfn *f = cur(c);
  for (int a = 0; a < f->sig.nargs; a++) {
    if (f->given[a] != k || f->loc[k].off < 0 || f->loc[k].ndims) continue;
    if (a >= ST_FVM_MAX_PINNED) return -1;
    if (!(f->sig.pinned >> a & 1u)) {
      if (c->want < 0) c->want = a;
      return -1;
    }
    *v = f->sig.pin[a];
    return 0;
  }
  /* an input left to its default: inputs are never assigned, so a constant default is
   * the value (nTable = 100); so is the binding of a protected local the body never assigns
   * (m = size(x, 1)) */
  const st_flocal *l = k >= 0 && k < c->fn->nlocals ? &c->fn->locals[k] : NULL;
  if (!l || l->ndims || !l->binding || c->sizing[k]) return -1;
  if (l->causality == ST_C_INPUT ? l->binding->kind == FX_LOCAL
                                 : l->causality != ST_C_NONE || assigns(&c->fn->body, k))
    return -1;
  c->sizing[k] = 1; /* a binding that refers to itself ends here */
  int rc = static_num(c, l->binding, v);
  c->sizing[k] = 0;
  return rc;
}

/* A call of scalar arguments known now (nBase = numberOfSymmetricBaseSystems(m)): the
 * callee compiled for them and run on this machine -- no run is under way while compiling.
 * A failure only means the value is not known now. */
static int static_call(cx *c, const st_fexpr *e, double *v) {
  st_fsig sig;
  double x[ST_FVM_MAX_PINNED];
  if (e->index < 0 || e->index >= c->vm->nfunctions || e->nargs > ST_FVM_MAX_PINNED ||
      c->vm->functions[e->index].external_name)
    return -1;
  memset(&sig, 0, sizeof sig);
  sig.nargs = e->nargs;
  for (int i = 0; i < e->nargs; i++) {
    if (static_num(c, e->args[i], &x[i])) return -1;
    sig.pinned |= 1u << i; /* the values are the signature: a body for these only */
    sig.pin[i] = x[i];
  }
  char why[160];
  int k = st_fvm_compile(c->vm, e->index, &sig, why, sizeof why), nd;
  if (k < 0 || st_fvm_output_shape(c->vm, k, e->op, &nd) != 1 || nd) return -1;
  char *failure = c->vm->failure; /* a failed run is no failure of the caller's run */
  c->vm->failure = NULL;
  int rc = st_fvm_run(c->vm, k, e->op, x, NULL, v, NULL);
  st_fvm_clear_failure(c->vm);
  c->vm->failure = failure;
  return rc;
}

/* An Integer known while compiling (static_num). */
static int static_int(cx *c, const st_fexpr *e, int *v) {
  double x;
  return static_num(c, e, &x) || as_int(x, v);
}

/* A number known while compiling: literals, size() of a local, arguments pinned by the
 * signature and bindings never reassigned (pinned_num), and the operators, relations, and
 * integer()/mod()/div()/abs()... of those, computed by the constant evaluator's and the machine's
 * operations (st_fx_apply_*). */
static int literal_size(const st_fexpr *e, int k);

static int static_num(cx *c, const st_fexpr *e, double *v) {
  double a, b;
  int k, d;
  if (!e) return -1;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM:
    *v = e->value;
    return 0;
  case FX_BUILTIN:
    if (e->op == FB_SIZE) {
      if (e->nargs != 2 || static_int(c, e->args[1], &d)) return -1;
      if (e->args[0]->kind == FX_ARRAY) { /* of a literal (a package's constant table) */
        k = d >= 1 ? literal_size(e->args[0], d - 1) : -1;
        *v = k;
        return k < 0 ? -1 : 0;
      }
      if (e->args[0]->kind != FX_LOCAL) return -1;
      k = e->args[0]->index;
      if (k < 0 || k >= c->fn->nlocals || cur(c)->loc[k].off < 0 || d < 1 ||
          d > cur(c)->loc[k].ndims)
        return -1;
      *v = cur(c)->loc[k].dims[d - 1];
      return 0;
    }
    if (e->op >= FB_SIZE || e->nargs < 1 || e->nargs > 2 || static_num(c, e->args[0], &a))
      return -1;
    if (e->nargs == 1) return st_fx_apply_builtin1((st_builtin)e->op, a, v) ? -1 : 0;
    return static_num(c, e->args[1], &b) || st_fx_apply_builtin2((st_builtin)e->op, a, b, v)
               ? -1 : 0;
  case FX_BINARY:
    if (static_num(c, e->args[0], &a) || static_num(c, e->args[1], &b)) return -1;
    return st_fx_apply_binary((st_fop)e->op, a, b, v) ? -1 : 0;
  case FX_UNARY:
    if (static_num(c, e->args[0], &a)) return -1;
    *v = e->op == FOP_NOT ? a == 0 : -a;
    return 0;
  case FX_LOCAL:
    if (!pinned_num(c, e->index, v)) return 0;
    if (c->probe <= 0) return -1;
    *v = c->probe * (e->index + 1); /* each unknown local its own value */
    return 0;
  case FX_IF: {
    double cond;
    if (e->nargs != 3 || static_num(c, e->args[0], &cond) || isnan(cond)) return -1;
    return static_num(c, e->args[cond != 0 ? 1 : 2], v);
  }
  case FX_END:
    if (c->end < 0) return -1;
    *v = c->end;
    return 0;
  case FX_CALL: return static_call(c, e, v);
  default: return -1;
  }
}

/* The number of elements of start:step:stop when its bounds are known now (as F_RANGEN
 * counts), with the start and step; -1 when not known. */
static int static_range(cx *c, const st_fexpr *r, double *a, double *st) {
  double b;
  *st = 1;
  if (!r || r->kind != FX_RANGE || r->nargs < 2 || static_num(c, r->args[0], a) ||
      (r->nargs == 3 && static_num(c, r->args[1], st)) ||
      static_num(c, r->args[r->nargs - 1], &b) || *st == 0)
    return -1;
  double count = floor((b - *a) / *st + 1e-9) + 1;
  return isnan(count) || count > 4096 ? -1 : count < 0 ? 0 : (int)count;
}

/* ------------------------------------------------------------------ expressions */

static int expr(cx *c, const st_fexpr *e, shape *sh);

static int scalar_expr(cx *c, const st_fexpr *e, const char *what) {
  shape s;
  if (expr(c, e, &s)) return -1;
  return s.ndims == 0 ? 0 : refuse(c, "%s is an array", what);
}

/* `a and b`, `a or b`: the right operand only when the left one does not decide (it may be
 * a subscript that exists only then). Value 0/1. */
static int logical(cx *c, const st_fexpr *e) {
  int is_and = e->op == FOP_AND;
  if (scalar_expr(c, e->args[0], "an operand of and/or")) return -1;
  int jz = here(c);
  if (emit(c, F_JZ, 0, 0, 0, -1)) return -1;
  if (!is_and && emit(c, F_CONST, 0, 0, 1, 1)) return -1;
  if (is_and && (scalar_expr(c, e->args[1], "an operand of and") ||
                 emit(c, F_CONST, 0, 0, 0, 1) || emit(c, F_CMP, FOP_NE, 0, 0, -1)))
    return -1;
  int jmp = here(c);
  if (emit(c, F_JMP, 0, 0, 0, -1)) return -1;
  patch(c, jz, here(c));
  if (is_and && emit(c, F_CONST, 0, 0, 0, 1)) return -1;
  if (!is_and && (scalar_expr(c, e->args[1], "an operand of or") ||
                  emit(c, F_CONST, 0, 0, 0, 1) || emit(c, F_CMP, FOP_NE, 0, 0, -1)))
    return -1;
  patch(c, jmp, here(c));
  return 0;
}

static int scalar_binary(cx *c, int op) {
  if (op >= FOP_LT && op <= FOP_NE) return emit(c, F_CMP, op, 0, 0, -1);
  if (op > FOP_POW) return refuse(c, "operator %d on scalars", op);
  return emit(c, F_ADD + op, 0, 0, 0, -1);
}

/* Stack room for n more values above the top (an instruction's scratch). */
static void reserve(cx *c, int n) {
  cfn *f = cur(c);
  if (f->sp + n > f->maxsp) f->maxsp = f->sp + n;
}

/* a * b of a matrix or vector and a matrix or vector: vector *
 * vector is the scalar product, a vector is a row on the left and a column on the right. */
static int product(cx *c, const shape *a, const shape *b, shape *sh) {
  int k = a->dims[a->ndims - 1];
  if (a->ndims > 2 || b->ndims > 2 || b->dims[0] != k)
    return refuse(c, "a product of arrays of shapes that do not fit");
  int rows = a->ndims == 2 ? a->dims[0] : 1, cols = b->ndims == 2 ? b->dims[1] : 1;
  *sh = scalar_shape;
  sh->ndims = (a->ndims == 2) + (b->ndims == 2);
  sh->dims[0] = a->ndims == 2 ? rows : cols;
  sh->dims[1] = cols;
  sh->n = rows * cols;
  reserve(c, rows * cols);
  return emit(c, F_MATMUL, rows, k, cols, rows * cols - a->n - b->n);
}

/* Arrays element by element: array +- array of equal size, scalar * array, array *
 * scalar, array / scalar, and a scalar .+ .- an array (c[2] .+ 2 c[3] v). */
static int binary(cx *c, const st_fexpr *e, shape *sh) {
  if (e->op == FOP_AND || e->op == FOP_OR) {
    *sh = scalar_shape;
    return logical(c, e);
  }
  shape a, b;
  if (expr(c, e->args[0], &a) || expr(c, e->args[1], &b)) return -1;
  if (a.ndims == 0 && b.ndims == 0) {
    *sh = scalar_shape;
    return scalar_binary(c, e->op);
  }
  if (e->op == FOP_MUL && a.ndims && b.ndims && e->value == 0) return product(c, &a, &b, sh);
  /* value 1: an element-wise operator (.* ./) */
  int mode = a.ndims && b.ndims ? 0 : a.ndims ? 2 : 1, dotted = e->value == 1;
  int ok = (e->op <= FOP_DIV || (e->op == FOP_POW && dotted)) &&
           (mode == 0 ? (e->op == FOP_ADD || e->op == FOP_SUB || dotted) && a.n == b.n
                      : dotted || e->op == FOP_MUL || e->op == FOP_ADD || e->op == FOP_SUB ||
                            (e->op == FOP_DIV && mode == 2));
  if (!ok) return refuse(c, "this array operation (operator %d) at %d:%d", e->op, e->loc.line,
                         e->loc.col);
  *sh = a.ndims ? a : b;
  return emit(c, F_EW, e->op, sh->n, mode, -(mode == 0 ? sh->n : 1));
}

static int unary(cx *c, const st_fexpr *e, shape *sh) {
  if (expr(c, e->args[0], sh)) return -1;
  if (e->op == FOP_NOT)
    return sh->ndims ? refuse(c, "not of an array") : emit(c, F_NOT, 0, 0, 0, 0);
  return sh->ndims ? emit(c, F_NEGN, 0, sh->n, 0, 0) : emit(c, F_NEG, 0, 0, 0, 0);
}

/* sum, product, min, max of one array: a scalar. */
static int reduction(cx *c, const st_fexpr *e) {
  shape a;
  if (e->nargs != 1) return refuse(c, "a reduction of %d arguments", e->nargs);
  if (expr(c, e->args[0], &a)) return -1;
  if (a.n == 0 && (e->op == FB_AMIN || e->op == FB_AMAX))
    return refuse(c, "min or max of an empty array");
  reserve(c, 1);
  return emit(c, F_REDUCE, e->op, a.n, 0, 1 - a.n);
}

/* zeros(n, ...), ones(n, ...), fill(v, n, ...) of sizes known now: the value and copies. */
static int filled(cx *c, const st_fexpr *e, shape *sh) {
  int first = e->op == FB_FILL, nd = e->nargs - first;
  if (nd < 1 || nd > 4) return refuse(c, "an array filled with %d dimensions", nd);
  *sh = scalar_shape;
  sh->ndims = nd;
  for (int d = 0; d < nd; d++) {
    c->want = -1;
    if (static_int(c, e->args[first + d], &sh->dims[d])) {
      cur(c)->want_pin = c->want;
      return refuse(c, "an array filled to sizes that depend on input values");
    }
    if (sh->dims[d] < 0 || sh->dims[d] > 1000000) return refuse(c, "a bad size of a filled array");
    sh->n *= sh->dims[d];
  }
  if (sh->n > 1000000) return refuse(c, "a too large filled array");
  if (sh->n == 0) return 0; /* fill(0, 0): no elements (Media's setState_pTX(p, T, fill(0, 0))) */
  if (first ? scalar_expr(c, e->args[0], "fill's value")
            : emit(c, F_CONST, 0, 0, e->op == FB_ONES, 1))
    return -1;
  return emit(c, F_FILLN, 0, sh->n - 1, 0, sh->n - 1);
}

/* cross(a, b) of two 3-vectors. */
static int cross(cx *c, const st_fexpr *e, shape *sh) {
  shape a, b;
  if (e->nargs != 2) return refuse(c, "cross with %d arguments", e->nargs);
  if (expr(c, e->args[0], &a) || expr(c, e->args[1], &b)) return -1;
  if (a.ndims != 1 || b.ndims != 1 || a.n != 3 || b.n != 3)
    return refuse(c, "cross of something else than two 3-vectors");
  *sh = a;
  return emit(c, F_CROSS, 0, 0, 0, -3);
}

/* identity(n) of an n known at compile time: its elements as constants. */
static int identity(cx *c, const st_fexpr *e, shape *sh) {
  int n;
  c->want = -1;
  if (e->nargs != 1 || static_int(c, e->args[0], &n)) {
    cur(c)->want_pin = c->want;
    return refuse(c, "identity of a size that depends on input values");
  }
  if (n < 1 || n > 64) return refuse(c, "identity(%d)", n);
  *sh = scalar_shape;
  sh->ndims = 2;
  sh->dims[0] = sh->dims[1] = n;
  sh->n = n * n;
  for (int i = 0; i < n * n; i++)
    if (emit(c, F_CONST, 0, 0, i % (n + 1) == 0, 1)) return -1;
  return 0;
}

/* diagonal(v): v's elements in a temporary, the n x n matrix from them and zeros. */
static int diagonal(cx *c, const st_fexpr *e, shape *sh) {
  shape v;
  if (e->nargs != 1 || expr(c, e->args[0], &v)) return e->nargs != 1 ? refuse(c, "diagonal of %d arguments", e->nargs) : -1;
  if (v.ndims != 1 || v.n < 1 || v.n > 64) return refuse(c, "diagonal of something else than a vector");
  int n = v.n, t = temp(c, n);
  if (emit(c, F_POPN, t, n, 0, -n)) return -1;
  *sh = (shape){2, n * n, {n, n, 0, 0}};
  for (int i = 0; i < n * n; i++)
    if (i % (n + 1) ? emit(c, F_CONST, 0, 0, 0, 1) : emit(c, F_LOAD, t + i / (n + 1), 0, 0, 1))
      return -1;
  return 0;
}

/* linspace(x1, x2, n) of an n known now: x1 + (x2 - x1) i / (n - 1), element by element. */
static int linspace(cx *c, const st_fexpr *e, shape *sh) {
  int n, t = temp(c, 2);
  c->want = -1;
  if (e->nargs != 3 || static_int(c, e->args[2], &n)) {
    cur(c)->want_pin = c->want;
    return refuse(c, "linspace of a count that depends on input values");
  }
  if (n < 2 || n > 4096) return refuse(c, "linspace of %d points", n);
  if (scalar_expr(c, e->args[0], "linspace's start") || emit(c, F_STORE, t, 0, 0, -1) ||
      scalar_expr(c, e->args[1], "linspace's end") || emit(c, F_STORE, t + 1, 0, 0, -1))
    return -1;
  *sh = (shape){1, n, {n, 0, 0, 0}};
  for (int i = 0; i < n; i++)
    if (emit(c, F_LOAD, t, 0, 0, 1) || emit(c, F_LOAD, t + 1, 0, 0, 1) ||
        emit(c, F_LOAD, t, 0, 0, 1) || emit(c, F_SUB, 0, 0, 0, -1) ||
        emit(c, F_CONST, 0, 0, i, 1) || emit(c, F_MUL, 0, 0, 0, -1) ||
        emit(c, F_CONST, 0, 0, n - 1, 1) || emit(c, F_DIV, 0, 0, 0, -1) ||
        emit(c, F_ADD, 0, 0, 0, -1))
      return -1;
  return 0;
}

/* vector(a), scalar(a), matrix(a) keep the elements in their order (only the shape changes,
 * row-major); transpose(a) moves them. */
static int reshaped(cx *c, const st_fexpr *e, shape *sh) {
  shape a;
  if (e->nargs != 1) return refuse(c, "builtin %d with %d arguments", e->op, e->nargs);
  if (expr(c, e->args[0], &a)) return -1;
  *sh = scalar_shape;
  switch (e->op) {
  case FB_SCALAR: return a.n == 1 ? 0 : refuse(c, "scalar() of %d elements", a.n);
  case FB_VECTOR:
    sh->ndims = 1;
    sh->n = sh->dims[0] = a.n;
    return 0;
  case FB_MATRIX:
    sh->ndims = 2;
    sh->dims[0] = a.ndims >= 1 ? a.dims[0] : 1;
    sh->dims[1] = a.ndims >= 2 ? a.dims[1] : 1;
    sh->n = a.n;
    return sh->dims[0] * sh->dims[1] == a.n ? 0 : refuse(c, "matrix() of more dimensions");
  default:
    if (a.ndims != 2) return refuse(c, "transpose of %d dimensions", a.ndims);
    sh->ndims = 2;
    sh->dims[0] = a.dims[1];
    sh->dims[1] = a.dims[0];
    sh->n = a.n;
    reserve(c, a.n);
    return emit(c, F_TRANSPOSE, a.dims[0], a.dims[1], 0, 0);
  }
}

/* {body for i in a:s:b} of a range known now: unrolled, the loop local set before each
 * item (items of one shape). */
static int comprehension(cx *c, const st_fexpr *e, shape *sh) {
  const st_fexpr *r = e->nargs == 2 ? e->args[1] : NULL;
  int lv = e->index, a, st = 1, b;
  if (!r || r->kind != FX_RANGE || r->nargs < 2 || lv < 0 || lv >= c->fn->nlocals ||
      cur(c)->loc[lv].ndims)
    return refuse(c, "an array comprehension over something else than a range");
  c->want = -1;
  if (static_int(c, r->args[0], &a) || (r->nargs == 3 && static_int(c, r->args[1], &st)) ||
      static_int(c, r->args[r->nargs - 1], &b)) {
    cur(c)->want_pin = c->want;
    return refuse(c, "an array comprehension over a range that depends on input values");
  }
  if (st == 0) return refuse(c, "a range of step 0");
  double count = floor((double)(b - a) / st + 1e-9) + 1; /* as ev_range */
  long n = count < 1 ? 0 : count > 1024 ? 1025 : (long)count;
  if (n < 1 || n > 1024) return refuse(c, "an array comprehension of %ld items", n);
  shape first, s;
  for (long i = 0; i < n; i++) {
    if (emit(c, F_CONST, 0, 0, a + (double)i * st, 1) ||
        emit(c, F_STORE, cur(c)->loc[lv].off, 0, 0, -1) || expr(c, e->args[0], i ? &s : &first))
      return -1;
    if (i && !same_shape(&s, &first)) return refuse(c, "a comprehension of items of two shapes");
  }
  if (first.ndims > 2) return refuse(c, "a comprehension of arrays of more than 2 dimensions");
  *sh = (shape){first.ndims + 1, (int)n * first.n, {(int)n, 0, 0, 0}};
  for (int d = 0; d < first.ndims; d++) sh->dims[d + 1] = first.dims[d];
  return 0;
}

/* cat(1, a, b, ...): along the first dimension the result's row-major elements are those of
 * a, then b, ...; the other dimensions equal. */
/* cat(k, a, b, ...) along k > 1 ([a, b] of columns in a function: cat(2, matrix(a), ...)):
 * the parts in temporaries, then the result's elements loaded in row-major order. */
static int cat_inner(cx *c, const st_fexpr *e, int k, shape *sh) {
  int np = e->nargs - 1, off[64];
  shape p[64];
  if (np > 64) return refuse(c, "cat of more than 64 arrays");
  for (int i = 0; i < np; i++) {
    if (expr(c, e->args[i + 1], &p[i])) return -1;
    if (p[i].ndims < k || p[i].ndims != p[0].ndims)
      return refuse(c, "cat(%d, ...) of arrays of other dimensions", k);
    for (int d = 0; d < p[i].ndims; d++)
      if (d != k - 1 && p[i].dims[d] != p[0].dims[d])
        return refuse(c, "cat(%d, ...) of arrays of other sizes", k);
    off[i] = temp(c, p[i].n);
    if (emit(c, F_POPN, off[i], p[i].n, 0, -p[i].n)) return -1;
  }
  *sh = p[0];
  for (int i = 1; i < np; i++) sh->dims[k - 1] += p[i].dims[k - 1], sh->n += p[i].n;
  if (sh->n > 100000) return refuse(c, "a too large cat");
  int outer = 1, inner = 1;
  for (int d = 0; d < k - 1; d++) outer *= sh->dims[d];
  for (int d = k; d < sh->ndims; d++) inner *= sh->dims[d];
  for (int o = 0; o < outer; o++)
    for (int i = 0; i < np; i++) {
      int len = p[i].dims[k - 1] * inner;
      for (int j = 0; j < len; j++)
        if (emit(c, F_LOAD, off[i] + o * len + j, 0, 0, 1)) return -1;
    }
  return 0;
}

static int cat(cx *c, const st_fexpr *e, shape *sh) {
  int k;
  if (e->nargs < 2 || static_int(c, e->args[0], &k) || k < 1 || k > 4)
    return refuse(c, "cat along a dimension not known when compiling");
  if (k > 1) return cat_inner(c, e, k, sh);
  for (int i = 1; i < e->nargs; i++) {
    shape a;
    if (expr(c, e->args[i], &a)) return -1;
    if (i == 1) *sh = a;
    else sh->n += a.n, sh->dims[0] += a.dims[0];
    int same = a.ndims == sh->ndims;
    for (int d = 1; d < a.ndims && same; d++) same = a.dims[d] == sh->dims[d];
    if (!a.ndims || !same) return refuse(c, "cat of scalars or of arrays of other shapes");
  }
  return 0;
}

static int shape_of(cx *c, const st_fexpr *e, shape *sh);

/* size(f(x), d) of an expression: its shape compiled and the code dropped. */
static int expr_size(cx *c, const st_fexpr *e, int *v) {
  shape a;
  int d;
  if (e->nargs != 2 || static_int(c, e->args[1], &d) || shape_of(c, e->args[0], &a) || d < 1 ||
      d > a.ndims)
    return -1;
  *v = a.dims[d - 1];
  return 0;
}

static int builtin(cx *c, const st_fexpr *e, shape *sh) {
  double r;
  int v;
  *sh = scalar_shape;
  switch (e->op) {
  case FB_SIZE:
    if (static_int(c, e, &v) && expr_size(c, e, &v))
      return refuse(c, "size() of something else than a local");
    return emit(c, F_CONST, 0, 0, v, 1);
  case FB_NOEVENT: case FB_SMOOTH: case FB_HOMOTOPY:
    if (!e->nargs) return refuse(c, "builtin without arguments");
    return expr(c, e->args[e->op == FB_SMOOTH ? e->nargs - 1 : 0], sh);
  case FB_SUM: case FB_PRODUCT: case FB_AMIN: case FB_AMAX: return reduction(c, e);
  case FB_ZEROS: case FB_ONES: case FB_FILL: return filled(c, e, sh);
  case FB_CROSS: return cross(c, e, sh);
  case FB_CAT: return cat(c, e, sh);
  case FB_IDENTITY: return identity(c, e, sh);
  case FB_DIAGONAL: return diagonal(c, e, sh);
  case FB_LINSPACE: return linspace(c, e, sh);
  case FB_VECTOR: case FB_SCALAR: case FB_MATRIX: case FB_TRANSPOSE: return reshaped(c, e, sh);
  case FB_COMPREHENSION: return comprehension(c, e, sh);
  case FB_NDIMS: case FB_SIZES: {
    /* of a local: its shape is fixed by the signature */
    const st_fexpr *a = e->nargs == 1 ? e->args[0] : NULL;
    if (!a || a->kind != FX_LOCAL || a->index < 0 || a->index >= c->fn->nlocals)
      return refuse(c, "ndims() or size() of something else than a local");
    const lshape *l = &cur(c)->loc[a->index];
    if (e->op == FB_NDIMS) return emit(c, F_CONST, 0, 0, l->ndims, 1);
    if (l->ndims == 0) return refuse(c, "size() of a scalar");
    *sh = (shape){1, l->ndims, {l->ndims, 0, 0, 0}};
    for (int d = 0; d < l->ndims; d++)
      if (emit(c, F_CONST, 0, 0, l->dims[d], 1)) return -1;
    return 0;
  }
  default: break;
  }
  if (e->nargs == 1 && st_fx_apply_builtin1((st_builtin)e->op, 1, &r) == 0) {
    /* element-wise on an array (cos(phi)) */
    if (expr(c, e->args[0], sh)) return -1;
    return sh->n == 0 ? refuse(c, "a builtin of an empty array")
                      : emit(c, F_FN1, e->op, sh->n, 0, 0);
  }
  if (e->nargs == 2 && st_fx_apply_builtin2((st_builtin)e->op, 1, 1, &r) == 0 &&
      e->op != FB_HOMOTOPY)
    return scalar_expr(c, e->args[0], "a builtin's argument") ||
           scalar_expr(c, e->args[1], "a builtin's argument") ||
           emit(c, F_FN2, e->op, 0, 0, -1);
  return refuse(c, "builtin %d with %d arguments in a function", e->op, e->nargs);
}

/* Pushes the arguments of a call, compiles the callee for their shapes; the callee index. */
static int callee(cx *c, const st_fexpr *e, st_fsig *out) {
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  if (e->nargs > ST_FVM_MAX_ARGS || e->index < 0 || e->index >= c->vm->nfunctions)
    return refuse(c, "a call with more than %d arguments", ST_FVM_MAX_ARGS);
  sig.nargs = e->nargs;
  for (int i = 0; i < e->nargs; i++) {
    shape s;
    if (expr(c, e->args[i], &s)) return -1;
    sig.ndims[i] = s.ndims;
    memcpy(sig.dims[i], s.dims, sizeof s.dims);
  }
  char why[160] = "";
  int k = st_fvm_compile(c->vm, e->index, &sig, why, sizeof why);
  /* a callee sized by an argument's value: pin it when that value is known here (a
   * constant, size(), or an argument of ours that is pinned), else ask our caller to pin
   * the argument of ours it comes from */
  for (int p, tries = 0; k < 0 && tries < ST_FVM_MAX_ARGS &&
                         (p = st_fvm_wanted_pin(c->vm, e->index, &sig)) >= 0; tries++) {
    int v;
    c->want = -1;
    if (static_int(c, e->args[p], &v)) {
      cur(c)->want_pin = c->want;
      break;
    }
    sig.pinned |= 1u << p;
    sig.pin[p] = v;
    k = st_fvm_compile(c->vm, e->index, &sig, why, sizeof why);
  }
  if (k < 0)
    return refuse(c, "calls %s, which is not compiled (%s)", c->vm->functions[e->index].name,
                  why);
  *out = sig;
  return k;
}

static int find(const st_fvm *vm, int k, const st_fsig *sig);

static const cfn *find_compiled(const st_fvm *vm, int k, const st_fsig *sig) {
  int i = find(vm, k, sig);
  return i >= 0 ? &vm->c[i] : NULL;
}

/* annotation(derivative = f_der) of the callee keeps precedence over the tangent of its
 * body (Modelica 3.6 section 12.7.1): f_der compiled for the call's shapes, its inputs the
 * arguments and then the tangents of the inputs that have one. -1 (the body's tangent) when
 * the callee has none, the call leaves inputs to their defaults, or f_der does not compile. */
static int derivative_of(cx *c, const st_fexpr *e, const st_fsig *sig) {
  const st_ffunction *fn = &c->vm->functions[e->index];
  if (!fn->derivative || !fn->has_derivative) return -1;
  st_fsig d = *sig;
  int a = 0;
  d.pinned = 0;
  for (int i = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    if (a >= sig->nargs) return -1;
    if (fn->has_derivative[i]) {
      if (d.nargs == ST_FVM_MAX_ARGS) return -1;
      d.ndims[d.nargs] = sig->ndims[a];
      memcpy(d.dims[d.nargs++], sig->dims[a], sizeof d.dims[0]);
    }
    a++;
  }
  char why[160];
  int k = st_fvm_compile(c->vm, fn->derivative - 1, &d, why, sizeof why);
  const cfn *g = k >= 0 ? find_compiled(c->vm, e->index, sig) : NULL, *der = k >= 0 ? &c->vm->c[k] : NULL;
  if (!g || der->nout != g->nout) return -1;
  for (int i = 0; i < g->nout; i++) /* its tangents fill the outputs' places (func_vm.c) */
    if (der->loc[der->outs[i]].n != g->loc[g->outs[i]].n) return -1;
  return k;
}

static int emit_external(cx *c, const st_extcall *x, int nargs);
static int is_string(const cx *c, const st_fexpr *e);

/* A call of an external function stiction provides (external.h): bound here, once per call
 * site, to an entry the machine runs directly (F_EXT); every argument a scalar. */
static int external_call(cx *c, const st_fexpr *e, shape *sh) {
  const st_ffunction *fn = &c->vm->functions[e->index];
  st_extcall x;
  char why[1024];
  for (int i = 0; i < e->nargs; i++) {
    if (is_string(c, e->args[i])) return refuse(c, "a String argument of an external function");
    if (scalar_expr(c, e->args[i], "an argument of an external function")) return -1;
  }
  if (st_extcall_bind(&x, fn, e->nargs, why, sizeof why)) return refuse(c, "%s", why);
  *sh = (shape){0, 1, {0, 0, 0, 0}};
  return emit_external(c, &x, e->nargs);
}

/* Its instruction: the bound entry x on the top nargs stack elements. */
static int emit_external(cx *c, const st_extcall *x, int nargs) {
  st_fvm *vm = c->vm;
  if (vm->next == vm->capext) {
    int cap = vm->capext ? 2 * vm->capext : 8;
    st_extcall *p = realloc(vm->ext, (size_t)cap * sizeof *p);
    if (!p) return refuse(c, "out of memory");
    vm->ext = p;
    vm->capext = cap;
  }
  vm->ext[vm->next] = *x;
  return emit(c, F_EXT, vm->next++, nargs, 0, 1 - nargs);
}

/* Whether e calls an external function stiction provides (bound inline, F_EXT). */
static int provided_call(const cx *c, const st_fexpr *e) {
  if (e->index < 0 || e->index >= c->vm->nfunctions) return 0;
  const st_ffunction *g = &c->vm->functions[e->index];
  return g->external_name && !st_fvm_is_c_code(g);
}

/* After a call of compiled g without a derivative function: C code on g's way makes ours. */
static void note_opaque(cx *c, int g, int der) {
  if (der < 0 && c->vm->c[g].opaque) cur(c)->opaque = 1;
}

/* The shape of e compiled and the code dropped (the reason of a refusal too); 0, or -1 when
 * it does not compile. */
static int shape_of(cx *c, const st_fexpr *e, shape *sh) {
  int n = cur(c)->n, sp = cur(c)->sp, want = c->want;
  int rc = expr(c, e, sh);
  cur(c)->n = n;
  cur(c)->sp = sp;
  c->want = want;
  c->why[0] = '\0';
  return rc;
}

/* The declared ndims of the callee's input number a, -1 when there is none. */
static int input_ndims(const st_ffunction *g, int a) {
  for (int i = 0, k = 0; i < g->nlocals; i++)
    if (g->locals[i].causality == ST_C_INPUT && k++ == a) return g->locals[i].ndims;
  return -1;
}

static int nloc(const cx *c);
static int slice_of(const st_fexpr *e);
static int index_vector_of(const st_fexpr *e);

/* Whether e may be an array (cheap, conservative: only those are compiled for their shape). */
static int maybe_array(const cx *c, const st_fexpr *e) {
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: case FX_STRING: case FX_END: return 0;
  case FX_LOCAL:
    return e->index < 0 || e->index >= nloc(c) || cur((cx *)c)->loc[e->index].ndims != 0;
  case FX_INDEX: return slice_of(e) || index_vector_of(e);
  case FX_CALL: {
    if (e->index < 0 || e->index >= c->vm->nfunctions) return 1;
    const st_ffunction *g = &c->vm->functions[e->index];
    for (int i = 0, o = 0; i < g->nlocals; i++)
      if (g->locals[i].causality == ST_C_OUTPUT && o++ == e->op && g->locals[i].ndims) return 1;
    break;
  }
  case FX_BUILTIN:
    if (e->op == FB_SIZE || e->op == FB_NDIMS) return 0;
    if (e->op == FB_SUM || e->op == FB_PRODUCT || ((e->op == FB_AMIN || e->op == FB_AMAX) &&
                                                   e->nargs == 1))
      return 0;
    if (e->op >= FB_SIZE) return 1; /* the array built-ins */
    break;
  case FX_BINARY: case FX_UNARY: case FX_IF: break;
  default: return 1;
  }
  for (int i = e->kind == FX_IF; i < e->nargs; i++)
    if (maybe_array(c, e->args[i])) return 1;
  return 0;
}

/* f(v) of a scalar function on an array v (Modelica 3.6 section 12.4.6: to_deg(Phi[1:n])):
 * the arguments in temporaries, then one call per element of the vectorized ones (of one
 * shape), the others passed whole each time. 1 when e is no such call. */
static int vectorized_call(cx *c, const st_fexpr *e, shape *sh) {
  const st_ffunction *g = &c->vm->functions[e->index];
  int n = e->nargs, vec = 0, off[ST_FVM_MAX_ARGS];
  shape a[ST_FVM_MAX_ARGS], v = scalar_shape;
  if (n > 16 || n < 1) return 1;
  for (int i = 0; i < n; i++) {
    if (input_ndims(g, i) != 0 || !maybe_array(c, e->args[i]) || shape_of(c, e->args[i], &a[i]) ||
        !a[i].ndims)
      continue;
    if (vec && !same_shape(&a[i], &v)) return 1;
    v = a[i];
    vec |= 1 << i;
  }
  if (!vec) return 1;
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = n;
  for (int i = 0; i < n; i++) {
    if (expr(c, e->args[i], &a[i])) return -1;
    off[i] = temp(c, a[i].n);
    if (emit(c, F_POPN, off[i], a[i].n, 0, -a[i].n)) return -1;
    if (vec >> i & 1) continue;
    sig.ndims[i] = a[i].ndims;
    memcpy(sig.dims[i], a[i].dims, sizeof sig.dims[i]);
  }
  char why[160];
  int k = st_fvm_compile(c->vm, e->index, &sig, why, sizeof why), o = e->op, nd;
  if (k < 0) return refuse(c, "calls %s element-wise, which is not compiled (%s)", g->name, why);
  if (st_fvm_output_shape(c->vm, k, o, &nd) != 1 || nd)
    return refuse(c, "calls %s element-wise for an output that is no scalar", g->name);
  note_opaque(c, k, -1);
  for (int el = 0; el < v.n; el++) {
    for (int i = 0; i < n; i++)
      if (vec >> i & 1 ? emit(c, F_LOAD, off[i] + el, 0, 0, 1)
                       : emit(c, F_PUSHN, off[i], a[i].n, 0, a[i].n))
        return -1;
    if (emit(c, F_CALL, k, o, -1, 1 - c->vm->c[k].width)) return -1;
  }
  *sh = v;
  return 0;
}

static int call_expr(cx *c, const st_fexpr *e, shape *sh) {
  if (provided_call(c, e)) return external_call(c, e, sh);
  int rc = e->index >= 0 && e->index < c->vm->nfunctions ? vectorized_call(c, e, sh) : 1;
  if (rc <= 0) return rc;
  st_fsig sig;
  int k = callee(c, e, &sig), o = e->op; /* op: the output it stands for (a record's field) */
  if (k < 0) return -1;
  int der = derivative_of(c, e, &sig);
  const cfn *g = &c->vm->c[k];
  if (g->state == 0 && !g->nout) return refuse(c, "recursion before the outputs are known");
  if (o < 0 || o >= g->nout) return refuse(c, "calls a function without output %d", o + 1);
  *sh = (shape){g->loc[g->outs[o]].ndims, g->loc[g->outs[o]].n, {0, 0, 0, 0}};
  memcpy(sh->dims, g->loc[g->outs[o]].dims, sizeof sh->dims);
  note_opaque(c, k, der);
  return emit(c, F_CALL, k, o, der, sh->n - g->width);
}

static int static_cond(cx *c, const st_fexpr *e);

/* `if size(X, 1) == nX then X else cat(1, X, {1 - sum(X)})`: a condition known now compiles
 * only its branch (the other may have another shape); else both, of one shape. */
static int if_expr(cx *c, const st_fexpr *e, shape *sh) {
  shape b;
  int known = static_cond(c, e->args[0]);
  if (known >= 0) return expr(c, e->args[known ? 1 : 2], sh);
  if (scalar_expr(c, e->args[0], "a condition")) return -1;
  int jz = here(c);
  if (emit(c, F_JZ, 0, 0, 0, -1) || expr(c, e->args[1], sh)) return -1;
  int jmp = here(c);
  if (emit(c, F_JMP, 0, 0, 0, 0)) return -1;
  cur(c)->sp -= sh->n;
  patch(c, jz, here(c));
  if (expr(c, e->args[2], &b)) return -1;
  patch(c, jmp, here(c));
  return same_shape(sh, &b) ? 0 : refuse(c, "if-expression with branches of two shapes");
}

/* {a, b, c}: the elements one after the other (items of equal shape, up to matrices). */
static int array_expr(cx *c, const st_fexpr *e, shape *sh) {
  shape first, s;
  if (e->nargs <= 0 || e->nargs > 1000000) return refuse(c, "an empty array");
  for (int i = 0; i < e->nargs; i++) {
    if (expr(c, e->args[i], i ? &s : &first)) return -1;
    if (i && !same_shape(&s, &first)) return refuse(c, "an array of items of two shapes");
  }
  if (first.ndims > 2) return refuse(c, "an array of arrays of more than 2 dimensions");
  *sh = (shape){first.ndims + 1, e->nargs * first.n, {e->nargs, 0, 0, 0}};
  for (int d = 0; d < first.ndims; d++) sh->dims[d + 1] = first.dims[d];
  return 0;
}

static int is_colon(const st_fexpr *s) { return s->kind == FX_RANGE && s->nargs == 0; }

/* Locals and the temporaries that hold subscripted expressions (indexed_expr), and a name. */
static int nloc(const cx *c) { return c->fn->nlocals + cur((cx *)c)->ntemps; }
static const char *lname(const cx *c, int k) {
  return k < c->fn->nlocals ? c->fn->locals[k].name : "an expression";
}

/* The subscripts of local[...] on the stack; `end` is the size of each dimension. */
static int subscripts(cx *c, const st_fexpr *e, int *local) {
  if (e->args[0]->kind != FX_LOCAL) return refuse(c, "a subscript of an expression");
  int k = e->args[0]->index;
  if (k < 0 || k >= nloc(c)) return refuse(c, "a bad local");
  const lshape *l = &cur(c)->loc[k];
  if (l->ndims == 0 || e->nargs - 1 != l->ndims)
    return refuse(c, "'%s' subscripted with %d indices", lname(c, k), e->nargs - 1);
  int saved = c->end;
  for (int d = 0; d < l->ndims; d++) {
    if (is_colon(e->args[d + 1])) return refuse(c, "a slice of '%s'", lname(c, k));
    c->end = cur(c)->loc[k].dims[d];
    int rc = scalar_expr(c, e->args[d + 1], "a subscript");
    c->end = saved;
    if (rc) return -1;
  }
  *local = k;
  return 0;
}

/* The frame offset of local[i, j] when every subscript is a literal in range (IF97's
 * o[17] := o[3]*o[14]: hundreds per call), for a plain F_LOAD/F_STORE; -1 otherwise (the
 * subscripts are computed and checked when running). */
static int fixed_element(cx *c, const st_fexpr *e) {
  if (e->nargs < 2 || e->args[0]->kind != FX_LOCAL) return -1;
  int k = e->args[0]->index;
  if (k < 0 || k >= nloc(c)) return -1;
  const lshape *l = &cur(c)->loc[k];
  if (l->ndims != e->nargs - 1) return -1;
  int o = 0;
  for (int d = 0; d < l->ndims; d++) {
    const st_fexpr *x = e->args[d + 1];
    if (x->kind != FX_REAL || !(x->value >= 1 && x->value <= l->dims[d]) ||
        x->value != (double)(int)x->value)
      return -1;
    o = o * l->dims[d] + (int)x->value - 1;
  }
  return l->off + o;
}

static int slice_of(const st_fexpr *e) {
  for (int d = 1; d < e->nargs; d++)
    if (is_colon(e->args[d])) return 1;
  return 0;
}

/* A range or an array of indices (v[2:3], o[1:mBase:m], v[{1, 3}]) among the subscripts. */
static int index_vector_of(const st_fexpr *e) {
  for (int d = 1; d < e->nargs; d++)
    if ((e->args[d]->kind == FX_RANGE && e->args[d]->nargs) || e->args[d]->kind == FX_ARRAY)
      return 1;
  return 0;
}

#define MAX_PICKS 4096 /* indices of one dimension of an unrolled slice (A[1:nfi] of an FFT) */

#define MOVING (-1000000000) /* idx[0] of a range whose start is known only when running */

/* A range a:s:b over values known only when running (state[i - 2:i - 1] in a loop over i) of a
 * known step and a known b - a: its count, the step in *step; -1 when either is not known.
 * b - a is known when it comes out the same with the unknown locals read as two sets of
 * values (each local its own). */
static int moving_range(cx *c, const st_fexpr *s, int *step) {
  double a[2], b[2], st = 1;
  int want = c->want, rc = s->nargs < 2 || (s->nargs == 3 && static_num(c, s->args[1], &st)) ||
                           st == 0 || as_int(st, step);
  for (int p = 0; p < 2 && !rc; p++) {
    c->probe = p ? 7.25 : 3.5;
    rc = static_num(c, s->args[0], &a[p]) || static_num(c, s->args[s->nargs - 1], &b[p]);
  }
  c->probe = 0;
  c->want = want;
  if (rc || b[0] - a[0] != b[1] - a[1] || a[0] == a[1]) return -1;
  double count = floor((b[0] - a[0]) / st + 1e-9) + 1;
  return count >= 1 && count <= MAX_PICKS ? (int)count : -1;
}

/* The 1-based indices a subscript of dimension size dim selects when they are known now:
 * ':' all, a range or an array of known values (`end` = dim); their number, 0 for a scalar
 * subscript, -1 refused. */
static int picks(cx *c, const st_fexpr *s, int dim, int *idx) {
  double a, st = 1, b;
  int n = 0, saved = c->end, rc = 0;
  if (s->kind != FX_RANGE && s->kind != FX_ARRAY) return 0;
  c->end = dim;
  c->want = -1;
  if (is_colon(s)) {
    for (n = 0; n < dim && n < MAX_PICKS; n++) idx[n] = n + 1;
    rc = dim > MAX_PICKS;
  } else if (s->kind == FX_RANGE) {
    rc = s->nargs < 2 || static_num(c, s->args[0], &a) ||
         (s->nargs == 3 && static_num(c, s->args[1], &st)) ||
         static_num(c, s->args[s->nargs - 1], &b) || st == 0;
    double count = rc ? 0 : floor((b - a) / st + 1e-9) + 1; /* as F_RANGEN */
    if (rc && (n = moving_range(c, s, &idx[1])) > 0) { /* its indices computed when running */
      c->end = saved;
      idx[0] = MOVING;
      return n;
    }
    rc = rc || count > MAX_PICKS;
    for (n = 0; !rc && n < count; n++) rc = as_int(a + n * st, &idx[n]);
  } else {
    rc = s->nargs > MAX_PICKS;
    for (n = 0; !rc && n < s->nargs; n++) rc = static_int(c, s->args[n], &idx[n]);
  }
  c->end = saved;
  for (int i = 0; !rc && i < n; i++) rc = idx[i] < 1 || idx[i] > dim;
  if (!rc) return n ? n : -1; /* an empty selection is not compiled */
  cur(c)->want_pin = c->want;
  return refuse(c, "a slice whose indices are not known when compiling");
}

/* The selected indices of every dimension of local[...] (0 picks: a scalar subscript); the
 * number of elements, -1 when refused. */
static int slice_picks(cx *c, const st_fexpr *e, int *local, int idx[4][MAX_PICKS],
                       int *count) {
  if (e->args[0]->kind != FX_LOCAL || e->args[0]->index < 0 ||
      e->args[0]->index >= nloc(c))
    return refuse(c, "a slice of an expression");
  int k = *local = e->args[0]->index, total = 1;
  const lshape *l = &cur(c)->loc[k];
  if (l->ndims == 0 || e->nargs - 1 != l->ndims)
    return refuse(c, "'%s' subscripted with %d indices", lname(c, k), e->nargs - 1);
  for (int d = 0; d < l->ndims; d++) {
    if ((count[d] = picks(c, e->args[d + 1], l->dims[d], idx[d])) < 0) return -1;
    if (count[d]) total *= count[d];
  }
  return total;
}

/* The subscripts of element `at` (row-major over the picked dimensions) of a slice: known
 * indices as constants, the scalar subscripts evaluated again (they are pure). */
static int picked_subscripts(cx *c, const st_fexpr *e, int k, int idx[4][MAX_PICKS],
                             const int *count, int at) {
  int nd = cur(c)->loc[k].ndims, pos[4] = {0, 0, 0, 0}, saved = c->end;
  for (int d = nd - 1; d >= 0; d--)
    if (count[d]) {
      pos[d] = at % count[d];
      at /= count[d];
    }
  for (int d = 0; d < nd; d++) {
    if (count[d] && idx[d][0] == MOVING) { /* start + pos step, the start evaluated again */
      c->end = cur(c)->loc[k].dims[d];
      int rc = scalar_expr(c, e->args[d + 1]->args[0], "a range's start") ||
               emit(c, F_CONST, 0, 0, (double)pos[d] * idx[d][1], 1) ||
               emit(c, F_ADD, 0, 0, 0, -1);
      c->end = saved;
      if (rc) return -1;
      continue;
    }
    if (count[d]) {
      if (emit(c, F_CONST, 0, 0, idx[d][pos[d]], 1)) return -1;
      continue;
    }
    c->end = cur(c)->loc[k].dims[d];
    int rc = scalar_expr(c, e->args[d + 1], "a subscript");
    c->end = saved;
    if (rc) return -1;
  }
  return 0;
}

/* A slice with ranges or index arrays known now, element by element; its shape has the
 * picked dimensions. */
static int slice_unrolled_in(cx *c, const st_fexpr *e, shape *sh, int idx[4][MAX_PICKS]) {
  int count[4], k, total = slice_picks(c, e, &k, idx, count);
  if (total < 0) return -1;
  if (total > 100000) return refuse(c, "a slice of %d elements", total);
  *sh = scalar_shape;
  for (int d = 0; d < cur(c)->loc[k].ndims; d++)
    if (count[d]) sh->dims[sh->ndims++] = count[d];
  sh->n = total;
  int nd = cur(c)->loc[k].ndims;
  for (int i = 0; i < total; i++)
    if (picked_subscripts(c, e, k, idx, count, i) || emit(c, F_LOADI, k, nd, 0, 1 - nd))
      return -1;
  return 0;
}

/* The picked indices of a slice's four dimensions (too many for the C stack). */
static int (*picks_room(cx *c))[MAX_PICKS] {
  int(*idx)[MAX_PICKS] = malloc(4 * sizeof *idx);
  if (!idx) refuse(c, "out of memory");
  return idx;
}

static int slice_unrolled(cx *c, const st_fexpr *e, shape *sh) {
  int(*idx)[MAX_PICKS] = picks_room(c);
  int rc = idx ? slice_unrolled_in(c, e, sh, idx) : -1;
  free(idx);
  return rc;
}


/* a[i, :], a[:, j]: the scalar subscripts on the stack, then F_SLICE with the colons' mask. */
static int slice(cx *c, const st_fexpr *e, shape *sh) {
  if (e->args[0]->kind != FX_LOCAL || e->args[0]->index < 0 ||
      e->args[0]->index >= nloc(c))
    return refuse(c, "a slice of an expression");
  int k = e->args[0]->index, mask = 0, nsub = 0, saved = c->end;
  const lshape *l = &cur(c)->loc[k];
  if (l->ndims == 0 || e->nargs - 1 != l->ndims)
    return refuse(c, "'%s' subscripted with %d indices", lname(c, k), e->nargs - 1);
  *sh = (shape){0, 1, {0, 0, 0, 0}};
  for (int d = 0; d < e->nargs - 1; d++) {
    int dim = cur(c)->loc[k].dims[d];
    if (is_colon(e->args[d + 1])) {
      mask |= 1 << d;
      sh->dims[sh->ndims++] = dim;
      sh->n *= dim;
      continue;
    }
    c->end = dim;
    int rc = scalar_expr(c, e->args[d + 1], "a subscript");
    c->end = saved;
    if (rc) return -1;
    nsub++;
  }
  return emit(c, F_SLICE, k, mask, 0, sh->n - nsub);
}

/* data[i], f(x)[2, :]: the subscripted value into a temporary local of its shape, then
 * subscripted as a local. */
static int indexed_expr(cx *c, const st_fexpr *e, shape *sh) {
  shape b;
  if (e->nargs < 2 || e->nargs > 5 || expr(c, e->args[0], &b)) return -1;
  if (b.ndims != e->nargs - 1) return refuse(c, "a subscript of an expression of another shape");
  cfn *f = cur(c);
  lshape *loc = realloc(f->loc, (size_t)(c->fn->nlocals + f->ntemps + 1) * sizeof *loc);
  if (!loc) return refuse(c, "out of memory");
  f->loc = loc;
  int k = c->fn->nlocals + f->ntemps++;
  loc[k] = (lshape){temp(c, b.n), b.n, b.ndims, {b.dims[0], b.dims[1], b.dims[2], b.dims[3]}};
  if (emit(c, F_POPN, loc[k].off, b.n, 0, -b.n)) return -1;
  st_fexpr base = *e->args[0], *args[5], local = *e;
  base.kind = FX_LOCAL;
  base.index = k;
  base.nargs = 0;
  args[0] = &base;
  for (int i = 1; i < e->nargs; i++) args[i] = e->args[i];
  local.args = args;
  return expr(c, &local, sh);
}

static int local_expr(cx *c, const st_fexpr *e, shape *sh) {
  if (e->index < 0 || e->index >= nloc(c)) return refuse(c, "a bad local");
  *sh = local_shape(c, e->index);
  const lshape *l = &cur(c)->loc[e->index];
  if (l->off < 0) return refuse(c, "'%s' read before its size is known", lname(c, e->index));
  if (l->ndims == 0) return emit(c, F_LOAD, l->off, 0, 0, 1);
  return emit(c, F_PUSHN, l->off, l->n, 0, l->n);
}

/* Whether e is a String value (a number of st_fvm_string on the machine). */
static int is_string(const cx *c, const st_fexpr *e) {
  if (!e) return 0;
  switch (e->kind) {
  case FX_STRING: return 1;
  case FX_LOCAL: case FX_INDEX:
    if (e->kind == FX_INDEX) e = e->nargs ? e->args[0] : NULL;
    return e && e->kind == FX_LOCAL && e->index >= 0 && e->index < c->fn->nlocals &&
           c->fn->locals[e->index].type == ST_T_STRING;
  case FX_CALL: {
    if (e->index < 0 || e->index >= c->vm->nfunctions) return 0;
    const st_ffunction *g = &c->vm->functions[e->index];
    for (int i = 0, o = 0; i < g->nlocals; i++)
      if (g->locals[i].causality == ST_C_OUTPUT && o++ == e->op)
        return g->locals[i].type == ST_T_STRING;
    return 0;
  }
  case FX_IF: return e->nargs == 3 && (is_string(c, e->args[1]) || is_string(c, e->args[2]));
  case FX_BINARY: return e->op == FOP_ADD && e->nargs == 2 && is_string(c, e->args[0]);
  case FX_BUILTIN: return e->op == FB_STRING;
  default: return 0;
  }
}

/* An operator or built-in with a String operand. */
static int string_operand(const cx *c, const st_fexpr *e) {
  for (int i = 0; i < e->nargs; i++)
    if (is_string(c, e->args[i])) return 1;
  return 0;
}

/* a + b (concatenation) and relations of two Strings: their numbers on the stack. */
static int string_binary(cx *c, const st_fexpr *e) {
  int concat = e->op == FOP_ADD, relation = e->op >= FOP_LT && e->op <= FOP_NE;
  if (e->kind != FX_BINARY || (!concat && !relation) || !is_string(c, e->args[0]) ||
      !is_string(c, e->args[1]))
    return refuse(c, "this operation on strings at %d:%d", e->loc.line, e->loc.col);
  if (scalar_expr(c, e->args[0], "a String operand") ||
      scalar_expr(c, e->args[1], "a String operand"))
    return -1;
  return concat ? emit(c, F_SCAT, 0, 0, 0, -1) : emit(c, F_SCMP, e->op, 0, 0, -1);
}

/* String(x, significantDigits, minimumLength, leftJustified, format): the text's number. */
static int string_call(cx *c, const st_fexpr *e) {
  if (e->nargs != 5 || !is_string(c, e->args[4]) || is_string(c, e->args[0]))
    return refuse(c, "String() of %d arguments", e->nargs);
  for (int i = 0; i < 5; i++)
    if (scalar_expr(c, e->args[i], "an argument of String()")) return -1;
  return emit(c, F_STR, e->index, 0, 0, -4);
}

static int expr(cx *c, const st_fexpr *e, shape *sh) {
  int k;
  if (!e) return refuse(c, "a missing expression");
  *sh = scalar_shape;
  if (e->kind == FX_BUILTIN && e->op == FB_STRING) return string_call(c, e);
  int shape_only = e->kind == FX_BUILTIN && (e->op == FB_SIZE || e->op == FB_SIZES ||
                                              e->op == FB_NDIMS || e->op == FB_FILL);
  if ((e->kind == FX_BINARY || e->kind == FX_UNARY || e->kind == FX_BUILTIN) && !shape_only &&
      string_operand(c, e))
    return e->kind == FX_BINARY ? string_binary(c, e) : refuse(c, "an operation on strings");
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: return emit(c, F_CONST, 0, 0, e->value, 1);
  case FX_STRING:
    if ((k = st_fvm_string(c->vm, e->str ? e->str : "")) < 0) return refuse(c, "out of memory");
    return emit(c, F_CONST, 0, 0, k, 1);
  case FX_LOCAL: return local_expr(c, e, sh);
  case FX_BINARY: return binary(c, e, sh);
  case FX_UNARY: return unary(c, e, sh);
  case FX_BUILTIN: return builtin(c, e, sh);
  case FX_CALL: return call_expr(c, e, sh);
  case FX_IF: return if_expr(c, e, sh);
  case FX_ARRAY: return array_expr(c, e, sh);
  case FX_INDEX:
    if (e->nargs && e->args[0]->kind != FX_LOCAL) return indexed_expr(c, e, sh);
    if (index_vector_of(e)) return slice_unrolled(c, e, sh);
    if (slice_of(e)) return slice(c, e, sh);
    if ((k = fixed_element(c, e)) >= 0) return emit(c, F_LOAD, k, 0, 0, 1);
    if (subscripts(c, e, &k)) return -1;
    return emit(c, F_LOADI, k, e->nargs - 1, 0, 1 - (e->nargs - 1));
  case FX_END:
    if (c->end < 0) return refuse(c, "'end' outside a subscript");
    return emit(c, F_CONST, 0, 0, c->end, 1);
  case FX_RANGE: { /* a vector 0 + d:d:1 of bounds known now: its elements a + i s */
    double a, st;
    int n = static_range(c, e, &a, &st);
    if (n < 1) return refuse(c, "a range whose bounds are not known when compiling");
    *sh = (shape){1, n, {n, 0, 0, 0}};
    for (int i = 0; i < n; i++)
      if (emit(c, F_CONST, 0, 0, a + i * st, 1)) return -1;
    return 0;
  }
  default: return refuse(c, "a model variable or time in a function");
  }
}

/* ------------------------------------------------------------------ statements */

static int stmts(cx *c, const st_fstmt_list *list);

/* Stores the value on the stack (shape v) into target: a whole local of the same shape. */
static int store_local(cx *c, int k, const shape *v) {
  shape t = local_shape(c, k);
  if (!same_shape(&t, v))
    return refuse(c, "an assignment that changes the shape of '%s'", c->fn->locals[k].name);
  const lshape *l = &cur(c)->loc[k];
  if (l->ndims == 0) return emit(c, F_STORE, l->off, 0, 0, -1);
  return emit(c, F_POPN, l->off, l->n, 0, -l->n);
}

/* a[j, 1:m] := v: v's elements (or the one scalar) stored element by element (the value
 * first, then the subscripts). */
static int assign_slice_in(cx *c, const st_fstmt *s, int idx[4][MAX_PICKS]) {
  int count[4], k, total = slice_picks(c, s->target, &k, idx, count);
  shape v;
  if (total < 0 || expr(c, s->value, &v)) return -1;
  if (total > 100000) return refuse(c, "a slice of %d elements", total);
  if (v.ndims && v.n != total) return refuse(c, "a slice assigned %d values for %d", v.n, total);
  int tmp = temp(c, v.n), nd = cur(c)->loc[k].ndims;
  if (emit(c, F_POPN, tmp, v.n, 0, -v.n)) return -1;
  for (int i = 0; i < total; i++)
    if (picked_subscripts(c, s->target, k, idx, count, i) ||
        emit(c, F_LOAD, tmp + (v.ndims ? i : 0), 0, 0, 1) ||
        emit(c, F_STOREI, k, nd, 0, -nd - 1))
      return -1;
  return 0;
}

static int assign_slice(cx *c, const st_fstmt *s) {
  int(*idx)[MAX_PICKS] = picks_room(c);
  int rc = idx ? assign_slice_in(c, s, idx) : -1;
  free(idx);
  return rc;
}

static int assign(cx *c, const st_fstmt *s) {
  const st_fexpr *t = s->target;
  shape v;
  int k;
  if (t && t->kind == FX_LOCAL && t->index >= 0 && t->index < c->fn->nlocals)
    return expr(c, s->value, &v) || store_local(c, t->index, &v);
  if (!t || t->kind != FX_INDEX) return refuse(c, "an assignment to a model variable");
  if (slice_of(t) || index_vector_of(t)) return assign_slice(c, s);
  if ((k = fixed_element(c, t)) >= 0)
    return scalar_expr(c, s->value, "a value assigned to an element") ||
           emit(c, F_STORE, k, 0, 0, -1);
  /* subscripts first, then the value (both are pure) */
  if (subscripts(c, t, &k) || scalar_expr(c, s->value, "a value assigned to an element"))
    return -1;
  return emit(c, F_STOREI, k, t->nargs - 1, 0, -t->nargs);
}

/* (a, b) := f(x): all outputs into temporaries, then each to its target; f(x); as a
 * statement (FS_CALL, no targets): the outputs are dropped. */
static int tuple(cx *c, const st_fstmt *s) {
  const st_fexpr *e = s->value;
  if (!e || e->kind != FX_CALL) return refuse(c, "a tuple assignment from something else than a call");
  st_fsig sig;
  int k = callee(c, e, &sig);
  if (k < 0) return -1;
  int der = derivative_of(c, e, &sig), total = 0, nout = c->vm->c[k].nout;
  note_opaque(c, k, der);
  for (int i = 0; i < nout; i++) total += c->vm->c[k].loc[c->vm->c[k].outs[i]].n;
  int off = temp(c, total);
  if (emit(c, F_CALL, k, -1, der, total - c->vm->c[k].width) ||
      emit(c, F_POPN, off, total, 0, -total))
    return -1;
  for (int i = 0, at = off; i < nout && i < s->ntargets; i++) {
    const lshape *o = &c->vm->c[k].loc[c->vm->c[k].outs[i]];
    const st_fexpr *t = s->targets[i];
    shape v = {o->ndims, o->n, {o->dims[0], o->dims[1], o->dims[2], o->dims[3]}};
    int rc = 0, j;
    if (!t) rc = 0;
    else if (t->kind == FX_LOCAL && t->index >= 0 && t->index < c->fn->nlocals)
      rc = emit(c, F_PUSHN, at, o->n, 0, o->n) || store_local(c, t->index, &v);
    else if (t->kind == FX_INDEX && o->ndims == 0)
      rc = subscripts(c, t, &j) || emit(c, F_LOAD, at, 0, 0, 1) ||
           emit(c, F_STOREI, j, t->nargs - 1, 0, -t->nargs);
    else
      rc = refuse(c, "a tuple target that is not a local or an element");
    if (rc) return -1;
    at += o->n;
  }
  return 0;
}

/* A condition known while compiling (mod(m, 2) == 0 of a pinned m): 0/1, else -1. */
static int static_cond(cx *c, const st_fexpr *e) {
  double x;
  int want = c->want, rc = static_num(c, e, &x);
  c->want = want;
  return rc || isnan(x) ? -1 : x != 0;
}

static int if_stmt(cx *c, const st_fstmt *s) {
  int ends[64], nends = 0;
  if (s->nconds > 64) return refuse(c, "more than 64 elseif branches");
  /* only the branch a known condition takes: the others may need what this signature lacks
   * (symmetricOrientation's slices of an even m for an odd m) */
  int first = 0;
  while (first < s->nconds && static_cond(c, s->conds[first]) == 0) first++;
  if (first == s->nconds) return stmts(c, &s->branches[s->nconds]);
  if (static_cond(c, s->conds[first]) == 1) return stmts(c, &s->branches[first]);
  for (int i = first; i < s->nconds; i++) {
    if (scalar_expr(c, s->conds[i], "a condition")) return -1;
    int jz = here(c);
    if (emit(c, F_JZ, 0, 0, 0, -1) || stmts(c, &s->branches[i])) return -1;
    ends[nends++] = here(c);
    if (emit(c, F_JMP, 0, 0, 0, 0)) return -1;
    patch(c, jz, here(c));
  }
  if (stmts(c, &s->branches[s->nconds])) return -1;
  for (int i = 0; i < nends; i++) patch(c, ends[i], here(c));
  return 0;
}

/* A loop body; its `break`s jump to the end of the loop. */
static int loop_body(cx *c, const st_fstmt_list *body, int top) {
  int base = c->loop_base, in_loop = c->in_loop;
  c->loop_base = c->npatches;
  c->in_loop = 1;
  int rc = stmts(c, body) || emit(c, F_LOOP, top, 0, 0, 0);
  for (int i = c->loop_base; i < c->npatches && !rc; i++) patch(c, c->patches[i], here(c));
  c->npatches = c->loop_base;
  c->loop_base = base;
  c->in_loop = in_loop;
  return rc ? -1 : 0;
}

/* for v in a:s:b: the number of elements fixed at entry (F_RANGEN); element i is
 * a + i*s. for v in <vector>: its elements, copied at entry. */
static int for_stmt(cx *c, const st_fstmt *s) {
  const st_fexpr *r = s->range;
  int lv = s->loop_local;
  if (lv < 0 || lv >= c->fn->nlocals || cur(c)->loc[lv].ndims) return refuse(c, "a bad loop");
  if (r && r->kind == FX_RANGE && r->nargs >= 2) {
    /* a range known now to be empty: the body never runs, and may need what is missing
     * here (for i in 2:nBase with nBase = 1) */
    double a, st = 1, b;
    int want = c->want;
    int known = !static_num(c, r->args[0], &a) &&
                (r->nargs < 3 || !static_num(c, r->args[1], &st)) &&
                !static_num(c, r->args[r->nargs - 1], &b) && st != 0;
    c->want = want;
    if (known && floor((b - a) / st + 1e-9) + 1 <= 0) return 0;
  }
  int t = temp(c, 4), ta = t, ts = t + 1, tn = t + 2, ti = t + 3, tv = -1;
  if (r && r->kind == FX_RANGE && r->nargs >= 2) {
    if (scalar_expr(c, r->args[0], "a range bound") || emit(c, F_STORE, ta, 0, 0, -1)) return -1;
    if (r->nargs == 3 ? scalar_expr(c, r->args[1], "a range step") : emit(c, F_CONST, 0, 0, 1, 1))
      return -1;
    if (emit(c, F_STORE, ts, 0, 0, -1) || emit(c, F_LOAD, ta, 0, 0, 1) ||
        emit(c, F_LOAD, ts, 0, 0, 1) || scalar_expr(c, r->args[r->nargs - 1], "a range bound") ||
        emit(c, F_RANGEN, 0, 0, 0, -2) || emit(c, F_STORE, tn, 0, 0, -1))
      return -1;
  } else {
    shape v;
    if (expr(c, r, &v)) return -1;
    if (v.ndims > 1) return refuse(c, "a for-loop over a matrix");
    tv = temp(c, v.n);
    if (emit(c, F_POPN, tv, v.n, 0, -v.n) || emit(c, F_CONST, 0, 0, v.n, 1) ||
        emit(c, F_STORE, tn, 0, 0, -1))
      return -1;
  }
  if (emit(c, F_CONST, 0, 0, 0, 1) || emit(c, F_STORE, ti, 0, 0, -1)) return -1;
  int top = here(c);
  if (emit(c, F_LOAD, ti, 0, 0, 1) || emit(c, F_LOAD, tn, 0, 0, 1) ||
      emit(c, F_CMP, FOP_LT, 0, 0, -1))
    return -1;
  int jz = here(c);
  if (emit(c, F_JZ, 0, 0, 0, -1)) return -1;
  int rc = tv >= 0 ? emit(c, F_LOAD, ti, 0, 0, 1) || emit(c, F_LOADT, tv, 0, 0, 0)
                   : emit(c, F_LOAD, ta, 0, 0, 1) || emit(c, F_LOAD, ti, 0, 0, 1) ||
                     emit(c, F_LOAD, ts, 0, 0, 1) || emit(c, F_MUL, 0, 0, 0, -1) ||
                     emit(c, F_ADD, 0, 0, 0, -1);
  /* the counter steps before the body so that the body's jump back lands on the test */
  if (rc || emit(c, F_STORE, cur(c)->loc[lv].off, 0, 0, -1) || emit(c, F_LOAD, ti, 0, 0, 1) ||
      emit(c, F_CONST, 0, 0, 1, 1) || emit(c, F_ADD, 0, 0, 0, -1) ||
      emit(c, F_STORE, ti, 0, 0, -1) || loop_body(c, &s->branches[0], top))
    return -1;
  patch(c, jz, here(c));
  return 0;
}

static int while_stmt(cx *c, const st_fstmt *s) {
  int top = here(c);
  if (scalar_expr(c, s->conds[0], "a while condition")) return -1;
  int jz = here(c);
  if (emit(c, F_JZ, 0, 0, 0, -1) || loop_body(c, &s->branches[0], top)) return -1;
  patch(c, jz, here(c));
  return 0;
}

/* A message built from values (args[0] of its FX_STRING, sections.c) of an error-level
 * assert: evaluated only when the condition fails; when it does not compile, the message as
 * written. */
static int message_on_failure(cx *c, const st_fstmt *s, int a) {
  const st_fexpr *m = s->message;
  if (s->level != 0 || !m || m->kind != FX_STRING || m->nargs != 1 || !is_string(c, m->args[0]))
    return 0;
  int jz = here(c), sp = cur(c)->sp, n;
  if (emit(c, F_JZ, 0, 0, 0, -1) || emit(c, F_JMP, 0, 0, 0, 0)) return -1;
  patch(c, jz, here(c));
  n = here(c);
  if (scalar_expr(c, m->args[0], "an assert message") || emit(c, F_FAILMSG, a, 0, 0, -1)) {
    cur(c)->n = n; /* the message as written */
    c->why[0] = '\0';
    cur(c)->sp = sp - 1;
    if (emit(c, F_CONST, 0, 0, 0, 1) || emit(c, F_ASSERT, 0, a, 0, -1)) return -1;
  }
  patch(c, jz + 1, here(c));
  cur(c)->sp = sp - 1;
  return 1;
}

static int assert_stmt(cx *c, const st_fstmt *s) {
  cfn *f = cur(c);
  const st_fstmt **a = realloc(f->asserts, (size_t)(f->nasserts + 1) * sizeof *a);
  if (!a) return refuse(c, "out of memory");
  f->asserts = a;
  a[f->nasserts] = s;
  int k = f->nasserts++;
  if (scalar_expr(c, s->value, "an assert condition")) return -1;
  int rc = message_on_failure(c, s, k);
  return rc < 0 ? -1 : rc ? 0 : emit(c, F_ASSERT, s->level, k, 0, -1);
}

static int stmt(cx *c, const st_fstmt *s) {
  switch (s->kind) {
  case FS_ASSIGN: return assign(c, s);
  case FS_TUPLE: case FS_CALL: return tuple(c, s);
  case FS_IF: return if_stmt(c, s);
  case FS_FOR: return for_stmt(c, s);
  case FS_WHILE: return while_stmt(c, s);
  case FS_BREAK:
    /* outside a loop break ends the function, like return */
    if (!c->in_loop) return emit(c, F_RET, 0, 0, 0, 0);
    if (c->npatches == MAX_PATCHES) return refuse(c, "too many break statements");
    c->patches[c->npatches++] = here(c);
    return emit(c, F_JMP, 0, 0, 0, 0);
  case FS_RETURN: return emit(c, F_RET, 0, 0, 0, 0);
  case FS_ASSERT: return assert_stmt(c, s);
  default: return refuse(c, "when, reinit or terminate in a function");
  }
}

static int stmts(cx *c, const st_fstmt_list *list) {
  for (int i = 0; i < list->n; i++)
    if (stmt(c, list->items[i])) return -1;
  return 0;
}

/* ------------------------------------------------------------------ frames */

/* Size of dimension k of a {...} literal (nested to that depth), -1 when it is not one. */
static int literal_size(const st_fexpr *e, int k) {
  for (; e && e->kind == FX_ARRAY && e->nargs > 0 && k > 0; k--) e = e->args[0];
  return e && e->kind == FX_ARRAY && k == 0 ? e->nargs : -1;
}

/* The length of a vector bound to a range or a comprehension over one ({f(i) for i in
 * 1:b}) of bounds known now, else -1. */
static int binding_count(cx *c, const st_flocal *d) {
  const st_fexpr *b = d->binding;
  double a, st;
  if (d->ndims != 1 || !b) return -1;
  if (b->kind == FX_BUILTIN && b->op == FB_COMPREHENSION && b->nargs == 2) b = b->args[1];
  return static_range(c, b, &a, &st); /* may ask for an argument to be pinned */
}

/* The shape of the value the body's first top-level statement assigning local i gives it
 * (`s.X := if size(X, 1) == 0 then {0.1, 0.2} else X`): compiled for its shape, then
 * dropped. 0, or -1 when there is none or it reads what is not placed yet. */
static int assigned_shape(cx *c, int i, shape *sh) {
  const st_fstmt_list *body = &c->fn->body;
  for (int j = 0; j < body->n; j++) {
    const st_fstmt *s = body->items[j];
    if (s->kind != FS_ASSIGN || !s->target || s->target->kind != FX_LOCAL || s->target->index != i)
      continue;
    return shape_of(c, s->value, sh) || sh->ndims != c->fn->locals[i].ndims ? -1 : 0;
  }
  return -1;
}

/* Whether local d has an open size that only its first assigned value can give. */
static int sized_by_assignment(const st_flocal *d) {
  int open = 0;
  for (int k = 0; k < d->ndims; k++) open |= d->dims[k] < 0 && !d->size[k];
  return open && !d->binding && d->causality != ST_C_INPUT;
}

/* The shape of local i (not an argument) into *l: its declared sizes, known now or by size()
 * of the arguments, or its binding's (layout places those sized by an assignment). */
static int declared_shape(cx *c, int i, lshape *l) {
  const st_flocal *d = &c->fn->locals[i];
  l->ndims = d->ndims;
  l->n = 1;
  for (int k = 0; k < d->ndims; k++) {
    int v = d->dims[k];
    c->want = -1;
    /* a protected T_coef[:, :] = {{...}, ...}: the size of its literal binding */
    if (v < 0 && !d->size[k]) v = literal_size(d->binding, k); /* also an input's default */
    if (v < 0 && !d->size[k] && d->causality != ST_C_INPUT && k == 0) v = binding_count(c, d);
    if (v < 0 && static_int(c, d->size[k], &v)) {
      cur(c)->want_pin = c->want;
      return refuse(c, "the size of '%s' depends on input values", d->name);
    }
    if (v < 0 || v > 1000000) return refuse(c, "'%s' has a bad size", d->name);
    l->dims[k] = v;
    l->n *= v;
  }
  return 0;
}

/* Places every local in the frame: the arguments first, in order and with the call's
 * shapes (so that a call copies its argument elements in one run, func_vm.c), then the others
 * with their declared shapes. */
static int layout(cx *c) {
  cfn *f = cur(c);
  const st_ffunction *fn = c->fn;
  int a = 0, off = 0;
  f->loc = calloc((size_t)fn->nlocals, sizeof *f->loc);
  f->outs = calloc((size_t)fn->nlocals, sizeof *f->outs);
  if (!f->loc || !f->outs) return refuse(c, "out of memory");
  for (int i = 0; i < fn->nlocals; i++) f->loc[i].off = -1;
  for (int i = 0; i < fn->nlocals && a < f->sig.nargs; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    lshape *l = &f->loc[i];
    l->ndims = f->sig.ndims[a];
    l->n = 1;
    for (int d = 0; d < l->ndims; d++) l->n *= l->dims[d] = f->sig.dims[a][d];
    f->given[a++] = i;
    l->off = off;
    off += l->n;
    f->width += l->n;
  }
  if (a < f->sig.nargs) return refuse(c, "more arguments than inputs");
  /* Locals sized by what is first assigned to them (`Xsat := {p/pds, 1 - p/pds}`) come
   * after the others, which that value may read; among themselves in rounds as long as one
   * more gets placed (Y := 2*X after X := f(u)). */
  for (int i = 0; i < fn->nlocals; i++) {
    lshape l = {-1, 1, 0, {0, 0, 0, 0}};
    if (cur(c)->loc[i].off >= 0 || sized_by_assignment(&fn->locals[i])) continue;
    if (declared_shape(c, i, &l)) return -1;
    l.off = off; /* a size known by a call compiles the callee: vm->c may have moved */
    cur(c)->loc[i] = l;
    off += l.n;
  }
  for (int placed = 1; placed;) {
    placed = 0;
    for (int i = 0; i < fn->nlocals; i++) {
      shape sh;
      if (cur(c)->loc[i].off >= 0 || assigned_shape(c, i, &sh)) continue;
      lshape *l = &cur(c)->loc[i];
      l->ndims = sh.ndims;
      l->n = sh.n;
      memcpy(l->dims, sh.dims, sizeof l->dims);
      l->off = off;
      off += l->n;
      placed = 1;
    }
  }
  for (int i = 0; i < fn->nlocals; i++) { /* the first that cannot be placed says why */
    lshape l;
    if (cur(c)->loc[i].off >= 0) continue;
    declared_shape(c, i, &l);
    return refuse(c, "the size of '%s' is not known", fn->locals[i].name);
  }
  f = cur(c);
  for (int i = 0; i < fn->nlocals; i++) /* in declaration order: output k is the k-th */
    if (fn->locals[i].causality == ST_C_OUTPUT) f->outs[f->nout++] = i;
  f->nframe = off;
  return 0;
}

/* The locals that are not arguments get their bindings (input defaults too), in declaration
 * order, after the frame is zeroed. */
static int prologue(cx *c) {
  for (int i = 0; i < c->fn->nlocals; i++) {
    const st_flocal *l = &c->fn->locals[i];
    int given = 0;
    for (int a = 0; a < cur(c)->sig.nargs; a++) given |= cur(c)->given[a] == i;
    if (given) continue;
    if (!l->binding && l->causality == ST_C_INPUT)
      return refuse(c, "input '%s' has no argument and no default", l->name);
    shape v;
    if (l->binding && (expr(c, l->binding, &v) || store_local(c, i, &v))) return -1;
  }
  return 0;
}

/* The body of an external function stiction provides, called by itself (a call statement, a
 * parameter binding evaluated while flattening): its scalar inputs in declaration order
 * through the bound entry into its one output. */
static int external_body(cx *c) {
  const st_ffunction *fn = c->fn;
  int nin = 0, out = -1;
  for (int i = 0; i < fn->nlocals; i++) {
    const lshape *l = &cur(c)->loc[i];
    if (fn->locals[i].causality == ST_C_OUTPUT) out = i;
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    if (l->ndims) return refuse(c, "an array input of an external function");
    if (emit(c, F_LOAD, l->off, 0, 0, 1)) return -1;
    nin++;
  }
  st_extcall x;
  char why[1024];
  if (out < 0 || st_extcall_bind(&x, fn, nin, why, sizeof why))
    return refuse(c, "external function: %s", why);
  shape v = {0, 1, {0, 0, 0, 0}};
  return emit_external(c, &x, nin) || store_local(c, out, &v);
}

/* The body of a function whose external clause is C code the model brings: the clause's
 * arguments that are not locals (size(), literals, expressions) pushed, then F_CEXT, whose
 * hook marshals them and the frame's locals (compile/extcall.c). */
static int c_code_body(cx *c) {
  const st_fexternal *x = c->fn->ext;
  st_fvm *vm = c->vm;
  fcext d;
  if (x->nargs < -1 || x->nargs > FVM_MAX_CARGS)
    return refuse(c, "the arguments of its external call are not supported");
  memset(&d, 0, sizeof d);
  d.nargs = x->nargs;
  for (int j = 0; j < x->nargs; j++) {
    const st_fexpr *e = x->args[j];
    shape sh;
    if (e->kind == FX_LOCAL || (e->kind == FX_ARRAY && e->str)) continue; /* read in place */
    d.is_str[j] = (unsigned char)is_string(c, e);
    if (expr(c, e, &sh)) return -1;
    d.pushed[j] = 1;
    d.ndims[j] = sh.ndims;
    d.n[j] = sh.n;
    memcpy(d.dims[j], sh.dims, sizeof d.dims[j]);
    d.width += sh.n;
  }
  if (vm->ncext == vm->capcext) {
    int cap = vm->capcext ? 2 * vm->capcext : 8;
    fcext *p = realloc(vm->cext, (size_t)cap * sizeof *p);
    if (!p) return refuse(c, "out of memory");
    vm->cext = p;
    vm->capcext = cap;
  }
  vm->cext[vm->ncext] = d;
  cur(c)->opaque = 1; /* C gives no tangent */
  return emit(c, F_CEXT, vm->ncext++, d.width, 0, -d.width);
}

static int compile_body(cx *c) {
  const st_ffunction *fn = c->fn;
  if (fn->nlocals <= 0) return refuse(c, "no inputs or outputs");
  if (layout(c) || prologue(c)) return -1;
  if (st_fvm_is_c_code(fn) ? c_code_body(c)
      : fn->external_name  ? external_body(c)
                           : stmts(c, &fn->body))
    return -1;
  return emit(c, F_RET, 0, 0, 0, 0);
}

/* ------------------------------------------------------------------ entry */

static int same_sig(const st_fsig *a, const st_fsig *b) {
  if (a->nargs != b->nargs) return 0;
  if (a->pinned != b->pinned) return 0;
  for (int i = 0; i < a->nargs; i++) {
    if (a->ndims[i] != b->ndims[i]) return 0;
    if (i < ST_FVM_MAX_PINNED && (a->pinned >> i & 1u) && a->pin[i] != b->pin[i]) return 0;
    for (int d = 0; d < a->ndims[i]; d++)
      if (a->dims[i][d] != b->dims[i][d]) return 0;
  }
  return 1;
}

static int find(const st_fvm *vm, int k, const st_fsig *sig) {
  for (int i = 0; i < vm->nc; i++)
    if (vm->c[i].fn == k && same_sig(&vm->c[i].sig, sig)) return i;
  return -1;
}

static int add(st_fvm *vm, int k, const st_fsig *sig) {
  if (vm->nc == vm->capc) {
    int cap = vm->capc ? 2 * vm->capc : 8;
    cfn *p = realloc(vm->c, (size_t)cap * sizeof *p);
    if (!p) return -1;
    vm->c = p;
    vm->capc = cap;
  }
  cfn *f = &vm->c[vm->nc];
  memset(f, 0, sizeof *f);
  f->fn = k;
  f->sig = *sig;
  f->want_pin = -1;
  return vm->nc++;
}

int st_fvm_compile(st_fvm *vm, int k, const st_fsig *sig, char *why, size_t size) {
  if (size) why[0] = '\0';
  if (k < 0 || k >= vm->nfunctions || sig->nargs < 0 || sig->nargs > ST_FVM_MAX_ARGS) {
    if (size) snprintf(why, size, "bad call");
    return -1;
  }
  int i = find(vm, k, sig);
  if (i >= 0) {
    /* state 0: a recursive call while the body is compiled; its index is all it needs */
    if (vm->c[i].state < 0 && size) snprintf(why, size, "%s", vm->c[i].why);
    return vm->c[i].state < 0 ? -1 : i;
  }
  if (vm->compiling >= ST_FVM_MAX_DEPTH) { /* f(m) needing f(m + 1) needing ...: bounded */
    if (size) snprintf(why, size, "more than %d functions compiled one inside another",
                       ST_FVM_MAX_DEPTH);
    return -1;
  }
  if (vm->nc > 4096 || (i = add(vm, k, sig)) < 0) {
    if (size) snprintf(why, size, "out of memory or too many signatures");
    return -1;
  }
  char reason[200] = "";
  const st_ffunction *fn = &vm->functions[k];
  unsigned char *sizing = calloc((size_t)(fn->nlocals > 0 ? fn->nlocals : 1), 1);
  cx c = {vm, i, fn, -1, {0}, 0, 0, 0, -1, sizing, 0, reason, sizeof reason};
  vm->compiling++;
  int rc = sizing ? compile_body(&c) : refuse(&c, "out of memory");
  vm->compiling--;
  free(sizing);
  vm->c[i].state = rc ? -1 : 1;
  snprintf(vm->c[i].why, sizeof vm->c[i].why, "%s", reason);
  if (rc && size) snprintf(why, size, "%s", reason);
  return rc ? -1 : i;
}

void st_fvm_dump(const st_fvm *vm, FILE *out) {
  for (int i = 0; i < vm->nc; i++) {
    const cfn *f = &vm->c[i];
    fprintf(out, "  %s(", vm->functions[f->fn].name);
    for (int a = 0; a < f->sig.nargs; a++) {
      fprintf(out, "%s%s", a ? ", " : "", f->sig.ndims[a] ? "[" : "scalar");
      for (int d = 0; d < f->sig.ndims[a]; d++)
        fprintf(out, "%s%d", d ? ", " : "", f->sig.dims[a][d]);
      if (f->sig.ndims[a]) fputc(']', out);
      if (a < ST_FVM_MAX_PINNED && (f->sig.pinned >> a & 1u))
        fprintf(out, " = %g", f->sig.pin[a]);
    }
    if (f->state == 1) fprintf(out, "): compiled, %d instructions\n", f->n);
    else if (f->want_pin >= 0)
      fprintf(out, "): compiled per value of argument %d (%s)\n", f->want_pin + 1, f->why);
    else fprintf(out, "): not compiled (%s)\n", f->why);
  }
}

int st_fvm_wanted_pin(const st_fvm *vm, int k, const st_fsig *sig) {
  int i = find(vm, k, sig);
  return i >= 0 && vm->c[i].state < 0 ? vm->c[i].want_pin : -1;
}

int st_arg_offset(const int *ndims, const int (*dims)[4], int a) {
  int off = 0;
  for (int i = 0; i < a; i++) {
    int n = 1;
    for (int d = 0; d < ndims[i]; d++) n *= dims[i][d];
    off += n;
  }
  return off;
}

int st_fvm_compile_for(st_fvm *vm, int k, st_fsig *sig, const double *x, char *why,
                       size_t size) {
  int c = -1;
  for (int tries = 0; tries <= ST_FVM_MAX_PINNED; tries++) {
    c = st_fvm_compile(vm, k, sig, why, size);
    int p = c < 0 ? st_fvm_wanted_pin(vm, k, sig) : -1;
    if (p < 0 || p >= ST_FVM_MAX_PINNED || p >= sig->nargs || sig->ndims[p] ||
        (sig->pinned >> p & 1u))
      break;
    sig->pinned |= 1u << p;
    sig->pin[p] = x[st_arg_offset(sig->ndims, (const int (*)[4])sig->dims, p)];
  }
  return c;
}

int st_fvm_length(const st_fvm *vm, int c) { return vm->c[c].n; }

int st_fvm_output_shape(const st_fvm *vm, int c, int output, int *ndims) {
  const cfn *f = &vm->c[c];
  if (output < 0 || output >= f->nout) return -1;
  *ndims = f->loc[f->outs[output]].ndims;
  return f->loc[f->outs[output]].n;
}

int st_fvm_output_dims(const st_fvm *vm, int c, int output, int dims[4]) {
  const cfn *f = &vm->c[c];
  if (output < 0 || output >= f->nout) return -1;
  const lshape *l = &f->loc[f->outs[output]];
  memcpy(dims, l->dims, sizeof l->dims);
  return l->ndims;
}

st_fvm *st_fvm_new(const st_ffunction *functions, int nfunctions) {
  st_fvm *vm = calloc(1, sizeof *vm);
  if (!vm) return NULL;
  vm->functions = functions;
  vm->nfunctions = nfunctions;
  return vm;
}

int st_fvm_string(st_fvm *vm, const char *str) {
  for (int i = 0; i < vm->nstrings; i++)
    if (!strcmp(vm->strings[i], str)) return i + 1;
  if (vm->nstrings == vm->capstrings) {
    int cap = vm->capstrings ? 2 * vm->capstrings : 16;
    const char **p = realloc(vm->strings, (size_t)cap * sizeof *p);
    if (!p) return -1;
    vm->strings = p;
    vm->capstrings = cap;
  }
  vm->strings[vm->nstrings] = str;
  return ++vm->nstrings;
}

const char *st_fvm_string_text(const st_fvm *vm, double x) {
  if (x >= 1 && x <= vm->nstrings && x == (int)x) return vm->strings[(int)x - 1];
  if (x <= -1 && x >= -vm->nmade && x == (int)x) return vm->made[-(int)x - 1];
  return "";
}

void st_fvm_set_external(st_fvm *vm, st_fvm_external hook, void *ctx) {
  vm->external = hook;
  vm->external_ctx = ctx;
}

int st_fvm_is_c_code(const st_ffunction *fn) {
  if (!fn->ext || !fn->external_name || st_extfn_find(fn->external_name)) return 0;
  return !strcmp(fn->ext->language, "C") || !strcmp(fn->ext->language, "FORTRAN 77");
}

int st_fvm_exact_tangent(const st_fvm *vm, int c) { return !vm->c[c].opaque; }

int st_fvm_copy_strings(st_fvm *to, const st_fvm *from) {
  for (int i = 0; i < from->nstrings; i++)
    if (st_fvm_string(to, from->strings[i]) != i + 1) return -1;
  return 0;
}

void st_fvm_free(st_fvm *vm) {
  if (!vm) return;
  free(vm->strings);
  for (int i = 0; i < vm->nmade; i++) free(vm->made[i]);
  free(vm->made);
  free(vm->cext);
  free(vm->views);
  free(vm->texts);
  for (int i = 0; i < vm->nc; i++) {
    free(vm->c[i].loc);
    free(vm->c[i].outs);
    free(vm->c[i].code);
    free(vm->c[i].asserts);
    free(vm->c[i].memo);
  }
  for (int d = 0; d < FVM_LEVELS; d++) free(vm->level[d]);
  free(vm->ext);
  free(vm->tmp);
  free(vm->failure);
  free(vm->c);
  free(vm);
}
