/* Operator records (Modelica 3.6 chapter 14): `a + b`, `-a`, `R(x)` where a record class
 * declared `operator record` defines operator '+' (a function, or an operator holding
 * several), '-' (negate or subtract), 'constructor' and so on. The function whose inputs
 * accept the operands is called like any user function (its record result is a record
 * value, records.c); a number operand that no function takes is first converted to the
 * record by the constructor (section 14.3). Arrays of records are not handled here. */
#include "front/inst.h"

#include "front/flat_expr.h"

#include <string.h>

#define MAX_INPUTS 8

/* The operator record class of a record value, else NULL. */
static st_cls *operator_record(st_fl *fl, const st_fexpr *v) {
  if (!st_fx_is_record(v) || !v->str[0]) return NULL;
  st_cls *c = st_front_class_by_name(fl->fe, v->str);
  c = c ? st_cls_resolve_short(fl->fe, c) : NULL;
  return c && st_cls_is(c, ACK_OPERATOR_RECORD) ? c : NULL;
}

static st_cls *member_class(st_fl *fl, st_cls *c, const char *name) {
  st_elem el;
  if (st_lookup_member(fl->fe, c, name, &el) || !el.cls || el.comp) return NULL;
  return st_cls_resolve_short(fl->fe, el.cls);
}

/* The inputs of function fn in order (its own elements: operator functions are small). */
static int inputs(const st_cls *fn, const st_ast_element **in) {
  int n = 0;
  for (const st_ast_element *e = fn->ast ? fn->ast->elements : NULL; e; e = e->next)
    if (e->kind == AEL_COMPONENT && !e->is_protected &&
        e->u.comp.prefix.causality == AC_INPUT && n < MAX_INPUTS)
      in[n++] = e;
  return n;
}

/* Whether an input of type t, declared in fn, takes value v: the same record class, or a
 * number for a Real or Integer scalar. */
static int takes(st_fl *fl, st_cls *fn, const st_ast_element *in, const st_fexpr *v) {
  if (in->u.comp.subs) return 0;
  st_cls *t = st_lookup_class(fl->fe, fn, in->u.comp.type);
  t = t ? st_cls_resolve_short(fl->fe, t) : NULL;
  if (!t) return 0;
  if (st_fx_is_record(v)) return t == operator_record(fl, v);
  if (v->kind == FX_ARRAY || v->kind == FX_STRING) return 0;
  return t->prim == ST_T_REAL || t->prim == ST_T_INTEGER;
}

static int accepts(st_fl *fl, st_cls *fn, st_fexpr **args, int nargs) {
  const st_ast_element *in[MAX_INPUTS];
  int n = inputs(fn, in);
  if (nargs > n) return 0;
  for (int i = 0; i < n; i++) {
    if (i < nargs && !takes(fl, fn, in[i], args[i])) return 0;
    if (i >= nargs && !(in[i]->u.comp.mod && in[i]->u.comp.mod->value)) return 0;
  }
  return 1;
}

/* The function of operator op that takes args: op itself (an operator function), or one of
 * the functions it holds. */
static st_cls *pick(st_fl *fl, st_cls *op, st_fexpr **args, int nargs) {
  if (st_cls_is(op, ACK_OPERATOR_FUNCTION) || st_cls_is(op, ACK_FUNCTION))
    return accepts(fl, op, args, nargs) ? op : NULL;
  for (const st_ast_element *e = op->ast ? op->ast->elements : NULL; e; e = e->next) {
    if (e->kind != AEL_CLASS || !e->u.cls) continue;
    st_cls *fn = member_class(fl, op, e->u.cls->name);
    if (fn && (st_cls_is(fn, ACK_FUNCTION) || st_cls_is(fn, ACK_OPERATOR_FUNCTION)) &&
        accepts(fl, fn, args, nargs))
      return fn;
  }
  return NULL;
}

static st_fexpr *operator_call(st_fl *fl, st_cls *rec, const char *name, st_fexpr **args,
                               int nargs, st_loc loc, st_env env) {
  st_cls *op = member_class(fl, rec, name);
  st_cls *fn = op ? pick(fl, op, args, nargs) : NULL;
  return fn ? st_fl_call_values(fl, fn, args, nargs, loc, env) : NULL;
}

st_fexpr *st_op_apply(st_fl *fl, const char *name, st_fexpr *a, st_fexpr *b, st_loc loc,
                      st_env env) {
  st_cls *rec = operator_record(fl, a);
  if (!rec && b) rec = operator_record(fl, b);
  if (!rec) {
    st_fl_error(fl, loc, env.inst, "operator %s on a record that is not an operator record "
                "(Modelica 3.6 chapter 14)", name);
    return NULL;
  }
  st_fexpr *args[2] = {a, b};
  int nargs = b ? 2 : 1, errors = fl->errors;
  st_fexpr *r = operator_call(fl, rec, name, args, nargs, loc, env);
  /* a number operand converted by the constructor: 2*c is Complex(2)*c */
  for (int i = 0; !r && i < nargs && fl->errors == errors; i++) {
    if (st_fx_is_record(args[i])) continue;
    st_fexpr *conv = operator_call(fl, rec, "'constructor'", &args[i], 1, loc, env);
    if (!conv) break;
    st_fexpr *again[2] = {args[0], args[1]};
    again[i] = conv;
    r = operator_call(fl, rec, name, again, nargs, loc, env);
  }
  if (!r && fl->errors == errors)
    st_fl_error(fl, loc, env.inst, "no function of operator %s of '%s' takes these operands",
                name, rec->full);
  return r;
}

st_fexpr *st_op_reduce(st_fl *fl, const char *name, st_fexpr *a, st_loc loc, st_env env) {
  if (st_fx_is_record(a)) return a;
  if (a->kind != FX_ARRAY || a->nargs == 0) {
    st_fl_error(fl, loc, env.inst, "%s() of an empty array of records", name);
    return NULL;
  }
  st_fexpr *r = NULL;
  for (int i = 0; i < a->nargs; i++) {
    st_fexpr *x = st_op_reduce(fl, name, a->args[i], loc, env);
    if (!x || (r && !(x = st_op_apply(fl, name[0] == 's' ? "'+'" : "'*'", r, x, loc, env))))
      return NULL;
    r = x;
  }
  return r;
}

/* R(args) for an operator record with a 'constructor': the first of its functions whose
 * inputs the arguments can fill (by count and names); NULL when there is none. */
st_cls *st_op_constructor(st_fl *fl, st_cls *rec, const st_ast_expr *call) {
  st_cls *op = member_class(fl, rec, "'constructor'");
  if (!op) return NULL;
  for (const st_ast_element *e = op->ast ? op->ast->elements : NULL; e; e = e->next) {
    if (e->kind != AEL_CLASS || !e->u.cls) continue;
    st_cls *fn = member_class(fl, op, e->u.cls->name);
    if (!fn || !st_cls_is(fn, ACK_FUNCTION)) continue;
    const st_ast_element *in[MAX_INPUTS];
    int n = inputs(fn, in), pos = 0, ok = 1;
    unsigned char given[MAX_INPUTS] = {0};
    for (const st_ast_fnarg *a = call->u.call.args; a && ok; a = a->next) {
      int k = -1;
      for (int i = 0; i < n && k < 0; i++)
        if (a->name ? strcmp(in[i]->u.comp.name, a->name) == 0 : i == pos) k = i;
      if (!a->name) pos++;
      ok = k >= 0 && !given[k];
      if (ok) given[k] = 1;
    }
    for (int i = 0; i < n && ok; i++)
      ok = given[i] || (in[i]->u.comp.mod && in[i]->u.comp.mod->value);
    if (ok) return fn;
  }
  return NULL;
}

int st_op_record_array(const st_fexpr *v) {
  int depth = 0;
  for (; v && v->kind == FX_ARRAY && !v->str && v->nargs > 0; depth++) v = v->args[0];
  return depth > 0 && st_fx_is_record(v) && v->str[0];
}

static int is_plain_array(const st_fexpr *v) { return v->kind == FX_ARRAY && !v->str; }

/* x[i] * y[i] summed by the records' '*' and '+' over the n elements; with ycol >= 0 the
 * y[i] are the rows of a matrix and its column ycol is taken. */
static st_fexpr *dot(st_fl *fl, st_fexpr **x, st_fexpr **y, int n, int ycol, st_loc loc,
                     st_env env) {
  st_fexpr *sum = NULL;
  for (int i = 0; i < n; i++) {
    st_fexpr *xi = x[i], *yi = ycol < 0 ? y[i] : y[i]->args[ycol];
    st_fexpr *p = st_op_apply(fl, "'*'", xi, yi, loc, env);
    if (!p || (sum && !(p = st_op_apply(fl, "'+'", sum, p, loc, env)))) return NULL;
    sum = p;
  }
  return sum;
}

/* The number of columns of a matrix of scalars or records (rows of one length), else -1. */
static int columns(const st_fexpr *m) {
  if (!is_plain_array(m) || m->nargs == 0 || !is_plain_array(m->args[0])) return -1;
  int c = m->args[0]->nargs;
  for (int i = 0; i < m->nargs; i++)
    if (!is_plain_array(m->args[i]) || m->args[i]->nargs != c ||
        (c > 0 && is_plain_array(m->args[i]->args[0])))
      return -1;
  return c;
}

/* a * b of vectors and matrices (section 10.6.4) over records: the vector product, matrix
 * times vector, vector times matrix, matrix times matrix. NULL with no error when the shapes
 * are none of these. */
static st_fexpr *matrix_product(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc, st_env env) {
  int ca = columns(a), cb = columns(b);
  int va = ca < 0 && !is_plain_array(a->args[0]), vb = cb < 0 && !is_plain_array(b->args[0]);
  if (va && vb && a->nargs == b->nargs) return dot(fl, a->args, b->args, a->nargs, -1, loc, env);
  int rows = ca >= 0 ? a->nargs : 1, inner = ca >= 0 ? ca : va ? a->nargs : -1;
  int cols = cb >= 0 ? cb : 1, binner = cb >= 0 || vb ? b->nargs : -2;
  if (inner != binner || (!va && ca < 0)) return NULL;
  st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, ca >= 0 ? rows : cols, loc);
  for (int i = 0; r && i < rows; i++) {
    st_fexpr *row = ca >= 0 && cb >= 0 ? st_fx_new(fl->arena, FX_ARRAY, 0, cols, loc) : r;
    if (!row) return NULL;
    for (int j = 0; j < cols; j++) {
      st_fexpr **x = ca >= 0 ? a->args[i]->args : a->args;
      st_fexpr *e = dot(fl, x, b->args, inner, cb >= 0 ? j : -1, loc, env);
      if (!e) return NULL;
      if (ca >= 0 && cb < 0) r->args[i] = e; /* matrix * vector: a vector */
      else row->args[j] = e;
    }
    if (ca >= 0 && cb >= 0) r->args[i] = row;
  }
  return r;
}

/* Operators on arrays of operator records (Modelica 3.6 section 14.4): element-wise + and -
 * between arrays of one size, * and / between an array and a scalar, and * between vectors
 * and matrices as their products (matrix_product); the element-wise operators .+ .- .* ./
 * .^ (elementwise) apply the record's operator to each pair of elements of arrays of one
 * size, or of an array and a scalar. NULL (no error) when a and b are not such a case. */
st_fexpr *st_op_array(st_fl *fl, const char *name, int elementwise, st_fexpr *a, st_fexpr *b,
                      st_loc loc, st_env env) {
  if (!st_op_record_array(a) && !st_op_record_array(b)) return NULL;
  int pa = is_plain_array(a), pb = is_plain_array(b);
  int add = elementwise || !strcmp(name, "'+'") || !strcmp(name, "'-'");
  int mul = !elementwise && !strcmp(name, "'*'");
  if (pa && pb && mul && a->nargs > 0 && b->nargs > 0) {
    int errors = fl->errors;
    st_fexpr *r = matrix_product(fl, a, b, loc, env);
    if (r || fl->errors > errors) return r;
  }
  if ((pa && pb && (!add || a->nargs != b->nargs)) ||
      (pa != pb && !elementwise && (add || (pb && !mul)))) {
    st_fl_error(fl, loc, env.inst, "operator %s on these arrays of records is not supported",
                name);
    return NULL;
  }
  int n = pa ? a->nargs : b->nargs;
  st_fexpr *r = st_fx_new(fl->arena, FX_ARRAY, 0, n, loc);
  for (int i = 0; r && i < n; i++) {
    st_fexpr *x = pa ? a->args[i] : a, *y = pb ? b->args[i] : b;
    st_fexpr *e = is_plain_array(x) || is_plain_array(y)
                      ? st_op_array(fl, name, elementwise, x, y, loc, env)
                      : st_op_apply(fl, name, x, y, loc, env);
    if (!e) return NULL;
    r->args[i] = e;
  }
  return r;
}
