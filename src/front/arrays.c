/* The built-in array functions and operators of Modelica 3.6 chapter 10 on the expanded
 * arrays of models (nested FX_ARRAY of scalar expressions): dimension and size functions,
 * constructors, reductions, matrix functions, matrix products and the element-wise
 * application of scalar built-ins. The results are again expanded arrays, so the compiler
 * sees scalars only. Inside function bodies arrays are values of the function machine (src/func,
 * func_compile.c), not handled here. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <string.h>

static st_fexpr *array_of(st_fl *fl, int n, st_loc loc) {
  return st_fx_new(fl->arena, FX_ARRAY, 0, n, loc);
}

static int is_array(const st_fexpr *e) { return e && e->kind == FX_ARRAY; }

/* The dimensions of a rectangular expanded array (0 for a scalar); -1 when ragged. */
int st_fx_shape(const st_fexpr *a, int *dims, int max) {
  int nd = 0;
  for (const st_fexpr *x = a; is_array(x); x = x->nargs ? x->args[0] : NULL) {
    if (nd == max) return -1;
    dims[nd++] = x->nargs;
    if (!x->nargs) break;
  }
  return nd;
}

/* The scalar elements in row-major order into out (at most max); their number. */
static int leaves(const st_fexpr *a, st_fexpr **out, int n, int max) {
  if (!is_array(a)) {
    if (n < max) out[n] = (st_fexpr *)a;
    return n + 1;
  }
  for (int i = 0; i < a->nargs; i++) n = leaves(a->args[i], out, n, max);
  return n;
}

static int count_leaves(const st_fexpr *a) { return leaves(a, NULL, 0, 0); }

/* The scalars of a as one list in fl->tmp; NULL for an empty array. */
static st_fexpr **leaf_list(st_fl *fl, const st_fexpr *a, int *n) {
  *n = count_leaves(a);
  if (*n <= 0 || *n > ST_MAX_ELEMS) return NULL;
  st_fexpr **l = st_arena_alloc(fl->tmp, (size_t)*n * sizeof *l);
  if (l) leaves(a, l, 0, *n);
  return l;
}

/* An array of the given dimensions filled row-major from elems (or with fill). */
static st_fexpr *build(st_fl *fl, const int *dims, int nd, st_fexpr **elems, st_fexpr *fill,
                       int *next, st_loc loc) {
  if (nd == 0) return elems ? elems[(*next)++] : fill;
  st_fexpr *r = array_of(fl, dims[0], loc);
  for (int i = 0; r && i < dims[0]; i++)
    if (!(r->args[i] = build(fl, dims + 1, nd - 1, elems, fill, next, loc))) return NULL;
  return r;
}

static st_fexpr *reshape(st_fl *fl, const int *dims, int nd, st_fexpr **elems, st_loc loc) {
  int next = 0;
  return build(fl, dims, nd, elems, NULL, &next, loc);
}

static st_fexpr *real(st_fl *fl, double v, st_loc loc) { return st_fx_real(fl->arena, v, loc); }

static st_fexpr *add(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc) {
  return st_fx_binary(fl->arena, FOP_ADD, a, b, loc);
}

static st_fexpr *mul(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc) {
  return st_fx_binary(fl->arena, FOP_MUL, a, b, loc);
}

/* Up to FOLD_RUN operands are joined left to right, as written; longer runs (sum() of a
 * large array) are split in halves, so that the tree stays shallow enough for the recursive
 * passes over it (a run of 10^5 was a stack overflow). */
enum { FOLD_RUN = 1024 };

/* x[0] op x[1] op ... op x[n-1], n >= 1, op a binary operator (kind FX_BINARY) or a
 * two-argument built-in (FX_BUILTIN: min, max). NULL when out of memory. */
static st_fexpr *fold(st_fl *fl, st_fexpr_kind kind, int op, st_fexpr *const *x, int n,
                      st_loc loc) {
  st_fexpr *halves[2];
  if (n > FOLD_RUN) {
    halves[0] = fold(fl, kind, op, x, n / 2, loc);
    halves[1] = fold(fl, kind, op, x + n / 2, n - n / 2, loc);
    if (!halves[0] || !halves[1]) return NULL;
    x = halves;
    n = 2;
  }
  st_fexpr *s = x[0];
  for (int i = 1; s && i < n; i++) {
    st_fexpr *j = st_fx_new(fl->arena, kind, op, 2, loc);
    if (j) {
      j->args[0] = s;
      j->args[1] = x[i];
    }
    s = j;
  }
  return s;
}

/* ------------------------------------------------------------ products */

/* sum_k a[k] * b[k] of two lists with strides. */
static st_fexpr *inner(st_fl *fl, st_fexpr *const *a, int sa, st_fexpr *const *b, int sb, int n,
                       st_loc loc) {
  st_fexpr **p = st_arena_alloc(fl->tmp, (size_t)n * sizeof *p);
  if (!p) return NULL;
  for (int k = 0; k < n; k++)
    if (!(p[k] = mul(fl, a[k * sa], b[k * sb], loc))) return NULL;
  return fold(fl, FX_BINARY, FOP_ADD, p, n, loc);
}

/* a*b with two arrays (section 10.6.4): vector*vector is the scalar product, matrix*vector,
 * vector*matrix and matrix*matrix the matrix products. */
st_fexpr *st_fl_array_product(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc) {
  int da[4], db[4];
  int na = st_fx_shape(a, da, 4), nb = st_fx_shape(b, db, 4);
  int inner_a = na >= 1 ? da[na - 1] : 0, inner_b = nb >= 1 ? db[0] : 0;
  if (na < 1 || nb < 1 || na > 2 || nb > 2 || inner_a != inner_b || inner_a == 0) {
    st_fl_error(fl, loc, NULL, "array product of incompatible sizes (vectors and matrices "
                "with matching inner dimension are needed)");
    return NULL;
  }
  int n, m;
  st_fexpr **la = leaf_list(fl, a, &n), **lb = leaf_list(fl, b, &m);
  if (!la || !lb) return NULL;
  int rows = na == 2 ? da[0] : 1, cols = nb == 2 ? db[1] : 1, k = inner_a;
  if (na == 1 && nb == 1) return inner(fl, la, 1, lb, 1, k, loc);
  st_fexpr **r = st_arena_alloc(fl->tmp, (size_t)(rows * cols) * sizeof *r);
  if (!r) return NULL;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      if (!(r[i * cols + j] = inner(fl, la + i * k, 1, lb + j, cols, k, loc))) return NULL;
  int dims[2] = {na == 2 ? rows : cols, cols}, nd = na == 2 && nb == 2 ? 2 : 1;
  return reshape(fl, dims, nd, r, loc);
}

/* ------------------------------------------------------------ element-wise built-ins */

/* Whether built-in b applies element by element to arrays (Modelica 3.6 section 10.6.12:
 * the numeric functions and the event operators). */
static int vectorizable(st_builtin b) {
  switch (b) {
  case FB_DER: case FB_PRE: case FB_EDGE: case FB_CHANGE: case FB_NOEVENT: case FB_SMOOTH:
  case FB_ABS: case FB_SIGN: case FB_SQRT: case FB_SIN: case FB_COS: case FB_TAN:
  case FB_ASIN: case FB_ACOS: case FB_ATAN: case FB_ATAN2: case FB_SINH: case FB_COSH:
  case FB_TANH: case FB_EXP: case FB_LOG: case FB_LOG10: case FB_FLOOR: case FB_CEIL:
  case FB_INTEGER: case FB_MOD: case FB_REM: case FB_DIV: case FB_HOMOTOPY:
  case FB_SEMILINEAR: case FB_CSAMPLE: case FB_HOLD: case FB_PREVIOUS: case FB_NOCLOCK:
  case FB_SUBSAMPLE: case FB_SUPERSAMPLE: case FB_SHIFTSAMPLE: case FB_BACKSAMPLE:
    return 1;
  default: return 0;
  }
}

/* ------------------------------------------------------------ der() of an expression */

static int is_zero(const st_fexpr *e) { return e->kind == FX_REAL && e->value == 0; }

static st_fexpr *sum(st_fl *fl, st_fop op, st_fexpr *a, st_fexpr *b, st_loc loc) {
  if (!a || !b) return NULL;
  if (is_zero(b)) return a;
  if (is_zero(a)) return op == FOP_ADD ? b : st_fx_unary(fl->arena, FOP_NEG, b, loc);
  return st_fx_binary(fl->arena, op, a, b, loc);
}

static st_fexpr *product(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc) {
  if (!a || !b) return NULL;
  if (is_zero(a) || is_zero(b)) return st_fx_real(fl->arena, 0, loc);
  return st_fx_binary(fl->arena, FOP_MUL, a, b, loc);
}

static st_fexpr *call1(st_fl *fl, st_builtin b, st_fexpr *x, st_loc loc) {
  st_fexpr *c = x ? st_fx_new(fl->arena, FX_BUILTIN, b, 1, loc) : NULL;
  if (c) c->args[0] = x;
  return c;
}

/* d/dt of e by the rules of calculus, down to der() of variables (Modelica 3.6 section
 * 3.7.4: der(expr) of an expression; FluxTubes' der(hystR - mu0*Hstat)); NULL for what has
 * no rule here (calls: the compiler reports der() of that expression). */
static st_fexpr *time_derivative(st_fl *fl, st_fexpr *e) {
  st_loc loc = e->loc;
  if (st_fx_is_parametric(e, fl->vars)) return st_fx_real(fl->arena, 0, loc);
  st_fexpr *a = e->nargs > 0 ? e->args[0] : NULL, *b = e->nargs > 1 ? e->args[1] : NULL;
  switch (e->kind) {
  case FX_TIME: return st_fx_real(fl->arena, 1, loc);
  case FX_VAR: return call1(fl, FB_DER, e, loc);
  case FX_UNARY:
    return e->op == FOP_NEG ? sum(fl, FOP_SUB, st_fx_real(fl->arena, 0, loc),
                                  time_derivative(fl, a), loc) : NULL;
  case FX_BINARY:
    switch (e->op) {
    case FOP_ADD: case FOP_SUB:
      return sum(fl, (st_fop)e->op, time_derivative(fl, a), time_derivative(fl, b), loc);
    case FOP_MUL:
      return sum(fl, FOP_ADD, product(fl, time_derivative(fl, a), b, loc),
                 product(fl, a, time_derivative(fl, b), loc), loc);
    case FOP_DIV: { /* (a/b)' = (a' b - a b')/b^2 */
      st_fexpr *n = sum(fl, FOP_SUB, product(fl, time_derivative(fl, a), b, loc),
                        product(fl, a, time_derivative(fl, b), loc), loc);
      return n ? st_fx_binary(fl->arena, FOP_DIV, n, st_fx_binary(fl->arena, FOP_MUL, b, b, loc),
                              loc) : NULL;
    }
    case FOP_POW: /* a^b with b a parameter expression: b a^(b - 1) a' */
      if (!st_fx_is_parametric(b, fl->vars)) return NULL;
      return product(fl, st_fx_binary(fl->arena, FOP_MUL, b, st_fx_binary(fl->arena, FOP_POW, a,
                     st_fx_binary(fl->arena, FOP_SUB, b, st_fx_real(fl->arena, 1, loc), loc),
                     loc), loc), time_derivative(fl, a), loc);
    default: return NULL;
    }
  case FX_BUILTIN: {
    if (e->nargs != 1) return NULL;
    st_fexpr *f = NULL;
    switch (e->op) {
    case FB_NOEVENT: return time_derivative(fl, a);
    case FB_SIN: f = call1(fl, FB_COS, a, loc); break;
    case FB_COS: f = st_fx_unary(fl->arena, FOP_NEG, call1(fl, FB_SIN, a, loc), loc); break;
    case FB_EXP: f = e; break;
    case FB_LOG: f = st_fx_binary(fl->arena, FOP_DIV, st_fx_real(fl->arena, 1, loc), a, loc); break;
    case FB_SQRT:
      f = st_fx_binary(fl->arena, FOP_DIV, st_fx_real(fl->arena, 0.5, loc), e, loc);
      break;
    default: return NULL;
    }
    return product(fl, f, time_derivative(fl, a), loc);
  }
  case FX_IF: {
    st_fexpr *t = time_derivative(fl, e->args[1]), *x = time_derivative(fl, e->args[2]);
    st_fexpr *c = t && x ? st_fx_new(fl->arena, FX_IF, 0, 3, loc) : NULL;
    if (!c) return NULL;
    c->args[0] = e->args[0];
    c->args[1] = t;
    c->args[2] = x;
    return c;
  }
  default: return NULL;
  }
}

/* r is FX_BUILTIN with translated args; an array argument makes an array of calls, the
 * scalar arguments shared (smooth(0, x[:]), semiLinear(m[:], a, b)). */
st_fexpr *st_fl_map_builtin(st_fl *fl, st_fexpr *r) {
  if (r->op == FB_DER && r->nargs == 1 && r->args[0]->kind != FX_VAR &&
      r->args[0]->kind != FX_ARRAY) {
    st_fexpr *d = time_derivative(fl, r->args[0]);
    return d ? d : r;
  }
  int n = -1;
  for (int i = 0; i < r->nargs; i++)
    if (is_array(r->args[i])) {
      if (n >= 0 && r->args[i]->nargs != n) {
        st_fl_error(fl, r->loc, NULL, "%s(): array arguments of different sizes",
                    st_builtin_name(r->op));
        return NULL;
      }
      n = r->args[i]->nargs;
    }
  if (n < 0) return r;
  if (!vectorizable((st_builtin)r->op)) {
    st_fl_error(fl, r->loc, NULL, "%s() does not take an array argument",
                st_builtin_name(r->op));
    return NULL;
  }
  st_fexpr *a = array_of(fl, n, r->loc);
  for (int k = 0; a && k < n; k++) {
    st_fexpr *x = st_fx_new(fl->arena, FX_BUILTIN, r->op, r->nargs, r->loc);
    if (!x) return NULL;
    for (int i = 0; i < r->nargs; i++)
      x->args[i] = is_array(r->args[i]) ? r->args[i]->args[k] : r->args[i];
    if (!(a->args[k] = st_fl_map_builtin(fl, x))) return NULL;
  }
  return a;
}

/* ------------------------------------------------------------ named functions */

static int count_args(const st_ast_fnarg *a) {
  int n = 0;
  for (; a; a = a->next) n++;
  return n;
}

static const st_ast_expr *arg(const st_ast_fnarg *a, int i) {
  for (; a && i > 0; a = a->next, i--) {}
  return a ? a->value : NULL;
}

/* An Integer argument that must be known while flattening (a size, a dimension). */
static int int_arg(st_fl *fl, const st_ast_expr *x, st_env env, const char *fn, int *out) {
  double v;
  if (!x || st_fl_eval_ast(fl, x, env, &v) || v != (int)v || v < 0 || v > ST_MAX_ELEMS) {
    st_fl_error(fl, x ? x->loc : (st_loc){0}, env.inst, "%s(): a size or dimension must be a "
                "non-negative Integer constant or parameter", fn);
    return -1;
  }
  *out = (int)v;
  return 0;
}

static st_fexpr *reduce(st_fl *fl, const char *name, st_fexpr *a, st_loc loc) {
  int n;
  if (!is_array(a)) return a;
  st_fexpr **l = leaf_list(fl, a, &n);
  if (!l) {
    if (name[1] == 'i' || name[1] == 'a') {
      st_fl_error(fl, loc, NULL, "%s() of an empty array", name);
      return NULL;
    }
    return real(fl, name[0] == 'p', loc);
  }
  if (name[1] == 'i' || name[1] == 'a')
    return fold(fl, FX_BUILTIN, name[1] == 'i' ? FB_MIN : FB_MAX, l, n, loc);
  return fold(fl, FX_BINARY, name[0] == 's' ? FOP_ADD : FOP_MUL, l, n, loc);
}

/* zeros(n1, n2, ...), ones(...), fill(v, n1, ...). */
static st_fexpr *filled(st_fl *fl, const st_ast_expr *e, const char *name, st_env env) {
  const st_ast_fnarg *a = e->u.call.args;
  st_fexpr *v;
  if (name[0] == 'f') {
    if (!a || !(v = st_translate(fl, a->value, env))) {
      if (!a) st_fl_error(fl, e->loc, env.inst, "fill() needs a value");
      return NULL;
    }
    a = a->next;
  } else {
    v = real(fl, name[0] == 'o', e->loc);
  }
  int dims[8], nd = 0;
  for (; a; a = a->next) {
    if (nd == 8) {
      st_fl_error(fl, e->loc, env.inst, "%s(): too many dimensions", name);
      return NULL;
    }
    if (int_arg(fl, a->value, env, name, &dims[nd++])) return NULL;
  }
  if (nd == 0) {
    st_fl_error(fl, e->loc, env.inst, "%s() needs at least one size", name);
    return NULL;
  }
  int next = 0;
  return build(fl, dims, nd, NULL, v, &next, e->loc);
}

st_fexpr *st_fl_filled_value(st_fl *fl, st_fexpr *b) {
  if (!b || b->kind != FX_BUILTIN || (b->op != FB_FILL && b->op != FB_ZEROS && b->op != FB_ONES))
    return b;
  int first = b->op == FB_FILL, dims[8], nd = b->nargs - first;
  if (nd < 1 || nd > 8 || st_fx_uses_local(b)) return b;
  for (int i = 0; i < nd; i++) {
    double x;
    if (st_fl_eval(fl, b->args[first + i], &x) || x < 0 || x > ST_MAX_ELEMS || x != floor(x))
      return b;
    dims[i] = (int)x;
  }
  st_fexpr *v = first ? b->args[0] : real(fl, b->op == FB_ONES, b->loc);
  int next = 0;
  return build(fl, dims, nd, NULL, v, &next, b->loc);
}

static st_fexpr *transpose(st_fl *fl, st_fexpr *a, st_loc loc) {
  int d[4], nd = st_fx_shape(a, d, 4), n;
  if (nd < 2) {
    st_fl_error(fl, loc, NULL, "transpose() needs a matrix");
    return NULL;
  }
  st_fexpr **l = leaf_list(fl, a, &n);
  int rest = d[1] ? n / (d[0] * d[1]) : 0;
  st_fexpr **t = l ? st_arena_alloc(fl->tmp, (size_t)n * sizeof *t) : NULL;
  if (!t) return d[0] && d[1] ? NULL : a;
  for (int i = 0; i < d[0]; i++)
    for (int j = 0; j < d[1]; j++)
      for (int k = 0; k < rest; k++) t[(j * d[0] + i) * rest + k] = l[(i * d[1] + j) * rest + k];
  int swapped = d[0];
  d[0] = d[1];
  d[1] = swapped;
  return reshape(fl, d, nd, t, loc);
}

/* cat(k, A, B, ...): concatenation along dimension k. */
st_fexpr *st_fl_cat(st_fl *fl, int k, st_fexpr **parts, int n, st_loc loc, st_inst *in) {
  /* along the first dimension the rows follow each other; deeper, element by element */
  if (k == 1) {
    int total = 0;
    for (int i = 0; i < n; i++) {
      if (!is_array(parts[i])) {
        st_fl_error(fl, loc, in, "cat(): arguments must be arrays");
        return NULL;
      }
      total += parts[i]->nargs;
    }
    st_fexpr *r = array_of(fl, total, loc);
    for (int p = 0, at = 0; r && p < n; p++)
      for (int j = 0; j < parts[p]->nargs; j++) r->args[at++] = parts[p]->args[j];
    return r;
  }
  if (k > 2) {
    st_fl_error(fl, loc, in, "cat(): only dimensions 1 and 2 are supported");
    return NULL;
  }
  int rows = is_array(parts[0]) ? parts[0]->nargs : -1;
  for (int i = 0; i < n; i++)
    if (!is_array(parts[i]) || parts[i]->nargs != rows) {
      st_fl_error(fl, loc, in, "cat(): the arrays differ outside dimension %d", k);
      return NULL;
    }
  st_fexpr *r = array_of(fl, rows, loc);
  for (int row = 0; r && row < rows; row++) {
    int total = 0;
    for (int i = 0; i < n; i++) {
      if (!is_array(parts[i]->args[row])) {
        st_fl_error(fl, loc, in, "cat(): dimension %d does not exist", k);
        return NULL;
      }
      total += parts[i]->args[row]->nargs;
    }
    st_fexpr *joined = array_of(fl, total, loc);
    for (int p = 0, at = 0; joined && p < n; p++)
      for (int j = 0; j < parts[p]->args[row]->nargs; j++)
        joined->args[at++] = parts[p]->args[row]->args[j];
    if (!(r->args[row] = joined)) return NULL;
  }
  return r;
}

static st_fexpr *cat(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_fnarg *a = e->u.call.args;
  int k;
  if (!a || int_arg(fl, a->value, env, "cat", &k)) return NULL;
  if (k < 1) {
    st_fl_error(fl, e->loc, env.inst, "cat(): dimension %d does not exist", k);
    return NULL;
  }
  int n = count_args(a) - 1;
  st_fexpr **parts = st_arena_alloc(fl->tmp, (size_t)(n + 1) * sizeof *parts);
  if (!parts) return NULL;
  int i = 0;
  for (a = a->next; a; a = a->next, i++)
    if (!(parts[i] = st_translate(fl, a->value, env))) return NULL;
  return st_fl_cat(fl, k, parts, n, e->loc, env.inst);
}

static st_fexpr *cross(st_fl *fl, st_fexpr *x, st_fexpr *y, st_loc loc) {
  if (!is_array(x) || !is_array(y) || x->nargs != 3 || y->nargs != 3 ||
      is_array(x->args[0]) || is_array(y->args[0])) {
    st_fl_error(fl, loc, NULL, "cross() needs two vectors of 3 elements");
    return NULL;
  }
  st_fexpr *r = array_of(fl, 3, loc);
  for (int i = 0; r && i < 3; i++) {
    int j = (i + 1) % 3, k = (i + 2) % 3;
    r->args[i] = st_fx_binary(fl->arena, FOP_SUB, mul(fl, x->args[j], y->args[k], loc),
                              mul(fl, x->args[k], y->args[j], loc), loc);
  }
  return r;
}

static st_fexpr *skew(st_fl *fl, st_fexpr *x, st_loc loc) {
  if (!is_array(x) || x->nargs != 3 || is_array(x->args[0])) {
    st_fl_error(fl, loc, NULL, "skew() needs a vector of 3 elements");
    return NULL;
  }
  st_fexpr *z = real(fl, 0, loc), *l[9];
  st_fexpr *neg[3];
  for (int i = 0; i < 3; i++) neg[i] = st_fx_unary(fl->arena, FOP_NEG, x->args[i], loc);
  l[0] = z, l[1] = neg[2], l[2] = x->args[1];
  l[3] = x->args[2], l[4] = z, l[5] = neg[0];
  l[6] = neg[1], l[7] = x->args[0], l[8] = z;
  int dims[2] = {3, 3};
  return reshape(fl, dims, 2, l, loc);
}

/* identity(n), diagonal(v). */
static st_fexpr *diagonal(st_fl *fl, int n, st_fexpr *v, st_loc loc) {
  st_fexpr *r = array_of(fl, n, loc), *z = real(fl, 0, loc), *one = real(fl, 1, loc);
  for (int i = 0; r && i < n; i++) {
    if (!(r->args[i] = array_of(fl, n, loc))) return NULL;
    for (int j = 0; j < n; j++) r->args[i]->args[j] = i != j ? z : v ? v->args[i] : one;
  }
  return r;
}

static st_fexpr *linspace(st_fl *fl, const st_ast_expr *e, st_env env) {
  const st_ast_fnarg *a = e->u.call.args;
  int n;
  st_fexpr *x1 = st_translate(fl, arg(a, 0), env);
  st_fexpr *x2 = x1 ? st_translate(fl, arg(a, 1), env) : NULL;
  if (!x2 || int_arg(fl, arg(a, 2), env, "linspace", &n)) return NULL;
  if (n < 2) {
    st_fl_error(fl, e->loc, env.inst, "linspace(): n must be at least 2");
    return NULL;
  }
  st_fexpr *r = array_of(fl, n, e->loc);
  st_fexpr *step = st_fx_binary(fl->arena, FOP_DIV,
                                st_fx_binary(fl->arena, FOP_SUB, x2, x1, e->loc),
                                real(fl, n - 1, e->loc), e->loc);
  for (int i = 0; r && i < n; i++)
    r->args[i] = i == 0 ? x1 : add(fl, x1, mul(fl, real(fl, i, e->loc), step, e->loc), e->loc);
  return r;
}

/* vector(A), matrix(A), scalar(A): the same elements with the size-1 dimensions changed. */
static st_fexpr *reshaped(st_fl *fl, const char *name, st_fexpr *a, st_loc loc) {
  int d[8], nd = st_fx_shape(a, d, 8), n;
  if (nd < 0) return NULL;
  st_fexpr **l = leaf_list(fl, a, &n);
  int big = 0;
  for (int i = 0; i < nd; i++) big += d[i] > 1;
  if (name[0] == 's') {
    if (n != 1) st_fl_error(fl, loc, NULL, "scalar() needs an array of one element");
    return n == 1 ? l[0] : NULL;
  }
  if (name[0] == 'v') {
    if (big > 1) {
      st_fl_error(fl, loc, NULL, "vector() needs at most one dimension larger than 1");
      return NULL;
    }
    return reshape(fl, &n, 1, l, loc);
  }
  int rest = 1;
  for (int i = 2; i < nd; i++) rest *= d[i];
  if (rest != 1) {
    st_fl_error(fl, loc, NULL, "matrix(): the dimensions after the second must be 1");
    return NULL;
  }
  int md[2] = {nd >= 1 ? d[0] : 1, nd >= 2 ? d[1] : 1};
  if (n == 0) return a;
  return reshape(fl, md, 2, l, loc);
}

st_fexpr *st_fl_array_builtin(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                              int *handled) {
  static const char *const names[] = {"size", "ndims", "sum", "product", "min", "max",
                                      "zeros", "ones", "fill", "transpose", "cat", "cross",
                                      "skew", "identity", "diagonal", "linspace", "vector",
                                      "matrix", "scalar", "outerProduct"};
  const st_ast_fnarg *args = e->u.call.args;
  int n = count_args(args), known = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0] && !known; i++)
    known = names[i][0] == name[0] && !strcmp(names[i], name); /* every call passes here */
  *handled = known && !fl->fnctx && !e->u.call.iters &&
             !((!strcmp(name, "min") || !strcmp(name, "max")) && n != 1) &&
             !(!strcmp(name, "size") && n > 2);
  if (!*handled) return NULL;
  if (!strcmp(name, "zeros") || !strcmp(name, "ones") || !strcmp(name, "fill"))
    return filled(fl, e, name, env);
  if (!strcmp(name, "cat")) return cat(fl, e, env);
  if (!strcmp(name, "linspace")) return linspace(fl, e, env);
  if (!strcmp(name, "identity")) {
    int k;
    return n == 1 && !int_arg(fl, args->value, env, name, &k) ? diagonal(fl, k, NULL, e->loc) : NULL;
  }
  int want = !strcmp(name, "size") || !strcmp(name, "cross") || !strcmp(name, "outerProduct") ? 2 : 1;
  if (n != want && !(!strcmp(name, "size") && n == 1)) {
    st_fl_error(fl, e->loc, env.inst, "%s() takes %d argument%s, %d given", name, want,
                want == 1 ? "" : "s", n);
    return NULL;
  }
  st_fexpr *a = st_translate(fl, args->value, env);
  if (!a) return NULL;
  int d[8], nd = st_fx_shape(a, d, 8);
  if (nd < 0) {
    st_fl_error(fl, e->loc, env.inst, "%s(): the array is not rectangular", name);
    return NULL;
  }
  if (!strcmp(name, "size")) {
    if (n == 1) {
      st_fexpr *r = array_of(fl, nd, e->loc);
      for (int i = 0; r && i < nd; i++) r->args[i] = real(fl, d[i], e->loc);
      return r;
    }
    int k;
    if (int_arg(fl, args->next->value, env, name, &k)) return NULL;
    if (k < 1 || k > nd) {
      st_fl_error(fl, e->loc, env.inst, "size(): dimension %d does not exist", k);
      return NULL;
    }
    return real(fl, d[k - 1], e->loc);
  }
  if (!strcmp(name, "ndims")) return real(fl, nd, e->loc);
  if ((!strcmp(name, "sum") || !strcmp(name, "product")) && st_op_record_array(a))
    return st_op_reduce(fl, name, a, e->loc, env); /* the records' '+' or '*' (operators.c) */
  if (!strcmp(name, "sum") || !strcmp(name, "product") || !strcmp(name, "min") || !strcmp(name, "max"))
    return reduce(fl, name, a, e->loc);
  if (!strcmp(name, "transpose")) return transpose(fl, a, e->loc);
  if (!strcmp(name, "skew")) return skew(fl, a, e->loc);
  if (!strcmp(name, "diagonal")) {
    if (nd != 1) {
      st_fl_error(fl, e->loc, env.inst, "diagonal() needs a vector");
      return NULL;
    }
    return diagonal(fl, d[0], a, e->loc);
  }
  if (!strcmp(name, "vector") || !strcmp(name, "matrix") || !strcmp(name, "scalar"))
    return reshaped(fl, name, a, e->loc);
  st_fexpr *b = st_translate(fl, args->next->value, env);
  if (!b) return NULL;
  if (!strcmp(name, "cross")) return cross(fl, a, b, e->loc);
  /* outerProduct(x, y) = matrix(x) * transpose(matrix(y)) */
  int db[8];
  if (nd != 1 || st_fx_shape(b, db, 8) != 1) {
    st_fl_error(fl, e->loc, env.inst, "outerProduct() needs two vectors");
    return NULL;
  }
  st_fexpr *r = array_of(fl, a->nargs, e->loc);
  for (int i = 0; r && i < a->nargs; i++) {
    if (!(r->args[i] = array_of(fl, b->nargs, e->loc))) return NULL;
    for (int j = 0; j < b->nargs; j++) r->args[i]->args[j] = mul(fl, a->args[i], b->args[j], e->loc);
  }
  return r;
}
