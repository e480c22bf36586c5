/* The evaluator of user function bodies for OP_CALL (see function.h). Values are real scalars
 * or row-major arrays of up to 4 dimensions; Integers and Booleans are held as doubles.
 * Anything it does not support makes the call fail (NaN), never a crash. */
#include "compile/function.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/bytecode.h"

#define MAX_ARGS 16
#define MAX_DEPTH 32
#define MAX_STEPS 1000000L  /* statements per call: a runaway while-loop gives up */
#define CHUNK 65536

typedef struct val {
  int ndims;
  int dims[4];
  int n;
  double s;
  double *d; /* NULL for a scalar */
} val;

typedef struct chunk {
  struct chunk *next;
  size_t size, used;
  max_align_t mem[];
} chunk;

typedef struct call_site {
  int function, nargs, width;
  int output;        /* which output the call returns (0: the first) */
  int ndims[MAX_ARGS];
  int dims[MAX_ARGS][4];
} call_site;

struct st_fcalls {
  const st_flat_model *flat;
  call_site *sites;
  int n, cap;
  chunk *first, *cur; /* scratch pool, reset per call */
  long steps;
};

typedef struct frame {
  st_fcalls *fc;
  const st_ffunction *fn;
  val *loc;
  int brk, ret, end, depth;
} frame;

/* ------------------------------------------------------------------ scratch pool */

static void *scratch(st_fcalls *fc, size_t size) {
  size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  while (fc->cur && fc->cur->used + size > fc->cur->size) {
    if (!fc->cur->next) break;
    fc->cur = fc->cur->next;
    fc->cur->used = 0;
  }
  if (!fc->cur || fc->cur->used + size > fc->cur->size) {
    size_t cs = size > CHUNK ? size : CHUNK;
    chunk *c = malloc(sizeof(chunk) + cs);
    if (!c) return NULL;
    c->next = NULL;
    c->size = cs;
    c->used = 0;
    if (fc->cur) {
      c->next = fc->cur->next;
      fc->cur->next = c;
    } else {
      fc->first = c;
    }
    fc->cur = c;
  }
  void *p = (char *)fc->cur->mem + fc->cur->used;
  fc->cur->used += size;
  return p;
}

static void scratch_reset(st_fcalls *fc) {
  fc->cur = fc->first;
  if (fc->cur) fc->cur->used = 0;
  fc->steps = 0;
}

/* ------------------------------------------------------------------ values */

static val scalar(double x) {
  val v;
  memset(&v, 0, sizeof v);
  v.n = 1;
  v.s = x;
  return v;
}

static double at(const val *v, int i) { return v->d ? v->d[i] : v->s; }

static int new_array(frame *f, val *v, int ndims, const int *dims) {
  memset(v, 0, sizeof *v);
  v->ndims = ndims;
  v->n = 1;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0 || dims[i] > 1000000) return -1;
    v->dims[i] = dims[i];
    v->n *= dims[i];
  }
  if (v->n > 10000000) return -1;
  v->d = scratch(f->fc, (size_t)(v->n ? v->n : 1) * sizeof(double));
  return v->d ? 0 : -1;
}

/* Assignment copies arrays so that a later element assignment changes only the target. */
static int copy_val(frame *f, val *to, const val *from) {
  if (!from->d) {
    *to = *from;
    return 0;
  }
  if (new_array(f, to, from->ndims, from->dims)) return -1;
  memcpy(to->d, from->d, (size_t)from->n * sizeof(double));
  return 0;
}

/* ------------------------------------------------------------------ expressions */

static int ev(frame *f, const st_fexpr *e, val *out);
static int call(st_fcalls *fc, const st_ffunction *fn, const val *args, int nargs, val **locals,
                int depth);

static int ev_scalar(frame *f, const st_fexpr *e, double *x) {
  val v;
  if (ev(f, e, &v) || v.ndims != 0) return -1;
  *x = v.s;
  return 0;
}

static double binop(int op, double a, double b) {
  switch (op) {
  case FOP_ADD: return a + b;
  case FOP_SUB: return a - b;
  case FOP_MUL: return a * b;
  case FOP_DIV: return a / b;
  case FOP_POW: return pow(a, b);
  case FOP_LT: return a < b;
  case FOP_LE: return a <= b;
  case FOP_GT: return a > b;
  case FOP_GE: return a >= b;
  case FOP_EQ: return a == b;
  case FOP_NE: return a != b;
  case FOP_AND: return a != 0 && b != 0;
  default: return a != 0 || b != 0; /* FOP_OR */
  }
}

/* Scalar op scalar, or element-wise with a scalar or an equal-shaped array (+, -, and
 * scalar * array, array / scalar). Matrix products are not needed by the library's functions. */
static int ev_binary(frame *f, const st_fexpr *e, val *out) {
  val a, b;
  if (ev(f, e->args[0], &a)) return -1;
  /* and/or short-circuit as in the equations (emit.c): the right operand may be a guarded
   * expression that is not defined when the left one decides */
  if ((e->op == FOP_AND || e->op == FOP_OR) && a.ndims == 0 && (a.s != 0) == (e->op == FOP_OR)) {
    *out = scalar(e->op == FOP_OR);
    return 0;
  }
  if (ev(f, e->args[1], &b)) return -1;
  if (a.ndims == 0 && b.ndims == 0) {
    *out = scalar(binop(e->op, a.s, b.s));
    return 0;
  }
  const val *shape = a.ndims ? &a : &b;
  int elementwise = e->op == FOP_ADD || e->op == FOP_SUB;
  if (a.ndims && b.ndims && (!elementwise || a.n != b.n)) return -1;
  if (!a.ndims || !b.ndims) elementwise = e->op == FOP_MUL || (e->op == FOP_DIV && !b.ndims);
  if (!elementwise || new_array(f, out, shape->ndims, shape->dims)) return -1;
  for (int i = 0; i < out->n; i++) out->d[i] = binop(e->op, at(&a, i), at(&b, i));
  return 0;
}

static int ev_unary(frame *f, const st_fexpr *e, val *out) {
  val a;
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

static int ev_builtin(frame *f, const st_fexpr *e, val *out) {
  double x, y, da, db;
  switch (e->op) {
  case FB_SIZE: {
    val a;
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
  if (e->nargs == 1 && ev_scalar(f, e->args[0], &x) == 0) {
    *out = scalar(st_fn1(e->op, x, &da));
    return 0;
  }
  if (e->nargs == 2 && ev_scalar(f, e->args[0], &x) == 0 && ev_scalar(f, e->args[1], &y) == 0) {
    *out = scalar(st_fn2(e->op, x, y, &da, &db));
    return 0;
  }
  return -1;
}

/* {a, b, c}: scalars make a vector, equal-shaped arrays one more dimension. */
static int ev_array(frame *f, const st_fexpr *e, val *out) {
  if (e->nargs <= 0) return -1;
  val *items = scratch(f->fc, (size_t)e->nargs * sizeof *items);
  if (!items) return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &items[i]) || items[i].ndims != items[0].ndims ||
        items[i].n != items[0].n || items[i].ndims > 2)
      return -1;
  int dims[4] = {e->nargs, 0, 0, 0};
  for (int d = 0; d < items[0].ndims; d++) dims[d + 1] = items[0].dims[d];
  if (new_array(f, out, items[0].ndims + 1, dims)) return -1;
  for (int i = 0; i < e->nargs; i++)
    for (int j = 0; j < items[0].n; j++) out->d[i * items[0].n + j] = at(&items[i], j);
  return 0;
}

/* Row-major offset of scalar subscripts args[1..]; `end` is the size of that dimension. */
static int subscript_offset(frame *f, const st_fexpr *e, const val *base, int *off) {
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

static int ev_index(frame *f, const st_fexpr *e, val *out) {
  val base;
  int off;
  if (ev(f, e->args[0], &base) || subscript_offset(f, e, &base, &off)) return -1;
  *out = scalar(base.d[off]);
  return 0;
}

static int ev_range(frame *f, const st_fexpr *r, val *out) {
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

static int ev_call(frame *f, const st_fexpr *e, val *out) {
  val args[MAX_ARGS], *locals;
  if (e->nargs > MAX_ARGS || e->index < 0 || e->index >= f->fc->flat->nfunctions) return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &args[i])) return -1;
  const st_ffunction *fn = &f->fc->flat->functions[e->index];
  if (call(f->fc, fn, args, e->nargs, &locals, f->depth + 1)) return -1;
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT) {
      *out = locals[i];
      return 0;
    }
  return -1;
}

static int ev(frame *f, const st_fexpr *e, val *out) {
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
  default: return -1; /* strings, model variables, time */
  }
}

/* ------------------------------------------------------------------ statements */

static int run(frame *f, const st_fstmt_list *list);

static int assign(frame *f, const st_fexpr *target, const val *v) {
  if (target->kind == FX_LOCAL && target->index >= 0 && target->index < f->fn->nlocals)
    return copy_val(f, &f->loc[target->index], v);
  if (target->kind != FX_INDEX || target->args[0]->kind != FX_LOCAL || v->ndims) return -1;
  int k = target->args[0]->index, off;
  if (k < 0 || k >= f->fn->nlocals || subscript_offset(f, target, &f->loc[k], &off)) return -1;
  f->loc[k].d[off] = v->s;
  return 0;
}

static int run_for(frame *f, const st_fstmt *s) {
  val vals;
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

static int run_tuple(frame *f, const st_fstmt *s) {
  const st_fexpr *e = s->value;
  val args[MAX_ARGS], *locals;
  if (!e || e->kind != FX_CALL || e->nargs > MAX_ARGS || e->index < 0 ||
      e->index >= f->fc->flat->nfunctions)
    return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &args[i])) return -1;
  const st_ffunction *fn = &f->fc->flat->functions[e->index];
  if (call(f->fc, fn, args, e->nargs, &locals, f->depth + 1)) return -1;
  int t = 0;
  for (int i = 0; i < fn->nlocals && t < s->ntargets; i++) {
    if (fn->locals[i].causality != ST_C_OUTPUT) continue;
    if (s->targets[t] && assign(f, s->targets[t], &locals[i])) return -1;
    t++;
  }
  return 0;
}

static int run_stmt(frame *f, const st_fstmt *s) {
  if (++f->fc->steps > MAX_STEPS) return -1;
  switch (s->kind) {
  case FS_ASSIGN: {
    val v;
    return ev(f, s->value, &v) || assign(f, s->target, &v);
  }
  case FS_TUPLE: return run_tuple(f, s);
  case FS_IF: return run_if(f, s);
  case FS_FOR: return run_for(f, s);
  case FS_WHILE: return run_while(f, s);
  case FS_BREAK: f->brk = 1; return 0;
  case FS_RETURN: f->ret = 1; return 0;
  case FS_ASSERT: {
    double c;
    if (ev_scalar(f, s->value, &c)) return -1;
    return c == 0 && s->level == 0 ? -1 : 0; /* a failed error-level assert fails the call */
  }
  default: return -1; /* when, reinit, terminate, calls for side effects */
  }
}

static int run(frame *f, const st_fstmt_list *list) {
  for (int i = 0; i < list->n && !f->brk && !f->ret; i++)
    if (run_stmt(f, list->items[i])) return -1;
  return 0;
}

/* Outputs and protected variables: zero arrays of their declared size (when it is fixed),
 * then their bindings in declaration order; inputs left out by the caller take their
 * defaults. */
static int init_locals(frame *f, const unsigned char *given) {
  for (int i = 0; i < f->fn->nlocals; i++) {
    const st_flocal *l = &f->fn->locals[i];
    if (given[i]) continue;
    f->loc[i] = scalar(0);
    int fixed = l->ndims > 0;
    for (int d = 0; d < l->ndims; d++) fixed &= l->dims[d] >= 0;
    if (fixed) {
      if (new_array(f, &f->loc[i], l->ndims, l->dims)) return -1;
      memset(f->loc[i].d, 0, (size_t)f->loc[i].n * sizeof(double));
    }
    val v;
    if (l->binding && (ev(f, l->binding, &v) || copy_val(f, &f->loc[i], &v))) return -1;
    if (!l->binding && l->causality == ST_C_INPUT) return -1;
  }
  return 0;
}

static int call(st_fcalls *fc, const st_ffunction *fn, const val *args, int nargs, val **locals,
                int depth) {
  if (fn->external_name || depth > MAX_DEPTH || fn->nlocals <= 0) return -1;
  frame f = {fc, fn, NULL, 0, 0, 0, depth};
  f.loc = scratch(fc, (size_t)fn->nlocals * sizeof *f.loc);
  unsigned char *given = scratch(fc, (size_t)fn->nlocals);
  if (!f.loc || !given) return -1;
  memset(given, 0, (size_t)fn->nlocals);
  int a = 0;
  for (int i = 0; i < fn->nlocals && a < nargs; i++)
    if (fn->locals[i].causality == ST_C_INPUT) {
      if (copy_val(&f, &f.loc[i], &args[a++])) return -1;
      given[i] = 1;
    }
  if (a < nargs || init_locals(&f, given) || run(&f, &fn->body)) return -1;
  *locals = f.loc;
  return 0;
}

/* ------------------------------------------------------------------ the call table */

st_fcalls *st_fcalls_new(const st_flat_model *flat) {
  st_fcalls *fc = calloc(1, sizeof *fc);
  if (fc) fc->flat = flat;
  return fc;
}

void st_fcalls_free(st_fcalls *fc) {
  if (!fc) return;
  for (chunk *c = fc->first, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(fc->sites);
  free(fc);
}

int st_fcalls_add(st_fcalls *fc, int function, int nargs, const int *ndims, const int *dims) {
  if (function < 0 || function >= fc->flat->nfunctions || nargs < 0 || nargs > MAX_ARGS)
    return -1;
  if (fc->n == fc->cap) {
    int cap = fc->cap ? 2 * fc->cap : 8;
    call_site *s = realloc(fc->sites, (size_t)cap * sizeof *s);
    if (!s) return -1;
    fc->sites = s;
    fc->cap = cap;
  }
  call_site *s = &fc->sites[fc->n];
  memset(s, 0, sizeof *s);
  s->function = function;
  s->nargs = nargs;
  for (int i = 0; i < nargs; i++) {
    int n = 1;
    if (ndims[i] < 0 || ndims[i] > 4) return -1;
    s->ndims[i] = ndims[i];
    for (int d = 0; d < ndims[i]; d++) n *= s->dims[i][d] = dims[4 * i + d];
    s->width += n;
  }
  return fc->n++;
}

int st_fcall_width(const st_fcalls *fc, int k) { return fc->sites[k].width; }

int st_fcall_select_output(st_fcalls *fc, int k, int output) {
  const st_ffunction *fn = &fc->flat->functions[fc->sites[k].function];
  int n = 0;
  for (int i = 0; i < fn->nlocals; i++) n += fn->locals[i].causality == ST_C_OUTPUT;
  if (output < 0 || output >= n) return -1;
  fc->sites[k].output = output;
  return 0;
}

/* The argument values of call site s from its stack elements x (shapes of the site). */
static void site_args(const call_site *s, const double *x, val *args) {
  int off = 0;
  for (int i = 0; i < s->nargs; i++) {
    if (s->ndims[i] == 0) {
      args[i] = scalar(x[off++]);
      continue;
    }
    memset(&args[i], 0, sizeof args[i]);
    args[i].ndims = s->ndims[i];
    args[i].n = 1;
    for (int d = 0; d < s->ndims[i]; d++) args[i].n *= args[i].dims[d] = s->dims[i][d];
    args[i].d = (double *)(x + off); /* read only: inputs are copied on entry */
    off += args[i].n;
  }
}

/* Runs fn on args and returns its output number `output` (a scalar), NaN on failure. */
static double run_output(st_fcalls *fc, const st_ffunction *fn, const val *args, int nargs,
                         int output) {
  val *locals;
  scratch_reset(fc);
  if (call(fc, fn, args, nargs, &locals, 0)) return NAN;
  for (int i = 0, o = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == output)
      return locals[i].ndims == 0 ? locals[i].s : NAN;
  return NAN;
}

double st_fcall_eval(st_fcalls *fc, int k, const double *x) {
  const call_site *s = &fc->sites[k];
  val args[MAX_ARGS];
  site_args(s, x, args);
  return run_output(fc, &fc->flat->functions[s->function], args, s->nargs, s->output);
}

/* The exact directional derivative by annotation(derivative = f_der) (Modelica 3.6 section
 * 12.7.1): f_der(u, du) with du the tangent of the inputs the front end marked. -1 when the
 * function has none or f_der fails (then the difference quotient is used). */
static int annotated_dual(st_fcalls *fc, const call_site *s, const double *x, const double *dx,
                          double *dot) {
  const st_ffunction *fn = &fc->flat->functions[s->function];
  if (!fn->derivative) return -1;
  val args[2 * MAX_ARGS], dargs[MAX_ARGS];
  site_args(s, x, args);
  site_args(s, dx, dargs);
  int n = s->nargs, a = 0;
  for (int i = 0; i < fn->nlocals && a < s->nargs; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    if (fn->has_derivative[i]) args[n++] = dargs[a];
    a++;
  }
  if (a < s->nargs) return -1;
  double d = run_output(fc, &fc->flat->functions[fn->derivative - 1], args, n, s->output);
  if (isnan(d)) return -1;
  *dot = d;
  return 0;
}

double st_fcall_dual(st_fcalls *fc, int k, const double *x, const double *dx, double *dot) {
  double y = st_fcall_eval(fc, k, x);
  int n = fc->sites[k].width;
  double nx = 0, nd = 0;
  for (int i = 0; i < n; i++) {
    nx = fmax(nx, fabs(x[i]));
    nd = fmax(nd, fabs(dx[i]));
  }
  *dot = 0;
  if (nd == 0 || n > ST_FCALL_MAX_WIDTH) return y;
  if (annotated_dual(fc, &fc->sites[k], x, dx, dot) == 0) return y;
  /* relative step sqrt(DBL_EPSILON) of the largest argument, along the unit-scaled tangent */
  double h = 1.4901161193847656e-08 * (1 + nx) / nd;
  double xs[ST_FCALL_MAX_WIDTH];
  for (int i = 0; i < n; i++) xs[i] = x[i] + h * dx[i];
  *dot = (st_fcall_eval(fc, k, xs) - y) / h;
  return y;
}
