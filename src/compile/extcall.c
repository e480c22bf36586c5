/* External C calls through libffi and the ModelicaUtilities callbacks (extcall.h). */
#include "compile/extcall.h"

#include <ffi.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/scan.h"
#include "util/diag.h"

#define MAX_CARGS 64
#define ST_FEXT_MAX_LOCALS 16 /* locals of a destructor */

/* An external object the instance's constructors made: its handle is 1 + its index. */
typedef struct object {
  void *ptr;
  int ctor;      /* the constructor that made it and its inputs' hash: the same parameters */
  uint64_t key;  /* give the same object, however often the binding is evaluated */
  int destructor; /* 1 + function index, 0: none */
} object;

struct st_extrun {
  const st_extlib *lib;
  const st_ffunction *functions;
  object *objects;
  int nobjects, capobjects;
  char **strings; /* allocated by the C code since the last release */
  int nstrings, capstrings;
  char *failure;  /* malloc'd, NULL when none */
  char *object_failure; /* why the last constructor failed (kept: calls given its NaN handle
                           fail later, after the failure itself was cleared) */
};

/* The call in progress on this thread: where ModelicaError jumps to. */
typedef struct callframe {
  jmp_buf jb;
  st_extrun *run;
  char *message; /* malloc'd by the error callback */
  struct callframe *prev;
} callframe;

static _Thread_local callframe *current;

/* ---- ModelicaUtilities ---------------------------------------------------------------------- */

static _Noreturn void raise_text(char *text) {
  callframe *f = current;
  if (!f) { /* only calls made through st_extrun_call reach the C code */
    fprintf(stderr, "stiction: error in external C code outside a call: %s\n", text ? text : "");
    abort();
  }
  free(f->message);
  f->message = text;
  longjmp(f->jb, 1);
}

static _Noreturn void cb_error(const char *s) { raise_text(strdup(s ? s : "")); }
static _Noreturn void cb_verror(const char *fmt, va_list ap) { raise_text(st_vformat(fmt, ap)); }

/* Messages and warnings are the C code's own output: one line each, as the library wrote them. */
static void cb_message(const char *s) {
  fputs(s, stdout);
  fflush(stdout);
}
static void cb_vmessage(const char *fmt, va_list ap) {
  vfprintf(stdout, fmt, ap);
  fflush(stdout);
}
static void cb_warning(const char *s) { fprintf(stderr, "warning: %s\n", s); }
static void cb_vwarning(const char *fmt, va_list ap) {
  fputs("warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
}

static char *allocate(size_t len) {
  st_extrun *r = current ? current->run : NULL;
  if (!r) return NULL;
  if (r->nstrings == r->capstrings) {
    int cap = r->capstrings ? 2 * r->capstrings : 16;
    char **p = realloc(r->strings, (size_t)cap * sizeof *p);
    if (!p) return NULL;
    r->strings = p;
    r->capstrings = cap;
  }
  char *s = malloc(len + 1);
  if (!s) return NULL;
  s[len] = 0;
  return r->strings[r->nstrings++] = s;
}

static char *cb_allocate(size_t len) {
  char *s = allocate(len);
  if (!s) cb_error("out of memory allocating a string");
  return s;
}

static char *cb_duplicate_or_null(const char *str) {
  char *s = allocate(strlen(str));
  return s ? strcpy(s, str) : NULL;
}

static char *cb_duplicate(const char *str) {
  char *s = cb_duplicate_or_null(str);
  if (!s) cb_error("out of memory allocating a string");
  return s;
}

static const st_extlib_callbacks callbacks = {
    cb_error, cb_verror, cb_message, cb_vmessage, cb_warning, cb_vwarning,
    cb_allocate, allocate, cb_duplicate, cb_duplicate_or_null, st_scan_decimal};

const st_extlib_callbacks *st_extcall_callbacks(void) { return &callbacks; }

/* ---- the instance's side ------------------------------------------------------------------------ */

st_extrun *st_extrun_new(const st_extlib *lib, const st_ffunction *functions) {
  st_extrun *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->lib = lib;
  r->functions = functions;
  return r;
}

void st_extrun_release(st_extrun *r) {
  if (!r) return;
  for (int i = 0; i < r->nstrings; i++) free(r->strings[i]);
  r->nstrings = 0;
}

static void destroy_objects(st_extrun *r);

void st_extrun_free(st_extrun *r) {
  if (!r) return;
  destroy_objects(r);
  free(r->objects);
  st_extrun_release(r);
  free(r->strings);
  free(r->failure);
  free(r->object_failure);
  free(r);
}

const char *st_extrun_failure(const st_extrun *r) {
  return r && r->failure ? r->failure : "";
}

void st_extrun_clear_failure(st_extrun *r) {
  if (!r) return;
  free(r->failure);
  r->failure = NULL;
}

/* Keeps the first failure since the last clear: later calls fail for want of its result. */
static void fail(st_extrun *r, const st_ffunction *fn, const char *what) {
  const st_loc *l = &fn->ext->loc;
  if (r->failure) return;
  char *s = st_format("function '%s' (%s:%d:%d): %s", fn->name, l->file ? l->file : "?",
                      l->line, l->col, what);
  r->failure = s;
}

/* ---- the argument mapping ------------------------------------------------------------------------- */

typedef enum ctype { C_DOUBLE, C_INT, C_STRING, C_POINTER, C_SIZE } ctype;

enum { ST_REC_MAX = 64 }; /* fields of a record passed to C */

/* Where every integer argument takes a whole 64-bit register or stack slot (x86-64, Linux
 * aarch64), an Integer goes by value sign-extended to 64 bits: the same to a C `int`, and right
 * for a `size_t` parameter, which the MSL's C code declares for its size() arguments. As an
 * int, libffi writes only the low half of a stack slot and the callee reads the stale upper
 * half too (ModelicaStandardTables_CombiTimeTable_init2's nCols, its 7th integer argument:
 * "Memory allocation error" whenever the stack under the call held garbage there). */
#if (defined(__x86_64__) && !defined(__ILP32__)) || (defined(__aarch64__) && !defined(__APPLE__))
#define INT_SLOT64 1
#else
#define INT_SLOT64 0
#endif

typedef union slot {
  double d;
  int i;
  int64_t l; /* an Integer by value where it fills a 64-bit slot (INT_SLOT64) */
  void *p;
  size_t z;
} slot;

/* One C argument: its value slot, and where a result written through a pointer goes back. */
typedef struct carg {
  ffi_type *type;
  slot v;
  slot out;        /* a scalar output's storage (the pointer in v points here) */
  st_fval *back;   /* the local written after the call (scalar outputs, int arrays) */
  int back_kind;   /* 0 none, 1 double scalar, 2 int scalar, 3 int array, 4 record, 5 text,
                      6 Real array through a column-major copy */
  int *ints;       /* converted Integer/Boolean array (malloc'd; column-major for FORTRAN) */
  double *cm;      /* a Real array of two or more dimensions in column-major order (FORTRAN) */
  int colmajor;    /* ints and cm hold the elements in column-major order */
  unsigned char *rec; /* a record as its C struct (malloc'd) */
  st_fval *leaves[ST_REC_MAX]; /* back_kind 4: the record's fields, in order */
  const st_ffunction *fn;
  int leaf_local[ST_REC_MAX];
  int nleaves;
} carg;

typedef struct cargs {
  carg a[MAX_CARGS];
  int n;
  int fortran;   /* external "FORTRAN 77": everything by reference, arrays column-major, each
                    CHARACTER argument's length appended (size_t, as gfortran passes it) */
  size_t lens[MAX_CARGS]; /* those lengths, in order of the texts */
  int nlens;
  char why[256]; /* why an argument cannot be passed, when known ("" else) */
} cargs;

static int is_int_type(st_ftype t) {
  return t == ST_T_INTEGER || t == ST_T_BOOLEAN || t == ST_T_ENUM;
}

/* Whether a clause argument that is not a plain local is an Integer expression: size(),
 * integral literals, Booleans, and operations on those (not /). */
static int int_expr(const st_ffunction *fn, const st_fexpr *e) {
  switch (e->kind) {
  case FX_REAL: return e->value == floor(e->value) && fabs(e->value) < 2147483647.0;
  case FX_BOOL: case FX_ENUM: return 1;
  case FX_LOCAL: return is_int_type(fn->locals[e->index].type);
  case FX_BUILTIN:
    return e->op == FB_SIZE || e->op == FB_INTEGER || e->op == FB_DIV ||
           (e->op == FB_MOD && e->nargs == 2 && int_expr(fn, e->args[0]) && int_expr(fn, e->args[1]));
  case FX_UNARY: return int_expr(fn, e->args[0]);
  case FX_BINARY:
    if (e->op >= FOP_LT) return 1; /* relations and logic: Boolean */
    return e->op != FOP_DIV && e->op != FOP_POW && int_expr(fn, e->args[0]) &&
           int_expr(fn, e->args[1]);
  case FX_INDEX: return int_expr(fn, e->args[0]);
  default: return 0;
  }
}

static carg *next_arg(cargs *c) {
  if (c->n == MAX_CARGS) return NULL;
  carg *a = &c->a[c->n++];
  memset(a, 0, sizeof *a);
  return a;
}

static int int_value(double x, int *out) {
  if (!(fabs(x) < 2147483648.0)) return -1;
  *out = (int)x;
  return 0;
}

/* An external object's pointer for its handle; -1 for a handle this instance did not make. */
static int pass_object(cargs *c, const st_extrun *r, const st_fval *v) {
  carg *a = next_arg(c);
  double h = v->s;
  if (!a || v->d) return -1;
  if (!(h >= 1 && h <= r->nobjects) || h != floor(h)) return -2; /* no such object */
  a->type = &ffi_type_pointer;
  a->v.p = r->objects[(int)h - 1].ptr;
  return 0;
}

/* Where element i (row-major, Modelica's order) of array v sits in column-major order; i
 * itself unless cm. */
static int column_major(const st_fval *v, int i, int cm) {
  if (!cm) return i;
  int j = 0, rest = i, sub[4], stride = 1;
  for (int k = v->ndims - 1; k >= 0; k--) { /* the subscripts of i, last one first */
    sub[k] = rest % v->dims[k];
    rest /= v->dims[k];
  }
  for (int k = 0; k < v->ndims; k++) {
    j += sub[k] * stride;
    stride *= v->dims[k];
  }
  return j;
}

/* A value passed by value or, for arrays, by its elements' address; ints says whether the
 * elements are Integer (then converted). */
static int pass_value(cargs *c, const st_fval *v, int ints, st_fval *back) {
  carg *a = next_arg(c);
  if (!a) return -1;
  if (v->str || v->strs) { /* a String, or a String array as its texts */
    if (c->fortran && (v->strs || c->nlens == MAX_CARGS)) {
      snprintf(c->why, sizeof c->why, "a String array cannot be passed to FORTRAN 77");
      return -1;
    }
    if (c->fortran) c->lens[c->nlens++] = strlen(v->str);
    a->type = &ffi_type_pointer;
    a->v.p = v->str ? (void *)v->str : (void *)v->strs;
    return 0;
  }
  if (c->fortran && v->ndims == 0 && !v->d) { /* by reference: the value in the slot */
    a->type = &ffi_type_pointer;
    a->v.p = &a->out;
    if (!ints) a->out.d = v->s;
    return ints ? int_value(v->s, &a->out.i) : 0;
  }
  if (v->ndims == 0 && !v->d) {
    if (!ints) {
      a->type = &ffi_type_double;
      a->v.d = v->s;
      return 0;
    }
    int i;
    if (int_value(v->s, &i)) return -1;
    if (INT_SLOT64) {
      a->type = &ffi_type_sint64;
      a->v.l = i;
    } else {
      a->type = &ffi_type_sint;
      a->v.i = i;
    }
    return 0;
  }
  a->type = &ffi_type_pointer;
  int cm = a->colmajor = c->fortran && v->ndims > 1; /* the first subscript varies fastest */
  if (!ints && !cm) {
    a->v.p = v->d;
    return 0;
  }
  if (!ints) {
    if (!(a->cm = malloc((size_t)(v->n ? v->n : 1) * sizeof *a->cm))) return -1;
    for (int i = 0; i < v->n; i++) a->cm[column_major(v, i, cm)] = v->d[i];
    a->v.p = a->cm;
    if (back) {
      a->back = back;
      a->back_kind = 6;
    }
    return 0;
  }
  if (!(a->ints = malloc((size_t)(v->n ? v->n : 1) * sizeof *a->ints))) return -1;
  for (int i = 0; i < v->n; i++)
    if (int_value(v->d[i], &a->ints[column_major(v, i, cm)])) return -1;
  a->v.p = a->ints;
  if (back) {
    a->back = back;
    a->back_kind = 3;
  }
  return 0;
}

/* An output named as an argument: its address (scalars through a slot copied back; a String
 * as the `const char **` C writes its text to). */
static int pass_output(cargs *c, st_fval *v, int ints, int text) {
  if (v->ndims > 0) {
    if (!v->d || text) return -1; /* its size could not be evaluated; String arrays */
    return pass_value(c, v, ints, v);
  }
  if (text && c->fortran) {
    snprintf(c->why, sizeof c->why, "a String output cannot be passed to FORTRAN 77");
    return -1;
  }
  carg *a = next_arg(c);
  if (!a) return -1;
  a->type = &ffi_type_pointer;
  a->v.p = &a->out;
  a->back = v;
  if (text) {
    a->back_kind = 5;
    a->out.p = (void *)"";
    return 0;
  }
  a->back_kind = ints ? 2 : 1;
  if (ints) a->out.i = (int)v->s;
  else a->out.d = v->s;
  return 0;
}

/* A record field's C type (section 12.9.1.3): Real double, Integer/Boolean/enumeration int,
 * String const char *; an array field of fixed size is that many elements inline. The bytes
 * it takes (0: none of these), *align its alignment. */
static size_t field_size(const st_flocal *l, size_t *align) {
  size_t size = l->type == ST_T_REAL ? sizeof(double)
                : is_int_type(l->type) ? sizeof(int)
                : l->type == ST_T_STRING && !l->ndims ? sizeof(char *) : 0;
  *align = size ? size : 1;
  if (l->record_ndims) return 0;
  for (int d = 0; d < l->ndims; d++)
    size *= l->dims[d] > 0 ? (size_t)l->dims[d] : 0;
  return size;
}

static size_t round_up(size_t at, size_t align) { return (at + align - 1) / align * align; }

/* The field name of a leaf below the struct at nesting depth (0: the argument, "p.s.x" -> "s.x"
 * at depth 1 gives "s.x"). */
static const char *below(const char *name, int depth) {
  for (int d = 0; d < depth && name; d++) {
    name = strchr(name, '.');
    if (name) name++;
  }
  return name ? name : "";
}

/* Lays out leaf[0..n), the fields of one struct at nesting depth `depth`, from offset base: a
 * record field (its leaves share the next name component) is a struct inside, aligned to its
 * widest field and padded to a multiple of it, as a C compiler places a member struct.
 * Offsets in off[], the struct's size returned, *align its alignment. */
static size_t lay_struct(const st_ffunction *fn, const int *leaf, int n, int depth, size_t base,
                         size_t *off, size_t *align) {
  size_t at = 0, al = 1;
  for (int j = 0; j < n;) {
    const char *name = fn->locals[leaf[j]].name, *field = below(name, depth);
    size_t len = strcspn(field, "."), a, size;
    if (field[len] == '.') { /* a record inside: its leaves are consecutive */
      size_t prefix = (size_t)(field - name) + len + 1;
      int k = j + 1;
      while (k < n && !strncmp(fn->locals[leaf[k]].name, name, prefix)) k++;
      lay_struct(fn, leaf + j, k - j, depth + 1, 0, off + j, &a); /* its alignment first */
      at = round_up(at, a);
      size = lay_struct(fn, leaf + j, k - j, depth + 1, base + at, off + j, &a);
      j = k;
    } else {
      size = field_size(&fn->locals[leaf[j]], &a);
      at = round_up(at, a);
      off[j++] = base + at;
    }
    at += size;
    if (a > al) al = a;
  }
  *align = al;
  return round_up(at, al);
}

static long record_layout(const st_ffunction *fn, const int *leaf, int n, size_t *off) {
  size_t align;
  return (long)lay_struct(fn, leaf, n, 1, 0, off, &align);
}

/* Why the fields leaf[0..n) of one record component cannot be its C struct, written to c->why
 * (-1), else 0: a field of no C type (a String array, an array of records, an array whose
 * size is not fixed), or more fields than ST_REC_MAX. */
static int record_refused(cargs *c, const st_ffunction *fn, const int *leaf, int n) {
  const char *name = n > 0 ? fn->locals[leaf[0]].name : "?";
  int len = (int)strcspn(name, ".");
  if (n <= 0 || n > ST_REC_MAX) {
    snprintf(c->why, sizeof c->why, "the record argument '%.*s' has %s fields (1 to %d can be "
             "passed to C)", len, name, n <= 0 ? "no" : "too many", ST_REC_MAX);
    return -1;
  }
  for (int j = 0; j < n; j++) {
    const st_flocal *l = &fn->locals[leaf[j]];
    size_t align;
    if (field_size(l, &align)) continue;
    snprintf(c->why, sizeof c->why, "the record argument '%.*s' cannot be passed to C as a "
             "struct: its field '%s' %s (fields passed are Real, Integer, Boolean and "
             "enumeration scalars and arrays of fixed size, String scalars and records of "
             "them)", len, name, l->name,
             l->ndims || l->record_ndims ? "is an array C cannot take" : "has a type C cannot take");
    return -1;
  }
  return 0;
}

/* The number of elements of a record field (1 for a scalar; field_size admitted its dims). */
static int field_count(const st_flocal *l) {
  int n = 1;
  for (int d = 0; d < l->ndims; d++) n *= l->dims[d];
  return n;
}

/* One record field into its place in the struct: a scalar, or an array's elements in order
 * (the frame's row-major order is C's). -1 when the value is not of the declared size or an
 * Integer is not integral. */
static int put_field(const st_flocal *l, const st_fval *v, unsigned char *at) {
  int n = field_count(l);
  const double *x = l->ndims ? v->d : &v->s;
  if (l->ndims && (!x || v->n != n)) return -1;
  if (l->type == ST_T_STRING) {
    const char *s = v->str ? v->str : "";
    memcpy(at, &s, sizeof s);
    return 0;
  }
  for (int k = 0; k < n; k++) {
    if (l->type == ST_T_REAL) {
      memcpy(at + k * sizeof(double), &x[k], sizeof(double));
      continue;
    }
    int i;
    if (int_value(x[k], &i)) return -1;
    memcpy(at + k * sizeof(int), &i, sizeof i);
  }
  return 0;
}

/* One record field back from the struct C wrote (a String's text lives until the instance's
 * next call). */
static void get_field(const st_flocal *l, st_fval *v, const unsigned char *at) {
  if (l->type == ST_T_STRING) {
    const char *text;
    memcpy(&text, at, sizeof text);
    v->str = text ? text : "";
    return;
  }
  int n = field_count(l);
  double *x = l->ndims ? v->d : &v->s;
  if (l->ndims && (!x || v->n != n)) return;
  for (int k = 0; k < n; k++) {
    if (l->type == ST_T_REAL) {
      memcpy(&x[k], at + k * sizeof(double), sizeof(double));
    } else {
      int i;
      memcpy(&i, at + k * sizeof(int), sizeof i);
      x[k] = i;
    }
  }
}

/* A record: its fields (locals leaf[0..n)) in a C struct, passed by address; an output's
 * fields are read back after the call. */
static int pass_record(cargs *c, const st_ffunction *fn, st_fval *locals, const int *leaf, int n,
                       int output) {
  size_t off[ST_REC_MAX];
  if (c->fortran) {
    snprintf(c->why, sizeof c->why, "a record cannot be passed to FORTRAN 77");
    return -1;
  }
  if (record_refused(c, fn, leaf, n)) return -1;
  long size = record_layout(fn, leaf, n, off);
  carg *a = size >= 0 ? next_arg(c) : NULL;
  if (!a || !(a->rec = calloc(1, (size_t)size + 1))) return -1;
  for (int j = 0; j < n; j++) {
    if (put_field(&fn->locals[leaf[j]], &locals[leaf[j]], a->rec + off[j])) {
      snprintf(c->why, sizeof c->why, "the record field '%s' does not hold its declared "
               "size or an Integer", fn->locals[leaf[j]].name);
      return -1;
    }
    a->leaves[j] = &locals[leaf[j]];
    a->leaf_local[j] = leaf[j];
  }
  a->type = &ffi_type_pointer;
  a->v.p = a->rec;
  a->fn = fn;
  a->nleaves = n;
  a->back_kind = output ? 4 : 0;
  return 0;
}

/* The leaves of a record value e (the clause names a record component), as locals of fn; the
 * count, or -1 (why in c->why) when e is not a record component of the function. */
static int record_leaves(cargs *c, const st_fexpr *e, int *leaf) {
  for (int j = 0; j < e->nargs && j < ST_REC_MAX; j++) {
    if (e->args[j]->kind != FX_LOCAL) {
      snprintf(c->why, sizeof c->why, "a record argument of the external clause must name a "
               "record input or output of the function whose fields are scalars");
      return -1;
    }
    leaf[j] = e->args[j]->index;
  }
  return e->nargs;
}

/* The locals from i on that are fields of the same record component (named "p.x"). */
static int record_run(const st_ffunction *fn, int i, int *leaf) {
  const st_flocal *first = &fn->locals[i];
  size_t len = strcspn(first->name, ".") + 1;
  int n = 0;
  while (i < fn->nlocals && n < ST_REC_MAX && fn->locals[i].record &&
         !strncmp(fn->locals[i].name, first->name, len) &&
         fn->locals[i].causality == first->causality)
    leaf[n++] = i++;
  return n;
}

static int pass_size(cargs *c, int n) {
  carg *a = next_arg(c);
  if (!a) return -1;
  if (c->fortran) { /* an INTEGER, by reference */
    a->type = &ffi_type_pointer;
    a->v.p = &a->out;
    a->out.i = n;
    return 0;
  }
  a->type = sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32;
  a->v.z = (size_t)n;
  return 0;
}

/* A String input reaches C only as its text: a value without one (an expression the
 * evaluator could not make a String of) fails the call rather than hand C a number where it
 * reads a pointer. */
static int text_missing(cargs *c, const st_flocal *l, const st_fval *v) {
  if (l->type != ST_T_STRING || (l->ndims ? v->strs != NULL : v->str != NULL)) return 0;
  snprintf(c->why, sizeof c->why, "the String input '%s' has no text", l->name);
  return 1;
}

static int explicit_args(cargs *c, const st_extrun *r, const st_ffunction *fn, st_fval *locals,
                         const st_fval *args, int nargs) {
  for (int i = 0; i < nargs; i++) {
    const st_fexpr *e = fn->ext->args[i];
    if (e->kind == FX_LOCAL) {
      const st_flocal *l = &fn->locals[e->index];
      int ints = is_int_type(l->type);
      if (l->is_object && l->causality == ST_C_INPUT) {
        int rc = pass_object(c, r, &locals[e->index]);
        if (rc) return rc;
      } else if (l->causality == ST_C_INPUT && text_missing(c, l, &locals[e->index])) {
        return -1;
      } else if (l->causality != ST_C_INPUT ? pass_output(c, &locals[e->index], ints,
                                                          l->type == ST_T_STRING)
                                     : pass_value(c, &locals[e->index], ints, NULL))
        return -1;
    } else if (e->kind == FX_ARRAY && e->str) {
      int leaf[ST_REC_MAX], n = record_leaves(c, e, leaf);
      if (n < 0 || pass_record(c, fn, locals, leaf, n,
                               n > 0 && fn->locals[leaf[0]].causality != ST_C_INPUT))
        return -1;
    } else if (pass_value(c, &args[i], !args[i].d && int_expr(fn, e), NULL)) {
      return -1;
    }
  }
  return 0;
}

static int count_outputs(const st_ffunction *fn) {
  int n = 0;
  for (int i = 0; i < fn->nlocals; i++) n += fn->locals[i].causality == ST_C_OUTPUT;
  return n;
}

/* Every input, then every output (unless it is returned), arrays followed by their sizes. */
static int default_args(cargs *c, const st_extrun *r, const st_ffunction *fn, st_fval *locals,
                        int returned) {
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < fn->nlocals; i++) {
      const st_flocal *l = &fn->locals[i];
      if (l->causality != (pass ? ST_C_OUTPUT : ST_C_INPUT) || i == returned) continue;
      int ints = is_int_type(l->type);
      if (!pass && l->is_object) {
        int rc = pass_object(c, r, &locals[i]);
        if (rc) return rc;
        continue;
      }
      if (l->record) {
        int leaf[ST_REC_MAX], n = record_run(fn, i, leaf);
        if (pass_record(c, fn, locals, leaf, n, pass)) return -1;
        i += n - 1;
        continue;
      }
      if (!pass && text_missing(c, l, &locals[i])) return -1;
      if (pass ? pass_output(c, &locals[i], ints, l->type == ST_T_STRING)
               : pass_value(c, &locals[i], ints, NULL))
        return -1;
      for (int d = 0; d < locals[i].ndims; d++)
        if (pass_size(c, locals[i].dims[d])) return -1;
    }
  return 0;
}

/* The fields of a record output from its struct. */
static void record_back(carg *a) {
  size_t off[ST_REC_MAX];
  record_layout(a->fn, a->leaf_local, a->nleaves, off);
  for (int j = 0; j < a->nleaves; j++)
    get_field(&a->fn->locals[a->leaf_local[j]], a->leaves[j], a->rec + off[j]);
}

static void write_back(cargs *c) {
  for (int i = 0; i < c->n; i++) {
    carg *a = &c->a[i];
    if (a->back_kind == 1) a->back->s = a->out.d;
    else if (a->back_kind == 2) a->back->s = a->out.i;
    else if (a->back_kind == 3)
      for (int j = 0; j < a->back->n; j++)
        a->back->d[j] = a->ints[column_major(a->back, j, a->colmajor)];
    else if (a->back_kind == 4)
      record_back(a);
    else if (a->back_kind == 6)
      for (int j = 0; j < a->back->n; j++) a->back->d[j] = a->cm[column_major(a->back, j, 1)];
    else if (a->back_kind == 5) { /* the text lives until the instance's next call */
      *a->back = st_fval_scalar(0);
      a->back->str = a->out.p ? a->out.p : "";
    }
  }
}

static void free_args(cargs *c) {
  for (int i = 0; i < c->n; i++) {
    free(c->a[i].ints);
    free(c->a[i].cm);
    free(c->a[i].rec);
  }
}

/* The local the C function's value goes to: the clause's `y =`, or in the default form the
 * only output when it is a scalar; -1: void. */
static int returned_local(const st_ffunction *fn, st_fval *locals) {
  if (fn->ext->nargs >= 0) return fn->ext->output;
  if (count_outputs(fn) != 1) return -1;
  for (int i = 0; i < fn->nlocals; i++)
    if (fn->locals[i].causality == ST_C_OUTPUT) return locals[i].ndims ? -1 : i;
  return -1;
}

static ffi_type *return_type(const st_ffunction *fn, int ret) {
  if (ret < 0) return &ffi_type_void;
  if (fn->locals[ret].is_object) return &ffi_type_pointer;
  st_ftype t = fn->locals[ret].type;
  return t == ST_T_REAL ? &ffi_type_double : is_int_type(t) ? &ffi_type_sint : &ffi_type_pointer;
}

/* ffi_call with this thread's jump target set: 0, or -1 with *message (malloc'd) when the C
 * code reported an error. */
static int guarded_call(st_extrun *r, ffi_cif *cif, void *sym, void *ret, void **values,
                        char **message) {
  callframe f;
  f.run = r;
  f.message = NULL;
  f.prev = current;
  current = &f;
  if (setjmp(f.jb)) {
    volatile callframe *vf = &f; /* written by the error callback after setjmp */
    current = vf->prev;
    *message = vf->message;
    return -1;
  }
  ffi_call(cif, FFI_FN(sym), ret, values);
  current = f.prev;
  return 0;
}

/* A hash of the inputs of a call (values, texts, elements). */
static uint64_t inputs_key(const st_ffunction *fn, const st_fval *locals) {
  uint64_t h = 14695981039346656037ull;
  for (int i = 0; i < fn->nlocals; i++) {
    if (fn->locals[i].causality != ST_C_INPUT) continue;
    const st_fval *v = &locals[i];
    const unsigned char *b = v->d ? (const void *)v->d : (const void *)&v->s;
    size_t n = v->d ? (size_t)v->n * sizeof(double) : sizeof(double);
    for (size_t j = 0; j < n; j++) h = (h ^ b[j]) * 1099511628211ull;
    for (const char *p = v->str; p && *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
  return h;
}

/* The object the constructor k made for these inputs before: its handle, else 0. */
static int known_object(const st_extrun *r, int k, uint64_t key) {
  for (int i = 0; i < r->nobjects; i++)
    if (r->objects[i].ctor == k && r->objects[i].key == key) return i + 1;
  return 0;
}

static int add_object(st_extrun *r, int k, uint64_t key, void *ptr) {
  if (r->nobjects == r->capobjects) {
    int cap = r->capobjects ? 2 * r->capobjects : 8;
    object *o = realloc(r->objects, (size_t)cap * sizeof *o);
    if (!o) return 0;
    r->objects = o;
    r->capobjects = cap;
  }
  r->objects[r->nobjects] = (object){ptr, k, key, r->functions[k].ext->destructor};
  return ++r->nobjects;
}

int st_extrun_call(void *ctx, int k, st_fval *locals, const st_fval *args, int nargs) {
  st_extrun *r = ctx;
  const st_ffunction *fn = &r->functions[k];
  int ret0 = returned_local(fn, locals);
  int ctor = ret0 >= 0 && fn->locals[ret0].is_object;
  uint64_t key = ctor ? inputs_key(fn, locals) : 0;
  int known = ctor ? known_object(r, k, key) : 0;
  if (known) { /* the binding evaluated again: the object made for these parameters */
    locals[ret0] = st_fval_scalar(known);
    return 0;
  }
  void *sym = st_extlib_symbol(r->lib, k);
  if (!sym) {
    const char *why = st_extlib_error(r->lib, k);
    fail(r, fn, why ? why : "not an external C function");
    return -1;
  }
  cargs *c = malloc(sizeof *c);
  if (!c) return -1;
  c->n = c->nlens = 0;
  c->fortran = !strcmp(fn->ext->language, "FORTRAN 77");
  c->why[0] = 0;
  int ret = returned_local(fn, locals), rc = -1;
  int bad = nargs >= 0 ? explicit_args(c, r, fn, locals, args, nargs)
                       : default_args(c, r, fn, locals, ret);
  for (int i = 0; !bad && i < c->nlens; i++) { /* CHARACTER lengths, after every argument */
    carg *a = next_arg(c);
    if (!a) bad = -1;
    else {
      a->type = sizeof(size_t) == 8 ? &ffi_type_uint64 : &ffi_type_uint32;
      a->v.z = c->lens[i];
    }
  }
  if (bad == -2) {
    char *what = st_format("the external object it was given was not made%s%s%s",
                           r->object_failure ? " (" : "",
                           r->object_failure ? r->object_failure : "",
                           r->object_failure ? ")" : "");
    fail(r, fn, what ? what : "the external object it was given was not made");
    free(what);
    goto done;
  }
  if (bad && c->why[0]) {
    fail(r, fn, c->why);
    goto done;
  }
  if (bad) {
    fail(r, fn, "an argument cannot be passed to C (an array of unknown size, a value out of "
                "the range of int, more than 64 arguments)");
    goto done;
  }
  ffi_type *types[MAX_CARGS];
  void *values[MAX_CARGS];
  for (int i = 0; i < c->n; i++) {
    types[i] = c->a[i].type;
    values[i] = &c->a[i].v;
  }
  ffi_cif cif;
  if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, (unsigned)c->n, return_type(fn, ret), types) != FFI_OK) {
    fail(r, fn, "libffi cannot describe this call");
    goto done;
  }
  union {
    double d;
    ffi_arg i;
    void *p;
  } result = {0};
  char *message = NULL;
  if (guarded_call(r, &cif, sym, &result, values, &message)) {
    char *what = st_format("the C function '%s' reported an error: %s", fn->external_name,
                           message ? message : "");
    fail(r, fn, what ? what : "the C function reported an error");
    if (ctor && r->failure) {
      free(r->object_failure);
      r->object_failure = strdup(r->failure);
    }
    free(what);
    free(message);
    goto done;
  }
  write_back(c);
  if (ctor) {
    int h = result.p ? add_object(r, k, key, result.p) : 0;
    if (!h) {
      fail(r, fn, result.p ? "out of memory" : "the constructor returned no object (NULL)");
      goto done;
    }
    locals[ret] = st_fval_scalar(h);
  } else if (ret >= 0) {
    st_ftype t = fn->locals[ret].type;
    locals[ret] = st_fval_scalar(t == ST_T_REAL ? result.d : is_int_type(t) ? (double)(int)result.i : 0);
    if (t == ST_T_STRING) locals[ret].str = result.p ? result.p : "";
  }
  rc = 0;
done:
  free_args(c);
  free(c);
  return rc;
}

/* Each object's destructor, newest first (an object may use an older one). A failing
 * destructor is reported and the others still run. */
static void destroy_objects(st_extrun *r) {
  for (int i = r->nobjects - 1; i >= 0; i--) {
    int d = r->objects[i].destructor - 1;
    if (d < 0 || !r->objects[i].ptr) continue;
    const st_ffunction *fn = &r->functions[d];
    st_fval locals[ST_FEXT_MAX_LOCALS], args[MAX_CARGS];
    if (fn->nlocals > ST_FEXT_MAX_LOCALS || fn->ext->nargs > MAX_CARGS) continue;
    for (int j = 0; j < fn->nlocals; j++)
      locals[j] = st_fval_scalar(fn->locals[j].is_object ? i + 1 : 0);
    for (int j = 0; j < MAX_CARGS; j++) args[j] = st_fval_scalar(0);
    if (st_extrun_call(r, d, locals, args, fn->ext->nargs))
      fprintf(stderr, "warning: %s\n", st_extrun_failure(r));
    r->objects[i].ptr = NULL;
  }
  r->nobjects = 0;
}

/* ---- calls while flattening (front.h) ------------------------------------------------------------- */

typedef struct front_c {
  st_extlib *lib;
  st_extrun *run;
} front_c;

static void front_detach(void *handle) {
  front_c *c = handle;
  if (!c) return;
  st_extrun_free(c->run); /* the objects made while flattening are destroyed here */
  st_extlib_free(c->lib);
  free(c);
}

static void *front_attach(const st_ffunction *functions, int n, st_fvm_external *hook,
                          void **ctx) {
  front_c *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->lib = st_extlib_new(functions, n, st_extcall_callbacks());
  c->run = c->lib ? st_extrun_new(c->lib, functions) : NULL;
  if (!c->run) {
    front_detach(c);
    return NULL;
  }
  *hook = st_extrun_call;
  *ctx = c->run;
  return c;
}

const st_front_externals *st_extcall_front_externals(void) {
  static const st_front_externals externals = {front_attach, front_detach};
  return &externals;
}
