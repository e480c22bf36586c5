/* The evaluator of user function bodies (func_eval.h): one tree-walking interpreter over
 * st_ffunction, used at flattening time (interp.c) and at run time (compile/func_calls.c). */
#include "front/func_eval.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "front/flat_expr.h"
#include "util/strfmt.h"

#define MAX_ARGS 128 /* a record input counts one per field */
#define MAX_DEPTH 64
#define MAX_STEPS 10000000L /* statements per call: a runaway while-loop gives up */
#define CHUNK 65536

typedef struct chunk {
  struct chunk *next;
  size_t size, used;
  max_align_t mem[];
} chunk;

struct st_feval {
  const st_ffunction *functions;
  int nfunctions;
  chunk *first, *cur; /* scratch pool, reset per call */
  long steps;
  st_feval_external external; /* runs functions with a C clause, NULL: they fail */
  void *external_ctx;
  const st_fstmt *failed_assert; /* the error-level assert that failed the last call */
  int failed_in;                 /* in that function */
  char *failed_message;          /* its message evaluated (malloc'd), or NULL */
};

typedef struct frame {
  st_feval *fe;
  const st_ffunction *fn;
  st_fval *loc;
  int brk, ret, end, depth;
} frame;

/* ------------------------------------------------------------------ scratch pool */

static void *scratch(st_feval *fe, size_t size) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  while (fe->cur && fe->cur->used + size > fe->cur->size) {
    if (!fe->cur->next) break;
    fe->cur = fe->cur->next;
    fe->cur->used = 0;
  }
  if (!fe->cur || fe->cur->used + size > fe->cur->size) {
    size_t cs = size > CHUNK ? size : CHUNK;
    chunk *c = malloc(sizeof(chunk) + cs);
    if (!c) return NULL;
    c->next = NULL;
    c->size = cs;
    c->used = 0;
    if (fe->cur) {
      c->next = fe->cur->next;
      fe->cur->next = c;
    } else {
      fe->first = c;
    }
    fe->cur = c;
  }
  void *p = (char *)fe->cur->mem + fe->cur->used;
  fe->cur->used += size;
  return p;
}

static void scratch_reset(st_feval *fe) {
  fe->cur = fe->first;
  if (fe->cur) fe->cur->used = 0;
  fe->steps = 0;
}

/* ------------------------------------------------------------------ values */

static st_fval scalar(double x) { return st_fval_scalar(x); }

static double at(const st_fval *v, int i) { return v->d ? v->d[i] : v->s; }

static int new_array(frame *f, st_fval *v, int ndims, const int *dims) {
  memset(v, 0, sizeof *v);
  v->ndims = ndims;
  v->n = 1;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0 || dims[i] > 1000000) return -1;
    v->dims[i] = dims[i];
    v->n *= dims[i];
  }
  if (v->n > 10000000) return -1;
  v->d = scratch(f->fe, (size_t)(v->n ? v->n : 1) * sizeof(double));
  return v->d ? 0 : -1;
}

/* Array v holds Strings: its element texts from texts (NULL: every one ""). */
static int string_elements(frame *f, st_fval *v, const char *const *texts) {
  v->strs = scratch(f->fe, (size_t)(v->n ? v->n : 1) * sizeof *v->strs);
  if (!v->strs) return -1;
  for (int i = 0; i < v->n; i++) v->strs[i] = texts ? texts[i] : "";
  return 0;
}

/* Assignment copies arrays so that a later element assignment changes only the target. */
static int copy_val(frame *f, st_fval *to, const st_fval *from) {
  if (!from->d) {
    *to = *from;
    return 0;
  }
  if (new_array(f, to, from->ndims, from->dims)) return -1;
  memcpy(to->d, from->d, (size_t)from->n * sizeof(double));
  return from->strs ? string_elements(f, to, from->strs) : 0;
}

/* ------------------------------------------------------------------ expressions */

static int ev(frame *f, const st_fexpr *e, st_fval *out);
static int call(st_feval *fe, const st_ffunction *fn, const st_fval *args, int nargs, st_fval **locals,
                int depth);

static int ev_scalar(frame *f, const st_fexpr *e, double *x) {
  st_fval v;
  if (ev(f, e, &v) || v.ndims != 0) return -1;
  *x = v.s;
  return 0;
}

/* One scalar operation (st_fx_apply_binary of the constant evaluator); NaN for an operator
 * that is not one, which fails nothing by itself but poisons the result. */
static double binop(int op, double a, double b) {
  double r;
  return st_fx_apply_binary((st_fop)op, a, b, &r) ? NAN : r;
}

/* a*b of arrays: scalar product, matrix-vector, vector-matrix and matrix-matrix. */
static int ev_product(frame *f, const st_fval *a, const st_fval *b, st_fval *out) {
  if (a->ndims > 2 || b->ndims > 2) return -1;
  int k = a->dims[a->ndims - 1];
  if (b->dims[0] != k) return -1;
  int rows = a->ndims == 2 ? a->dims[0] : 1, cols = b->ndims == 2 ? b->dims[1] : 1;
  int dims[2] = {a->ndims == 2 ? rows : cols, cols}, nd = (a->ndims == 2) + (b->ndims == 2);
  if (nd == 0) {
    double s = 0;
    for (int i = 0; i < k; i++) s += a->d[i] * b->d[i];
    *out = scalar(s);
    return 0;
  }
  if (new_array(f, out, nd, dims)) return -1;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      double s = 0;
      for (int m = 0; m < k; m++) s += a->d[i * k + m] * b->d[m * cols + j];
      out->d[i * cols + j] = s;
    }
  return 0;
}

/* A String operation: + concatenates (the text in the scratch pool), relations compare. */
static int ev_strings(frame *f, int op, const st_fval *a, const st_fval *b, st_fval *out) {
  if (!a->str || !b->str) return -1; /* a String with a number */
  if (op == FOP_ADD) {
    size_t la = strlen(a->str), lb = strlen(b->str);
    char *s = scratch(f->fe, la + lb + 1);
    if (!s) return -1;
    memcpy(s, a->str, la);
    memcpy(s + la, b->str, lb + 1);
    *out = scalar(0);
    out->str = s;
    return 0;
  }
  if (op < FOP_LT || op > FOP_NE) return -1;
  int c = strcmp(a->str, b->str);
  *out = scalar(op == FOP_LT ? c < 0 : op == FOP_LE ? c <= 0 : op == FOP_GT ? c > 0
                : op == FOP_GE ? c >= 0 : op == FOP_EQ ? c == 0 : c != 0);
  return 0;
}

/* Scalar op scalar, or element-wise with a scalar or an equal-shaped array (+, -, and
 * scalar * array, array / scalar). Matrix products are not needed by the library's functions. */
static int ev_binary(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval a, b;
  if (ev(f, e->args[0], &a)) return -1;
  /* and/or short-circuit as in the equations (emit.c): the right operand may be a guarded
   * expression that is not defined when the left one decides */
  if ((e->op == FOP_AND || e->op == FOP_OR) && a.ndims == 0 && (a.s != 0) == (e->op == FOP_OR)) {
    *out = scalar(e->op == FOP_OR);
    return 0;
  }
  if (ev(f, e->args[1], &b)) return -1;
  if (a.str || b.str) return ev_strings(f, e->op, &a, &b, out);
  if (a.ndims == 0 && b.ndims == 0) {
    *out = scalar(binop(e->op, a.s, b.s));
    return 0;
  }
  if (e->op == FOP_MUL && a.ndims && b.ndims && e->value == 0) return ev_product(f, &a, &b, out);
  const st_fval *shape = a.ndims ? &a : &b;
  /* value 1: an element-wise operator (.* ./ .^) between arrays */
  int elementwise = e->op == FOP_ADD || e->op == FOP_SUB || e->value == 1;
  if (a.ndims && b.ndims && (!elementwise || a.n != b.n)) return -1;
  if (!a.ndims || !b.ndims)
    elementwise = e->value == 1 || e->op == FOP_MUL || (e->op == FOP_DIV && !b.ndims);
  if (!elementwise || new_array(f, out, shape->ndims, shape->dims)) return -1;
  for (int i = 0; i < out->n; i++) out->d[i] = binop(e->op, at(&a, i), at(&b, i));
  return 0;
}

static int ev_unary(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval a;
  if (ev(f, e->args[0], &a)) return -1;
  if (e->op == FOP_NOT) {
    if (a.ndims) return -1;
    *out = scalar(a.s == 0);
    return 0;
  }
  if (!a.ndims) {
    *out = scalar(-a.s);
    return 0;
  }
  if (new_array(f, out, a.ndims, a.dims)) return -1;
  for (int i = 0; i < a.n; i++) out->d[i] = -a.d[i];
  return 0;
}

/* ------------------------------------------------------------------ array built-ins */

static int int_value(frame *f, const st_fexpr *e, int *out) {
  double x;
  if (ev_scalar(f, e, &x) || x != floor(x) || x < 0 || x > 1000000) return -1;
  *out = (int)x;
  return 0;
}

/* zeros(n, ...), ones(n, ...), fill(v, n, ...) */
static int ev_filled(frame *f, const st_fexpr *e, st_fval *out) {
  int first = e->op == FB_FILL, dims[4];
  st_fval x = scalar(e->op == FB_ONES);
  if (e->nargs - first < 1 || e->nargs - first > 4 || (first && ev(f, e->args[0], &x)) ||
      x.ndims)
    return -1;
  for (int i = first; i < e->nargs; i++)
    if (int_value(f, e->args[i], &dims[i - first])) return -1;
  if (new_array(f, out, e->nargs - first, dims)) return -1;
  for (int i = 0; i < out->n; i++) out->d[i] = x.s;
  if (x.str) { /* fill("", n) */
    if (string_elements(f, out, NULL)) return -1;
    for (int i = 0; i < out->n; i++) out->strs[i] = x.str;
  }
  return 0;
}

static int ev_reduce(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval a;
  if (e->nargs != 1 || ev(f, e->args[0], &a)) return -1;
  if ((e->op == FB_AMIN || e->op == FB_AMAX) && a.n == 0) return -1;
  double r = e->op == FB_PRODUCT ? 1 : e->op == FB_SUM ? 0 : at(&a, 0);
  for (int i = 0; i < a.n; i++) {
    double x = at(&a, i);
    if (e->op == FB_SUM) r += x;
    else if (e->op == FB_PRODUCT) r *= x;
    else if (e->op == FB_AMIN ? x < r : x > r) r = x;
  }
  *out = scalar(r);
  return 0;
}

/* transpose, identity, diagonal, linspace, vector, scalar, matrix, cross, size(a), ndims */
static int ev_matrix_fn(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval a, b;
  int n, dims[4];
  switch (e->op) {
  case FB_IDENTITY:
    if (e->nargs != 1 || int_value(f, e->args[0], &n)) return -1;
    dims[0] = dims[1] = n;
    if (new_array(f, out, 2, dims)) return -1;
    for (int i = 0; i < n * n; i++) out->d[i] = i % (n + 1) == 0;
    return 0;
  case FB_LINSPACE: {
    double x1, x2;
    if (e->nargs != 3 || ev_scalar(f, e->args[0], &x1) || ev_scalar(f, e->args[1], &x2) ||
        int_value(f, e->args[2], &n) || n < 2 || new_array(f, out, 1, &n))
      return -1;
    for (int i = 0; i < n; i++) out->d[i] = x1 + (x2 - x1) * i / (n - 1);
    return 0;
  }
  default: break;
  }
  if (e->nargs < 1 || ev(f, e->args[0], &a)) return -1;
  switch (e->op) {
  case FB_NDIMS: *out = scalar(a.ndims); return 0;
  case FB_SIZES:
    n = a.ndims;
    if (new_array(f, out, 1, &n)) return -1;
    for (int i = 0; i < n; i++) out->d[i] = a.dims[i];
    return 0;
  case FB_SCALAR:
    if (a.n != 1) return -1;
    *out = scalar(at(&a, 0));
    return 0;
  case FB_VECTOR:
    n = a.n;
    if (new_array(f, out, 1, &n)) return -1;
    for (int i = 0; i < n; i++) out->d[i] = at(&a, i);
    return 0;
  case FB_MATRIX:
    dims[0] = a.ndims >= 1 ? a.dims[0] : 1;
    dims[1] = a.ndims >= 2 ? a.dims[1] : 1;
    if (dims[0] * dims[1] != a.n || new_array(f, out, 2, dims)) return -1;
    for (int i = 0; i < a.n; i++) out->d[i] = at(&a, i);
    return 0;
  case FB_TRANSPOSE:
    if (a.ndims != 2) return -1;
    dims[0] = a.dims[1];
    dims[1] = a.dims[0];
    if (new_array(f, out, 2, dims)) return -1;
    for (int i = 0; i < a.dims[0]; i++)
      for (int j = 0; j < a.dims[1]; j++) out->d[j * a.dims[0] + i] = a.d[i * a.dims[1] + j];
    return 0;
  case FB_DIAGONAL:
    if (a.ndims != 1) return -1;
    dims[0] = dims[1] = n = a.n;
    if (new_array(f, out, 2, dims)) return -1;
    for (int i = 0; i < n * n; i++) out->d[i] = i % (n + 1) == 0 ? a.d[i / (n + 1)] : 0;
    return 0;
  case FB_CROSS:
    if (e->nargs != 2 || ev(f, e->args[1], &b) || a.ndims != 1 || b.ndims != 1 || a.n != 3 ||
        b.n != 3)
      return -1;
    n = 3;
    if (new_array(f, out, 1, &n)) return -1;
    for (int i = 0; i < 3; i++)
      out->d[i] = a.d[(i + 1) % 3] * b.d[(i + 2) % 3] - a.d[(i + 2) % 3] * b.d[(i + 1) % 3];
    return 0;
  default: return -1;
  }
}

/* cat(k, a, b, ...) along dimension k (the others equal). */
static int ev_cat(frame *f, const st_fexpr *e, st_fval *out) {
  int k;
  if (e->nargs < 2 || int_value(f, e->args[0], &k)) return -1;
  int np = e->nargs - 1;
  st_fval *p = scratch(f->fe, (size_t)np * sizeof *p);
  if (!p) return -1;
  for (int i = 0; i < np; i++)
    if (ev(f, e->args[i + 1], &p[i]) || p[i].ndims != p[0].ndims || !p[i].d) return -1;
  int nd = p[0].ndims, dims[4];
  if (k < 1 || k > nd) return -1;
  memcpy(dims, p[0].dims, sizeof dims);
  dims[k - 1] = 0;
  for (int i = 0; i < np; i++) {
    for (int d = 0; d < nd; d++)
      if (d != k - 1 && p[i].dims[d] != p[0].dims[d]) return -1;
    dims[k - 1] += p[i].dims[k - 1];
  }
  if (new_array(f, out, nd, dims)) return -1;
  /* blocks: outer = product of dims before k, inner = product after k */
  int outer = 1, inner = 1;
  for (int d = 0; d < k - 1; d++) outer *= dims[d];
  for (int d = k; d < nd; d++) inner *= dims[d];
  int at_off = 0;
  for (int o = 0; o < outer; o++)
    for (int i = 0; i < np; i++) {
      int len = p[i].dims[k - 1] * inner;
      memcpy(out->d + at_off, p[i].d + o * len, (size_t)len * sizeof(double));
      at_off += len;
    }
  return 0;
}

/* {body for i in range}: the items must have one shape (scalars make a vector). */
static int ev_comprehension(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval range;
  if (e->nargs != 2 || e->index < 0 || e->index >= f->fn->nlocals || ev(f, e->args[1], &range) ||
      range.ndims > 1)
    return -1;
  int n = range.n;
  st_fval *items = scratch(f->fe, (size_t)(n + 1) * sizeof *items);
  if (!items) return -1;
  for (int i = 0; i < n; i++) {
    f->loc[e->index] = scalar(at(&range, i));
    if (ev(f, e->args[0], &items[i]) || items[i].ndims > 2 ||
        (i && (items[i].ndims != items[0].ndims || items[i].n != items[0].n)))
      return -1;
  }
  int dims[4] = {n, 0, 0, 0}, nd = n ? items[0].ndims : 0;
  for (int d = 0; d < nd; d++) dims[d + 1] = items[0].dims[d];
  if (new_array(f, out, nd + 1, dims)) return -1;
  int w = n ? items[0].n : 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < w; j++) out->d[i * w + j] = at(&items[i], j);
  return 0;
}

/* String(x, significantDigits, minimumLength, leftJustified, format): the text in the pool. */
static int ev_string(frame *f, const st_fexpr *e, st_fval *out) {
  double v[4];
  st_fval format;
  if (e->nargs != 5 || ev(f, e->args[4], &format) || !format.str) return -1;
  for (int i = 0; i < 4; i++)
    if (ev_scalar(f, e->args[i], &v[i])) return -1;
  st_strfmt spec = {(st_strfmt_kind)e->index, (int)v[1], (int)v[2], v[3] != 0, format.str};
  int n = st_strfmt_write(NULL, 0, v[0], &spec);
  char *text = n >= 0 ? scratch(f->fe, (size_t)n + 1) : NULL;
  if (!text) return -1;
  st_strfmt_write(text, (size_t)n + 1, v[0], &spec);
  *out = scalar(0);
  out->str = text;
  return 0;
}

static int ev_builtin(frame *f, const st_fexpr *e, st_fval *out) {
  double x, y, r;
  switch (e->op) {
  case FB_STRING: return ev_string(f, e, out);
  case FB_COMPREHENSION: return ev_comprehension(f, e, out);
  case FB_ZEROS: case FB_ONES: case FB_FILL: return ev_filled(f, e, out);
  case FB_SUM: case FB_PRODUCT: case FB_AMIN: case FB_AMAX: return ev_reduce(f, e, out);
  case FB_CAT: return ev_cat(f, e, out);
  case FB_NDIMS: case FB_SIZES: case FB_TRANSPOSE: case FB_IDENTITY: case FB_DIAGONAL:
  case FB_LINSPACE: case FB_VECTOR: case FB_SCALAR: case FB_MATRIX: case FB_CROSS:
    return ev_matrix_fn(f, e, out);
  case FB_SIZE: {
    st_fval a;
    if (e->nargs != 2 || ev(f, e->args[0], &a) || ev_scalar(f, e->args[1], &x) || x < 1 ||
        x > a.ndims)
      return -1;
    *out = scalar(a.dims[(int)x - 1]);
    return 0;
  }
  case FB_NOEVENT: case FB_SMOOTH: case FB_HOMOTOPY:
    return e->nargs ? ev(f, e->args[e->op == FB_SMOOTH ? e->nargs - 1 : 0], out) : -1;
  case FB_DER: case FB_PRE: case FB_EDGE: case FB_CHANGE: case FB_INITIAL: case FB_TERMINAL:
  case FB_SAMPLE: case FB_DELAY: case FB_CARDINALITY: case FB_SEMILINEAR:
    return -1;
  default: break;
  }
  if (e->nargs == 1) { /* element-wise on an array (abs(v)) */
    st_fval a;
    if (ev(f, e->args[0], &a) || st_fx_apply_builtin1((st_builtin)e->op, at(&a, 0), &r)) return -1;
    if (!a.ndims) {
      *out = scalar(r);
      return 0;
    }
    if (new_array(f, out, a.ndims, a.dims)) return -1;
    for (int i = 0; i < a.n; i++) st_fx_apply_builtin1((st_builtin)e->op, a.d[i], &out->d[i]);
    return 0;
  }
  if (e->nargs == 2 && ev_scalar(f, e->args[0], &x) == 0 && ev_scalar(f, e->args[1], &y) == 0 &&
      st_fx_apply_builtin2((st_builtin)e->op, x, y, &r) == 0) {
    *out = scalar(r);
    return 0;
  }
  return -1;
}

/* {a, b, c}: scalars make a vector, equal-shaped arrays one more dimension. */
static int ev_array(frame *f, const st_fexpr *e, st_fval *out) {
  if (e->nargs <= 0) return -1;
  st_fval *items = scratch(f->fe, (size_t)e->nargs * sizeof *items);
  if (!items) return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &items[i]) || items[i].ndims != items[0].ndims ||
        items[i].n != items[0].n || items[i].ndims > 2)
      return -1;
  int dims[4] = {e->nargs, 0, 0, 0};
  for (int d = 0; d < items[0].ndims; d++) dims[d + 1] = items[0].dims[d];
  if (new_array(f, out, items[0].ndims + 1, dims)) return -1;
  if (items[0].str && !items[0].ndims) { /* {"=", ";"} */
    if (string_elements(f, out, NULL)) return -1;
    for (int i = 0; i < e->nargs; i++)
      if (!(out->strs[i] = items[i].str)) return -1;
  }
  for (int i = 0; i < e->nargs; i++)
    for (int j = 0; j < items[0].n; j++) out->d[i * items[0].n + j] = at(&items[i], j);
  return 0;
}

/* Row-major offset of scalar subscripts args[1..]; `end` is the size of that dimension. */
static int subscript_offset(frame *f, const st_fexpr *e, const st_fval *base, int *off) {
  if (e->nargs - 1 != base->ndims || !base->d) return -1;
  *off = 0;
  for (int d = 0; d < base->ndims; d++) {
    double x;
    int saved = f->end;
    f->end = base->dims[d];
    int rc = ev_scalar(f, e->args[d + 1], &x);
    f->end = saved;
    if (rc || x < 1 || x > base->dims[d] || x != floor(x)) return -1;
    *off = *off * base->dims[d] + (int)x - 1;
  }
  return 0;
}

static int is_colon(const st_fexpr *s) { return s->kind == FX_RANGE && s->nargs == 0; }

/* a[i, j] and slices a[i, :], a[:, j] (':' is an FX_RANGE without arguments). */
/* A subscript that selects several indices: ':', a range or an array of indices. */
static int is_vector_subscript(const st_fexpr *s) {
  return is_colon(s) || s->kind == FX_RANGE || s->kind == FX_ARRAY;
}

static int ev_index(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval base;
  if (ev(f, e->args[0], &base) || e->nargs - 1 != base.ndims || !base.d) return -1;
  int slice = 0, off;
  for (int d = 1; d < e->nargs; d++) slice |= is_vector_subscript(e->args[d]);
  if (!slice) { /* the common case, an element: table look-ups in the hot path */
    if (subscript_offset(f, e, &base, &off)) return -1;
    *out = scalar(base.d[off]);
    if (base.strs) out->str = base.strs[off];
    return 0;
  }
  if (base.strs) return -1; /* slices of String arrays: not yet */
  /* per dimension: a fixed index (sel[d] NULL, idx[d]), or the list sel[d] of rdims entries
   * (0-based); ':' is every index */
  int idx[4], rdims[4], nr = 0, *sel[4] = {NULL, NULL, NULL, NULL}, rdim_of[4];
  for (int d = 0; d < base.ndims; d++) {
    const st_fexpr *s = e->args[d + 1];
    st_fval v;
    int saved = f->end, rc = 0;
    f->end = base.dims[d];
    if (is_colon(s)) {
      v.ndims = 1;
      v.n = base.dims[d];
      v.d = NULL;
    } else {
      rc = ev(f, s, &v);
    }
    f->end = saved;
    if (rc || v.ndims > 1) return -1;
    if (v.ndims == 0) {
      double x = v.s;
      if (x < 1 || x > base.dims[d] || x != floor(x)) return -1;
      idx[d] = (int)x - 1;
      continue;
    }
    if (!(sel[d] = scratch(f->fe, (size_t)(v.n ? v.n : 1) * sizeof(int)))) return -1;
    for (int i = 0; i < v.n; i++) {
      double x = v.d ? v.d[i] : i + 1;
      if (x < 1 || x > base.dims[d] || x != floor(x)) return -1;
      sel[d][i] = (int)x - 1;
    }
    rdim_of[d] = nr;
    rdims[nr++] = v.n;
  }
  int cur[4] = {0, 0, 0, 0};
  if (new_array(f, out, nr, rdims)) return -1;
  for (int i = 0; i < out->n; i++) {
    int at_off = 0;
    for (int d = 0; d < base.ndims; d++)
      at_off = at_off * base.dims[d] + (sel[d] ? sel[d][cur[rdim_of[d]]] : idx[d]);
    out->d[i] = base.d[at_off];
    for (int d = nr - 1; d >= 0 && ++cur[d] == rdims[d]; d--) cur[d] = 0;
  }
  return 0;
}

static int ev_range(frame *f, const st_fexpr *r, st_fval *out) {
  double a, s = 1, b;
  if (r->nargs < 2 || ev_scalar(f, r->args[0], &a) ||
      (r->nargs == 3 && ev_scalar(f, r->args[1], &s)) ||
      ev_scalar(f, r->args[r->nargs - 1], &b) || s == 0)
    return -1;
  double count = floor((b - a) / s + 1e-9) + 1;
  int n = count < 0 ? 0 : count > 1e7 ? -1 : (int)count;
  if (new_array(f, out, 1, &n)) return -1;
  for (int i = 0; i < n; i++) out->d[i] = a + i * s;
  return 0;
}

static int ev_call(frame *f, const st_fexpr *e, st_fval *out) {
  st_fval args[MAX_ARGS], *locals;
  if (e->nargs > MAX_ARGS || e->index < 0 || e->index >= f->fe->nfunctions) return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &args[i])) return -1;
  const st_ffunction *fn = &f->fe->functions[e->index];
  if (call(f->fe, fn, args, e->nargs, &locals, f->depth + 1)) return -1;
  for (int i = 0, o = 0; i < fn->nlocals; i++) /* op: the output it stands for */
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == e->op) {
      *out = locals[i];
      return 0;
    }
  return -1;
}

static int ev(frame *f, const st_fexpr *e, st_fval *out) {
  if (!e) return -1;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: *out = scalar(e->value); return 0;
  case FX_LOCAL:
    if (e->index < 0 || e->index >= f->fn->nlocals) return -1;
    *out = f->loc[e->index];
    return 0;
  case FX_BINARY: return ev_binary(f, e, out);
  case FX_UNARY: return ev_unary(f, e, out);
  case FX_BUILTIN: return ev_builtin(f, e, out);
  case FX_CALL: return ev_call(f, e, out);
  case FX_IF: {
    double c;
    if (ev_scalar(f, e->args[0], &c)) return -1;
    return ev(f, e->args[c != 0 ? 1 : 2], out);
  }
  case FX_ARRAY: return ev_array(f, e, out);
  case FX_INDEX: return ev_index(f, e, out);
  case FX_RANGE: return ev_range(f, e, out);
  case FX_END: *out = scalar(f->end); return 0;
  case FX_STRING:
    *out = scalar(0);
    out->str = e->str ? e->str : "";
    return 0;
  default: return -1; /* strings, model variables, time */
  }
}

/* ------------------------------------------------------------------ statements */

static int run(frame *f, const st_fstmt_list *list);

/* a[i, 2:3] := v: the subscripts as index lists (a scalar is one index, a range or array
 * its elements, ':' all), v's elements assigned in row-major order. */
static int assign_slice(frame *f, const st_fexpr *target, st_fval *base, const st_fval *v) {
  int nd = base->ndims, count[4], *idx[4], total = 1;
  for (int d = 0; d < nd; d++) {
    const st_fexpr *s = target->args[d + 1];
    st_fval x;
    int saved = f->end;
    f->end = base->dims[d];
    int rc = is_colon(s) ? 0 : ev(f, s, &x);
    f->end = saved;
    if (rc) return -1;
    count[d] = is_colon(s) ? base->dims[d] : x.n;
    idx[d] = scratch(f->fe, (size_t)(count[d] + 1) * sizeof(int));
    if (!idx[d]) return -1;
    for (int i = 0; i < count[d]; i++) {
      double k = is_colon(s) ? i + 1 : at(&x, i);
      if (k < 1 || k > base->dims[d] || k != floor(k)) return -1;
      idx[d][i] = (int)k - 1;
    }
    total *= count[d];
  }
  if (v->n != total && v->ndims) return -1;
  int cur[4] = {0, 0, 0, 0};
  for (int i = 0; i < total; i++) {
    int off = 0;
    for (int d = 0; d < nd; d++) off = off * base->dims[d] + idx[d][cur[d]];
    base->d[off] = v->ndims ? v->d[i] : v->s;
    for (int d = nd - 1; d >= 0 && ++cur[d] == count[d]; d--) cur[d] = 0;
  }
  return 0;
}

static int assign(frame *f, const st_fexpr *target, const st_fval *v) {
  if (target->kind == FX_LOCAL && target->index >= 0 && target->index < f->fn->nlocals)
    return copy_val(f, &f->loc[target->index], v);
  if (target->kind != FX_INDEX || target->args[0]->kind != FX_LOCAL) return -1;
  int k = target->args[0]->index, off;
  if (k < 0 || k >= f->fn->nlocals || !f->loc[k].d || target->nargs - 1 != f->loc[k].ndims)
    return -1;
  if (f->loc[k].strs && (v->ndims || !v->str || subscript_offset(f, target, &f->loc[k], &off)))
    return -1; /* a String array takes Strings, element by element */
  if (v->ndims || subscript_offset(f, target, &f->loc[k], &off))
    return assign_slice(f, target, &f->loc[k], v);
  f->loc[k].d[off] = v->s;
  if (f->loc[k].strs) f->loc[k].strs[off] = v->str;
  return 0;
}

static int run_for(frame *f, const st_fstmt *s) {
  st_fval vals;
  if (s->loop_local < 0 || s->loop_local >= f->fn->nlocals || ev(f, s->range, &vals) ||
      vals.ndims > 1)
    return -1;
  for (int i = 0; i < vals.n && !f->ret; i++) {
    f->loc[s->loop_local] = scalar(at(&vals, i));
    if (run(f, &s->branches[0])) return -1;
    if (f->brk) {
      f->brk = 0;
      break;
    }
  }
  return 0;
}

static int run_while(frame *f, const st_fstmt *s) {
  double c;
  while (!f->ret) {
    if (ev_scalar(f, s->conds[0], &c)) return -1;
    if (c == 0) break;
    if (run(f, &s->branches[0])) return -1;
    if (f->brk) {
      f->brk = 0;
      break;
    }
  }
  return 0;
}

static int run_if(frame *f, const st_fstmt *s) {
  for (int i = 0; i < s->nconds; i++) {
    double c;
    if (ev_scalar(f, s->conds[i], &c)) return -1;
    if (c != 0) return run(f, &s->branches[i]);
  }
  return run(f, &s->branches[s->nconds]);
}

/* The call of a tuple assignment or call statement: its function and locals after the call. */
static int call_stmt(frame *f, const st_fstmt *s, const st_ffunction **fn, st_fval **locals) {
  const st_fexpr *e = s->value;
  st_fval args[MAX_ARGS];
  if (!e || e->kind != FX_CALL || e->nargs > MAX_ARGS || e->index < 0 ||
      e->index >= f->fe->nfunctions)
    return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &args[i])) return -1;
  *fn = &f->fe->functions[e->index];
  return call(f->fe, *fn, args, e->nargs, locals, f->depth + 1);
}

static int run_tuple(frame *f, const st_fstmt *s) {
  const st_ffunction *fn;
  st_fval *locals;
  if (call_stmt(f, s, &fn, &locals)) return -1;
  int t = 0;
  for (int i = 0; i < fn->nlocals && t < s->ntargets; i++) {
    if (fn->locals[i].causality != ST_C_OUTPUT) continue;
    if (s->targets[t] && assign(f, s->targets[t], &locals[i])) return -1;
    t++;
  }
  return 0;
}

/* The text of a failed assert's message: built from the values now (args[0] of the FX_STRING,
 * sections.c), else its text. */
static void failed_message(frame *f, const st_fexpr *m) {
  st_fval v;
  const char *text = m && m->kind == FX_STRING && m->str ? m->str : "";
  if (m && m->nargs == 1 && !ev(f, m->args[0], &v) && v.str) text = v.str;
  free(f->fe->failed_message);
  f->fe->failed_message = strdup(text);
}

static int run_stmt(frame *f, const st_fstmt *s) {
  if (++f->fe->steps > MAX_STEPS) return -1;
  switch (s->kind) {
  case FS_ASSIGN: {
    st_fval v;
    return ev(f, s->value, &v) || assign(f, s->target, &v);
  }
  case FS_TUPLE: return run_tuple(f, s);
  case FS_CALL: { /* f(args); for its effects (an impure function keeping a state in C) */
    const st_ffunction *fn;
    st_fval *locals;
    return call_stmt(f, s, &fn, &locals);
  }
  case FS_IF: return run_if(f, s);
  case FS_FOR: return run_for(f, s);
  case FS_WHILE: return run_while(f, s);
  case FS_BREAK: f->brk = 1; return 0;
  case FS_RETURN: f->ret = 1; return 0;
  case FS_ASSERT: {
    double c;
    if (ev_scalar(f, s->value, &c)) return -1;
    if (c != 0 || s->level != 0) return 0;
    f->fe->failed_assert = s; /* a failed error-level assert fails the call */
    f->fe->failed_in = (int)(f->fn - f->fe->functions);
    failed_message(f, s->message);
    return -1;
  }
  default: return -1; /* when, reinit, terminate */
  }
}

static int run(frame *f, const st_fstmt_list *list) {
  for (int i = 0; i < list->n && !f->brk && !f->ret; i++)
    if (run_stmt(f, list->items[i])) return -1;
  return 0;
}

/* Outputs and protected variables: zero arrays of their declared size (when it can be
 * evaluated), then their bindings in declaration order; inputs left out by the caller take their
 * defaults. */
static int init_locals(frame *f, const unsigned char *given) {
  for (int i = 0; i < f->fn->nlocals; i++) {
    const st_flocal *l = &f->fn->locals[i];
    if (given[i]) continue;
    f->loc[i] = scalar(0);
    if (l->type == ST_T_STRING && !l->ndims) f->loc[i].str = ""; /* not yet assigned */
    int dims[4], sized = l->ndims > 0;
    for (int d = 0; d < l->ndims && sized; d++) {
      double x = l->dims[d];
      /* a size given by an input (table[nTable, 2]) is known only now */
      if (l->dims[d] < 0 && (!l->size[d] || ev_scalar(f, l->size[d], &x))) sized = 0;
      dims[d] = (int)x;
    }
    if (sized) {
      if (new_array(f, &f->loc[i], l->ndims, dims)) return -1;
      memset(f->loc[i].d, 0, (size_t)f->loc[i].n * sizeof(double));
      if (l->type == ST_T_STRING && string_elements(f, &f->loc[i], NULL)) return -1;
    }
    st_fval v;
    if (l->binding && (ev(f, l->binding, &v) || copy_val(f, &f->loc[i], &v))) return -1;
    if (!l->binding && l->causality == ST_C_INPUT) return -1;
  }
  return 0;
}

/* The external clause's argument values, then the hook. */
static int run_external(frame *f) {
  const st_fexternal *x = f->fn->ext;
  st_fval *args = x->nargs > 0 ? scratch(f->fe, (size_t)x->nargs * sizeof *args) : NULL;
  if (x->nargs < -1 || (x->nargs > 0 && !args)) return -1;
  for (int i = 0; i < x->nargs; i++)
    if (ev(f, x->args[i], &args[i])) return -1;
  return f->fe->external(f->fe->external_ctx, (int)(f->fn - f->fe->functions), f->loc, args,
                         x->nargs);
}

static int call(st_feval *fe, const st_ffunction *fn, const st_fval *args, int nargs, st_fval **locals,
                int depth) {
  int external = fn->ext && fe->external;
  if ((fn->external_name && !external) || depth > MAX_DEPTH || fn->nlocals <= 0) return -1;
  frame f = {fe, fn, NULL, 0, 0, 0, depth};
  f.loc = scratch(fe, (size_t)fn->nlocals * sizeof *f.loc);
  unsigned char *given = scratch(fe, (size_t)fn->nlocals);
  if (!f.loc || !given) return -1;
  memset(given, 0, (size_t)fn->nlocals);
  int a = 0;
  for (int i = 0; i < fn->nlocals && a < nargs; i++)
    if (fn->locals[i].causality == ST_C_INPUT) {
      if (copy_val(&f, &f.loc[i], &args[a++])) return -1;
      given[i] = 1;
    }
  if (a < nargs || init_locals(&f, given)) return -1;
  if (external ? run_external(&f) : run(&f, &fn->body)) return -1;
  *locals = f.loc;
  return 0;
}


/* ------------------------------------------------------------------ entry */

st_feval *st_feval_new(const st_ffunction *functions, int nfunctions) {
  st_feval *fe = calloc(1, sizeof *fe);
  if (!fe) return NULL;
  fe->functions = functions;
  fe->nfunctions = nfunctions;
  return fe;
}

void st_feval_set_external(st_feval *fe, st_feval_external hook, void *ctx) {
  fe->external = hook;
  fe->external_ctx = ctx;
}

const char *st_feval_failed_message(const st_feval *fe) {
  return fe->failed_assert ? fe->failed_message : NULL;
}

const st_fstmt *st_feval_failed_assert(const st_feval *fe, int *function) {
  if (fe->failed_assert) *function = fe->failed_in;
  return fe->failed_assert;
}

void st_feval_free(st_feval *fe) {
  if (!fe) return;
  for (chunk *c = fe->first, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(fe->failed_message);
  free(fe);
}

int st_feval_call(st_feval *fe, int k, const st_fval *args, int nargs, int output,
                  st_fval *out) {
  if (k < 0 || k >= fe->nfunctions || nargs < 0 || nargs > MAX_ARGS * 2) return -1;
  const st_ffunction *fn = &fe->functions[k];
  st_fval *locals;
  scratch_reset(fe);
  fe->failed_assert = NULL;
  if (call(fe, fn, args, nargs, &locals, 0)) return -1;
  if (output < 0) return 0; /* run for the asserts only */
  for (int i = 0, o = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == output) {
      *out = locals[i];
      return 0;
    }
  return -1;
}
