/* User functions at flattening time: parameter bindings such as
 * f_pos = GenerateStribeckFrictionTable(...) (a function call in a
 * parameter binding: an algorithm function with a for loop) and structural conditions need
 * their values before the model is compiled. The constant arguments become values, the
 * function machine (src/func, also the compiled model's) runs the call (with the C code of
 * external functions loaded when a call reaches one), and the result becomes a flat
 * constant. Anything it cannot evaluate makes the call "not evaluable" (-1), never an error. */
#include "front/inst.h"

#include "front/flat_expr.h"
#include "func/func_compile.h"

#include <math.h>
#include <string.h>

#define MAX_ARGS ST_FVM_MAX_ARGS

/* A value from a constant argument: numbers, or rectangular nested arrays of numbers (the
 * elements in fl->tmp, which outlives the call). */
/* Whether call e's first output is an array. */
static int array_output(const st_fl *fl, const st_fexpr *e) {
  if (e->index < 0 || e->index >= fl->nfunctions) return 0;
  const st_ffunction *fn = &fl->functions[e->index];
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT) return fn->locals[i].ndims > 0;
  return 0;
}

static int to_val(st_fl *fl, const st_fexpr *e, st_fval *out) {
  const char *text = e->kind != FX_ARRAY ? st_fl_string_const(fl, e) : NULL;
  if (text) { /* a String constant or parameter (a file name) */
    *out = st_fval_scalar(0);
    out->str = text;
    return 0;
  }
  if (e->kind == FX_CALL && e->value == 0 && e->op == 0 && array_output(fl, e)) {
    st_fexpr *v; /* all of an array output (translate.c passes such an argument whole) */
    return st_fl_call(fl, e, &v) || v->kind != FX_ARRAY ? -1 : to_val(fl, v, out);
  }
  if (e->kind != FX_ARRAY) {
    double x;
    if (st_fl_eval(fl, e, &x)) return -1;
    *out = st_fval_scalar(x);
    return 0;
  }
  if (e->nargs > 100000) return -1;
  if (e->nargs == 0) { /* an empty vector (filter coefficients c0[0]) */
    memset(out, 0, sizeof *out);
    out->ndims = 1;
    out->d = st_arena_alloc(fl->tmp, sizeof(double));
    return out->d ? 0 : -1;
  }
  st_fval first;
  if (to_val(fl, e->args[0], &first) || first.ndims > 2) return -1;
  memset(out, 0, sizeof *out);
  out->ndims = first.ndims + 1;
  out->dims[0] = e->nargs;
  for (int d = 0; d < first.ndims; d++) out->dims[d + 1] = first.dims[d];
  out->n = e->nargs * first.n;
  out->d = st_arena_alloc(fl->tmp, (size_t)out->n * sizeof(double));
  if (!out->d) return -1;
  for (int i = 0; i < e->nargs; i++) {
    st_fval item;
    if (to_val(fl, e->args[i], &item) || item.n != first.n || item.ndims != first.ndims)
      return -1;
    for (int j = 0; j < first.n; j++) out->d[i * first.n + j] = item.d ? item.d[j] : item.s;
  }
  return 0;
}

static st_fexpr *to_fexpr(st_fl *fl, const st_fval *v, int dim, int offset, int is_bool,
                          st_loc loc) {
  if (v->str && !v->ndims) { /* a String result */
    st_fexpr *e = st_fx_new(fl->arena, FX_STRING, 0, 0, loc);
    if (e && !(e->str = st_arena_strdup(fl->arena, v->str))) return NULL;
    return e;
  }
  if (dim == v->ndims) {
    double x = v->d ? v->d[offset] : v->s;
    return is_bool ? st_fx_bool(fl->arena, x != 0, loc) : st_fx_real(fl->arena, x, loc);
  }
  int stride = 1;
  for (int d = dim + 1; d < v->ndims; d++) stride *= v->dims[d];
  st_fexpr *a = st_fx_new(fl->arena, FX_ARRAY, 0, v->dims[dim], loc);
  for (int i = 0; a && i < v->dims[dim]; i++)
    if (!(a->args[i] = to_fexpr(fl, v, dim + 1, offset + i * stride, is_bool, loc))) return NULL;
  return a;
}

static st_ftype output_type(const st_ffunction *fn, int output) {
  for (int i = 0, o = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT && o++ == output) return fn->locals[i].type;
  return ST_T_REAL;
}

/* The C code of the external functions, built and loaded only when a call reaches one. */
typedef struct lazy_c {
  st_fl *fl;
  void *handle;
  st_fvm_external hook;
  void *ctx;
} lazy_c;

static int lazy_external(void *ctx, int k, st_fval *locals, const st_fval *args, int nargs) {
  lazy_c *c = ctx;
  if (!c->handle)
    c->handle = c->fl->fe->externals->attach(c->fl->functions, c->fl->nfunctions, &c->hook,
                                             &c->ctx);
  return c->handle ? c->hook(c->ctx, k, locals, args, nargs) : -1;
}

/* The call on the function machine (src/func): 0 with *out (elements in fl->tmp), -1 when the
 * machine does not compile the function for these arguments or the call fails. */
static int machine_call(st_fl *fl, const st_fexpr *call, const st_fval *args, st_fval *out,
                        lazy_c *lazy) {
  st_fsig sig;
  memset(&sig, 0, sizeof sig);
  sig.nargs = call->nargs;
  int width = 0;
  for (int i = 0; i < call->nargs; i++) {
    sig.ndims[i] = args[i].ndims;
    memcpy(sig.dims[i], args[i].dims, sizeof sig.dims[i]);
    width += args[i].ndims ? args[i].n : 1;
  }
  double *x = st_arena_alloc(fl->tmp, (size_t)(width + 1) * sizeof *x);
  /* functions may still be added while flattening: a machine over the current table */
  st_fvm *vm = x ? st_fvm_new(fl->functions, fl->nfunctions) : NULL;
  if (!vm) return -1;
  if (fl->fe->externals) st_fvm_set_external(vm, lazy_external, lazy);
  for (int i = 0, off = 0; i < call->nargs; i++)
    for (int j = 0; j < (args[i].ndims ? args[i].n : 1); j++)
      x[off++] = args[i].ndims ? args[i].d[j] : args[i].str ? st_fvm_string(vm, args[i].str)
                                                             : args[i].s;
  char why[200];
  int c = st_fvm_compile_for(vm, call->index, &sig, x, why, sizeof why), rc = -1;
  if (c >= 0) {
    memset(out, 0, sizeof *out);
    out->n = st_fvm_output_shape(vm, c, call->op, &out->ndims);
    st_fvm_output_dims(vm, c, call->op, out->dims);
    out->d = out->n >= 0 ? st_arena_alloc(fl->tmp, (size_t)(out->n + 1) * sizeof *out->d) : NULL;
    rc = out->d && !st_fvm_run(vm, c, call->op, x, NULL, out->d, NULL) ? 0 : -1;
    if (!rc && !out->ndims) {
      out->s = out->d[0];
      out->d = NULL;
      if (output_type(&fl->functions[call->index], call->op) == ST_T_STRING &&
          !(out->str = st_arena_strdup(fl->tmp, st_fvm_string_text(vm, out->s))))
        rc = -1; /* the text outlives the machine */
    }
  }
  st_fvm_free(vm);
  return rc;
}

int st_fl_call(st_fl *fl, const st_fexpr *call, st_fexpr **result) {
  if (call->kind != FX_CALL || call->nargs > MAX_ARGS || call->index < 0 ||
      call->index >= fl->nfunctions || call->op < 0)
    return -1;
  /* an impure function runs when the model does, once per call there (a counter's or a
   * random generator's state would otherwise see a call made while translating), unless an
   * array size needs its value (a size is fixed by translation) */
  if (fl->functions[call->index].is_impure && !fl->sizing) return -1;
  st_fval args[MAX_ARGS], out;
  for (int i = 0; i < call->nargs; i++)
    if (to_val(fl, call->args[i], &args[i])) return -1;
  lazy_c c = {fl, NULL, NULL, NULL};
  int rc = machine_call(fl, call, args, &out, &c);
  if (!rc && call->value >= 1 && out.ndims) { /* one element of an array result */
    if (call->value <= out.n && call->value == floor(call->value))
      out = st_fval_scalar(out.d[(int)call->value - 1]);
    else rc = -1;
  }
  if (!rc) {
    *result = to_fexpr(fl, &out, 0, 0, output_type(&fl->functions[call->index], call->op) == ST_T_BOOLEAN,
                       call->loc);
    rc = *result ? 0 : -1;
  }
  if (c.handle) fl->fe->externals->detach(c.handle);
  return rc;
}
