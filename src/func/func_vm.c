/* The machine of compiled functions (func_compile.h): one interpreter loop for the value and,
 * when `dual` is set, the forward-mode tangent of every value (the tangent frame and stack
 * mirror the value ones). Values use the operations of the constant evaluator
 * (st_fx_apply_binary/builtin1/builtin2), so a call folded while flattening and the same call
 * at run time agree bit for bit; tangent factors of built-ins are st_fn1/st_fn2 (builtin.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "func/builtin.h"
#include "func/func_vm_impl.h"
#include "front/flat_expr.h"
#include "util/strfmt.h"

#define MAX_STEPS 10000000L /* loop iterations per call: a runaway while-loop gives up */

static int fail_in(st_fvm *vm, int k, const char *fmt, ...) {
  const st_ffunction *fn = &vm->functions[k];
  va_list ap;
  va_start(ap, fmt);
  char *what = st_vformat(fmt, ap);
  va_end(ap);
  free(vm->failure);
  if (fn->loc.file)
    vm->failure = st_format("function '%s' (%s:%d:%d): %s", fn->name, fn->loc.file, fn->loc.line,
                            fn->loc.col, what ? what : "out of memory");
  else
    vm->failure = st_format("function '%s': %s", fn->name, what ? what : "out of memory");
  free(what);
  return -1;
}

static int fail(st_fvm *vm, const cfn *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *what = st_vformat(fmt, ap);
  va_end(ap);
  fail_in(vm, f->fn, "%s", what ? what : "out of memory");
  free(what);
  return -1;
}

/* A failed assert: its location and its message, as evaluated (text) or else as written. */
static int assert_failed_text(st_fvm *vm, int k, const st_fstmt *a, const char *text) {
  const st_fexpr *m = a->message;
  if (!text) text = m && m->kind == FX_STRING && m->str ? m->str : "";
  if (a->loc.file)
    fail_in(vm, k, "assertion at %s:%d:%d failed%s%s", a->loc.file, a->loc.line, a->loc.col,
            text[0] ? ": " : "", text);
  else
    fail_in(vm, k, "assertion failed%s%s", text[0] ? ": " : "", text);
  vm->failed_assert = a;
  return -1;
}

const st_fstmt *st_fvm_failed_assert(const st_fvm *vm) { return vm->failed_assert; }

static int assert_failed(st_fvm *vm, const cfn *f, const st_fstmt *a) {
  return assert_failed_text(vm, f->fn, a, NULL);
}

/* Local l's name, or what a temporary of a subscripted expression is. */
static const char *local_name(const st_fvm *vm, const cfn *f, int l) {
  const st_ffunction *fn = &vm->functions[f->fn];
  return l < fn->nlocals ? fn->locals[l].name : "an expression";
}

/* The buffer of call depth d, grown to at least need doubles. */
static double *level(st_fvm *vm, int d, size_t need) {
  if (vm->level_size[d] < need) {
    double *p = realloc(vm->level[d], need * sizeof *p);
    if (!p) return NULL;
    vm->level[d] = p;
    vm->level_size[d] = need;
  }
  return vm->level[d];
}

/* Frame offset of local l's element at the 1-based subscripts x[0..ndims). */
static int element(st_fvm *vm, const cfn *f, int l, const double *x, int *off) {
  const lshape *s = &f->loc[l];
  int o = 0;
  for (int d = 0; d < s->ndims; d++) {
    /* in range first, so that the conversion to int is defined */
    if (!(x[d] >= 1 && x[d] <= s->dims[d]) || x[d] != (double)(int)x[d])
      return fail(vm, f, "subscript %.17g of '%s' out of range 1..%d", x[d], local_name(vm, f, l),
                  s->dims[d]);
    o = o * s->dims[d] + (int)x[d] - 1;
  }
  *off = s->off + o;
  return 0;
}

static void dual_pow(double *v, double *d, int sp) {
  double a = v[sp], b = v[sp + 1], da = d[sp], db = d[sp + 1];
  double r = pow(a, b), t = 0;
  if (da != 0) t += (b == 0 ? 0 : b * pow(a, b - 1)) * da;
  if (db != 0 && a > 0) t += r * log(a) * db;
  v[sp] = r;
  d[sp] = t;
}

/* r = a op b and its tangent (op one of + - * / ^). */
static double dual_bin(int op, double a, double da, double b, double db, double *dr) {
  double r;
  st_fx_apply_binary((st_fop)op, a, b, &r);
  switch (op) {
  case FOP_ADD: *dr = da + db; break;
  case FOP_SUB: *dr = da - db; break;
  case FOP_MUL: *dr = da * b + a * db; break;
  case FOP_POW:
    *dr = (da != 0 && b != 0 ? b * pow(a, b - 1) * da : 0) + (db != 0 && a > 0 ? r * log(a) * db : 0);
    break;
  default: *dr = (da - r * db) / b; break;
  }
  return r;
}

/* F_EW: the result overwrites the operands from position base. */
static void elementwise(const fins *in, double *s, double *ds, int base, int dual) {
  int n = in->b, mode = (int)in->k;
  double a0 = s[base], da0 = dual ? ds[base] : 0;
  double bn = s[base + n], dbn = dual ? ds[base + n] : 0;
  for (int i = 0; i < n; i++) {
    double a = mode == 1 ? a0 : s[base + i], da = mode == 1 ? da0 : dual ? ds[base + i] : 0;
    int bi = mode == 0 ? base + n + i : base + 1 + i;
    double b = mode == 2 ? bn : s[bi], db = mode == 2 ? dbn : dual ? ds[bi] : 0, dr;
    s[base + i] = dual_bin(in->a, a, da, b, db, &dr);
    if (dual) ds[base + i] = dr;
  }
}

/* F_MATMUL: each element summed from 0 in the order of the inner index, written
 * above the operands first (the product may be larger than they are), then moved down.
 * Returns the new top. */
static int matmul(const fins *in, double *s, double *ds, int sp, int dual) {
  int rows = in->a, k = in->b, cols = (int)in->k, na = rows * k, nb = k * cols;
  int base = sp - na - nb + 1, top = sp + 1;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      double r = 0, dr = 0;
      for (int m = 0; m < k; m++) {
        double x = s[base + i * k + m], y = s[base + na + m * cols + j];
        r += x * y;
        if (dual) dr += ds[base + i * k + m] * y + x * ds[base + na + m * cols + j];
      }
      s[top + i * cols + j] = r;
      if (dual) ds[top + i * cols + j] = dr;
    }
  memmove(s + base, s + top, (size_t)(rows * cols) * sizeof *s);
  if (dual) memmove(ds + base, ds + top, (size_t)(rows * cols) * sizeof *ds);
  return base + rows * cols - 1;
}

/* F_REDUCE: sum, product, min or max of the top n elements in order; min and max carry the tangent of the element chosen. Returns the new top. */
static int reduce(const fins *in, double *s, double *ds, int sp, int dual) {
  int n = in->b, base = sp - n + 1, op = in->a;
  int ordered = op == FB_AMIN || op == FB_AMAX;
  double r = ordered ? s[base] : op == FB_PRODUCT, dr = ordered && dual ? ds[base] : 0;
  for (int i = 0; i < n; i++) {
    double x = s[base + i], dx = dual ? ds[base + i] : 0;
    if (op == FB_SUM) {
      r += x;
      dr += dx;
    } else if (op == FB_PRODUCT) {
      dr = dr * x + r * dx;
      r *= x;
    } else if (op == FB_AMIN ? x < r : x > r) {
      r = x;
      dr = dx;
    }
  }
  s[base] = r;
  if (dual) ds[base] = dr;
  return base;
}

/* F_CROSS: a x b, element i = a[i+1] b[i+2] - a[i+2] b[i+1]. Returns the new top. */
static int cross(double *s, double *ds, int sp, int dual) {
  const double *a = s + sp - 5, *b = s + sp - 2, *da = ds + sp - 5, *db = ds + sp - 2;
  double r[3], dr[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    r[i] = a[j] * b[k] - a[k] * b[j];
    if (dual) dr[i] = da[j] * b[k] + a[j] * db[k] - (da[k] * b[j] + a[k] * db[j]);
  }
  memcpy(s + sp - 5, r, sizeof r);
  if (dual) memcpy(ds + sp - 5, dr, sizeof dr);
  return sp - 3;
}

/* F_TRANSPOSE: through the room above the top (as F_MATMUL). */
static void transpose(const fins *in, double *s, double *ds, int sp, int dual) {
  int rows = in->a, cols = in->b, n = rows * cols, base = sp - n + 1;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      s[sp + 1 + j * rows + i] = s[base + i * cols + j];
      if (dual) ds[sp + 1 + j * rows + i] = ds[base + i * cols + j];
    }
  memmove(s + base, s + sp + 1, (size_t)n * sizeof *s);
  if (dual) memmove(ds + base, ds + sp + 1, (size_t)n * sizeof *ds);
}

/* F_SLICE: the element indices of the fixed dimensions come from the stack; the colon
 * dimensions (bits of in->b) run in row-major order, the last fastest. */
static int slice(st_fvm *vm, const cfn *f, const fins *in, const double *v, const double *dv,
                 double *s, double *ds, int *sp) {
  const lshape *l = &f->loc[in->a];
  int idx[4], cur[4] = {0, 0, 0, 0}, nsub = 0, n = 1;
  for (int d = 0; d < l->ndims; d++) nsub += !(in->b >> d & 1);
  int at = *sp - nsub + 1;
  for (int d = 0; d < l->ndims; d++) {
    if (in->b >> d & 1) {
      idx[d] = -1;
      n *= l->dims[d];
      continue;
    }
    double x = s[at++];
    if (!(x >= 1 && x <= l->dims[d]) || x != floor(x))
      return fail(vm, f, "subscript %.17g of '%s' out of range 1..%d", x,
                  local_name(vm, f, in->a), l->dims[d]);
    idx[d] = (int)x - 1;
  }
  *sp -= nsub;
  for (int i = 0; i < n; i++) {
    int o = 0;
    for (int d = 0; d < l->ndims; d++) o = o * l->dims[d] + (idx[d] >= 0 ? idx[d] : cur[d]);
    s[*sp + 1 + i] = v[l->off + o];
    if (dv) ds[*sp + 1 + i] = dv[l->off + o];
    for (int d = l->ndims - 1; d >= 0; d--) {
      if (idx[d] >= 0) continue;
      if (++cur[d] < l->dims[d]) break;
      cur[d] = 0;
    }
  }
  *sp += n;
  return 0;
}

/* ------------------------------------------------------------------ texts made while running */

/* The number of text (malloc'd, taken over): a literal's or the program's when equal, else a
 * text made since the last top-level run (negative numbers); 0 when out of memory. */
static double made_text(st_fvm *vm, char *text) {
  if (!text) return 0;
  for (int i = 0; i < vm->nstrings; i++)
    if (!strcmp(vm->strings[i], text)) {
      free(text);
      return i + 1;
    }
  for (int i = 0; i < vm->nmade; i++)
    if (!strcmp(vm->made[i], text)) {
      free(text);
      return -(i + 1);
    }
  if (vm->nmade == vm->capmade) {
    int cap = vm->capmade ? 2 * vm->capmade : 16;
    char **p = realloc(vm->made, (size_t)cap * sizeof *p);
    if (!p) {
      free(text);
      return 0;
    }
    vm->made = p;
    vm->capmade = cap;
  }
  vm->made[vm->nmade++] = text;
  return -vm->nmade;
}

static void release_made(st_fvm *vm) {
  for (int i = 0; i < vm->nmade; i++) free(vm->made[i]);
  vm->nmade = 0;
}

static const char *text_of(const st_fvm *vm, double x) { return st_fvm_string_text(vm, x); }

/* a + b of two Strings. */
static double concat(st_fvm *vm, double a, double b) {
  const char *ta = text_of(vm, a), *tb = text_of(vm, b);
  size_t la = strlen(ta), lb = strlen(tb);
  char *t = malloc(la + lb + 1);
  if (!t) return 0;
  memcpy(t, ta, la);
  memcpy(t + la, tb, lb + 1);
  return made_text(vm, t);
}

/* An int from a count (digits, a length): NaN and what int cannot hold become 0. */
static int small_int(double x) { return x >= -1e6 && x <= 1e6 ? (int)x : 0; }

/* String(x, significantDigits, minimumLength, leftJustified, format) from v[0..5). */
static double string_of(st_fvm *vm, int kind, const double *v) {
  st_strfmt spec = {(st_strfmt_kind)kind, small_int(v[1]), small_int(v[2]), v[3] != 0,
                    text_of(vm, v[4])};
  int n = st_strfmt_write(NULL, 0, v[0], &spec);
  char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (!text) return 0;
  st_strfmt_write(text, (size_t)n + 1, v[0], &spec);
  return made_text(vm, text);
}

/* ------------------------------------------------------------------ C code (F_CEXT) */

static st_fval *views(st_fvm *vm, int n) {
  if (n > vm->nviews) {
    st_fval *p = realloc(vm->views, (size_t)n * sizeof *p);
    if (!p) return NULL;
    vm->views = p;
    vm->nviews = n;
  }
  return vm->views;
}

/* Local i of f as the marshaller sees it: a scalar (a String by its text) or its elements in
 * the frame v. */
static st_fval local_view(const st_fvm *vm, const cfn *f, int i, double *v) {
  const lshape *l = &f->loc[i];
  if (l->ndims == 0) {
    st_fval x = st_fval_scalar(v[l->off]);
    if (vm->functions[f->fn].locals[i].type == ST_T_STRING) x.str = text_of(vm, x.s);
    return x;
  }
  st_fval x = {l->ndims, {l->dims[0], l->dims[1], l->dims[2], l->dims[3]}, l->n, 0,
               v + l->off, NULL, NULL};
  return x;
}

/* A String array's texts for C, in vm->texts from *used on; -1 when out of memory. */
static int array_texts(st_fvm *vm, st_fval *x, int *used) {
  if (*used + x->n > vm->ntexts) {
    int cap = 2 * (*used + x->n) + 16;
    const char **p = realloc(vm->texts, (size_t)cap * sizeof *p);
    if (!p) return -1;
    vm->texts = p;
    vm->ntexts = cap;
  }
  x->strs = vm->texts + *used; /* filled below: the buffer may still move for later arrays */
  for (int i = 0; i < x->n; i++) vm->texts[*used + i] = text_of(vm, x->d[i]);
  *used += x->n;
  return 0;
}

/* The clause's argument j from the stack elements at *at (pushed by the compiler), else 0
 * (the marshaller reads it from the locals). */
static st_fval pushed_arg(const st_fvm *vm, const fcext *x, int j, double *s, int *at) {
  if (!x->pushed[j]) return st_fval_scalar(0);
  if (x->ndims[j] == 0) {
    st_fval a = st_fval_scalar(s[(*at)++]);
    if (x->is_str[j]) a.str = text_of(vm, a.s);
    return a;
  }
  st_fval a = {x->ndims[j], {x->dims[j][0], x->dims[j][1], x->dims[j][2], x->dims[j][3]},
               x->n[j], 0, s + *at, NULL, NULL};
  *at += x->n[j];
  return a;
}

/* F_CEXT: the hook on views of the frame, then the scalar results (Strings by number) back
 * into the frame; array outputs were written in place. Tangents of what C wrote are zero. */
static int c_code(st_fvm *vm, const cfn *f, const fins *in, double *v, double *dv, double *s,
                  int *sp) {
  const st_ffunction *fn = &vm->functions[f->fn];
  const fcext *x = &vm->cext[in->a];
  int nargs = x->nargs > 0 ? x->nargs : 0, at = *sp - in->b + 1;
  if (!vm->external)
    return fail(vm, f, "calls C code ('%s'), which is not loaded here", fn->external_name);
  st_fval *loc = views(vm, fn->nlocals + nargs + 1), *args = loc + fn->nlocals;
  if (!loc) return fail(vm, f, "out of memory");
  int used = 0;
  for (int i = 0; i < fn->nlocals; i++) loc[i] = local_view(vm, f, i, v);
  for (int j = 0; j < nargs; j++) args[j] = pushed_arg(vm, x, j, s, &at);
  for (int i = 0; i < fn->nlocals + nargs; i++) { /* String arrays as their texts */
    int str = i < fn->nlocals ? fn->locals[i].type == ST_T_STRING : x->is_str[i - fn->nlocals];
    if (str && loc[i].ndims && array_texts(vm, &loc[i], &used)) return fail(vm, f, "out of memory");
  }
  for (int i = 0, off = 0; i < fn->nlocals + nargs; i++) /* the buffer has its final place now */
    if (loc[i].strs) {
      loc[i].strs = vm->texts + off;
      off += loc[i].n;
    }
  *sp -= in->b;
  if (vm->external(vm->external_ctx, f->fn, loc, args, x->nargs))
    return fail(vm, f, "the call of C function '%s' failed", fn->external_name);
  for (int i = 0; i < fn->nlocals; i++) {
    const lshape *l = &f->loc[i];
    if (fn->locals[i].causality == ST_C_INPUT) continue;
    if (l->ndims == 0)
      v[l->off] = fn->locals[i].type != ST_T_STRING ? loc[i].s
                  : loc[i].str ? made_text(vm, strdup(loc[i].str)) : 0;
    if (dv) memset(dv + l->off, 0, (size_t)l->n * sizeof *dv);
  }
  return 0;
}

static int exec(st_fvm *vm, const cfn *f, int depth, double *buf, int dual);


/* F_CALL: pops the arguments into a fresh frame one level deeper, runs the callee, pushes
 * the wanted outputs. */
/* A fresh frame: the argument elements (the arguments come first in the frame, in order:
 * func_compile.c's layout), then zeros for everything else. Loops, not
 * memcpy/memset: frames are a handful of doubles. */
static void enter(double *frame, const cfn *g, const double *args) {
  for (int i = 0; i < g->width; i++) frame[i] = args[i];
  for (int i = g->width; i < g->nframe; i++) frame[i] = 0;
}

/* Runs the derivative function der (a value pass, at call depth d) on the arguments of a
 * call of g, s[at..], followed by the tangents ds[at..] of the inputs that have one (in the
 * order of g's inputs); its outputs, the call's tangents, go to vm->tmp one after the other. */
static int derivative_call(st_fvm *vm, const cfn *g, const cfn *der, int d, const double *s,
                           const double *ds, int at) {
  const st_ffunction *fn = &vm->functions[g->fn];
  double *buf = level(vm, d, st_fvm_need(der));
  if (!buf || der->state != 1) return fail(vm, der, "not compiled or out of memory");
  memset(buf, 0, (size_t)der->nframe * sizeof *buf);
  int a = 0, off = at;
  for (; a < g->sig.nargs; a++) {
    const lshape *l = &der->loc[der->given[a]];
    memcpy(buf + l->off, s + off, (size_t)l->n * sizeof *buf);
    off += l->n;
  }
  off = at;
  for (int i = 0, k = 0; i < fn->nlocals && k < g->sig.nargs; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    int n = g->loc[g->given[k++]].n;
    if (fn->has_derivative[i]) {
      const lshape *l = &der->loc[der->given[a++]];
      memcpy(buf + l->off, ds + off, (size_t)n * sizeof *buf);
    }
    off += n;
  }
  if (exec(vm, der, d, buf, 0)) return -1;
  size_t total = 0;
  for (int i = 0; i < der->nout; i++) total += (size_t)der->loc[der->outs[i]].n;
  if (vm->tmp_size < total) {
    double *p = realloc(vm->tmp, total * sizeof *p);
    if (!p) return fail(vm, der, "out of memory");
    vm->tmp = p;
    vm->tmp_size = total;
  }
  for (int i = 0, o = 0; i < der->nout; i++) {
    const lshape *l = &der->loc[der->outs[i]];
    memcpy(vm->tmp + o, buf + l->off, (size_t)l->n * sizeof *buf);
    o += l->n;
  }
  return 0;
}

/* Pushes the outputs in->b (all when < 0) of g from its frame buf; their tangents from the
 * tangent frame, or from vm->tmp when a derivative function gave them. */
static void push_outputs(st_fvm *vm, const cfn *g, const fins *in, const double *buf,
                         const double *dbuf, int from_tmp, double *s, double *ds, int *sp) {
  for (int i = 0, o = 0; i < g->nout; i++) {
    const lshape *l = &g->loc[g->outs[i]];
    if (in->b < 0 || in->b == i) {
      memcpy(s + *sp + 1, buf + l->off, (size_t)l->n * sizeof *buf);
      if (from_tmp) memcpy(ds + *sp + 1, vm->tmp + o, (size_t)l->n * sizeof *buf);
      else if (dbuf) memcpy(ds + *sp + 1, dbuf + l->off, (size_t)l->n * sizeof *buf);
      *sp += l->n;
    }
    o += l->n;
  }
}

/* The outputs of the last run of f when it had the same argument elements x (and tangents
 * dx), else NULL. A record result is one call per field, in the flat equations and in
 * function bodies alike, each field a call site of its own with the same arguments (IF97's
 * waterBaseProp_ph: 16 fields; ReferenceAir's Helmholtz record inside its density Newton),
 * and a pure function gives the same outputs for the same arguments. */
static const double *memo_hit(const cfn *f, const double *x, const double *dx) {
  size_t w = (size_t)f->width * sizeof *x;
  if (f->memo_kind < 1 + (dx != NULL) || memcmp(f->memo, x, w)) return NULL;
  if (dx && memcmp(f->memo + f->width, dx, w)) return NULL;
  return f->memo + 2 * f->width;
}

/* Keeps the outputs of the run in buf (values, tangents at stride when dual) for memo_hit. */
static void memo_keep(const st_fvm *vm, cfn *f, const double *x, const double *dx,
                      const double *buf, size_t stride) {
  /* texts made by the run are freed at the next one: outputs may name them */
  if (vm->functions[f->fn].is_impure || f->nout == 0 || vm->nmade > 0) return;
  if (!f->memo && !(f->memo = malloc(sizeof *f->memo * (2 * (size_t)f->width + 2 * stride))))
    return;
  double *m = f->memo + 2 * f->width;
  memcpy(f->memo, x, (size_t)f->width * sizeof *x);
  if (dx) memcpy(f->memo + f->width, dx, (size_t)f->width * sizeof *x);
  for (int o = 0; o < f->nout; o++) {
    const lshape *l = &f->loc[f->outs[o]];
    memcpy(m + l->off, buf + l->off, (size_t)l->n * sizeof *m);
    if (dx) memcpy(m + stride + l->off, buf + stride + l->off, (size_t)l->n * sizeof *m);
  }
  f->memo_kind = dx ? 2 : 1;
}

/* F_CALL: pops the arguments into a fresh frame one level deeper, runs the callee, pushes
 * the wanted outputs. With a derivative function (in->k >= 0) the tangent pass runs it for
 * the tangents and the callee for the values only. */
static int call(st_fvm *vm, const cfn *f, const fins *in, int depth, double *s, double *ds,
                int *sp, int dual) {
  cfn *g = &vm->c[in->a];
  if (g->state != 1) return fail(vm, g, "not compiled");
  if (depth + 1 > ST_FVM_MAX_DEPTH)
    return fail(vm, f, "more than %d nested calls (unbounded recursion?)", ST_FVM_MAX_DEPTH);
  int at = *sp - g->width + 1, by_der = dual && in->k >= 0;
  size_t stride = (size_t)g->nframe + (size_t)g->maxsp + 1;
  const double *kept = by_der ? NULL : memo_hit(g, s + at, dual ? ds + at : NULL);
  if (kept) {
    *sp -= g->width;
    push_outputs(vm, g, in, kept, dual ? kept + stride : NULL, 0, s, ds, sp);
    return 0;
  }
  if (by_der && derivative_call(vm, g, &vm->c[(int)in->k], depth + 1, s, ds, at)) return -1;
  int tangents = dual && !by_der;
  double *buf = level(vm, depth + 1, st_fvm_need(g));
  if (!buf) return fail(vm, g, "out of memory");
  enter(buf, g, s + at);
  if (tangents) enter(buf + stride, g, ds + at);
  *sp -= g->width;
  if (exec(vm, g, depth + 1, buf, tangents)) return -1;
  /* the arguments are still below the stack top: the callee ran in a frame of its own */
  if (!by_der) memo_keep(vm, g, s + at, tangents ? ds + at : NULL, buf, stride);
  push_outputs(vm, g, in, buf, tangents ? buf + stride : NULL, by_der, s, ds, sp);
  return 0;
}

/* start:step:stop has floor((stop - start)/step + 1e-9) + 1 elements. */
static int range_count(st_fvm *vm, const cfn *f, double a, double s, double b, double *n) {
  double count = floor((b - a) / s + 1e-9) + 1;
  if (s == 0 || count > 1e7 || isnan(count)) return fail(vm, f, "bad for-loop range");
  *n = count < 0 ? 0 : count;
  return 0;
}

static int exec(st_fvm *vm, const cfn *f, int depth, double *buf, int dual) {
  size_t stride = (size_t)f->nframe + (size_t)f->maxsp + 1;
  vm->bodies++;
  double *v = buf, *s = buf + f->nframe, *dv = buf + stride, *ds = dv + f->nframe;
  int sp = -1, o;
  double r, fa, fb;
  const fins *code = f->code;
  for (int pc = 0; pc < f->n; pc++) {
    const fins *in = &code[pc];
    switch ((fop)in->op) {
    case F_CONST: s[++sp] = in->k; if (dual) ds[sp] = 0; break;
    case F_LOAD: s[++sp] = v[in->a]; if (dual) ds[sp] = dv[in->a]; break;
    case F_STORE: v[in->a] = s[sp]; if (dual) dv[in->a] = ds[sp]; sp--; break;
    case F_LOADI:
      sp -= in->b;
      if (element(vm, f, in->a, s + sp + 1, &o)) return -1;
      s[++sp] = v[o];
      if (dual) ds[sp] = dv[o];
      break;
    case F_STOREI:
      sp -= in->b + 1;
      if (element(vm, f, in->a, s + sp + 1, &o)) return -1;
      v[o] = s[sp + 1 + in->b];
      if (dual) dv[o] = ds[sp + 1 + in->b];
      break;
    case F_PUSHN:
      memcpy(s + sp + 1, v + in->a, (size_t)in->b * sizeof *s);
      if (dual) memcpy(ds + sp + 1, dv + in->a, (size_t)in->b * sizeof *s);
      sp += in->b;
      break;
    case F_POPN:
      sp -= in->b;
      memcpy(v + in->a, s + sp + 1, (size_t)in->b * sizeof *s);
      if (dual) memcpy(dv + in->a, ds + sp + 1, (size_t)in->b * sizeof *s);
      break;
    case F_LOADT:
      o = in->a + (int)s[sp];
      s[sp] = v[o];
      if (dual) ds[sp] = dv[o];
      break;
    case F_SLICE:
      if (slice(vm, f, in, v, dual ? dv : NULL, s, ds, &sp)) return -1;
      break;
    case F_ADD: sp--; s[sp] += s[sp + 1]; if (dual) ds[sp] += ds[sp + 1]; break;
    case F_SUB: sp--; s[sp] -= s[sp + 1]; if (dual) ds[sp] -= ds[sp + 1]; break;
    case F_MUL:
      sp--;
      if (dual) ds[sp] = ds[sp] * s[sp + 1] + s[sp] * ds[sp + 1];
      s[sp] *= s[sp + 1];
      break;
    case F_DIV:
      sp--;
      s[sp] /= s[sp + 1];
      if (dual) ds[sp] = (ds[sp] - s[sp] * ds[sp + 1]) / s[sp + 1];
      break;
    case F_POW:
      sp--;
      if (dual) dual_pow(s, ds, sp);
      else s[sp] = pow(s[sp], s[sp + 1]);
      break;
    case F_NEG: s[sp] = -s[sp]; if (dual) ds[sp] = -ds[sp]; break;
    case F_CMP:
      sp--;
      s[sp] = st_compare(in->a, s[sp], s[sp + 1]);
      if (dual) ds[sp] = 0;
      break;
    case F_NOT: s[sp] = s[sp] == 0; if (dual) ds[sp] = 0; break;
    case F_FN1:
      for (int i = sp - (in->b > 1 ? in->b : 1) + 1; i <= sp; i++) {
        st_fx_apply_builtin1((st_builtin)in->a, s[i], &r);
        if (dual) {
          st_fn1(in->a, s[i], &fa);
          ds[i] = ds[i] == 0 ? 0 : fa * ds[i];
        }
        s[i] = r;
      }
      break;
    case F_EXT:
      sp -= in->b - 1;
      if (dual) {
        s[sp] = st_extcall_dual(&vm->ext[in->a], s + sp, ds + sp, &r);
        ds[sp] = r;
      } else {
        s[sp] = st_extcall_eval(&vm->ext[in->a], s + sp);
      }
      break;
    case F_CEXT:
      if (c_code(vm, f, in, v, dual ? dv : NULL, s, &sp)) return -1;
      break;
    case F_SCAT:
      sp--;
      s[sp] = concat(vm, s[sp], s[sp + 1]);
      if (dual) ds[sp] = 0;
      if (s[sp] == 0) return fail(vm, f, "out of memory");
      break;
    case F_SCMP:
      sp--;
      o = strcmp(text_of(vm, s[sp]), text_of(vm, s[sp + 1]));
      s[sp] = st_compare(in->a, o, 0);
      if (dual) ds[sp] = 0;
      break;
    case F_STR:
      sp -= 4;
      s[sp] = string_of(vm, in->a, s + sp);
      if (dual) ds[sp] = 0;
      if (s[sp] == 0) return fail(vm, f, "String() with a format it cannot take, or out of memory");
      break;
    case F_FAILMSG:
      sp--;
      return assert_failed_text(vm, f->fn, f->asserts[in->a], text_of(vm, s[sp + 1]));
    case F_FN2:
      sp--;
      st_fx_apply_builtin2((st_builtin)in->a, s[sp], s[sp + 1], &r);
      if (dual) {
        st_fn2(in->a, s[sp], s[sp + 1], &fa, &fb);
        ds[sp] = (ds[sp] == 0 ? 0 : fa * ds[sp]) + (ds[sp + 1] == 0 ? 0 : fb * ds[sp + 1]);
      }
      s[sp] = r;
      break;
    case F_EW:
      sp -= in->k == 0 ? in->b : 1;
      elementwise(in, s, ds, sp - in->b + 1, dual);
      break;
    case F_NEGN:
      for (int i = sp - in->b + 1; i <= sp; i++) {
        s[i] = -s[i];
        if (dual) ds[i] = -ds[i];
      }
      break;
    case F_MATMUL: sp = matmul(in, s, ds, sp, dual); break;
    case F_REDUCE: sp = reduce(in, s, ds, sp, dual); break;
    case F_CROSS: sp = cross(s, ds, sp, dual); break;
    case F_TRANSPOSE: transpose(in, s, ds, sp, dual); break;
    case F_FILLN:
      for (int i = 1; i <= in->b; i++) {
        s[sp + i] = s[sp];
        if (dual) ds[sp + i] = ds[sp];
      }
      sp += in->b;
      break;
    case F_JZ: if (s[sp--] == 0) pc = in->a - 1; break;
    case F_JMP: pc = in->a - 1; break;
    case F_LOOP:
      if (++vm->steps > MAX_STEPS) return fail(vm, f, "more than %ld loop iterations", MAX_STEPS);
      pc = in->a - 1;
      break;
    case F_RANGEN:
      sp -= 2;
      if (range_count(vm, f, s[sp], s[sp + 1], s[sp + 2], &r)) return -1;
      s[sp] = r;
      if (dual) ds[sp] = 0;
      break;
    case F_ASSERT:
      if (s[sp--] == 0 && in->a == 0) return assert_failed(vm, f, f->asserts[in->b]);
      break;
    case F_CALL:
      if (call(vm, f, in, depth, s, ds, &sp, dual)) return -1;
      break;
    case F_RET: return 0;
    }
  }
  return 0;
}

/* Runs compiled c on x (and tangents dx when non-NULL): the frame of the call, whose outputs
 * hold the results (values at 0, tangents at *stride), or NULL when the call failed. */
static const double *run_frame(st_fvm *vm, int c, int output, const double *x, const double *dx,
                               size_t *stride) {
  cfn *f = &vm->c[c];
  vm->steps = 0;
  release_made(vm); /* the texts of the previous top-level call */
  if (f->state != 1 || output < -1 || output >= f->nout) {
    fail(vm, f, "not compiled");
    return NULL;
  }
  *stride = (size_t)f->nframe + (size_t)f->maxsp + 1;
  const double *kept = output >= 0 ? memo_hit(f, x, dx) : NULL;
  if (kept) return kept;
  double *buf = level(vm, 0, st_fvm_need(f));
  if (!buf) {
    fail(vm, f, "out of memory");
    return NULL;
  }
  int dual = dx != NULL;
  enter(buf, f, x);
  if (dual) enter(buf + *stride, f, dx);
  if (exec(vm, f, 0, buf, dual)) return NULL;
  memo_keep(vm, f, x, dx, buf, *stride);
  return buf;
}

int st_fvm_run(st_fvm *vm, int c, int output, const double *x, const double *dx, double *out,
               double *dout) {
  size_t stride;
  const double *buf = run_frame(vm, c, output, x, dx, &stride);
  if (!buf) return -1;
  if (output < 0) return 0; /* run for its asserts */
  const lshape *l = &vm->c[c].loc[vm->c[c].outs[output]];
  memcpy(out, buf + l->off, (size_t)l->n * sizeof *out);
  if (dx && dout) memcpy(dout, buf + stride + l->off, (size_t)l->n * sizeof *out);
  return 0;
}

int st_fvm_run_element(st_fvm *vm, int c, int output, int element, const double *x,
                       const double *dx, double *y, double *dy) {
  const cfn *f = &vm->c[c];
  if (output < 0 || output >= f->nout || element < 0 || element >= f->loc[f->outs[output]].n)
    return fail(vm, f, "no element %d of output %d", element + 1, output + 1);
  size_t stride;
  const double *buf = run_frame(vm, c, output, x, dx, &stride);
  if (!buf) return -1;
  int at = vm->c[c].loc[vm->c[c].outs[output]].off + element;
  *y = buf[at];
  if (dx && dy) *dy = buf[stride + at];
  return 0;
}

int st_fvm_fail(st_fvm *vm, int k, const char *why) { return fail_in(vm, k, "%s", why); }

long st_fvm_bodies_run(const st_fvm *vm) { return vm->bodies; }

const char *st_fvm_failure(const st_fvm *vm) { return vm->failure ? vm->failure : ""; }

void st_fvm_clear_failure(st_fvm *vm) {
  free(vm->failure);
  vm->failure = NULL;
  vm->failed_assert = NULL;
}
