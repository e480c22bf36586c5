/* A small interpreter for user functions at flattening time: parameter bindings such as
 * f_pos = GenerateStribeckFrictionTable(...) (spec msl-friction.md 6.18: "function call in a
 * parameter binding (algorithm function with a for loop)") and structural conditions need
 * their values before the model is compiled. Values are real scalars or arrays of up to 4
 * dimensions (row-major); Booleans and Integers are held as doubles. Anything else (strings,
 * records, external functions) makes the call "not evaluable" (-1), never an error. */
#include "front/inst.h"

#include "front/fexpr.h"

#include <math.h>
#include <string.h>

#define MAX_STEPS 10000000L /* statements per call: a runaway while-loop gives up */

typedef struct val {
  int ndims;
  int dims[4];
  int n;      /* number of elements */
  double s;   /* the value of a scalar */
  double *d;  /* elements of an array (NULL for a scalar) */
} val;

typedef struct frame {
  st_fl *fl;
  int k;                  /* function index */
  const st_ffunction *fn;
  val *loc;
  long steps;
  int brk, ret;
  int end;                /* `end` in the subscript being evaluated */
  int depth;
} frame;

static double at(const val *v, int i) { return v->d ? v->d[i] : v->s; }

static val scalar(double x) {
  val v;
  memset(&v, 0, sizeof v);
  v.n = 1;
  v.s = x;
  return v;
}

static int alloc_array(frame *f, val *v, int ndims, const int *dims) {
  memset(v, 0, sizeof *v);
  v->ndims = ndims;
  v->n = 1;
  for (int i = 0; i < ndims; i++) {
    if (dims[i] < 0 || dims[i] > 1000000) return -1;
    v->dims[i] = dims[i];
    v->n *= dims[i];
  }
  if (v->n > 10000000) return -1;
  v->d = st_arena_alloc(f->fl->tmp, (size_t)(v->n ? v->n : 1) * sizeof(double));
  return v->d ? 0 : -1;
}

static int copy_val(frame *f, val *to, const val *from) {
  if (!from->d) {
    *to = *from;
    return 0;
  }
  if (alloc_array(f, to, from->ndims, from->dims)) return -1;
  memcpy(to->d, from->d, (size_t)from->n * sizeof(double));
  return 0;
}

static int ev(frame *f, const st_fexpr *e, val *out);
static int call_function(st_fl *fl, int k, const val *args, int nargs, val *out, int depth);

/* ------------------------------------------------------------------ expressions */

static int ev_scalar(frame *f, const st_fexpr *e, double *x) {
  val v;
  if (ev(f, e, &v) || v.ndims != 0) return -1;
  *x = v.s;
  return 0;
}

/* a[i, j], a[i, :], a[:, j]: subscripts are scalars or ':' (an FX_RANGE without arguments). */
static int ev_index(frame *f, const st_fexpr *e, val *out) {
  val base;
  if (ev(f, e->args[0], &base) || e->nargs - 1 != base.ndims) return -1;
  int idx[4], rdims[4], nr = 0;
  for (int d = 0; d < base.ndims; d++) {
    const st_fexpr *s = e->args[d + 1];
    if (s->kind == FX_RANGE && s->nargs == 0) {
      idx[d] = -1;
      rdims[nr++] = base.dims[d];
      continue;
    }
    double x;
    int saved = f->end;
    f->end = base.dims[d];
    int rc = ev_scalar(f, s, &x);
    f->end = saved;
    if (rc || x < 1 || x > base.dims[d] || x != floor(x)) return -1;
    idx[d] = (int)x - 1;
  }
  if (nr == 0) {
    int off = 0;
    for (int d = 0; d < base.ndims; d++) off = off * base.dims[d] + idx[d];
    *out = scalar(base.d[off]);
    return 0;
  }
  if (alloc_array(f, out, nr, rdims)) return -1;
  int cur[4] = {0, 0, 0, 0};
  for (int i = 0; i < out->n; i++) {
    int off = 0, r = 0;
    for (int d = 0; d < base.ndims; d++)
      off = off * base.dims[d] + (idx[d] >= 0 ? idx[d] : cur[r++]);
    out->d[i] = base.d[off];
    for (int d = nr - 1; d >= 0 && ++cur[d] == rdims[d]; d--) cur[d] = 0;
  }
  return 0;
}

static int ev_binary(frame *f, const st_fexpr *e, val *out) {
  val a, b;
  if (ev(f, e->args[0], &a) || ev(f, e->args[1], &b)) return -1;
  if (a.ndims == 0 && b.ndims == 0) {
    double x;
    if (st_fx_apply_binary((st_fop)e->op, a.s, b.s, &x)) return -1;
    *out = scalar(x);
    return 0;
  }
  /* element-wise with a scalar or an array of the same shape */
  const val *shape = a.ndims ? &a : &b;
  if (a.ndims && b.ndims && (a.n != b.n || a.ndims != b.ndims)) return -1;
  if (alloc_array(f, out, shape->ndims, shape->dims)) return -1;
  for (int i = 0; i < out->n; i++)
    if (st_fx_apply_binary((st_fop)e->op, at(&a, a.ndims ? i : 0), at(&b, b.ndims ? i : 0),
                           &out->d[i]))
      return -1;
  return 0;
}

static int ev_builtin(frame *f, const st_fexpr *e, val *out) {
  double x, y;
  if (e->op == FB_SIZE) {
    val a;
    if (ev(f, e->args[0], &a) || ev_scalar(f, e->args[1], &x) || x < 1 || x > a.ndims) return -1;
    *out = scalar(a.dims[(int)x - 1]);
    return 0;
  }
  if (e->nargs == 1 && ev_scalar(f, e->args[0], &x) == 0 &&
      st_fx_apply_builtin1((st_builtin)e->op, x, &y) == 0) {
    *out = scalar(y);
    return 0;
  }
  double z;
  if (e->nargs == 2 && ev_scalar(f, e->args[0], &x) == 0 && ev_scalar(f, e->args[1], &y) == 0 &&
      st_fx_apply_builtin2((st_builtin)e->op, x, y, &z) == 0) {
    *out = scalar(z);
    return 0;
  }
  return -1;
}

/* {a, b, c}: scalars make a vector, equal-shaped arrays one more dimension. */
static int ev_array(frame *f, const st_fexpr *e, val *out) {
  if (e->nargs == 0 || e->nargs > 100000) return -1;
  val *items = st_arena_alloc(f->fl->tmp, (size_t)e->nargs * sizeof *items);
  if (!items) return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &items[i]) || items[i].ndims != items[0].ndims ||
        items[i].n != items[0].n || items[i].ndims > 2)
      return -1;
  int dims[4] = {e->nargs};
  for (int d = 0; d < items[0].ndims; d++) dims[d + 1] = items[0].dims[d];
  if (alloc_array(f, out, items[0].ndims + 1, dims)) return -1;
  for (int i = 0; i < e->nargs; i++)
    for (int j = 0; j < items[0].n; j++) out->d[i * items[0].n + j] = at(&items[i], j);
  return 0;
}

static int ev_call(frame *f, const st_fexpr *e, val *out) {
  val args[16];
  if (e->nargs > 16) return -1;
  for (int i = 0; i < e->nargs; i++)
    if (ev(f, e->args[i], &args[i])) return -1;
  return call_function(f->fl, e->index, args, e->nargs, out, f->depth + 1);
}

static int ev(frame *f, const st_fexpr *e, val *out) {
  if (!e) return -1;
  switch (e->kind) {
  case FX_REAL: case FX_BOOL: case FX_ENUM: *out = scalar(e->value); return 0;
  case FX_LOCAL:
    if (e->index < 0 || e->index >= f->fn->nlocals) return -1;
    *out = f->loc[e->index];
    return 0;
  case FX_INDEX: return ev_index(f, e, out);
  case FX_BINARY: return ev_binary(f, e, out);
  case FX_UNARY: {
    val a;
    if (ev(f, e->args[0], &a) || a.ndims) return -1;
    *out = scalar(e->op == FOP_NOT ? (a.s == 0) : -a.s);
    return 0;
  }
  case FX_IF: {
    double c;
    if (ev_scalar(f, e->args[0], &c)) return -1;
    return ev(f, e->args[c != 0 ? 1 : 2], out);
  }
  case FX_BUILTIN: return ev_builtin(f, e, out);
  case FX_ARRAY: return ev_array(f, e, out);
  case FX_CALL: return ev_call(f, e, out);
  case FX_END: *out = scalar(f->end); return f->end > 0 ? 0 : -1;
  default: return -1; /* strings, model variables, time */
  }
}

/* ------------------------------------------------------------------ statements */

static int run(frame *f, const st_fstmt_list *list);

static int assign(frame *f, const st_fexpr *target, const val *v) {
  if (target->kind == FX_LOCAL) return copy_val(f, &f->loc[target->index], v);
  if (target->kind != FX_INDEX || target->args[0]->kind != FX_LOCAL || v->ndims) return -1;
  val *a = &f->loc[target->args[0]->index];
  if (target->nargs - 1 != a->ndims || !a->d) return -1;
  int off = 0;
  for (int d = 0; d < a->ndims; d++) {
    double x;
    int saved = f->end;
    f->end = a->dims[d];
    int rc = ev_scalar(f, target->args[d + 1], &x);
    f->end = saved;
    if (rc || x < 1 || x > a->dims[d]) return -1;
    off = off * a->dims[d] + (int)x - 1;
  }
  a->d[off] = v->s;
  return 0;
}

static int for_values(frame *f, const st_fexpr *range, val *vals) {
  if (range->kind != FX_RANGE) return ev(f, range, vals);
  double a, s = 1, b;
  if (range->nargs < 2 || ev_scalar(f, range->args[0], &a) ||
      (range->nargs == 3 && ev_scalar(f, range->args[1], &s)) ||
      ev_scalar(f, range->args[range->nargs - 1], &b) || s == 0)
    return -1;
  double count = floor((b - a) / s + 1e-9) + 1;
  int n = count < 0 ? 0 : (int)count;
  if (alloc_array(f, vals, 1, &n)) return -1;
  for (int i = 0; i < n; i++) vals->d[i] = a + i * s;
  return 0;
}

static int run_for(frame *f, const st_fstmt *s) {
  val vals;
  if (for_values(f, s->range, &vals) || vals.ndims > 1) return -1;
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

static int run_stmt(frame *f, const st_fstmt *s) {
  val v;
  double c;
  if (++f->steps > MAX_STEPS) return -1;
  switch (s->kind) {
  case FS_ASSIGN: return ev(f, s->value, &v) || assign(f, s->target, &v) ? -1 : 0;
  case FS_IF:
    for (int i = 0; i < s->nconds; i++) {
      if (ev_scalar(f, s->conds[i], &c)) return -1;
      if (c != 0) return run(f, &s->branches[i]);
    }
    return run(f, &s->branches[s->nconds]);
  case FS_FOR: return run_for(f, s);
  case FS_WHILE:
    while (!f->ret) {
      if (++f->steps > MAX_STEPS || ev_scalar(f, s->conds[0], &c)) return -1;
      if (c == 0) break;
      if (run(f, &s->branches[0])) return -1;
      if (f->brk) {
        f->brk = 0;
        break;
      }
    }
    return 0;
  case FS_BREAK: f->brk = 1; return 0;
  case FS_RETURN: f->ret = 1; return 0;
  case FS_ASSERT: return ev_scalar(f, s->value, &c) || c == 0 ? -1 : 0;
  default: return -1; /* tuple assignments, when, reinit, terminate, calls */
  }
}

static int run(frame *f, const st_fstmt_list *list) {
  for (int i = 0; i < list->n && !f->brk && !f->ret; i++)
    if (run_stmt(f, list->items[i])) return -1;
  return 0;
}

/* ------------------------------------------------------------------ calls */

/* Outputs and protected variables: sized from their declared sizes, then their bindings. */
static int init_locals(frame *f) {
  for (int i = 0; i < f->fn->nlocals; i++) {
    const st_flocal *l = &f->fn->locals[i];
    if (l->causality == ST_C_INPUT) continue;
    f->loc[i] = scalar(0);
    if (l->ndims > 0) {
      int dims[4];
      for (int d = 0; d < l->ndims; d++) {
        double x;
        if (ev_scalar(f, f->fl->fn_dims[f->k][4 * i + d], &x)) return -1;
        dims[d] = (int)x;
      }
      if (alloc_array(f, &f->loc[i], l->ndims, dims)) return -1;
      memset(f->loc[i].d, 0, (size_t)f->loc[i].n * sizeof(double));
    }
    val v;
    if (l->binding && (ev(f, l->binding, &v) || copy_val(f, &f->loc[i], &v))) return -1;
  }
  return 0;
}

static int call_function(st_fl *fl, int k, const val *args, int nargs, val *out, int depth) {
  if (k < 0 || k >= fl->nfunctions || depth > 64) return -1;
  const st_ffunction *fn = &fl->functions[k];
  if (fn->external_name) return -1;
  frame f = {fl, k, fn, NULL, 0, 0, 0, 0, depth};
  f.loc = st_arena_alloc(fl->tmp, (size_t)(fn->nlocals + 1) * sizeof *f.loc);
  if (!f.loc) return -1;
  int a = 0, first_output = -1;
  for (int i = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality == ST_C_INPUT) {
      if (a >= nargs || copy_val(&f, &f.loc[i], &args[a++])) return -1;
    } else if (fn->locals[i].causality == ST_C_OUTPUT && first_output < 0) {
      first_output = i;
    }
  }
  if (first_output < 0 || init_locals(&f) || run(&f, &fn->body)) return -1;
  *out = f.loc[first_output];
  return 0;
}

/* A flat constant from an argument: numbers, or rectangular nested arrays of numbers. */
static int to_val(st_fl *fl, frame *f, const st_fexpr *e, val *out) {
  if (e->kind != FX_ARRAY) {
    double x;
    if (st_fl_eval(fl, e, &x)) return -1;
    *out = scalar(x);
    return 0;
  }
  if (e->nargs == 0 || e->nargs > 100000) return -1;
  val first;
  if (to_val(fl, f, e->args[0], &first) || first.ndims > 2) return -1;
  int dims[4] = {e->nargs};
  for (int d = 0; d < first.ndims; d++) dims[d + 1] = first.dims[d];
  if (alloc_array(f, out, first.ndims + 1, dims)) return -1;
  for (int i = 0; i < e->nargs; i++) {
    val item;
    if (to_val(fl, f, e->args[i], &item) || item.n != first.n || item.ndims != first.ndims)
      return -1;
    for (int j = 0; j < first.n; j++) out->d[i * first.n + j] = at(&item, j);
  }
  return 0;
}

static st_fexpr *to_fexpr(st_fl *fl, const val *v, int dim, int offset, int is_bool, st_loc loc) {
  if (dim == v->ndims) {
    double x = at(v, offset);
    return is_bool ? st_fx_bool(fl->arena, x != 0, loc) : st_fx_real(fl->arena, x, loc);
  }
  int stride = 1;
  for (int d = dim + 1; d < v->ndims; d++) stride *= v->dims[d];
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, v->dims[dim], loc);
  for (int i = 0; a && i < v->dims[dim]; i++)
    if (!(a->args[i] = to_fexpr(fl, v, dim + 1, offset + i * stride, is_bool, loc))) return NULL;
  return a;
}

int st_fl_call(st_fl *fl, const st_fexpr *call, st_fexpr **result) {
  if (call->kind != FX_CALL || call->nargs > 16 || call->index < 0 ||
      call->index >= fl->nfunctions)
    return -1;
  frame scratch = {fl, call->index, &fl->functions[call->index], NULL, 0, 0, 0, 0, 0};
  val args[16], out;
  for (int i = 0; i < call->nargs; i++)
    if (to_val(fl, &scratch, call->args[i], &args[i])) return -1;
  if (call_function(fl, call->index, args, call->nargs, &out, 0)) return -1;
  const st_ffunction *fn = &fl->functions[call->index];
  int is_bool = 0;
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT) {
      is_bool = fn->locals[i].type == ST_T_BOOLEAN;
      break;
    }
  *result = to_fexpr(fl, &out, 0, 0, is_bool, call->loc);
  return *result ? 0 : -1;
}
