/* The flat model saved and loaded as bytes (flat_io.h). */
#include "front/flat_io.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

#define MAGIC "STFLAT\r\n"
#define HEADER 40
#define ENDIAN_MARK 0x01020304u
#define MAX_DEPTH 2000 /* nested expressions and statements: deeper is refused, not recursed */

/* ---- writing ---------------------------------------------------------------------------- */

typedef struct buf {
  char *p;
  size_t n, cap;
  int failed;
} buf;

typedef struct writer {
  buf strings, body;
  /* strings written so far: open addressing over their contents, id = 1 + order */
  const char **keys;
  int *ids;
  size_t nkeys, capkeys;
  int nstrings;
  st_flat_file_map map; /* location file names as saved, or NULL: as they are */
  void *map_ctx;
} writer;

static void put(buf *b, const void *data, size_t n) {
  if (b->failed) return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? 2 * b->cap : 4096;
    while (cap < b->n + n) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->failed = 1;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, data, n);
  b->n += n;
}

static void put_int(writer *w, int v) { put(&w->body, &v, sizeof v); }
static void put_double(writer *w, double v) { put(&w->body, &v, sizeof v); }

static size_t str_hash(const char *s) {
  size_t h = 5381;
  while (*s) h = h * 33 + (unsigned char)*s++;
  return h;
}

static int grow_keys(writer *w) {
  size_t cap = w->capkeys ? 2 * w->capkeys : 1024;
  const char **keys = calloc(cap, sizeof *keys);
  int *ids = calloc(cap, sizeof *ids);
  if (!keys || !ids) {
    free(keys);
    free(ids);
    return -1;
  }
  for (size_t i = 0; i < w->capkeys; i++) {
    if (!w->keys[i]) continue;
    size_t j = str_hash(w->keys[i]) & (cap - 1);
    while (keys[j]) j = (j + 1) & (cap - 1);
    keys[j] = w->keys[i];
    ids[j] = w->ids[i];
  }
  free(w->keys);
  free(w->ids);
  w->keys = keys;
  w->ids = ids;
  w->capkeys = cap;
  return 0;
}

/* A string as 0 (NULL) or 1 + its index in the string table. */
static void put_str(writer *w, const char *s) {
  if (!s) {
    put_int(w, 0);
    return;
  }
  if (2 * (w->nkeys + 1) > w->capkeys && grow_keys(w)) {
    w->body.failed = 1;
    return;
  }
  size_t j = str_hash(s) & (w->capkeys - 1);
  while (w->keys[j] && strcmp(w->keys[j], s)) j = (j + 1) & (w->capkeys - 1);
  if (!w->keys[j]) {
    w->keys[j] = s;
    w->ids[j] = ++w->nstrings;
    w->nkeys++;
    int len = (int)strlen(s);
    put(&w->strings, &len, sizeof len);
    put(&w->strings, s, (size_t)len);
  }
  put_int(w, w->ids[j]);
}

/* A file or directory name, through the writer's map. */
static void put_path(writer *w, const char *path) {
  const char *to = path && w->map ? w->map(w->map_ctx, path) : path;
  if (path && !to) w->body.failed = 1;
  put_str(w, to);
}

static void put_loc(writer *w, st_loc loc) {
  put_path(w, loc.file);
  put_int(w, loc.line);
  put_int(w, loc.col);
}

static void put_expr(writer *w, const st_fexpr *e) {
  if (!e) {
    put_int(w, -1);
    return;
  }
  put_int(w, (int)e->kind);
  put_int(w, e->op);
  put_int(w, e->index);
  put_int(w, e->nargs);
  for (int i = 0; i < e->nargs; i++) put_expr(w, e->args[i]);
  put_double(w, e->value);
  put_str(w, e->str);
  put_loc(w, e->loc);
}

static void put_exprs(writer *w, st_fexpr *const *list, int n) {
  put_int(w, list ? n : -1);
  for (int i = 0; list && i < n; i++) put_expr(w, list[i]);
}

/* Branches of an if/when equation or statement: their number follows from the kind. */
static int eq_branches(int kind, int nconds) {
  return kind == FE_IF ? nconds + 1 : kind == FE_WHEN ? nconds : 0;
}
static int stmt_branches(int kind, int nconds) {
  return kind == FS_IF ? nconds + 1 : kind == FS_WHEN ? nconds
         : kind == FS_FOR || kind == FS_WHILE ? 1 : 0;
}

static void put_eqs(writer *w, const st_feq_list *l);

static void put_eq(writer *w, const st_feq *q) {
  put_int(w, (int)q->kind);
  put_expr(w, q->lhs);
  put_expr(w, q->rhs);
  put_exprs(w, q->tuple, q->ntuple);
  put_exprs(w, q->conds, q->nconds);
  int nb = eq_branches(q->kind, q->nconds);
  put_int(w, q->branches ? 1 : 0);
  for (int i = 0; q->branches && i < nb; i++) put_eqs(w, &q->branches[i]);
  put_expr(w, q->message);
  put_int(w, q->level);
  put_str(w, q->origin);
  put_int(w, q->clock_rank);
  put_int(w, q->clock_at_start);
  put_loc(w, q->loc);
}

static void put_eqs(writer *w, const st_feq_list *l) {
  put_int(w, l->n);
  for (int i = 0; i < l->n; i++) put_eq(w, l->items[i]);
}

static void put_stmts(writer *w, const st_fstmt_list *l);

static void put_stmt(writer *w, const st_fstmt *s) {
  put_int(w, (int)s->kind);
  put_expr(w, s->target);
  put_expr(w, s->value);
  put_exprs(w, s->targets, s->ntargets);
  put_exprs(w, s->conds, s->nconds);
  int nb = stmt_branches(s->kind, s->nconds);
  put_int(w, s->branches ? 1 : 0);
  for (int i = 0; s->branches && i < nb; i++) put_stmts(w, &s->branches[i]);
  put_int(w, s->loop_local);
  put_expr(w, s->range);
  put_expr(w, s->message);
  put_int(w, s->level);
  put_loc(w, s->loc);
}

static void put_stmts(writer *w, const st_fstmt_list *l) {
  put_int(w, l->n);
  for (int i = 0; i < l->n; i++) put_stmt(w, l->items[i]);
}

static void put_strs(writer *w, const char *const *list, int n) {
  put_int(w, list ? n : -1);
  for (int i = 0; list && i < n; i++) put_str(w, list[i]);
}

static void put_var(writer *w, const st_fvar *v) {
  put_str(w, v->name);
  put_str(w, v->description);
  put_int(w, (int)v->type);
  put_str(w, v->enum_type);
  put_strs(w, v->enum_literals, v->n_enum_literals);
  put_int(w, (int)v->variability);
  put_int(w, (int)v->causality);
  put_int(w, v->is_flow | v->is_stream << 1 | v->is_protected << 2 | v->is_final << 3 |
                 v->evaluate << 4 | v->is_state_der << 5);
  put_expr(w, v->binding);
  put_expr(w, v->start);
  put_int(w, v->fixed);
  put_expr(w, v->fixed_expr);
  put_expr(w, v->nominal);
  put_expr(w, v->min);
  put_expr(w, v->max);
  put_int(w, (int)v->state_select);
  put_str(w, v->unit);
  put_str(w, v->display_unit);
  put_loc(w, v->loc);
}

static void put_external(writer *w, const st_fexternal *x) {
  put_int(w, x ? 1 : 0);
  if (!x) return;
  put_str(w, x->language);
  put_exprs(w, x->args, x->nargs);
  put_int(w, x->output);
  put_strs(w, x->includes, x->nincludes);
  put_strs(w, x->libraries, x->nlibraries);
  put_path(w, x->include_dir);
  put_path(w, x->library_dir);
  put_path(w, x->sources_dir);
  put_int(w, x->destructor);
  put_loc(w, x->loc);
}

static void put_function(writer *w, const st_ffunction *f) {
  put_str(w, f->name);
  put_int(w, f->nlocals);
  for (int i = 0; i < f->nlocals; i++) {
    const st_flocal *l = &f->locals[i];
    put_str(w, l->name);
    put_int(w, (int)l->type);
    put_int(w, (int)l->causality);
    put_int(w, l->ndims);
    for (int d = 0; d < 4; d++) put_int(w, l->dims[d]);
    for (int d = 0; d < 4; d++) put_expr(w, l->size[d]);
    put_expr(w, l->binding);
    put_int(w, l->is_object);
    put_str(w, l->record);
    put_loc(w, l->loc);
  }
  put_stmts(w, &f->body);
  put_str(w, f->external_name);
  put_int(w, f->external_nargs);
  put_int(w, f->external_args && f->external_nargs > 0);
  for (int i = 0; f->external_args && i < f->external_nargs; i++) put_int(w, f->external_args[i]);
  put_external(w, f->ext);
  put_int(w, f->is_impure);
  put_loc(w, f->loc);
  put_int(w, f->derivative);
  put_int(w, f->has_derivative ? 1 : 0);
  if (f->has_derivative) put(&w->body, f->has_derivative, (size_t)f->nlocals);
  put_loc(w, f->derivative_loc);
}

static void put_model(writer *w, const st_flat_model *m) {
  put_int(w, m->nvars);
  put_int(w, m->nfunctions);
  put_str(w, m->name);
  for (int i = 0; i < m->nvars; i++) put_var(w, &m->vars[i]);
  for (int i = 0; i < m->nfunctions; i++) put_function(w, &m->functions[i]);
  put_eqs(w, &m->equations);
  put_eqs(w, &m->initial_equations);
  put_int(w, m->nalgorithms);
  for (int i = 0; i < m->nalgorithms; i++) put_stmts(w, &m->algorithms[i]);
  put_int(w, m->ninitial_algorithms);
  for (int i = 0; i < m->ninitial_algorithms; i++) put_stmts(w, &m->initial_algorithms[i]);
  const st_experiment *x = &m->experiment;
  put_int(w, x->has_start);
  put_int(w, x->has_stop);
  put_int(w, x->has_interval);
  put_int(w, x->has_tolerance);
  put_double(w, x->start_time);
  put_double(w, x->stop_time);
  put_double(w, x->interval);
  put_double(w, x->tolerance);
  put_loc(w, m->loc);
}

int st_flat_save(const st_flat_model *flat, char **bytes, size_t *n) {
  return st_flat_save_mapped(flat, NULL, NULL, bytes, n);
}

int st_flat_save_mapped(const st_flat_model *flat, st_flat_file_map map, void *ctx, char **bytes,
                        size_t *n) {
  writer w = {.map = map, .map_ctx = ctx};
  put_int(&w, 0); /* room for the number of strings */
  put_model(&w, flat);
  *bytes = NULL;
  *n = 0;
  int rc = w.strings.failed || w.body.failed ? -1 : 0;
  buf out = {0};
  if (!rc) {
    memcpy(w.body.p, &w.nstrings, sizeof w.nstrings);
    uint64_t len = w.strings.n + w.body.n;
    uint32_t format = ST_FLAT_FORMAT, mark = ENDIAN_MARK;
    unsigned char sizes[8] = {sizeof(int), sizeof(double)};
    put(&out, MAGIC, 8);
    put(&out, &format, 4);
    put(&out, &mark, 4);
    put(&out, sizes, 8);
    put(&out, &len, 8);
    put(&out, &len, 8); /* the sum's place */
    put(&out, w.body.p, sizeof(int)); /* the number of strings, the strings, the model */
    put(&out, w.strings.p ? w.strings.p : "", w.strings.n);
    put(&out, w.body.p + sizeof(int), w.body.n - sizeof(int));
    rc = out.failed ? -1 : 0;
  }
  if (!rc) {
    st_hash h;
    st_hash_init(&h);
    st_hash_add(&h, out.p + HEADER, out.n - HEADER);
    memcpy(out.p + 32, &h.a, 8);
  }
  if (!rc) {
    *bytes = out.p;
    *n = out.n;
  } else {
    free(out.p);
  }
  free(w.strings.p);
  free(w.body.p);
  free(w.keys);
  free(w.ids);
  return rc;
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct reader {
  const unsigned char *start, *p, *end;
  const char *name;
  st_diag *diag;
  st_arena *arena;
  int failed;
  const char **strings;
  int nstrings;
  int nvars, nfunctions;
  int nlocals; /* of the function being read, 0 in the model */
  int depth;
} reader;

static void bad(reader *r, const char *what) {
  if (r->failed) return;
  r->failed = 1;
  st_loc loc = {r->name, 0, 0};
  st_error(r->diag, loc, "byte %ld: %s (not a flat model saved by this stiction)",
           (long)(r->p - r->start), what);
}

static void get(reader *r, void *out, size_t n, const char *what) {
  if (r->failed || (size_t)(r->end - r->p) < n) {
    if (!r->failed) bad(r, what);
    memset(out, 0, n);
    return;
  }
  memcpy(out, r->p, n);
  r->p += n;
}

static int get_int(reader *r, const char *what) {
  int v;
  get(r, &v, sizeof v, what);
  return v;
}

static double get_double(reader *r) {
  double v;
  get(r, &v, sizeof v, "a number");
  return v;
}

/* An int in [lo, hi]. */
static int get_range(reader *r, int lo, int hi, const char *what) {
  const unsigned char *at = r->p;
  int v = get_int(r, what);
  if (!r->failed && (v < lo || v > hi)) {
    r->p = at;
    bad(r, what);
    return lo;
  }
  return v;
}

/* A count of items of at least `least` bytes each, or -1 where allowed (NULL lists). */
static int get_count(reader *r, int allow_null, size_t least, const char *what) {
  const unsigned char *at = r->p;
  int v = get_int(r, what);
  size_t room = (size_t)(r->end - r->p) / least; /* the bytes after the count */
  if (!r->failed && (v < (allow_null ? -1 : 0) || (v > 0 && (size_t)v > room))) {
    r->p = at;
    bad(r, what);
    return 0;
  }
  return v;
}

static void *alloc(reader *r, size_t size) {
  if (r->failed || !size) return NULL;
  void *p = st_arena_alloc(r->arena, size);
  if (!p) bad(r, "out of memory");
  else memset(p, 0, size);
  return p;
}

static const char *get_str(reader *r) {
  int id = get_range(r, 0, r->nstrings, "a string index out of range");
  return id ? r->strings[id - 1] : NULL;
}

static st_loc get_loc(reader *r) {
  st_loc loc;
  loc.file = get_str(r);
  loc.line = get_int(r, "a line");
  loc.col = get_int(r, "a column");
  return loc;
}

static int deeper(reader *r) {
  if (++r->depth > MAX_DEPTH) bad(r, "nesting too deep");
  return !r->failed;
}

/* What the compiler takes for granted of a node of this kind (the flattener's shapes). */
static void need(reader *r, const unsigned char *at, int ok, const char *what) {
  if (ok || r->failed) return;
  r->p = at;
  bad(r, what);
}

static int all_present(st_fexpr *const *list, int n) {
  for (int i = 0; i < n; i++)
    if (!list || !list[i]) return 0;
  return 1;
}

/* The argument count of the built-ins the compiler reads by position (smooth's last, der's
 * first), as the flattener always writes them; -1 for the others. */
static int builtin_arity(int b) {
  switch (b) {
  case FB_DER: case FB_PRE: case FB_EDGE: case FB_CHANGE: case FB_NOEVENT: return 1;
  case FB_SMOOTH: case FB_HOMOTOPY: return 2;
  case FB_SEMILINEAR: return 3;
  default: return -1;
  }
}

static st_fexpr *get_expr(reader *r) {
  int kind = get_range(r, -1, FX_END, "an expression kind out of range");
  if (kind < 0 || r->failed || !deeper(r)) return NULL;
  st_fexpr *e = alloc(r, sizeof *e);
  if (!e) return NULL;
  e->kind = (st_fexpr_kind)kind;
  e->op = kind == FX_BINARY ? get_range(r, FOP_ADD, FOP_OR, "a binary operator out of range")
          : kind == FX_UNARY ? get_range(r, FOP_NOT, FOP_NEG, "a unary operator out of range")
          : kind == FX_BUILTIN ? get_range(r, 0, FB_COUNT_ - 1, "a built-in out of range")
                               : get_int(r, "an operator");
  e->index = kind == FX_VAR ? get_range(r, 0, r->nvars - 1, "a variable index out of range")
             : kind == FX_CALL ? get_range(r, 0, r->nfunctions - 1, "a function index out of range")
             : kind == FX_LOCAL || (kind == FX_BUILTIN && e->op == FB_COMPREHENSION)
                 ? get_range(r, 0, r->nlocals - 1, "a local index out of range")
                 : get_int(r, "an index");
  const unsigned char *at = r->p;
  e->nargs = get_count(r, 0, sizeof(int), "an argument count out of range");
  int arity = kind == FX_BINARY ? 2 : kind == FX_UNARY ? 1 : kind == FX_IF ? 3
              : kind == FX_BUILTIN ? builtin_arity(e->op) : -1;
  if (!r->failed && ((arity >= 0 && e->nargs != arity) || (kind == FX_INDEX && e->nargs < 2))) {
    r->p = at;
    bad(r, "an operator with the wrong number of arguments");
  }
  e->args = alloc(r, sizeof *e->args * (size_t)e->nargs);
  for (int i = 0; i < e->nargs && !r->failed; i++)
    if (!(e->args[i] = get_expr(r))) bad(r, "a missing argument");
  at = r->p;
  e->value = get_double(r);
  /* a call's value is the element of an array output it stands for (1-based, 0: all) */
  int element = e->value >= 0 && e->value <= INT_MAX && e->value == (int)e->value;
  if (!r->failed && kind == FX_CALL && !element) {
    r->p = at;
    bad(r, "a call's output element out of range");
  }
  e->str = get_str(r);
  e->loc = get_loc(r);
  r->depth--;
  return r->failed ? NULL : e;
}

static st_fexpr **get_exprs(reader *r, int *n) {
  *n = get_count(r, 1, sizeof(int), "an expression count out of range");
  if (*n < 0) {
    *n = 0;
    return NULL;
  }
  st_fexpr **list = alloc(r, sizeof *list * (size_t)(*n ? *n : 1));
  for (int i = 0; i < *n && !r->failed; i++) list[i] = get_expr(r);
  return list;
}

static void get_eqs(reader *r, st_feq_list *l);

static st_feq *get_eq(reader *r) {
  st_feq *q = alloc(r, sizeof *q);
  if (!q || !deeper(r)) return NULL;
  const unsigned char *at = r->p;
  q->kind = (st_feq_kind)get_range(r, FE_EQUAL, FE_CALL, "an equation kind out of range");
  q->lhs = get_expr(r);
  q->rhs = get_expr(r);
  q->tuple = get_exprs(r, &q->ntuple);
  q->conds = get_exprs(r, &q->nconds);
  if (get_range(r, 0, 1, "a flag out of range")) {
    int nb = eq_branches(q->kind, q->nconds);
    q->branches = alloc(r, sizeof *q->branches * (size_t)(nb ? nb : 1));
    for (int i = 0; i < nb && !r->failed; i++) get_eqs(r, &q->branches[i]);
  }
  q->message = get_expr(r);
  q->level = get_int(r, "a level");
  q->origin = get_str(r);
  q->clock_rank = get_int(r, "a clock rank");
  q->clock_at_start = get_int(r, "a flag");
  q->loc = get_loc(r);
  int k = q->kind, branching = k == FE_IF || k == FE_WHEN;
  need(r, at, (k != FE_EQUAL || q->lhs) && (k != FE_REINIT || (q->lhs && q->lhs->kind == FX_VAR)) &&
                  (k == FE_TERMINATE || branching || q->rhs) &&
                  (k != FE_TUPLE || q->rhs->kind == FX_CALL) &&
                  (!branching || (q->branches && all_present(q->conds, q->nconds))),
       "an equation without the parts of its kind");
  r->depth--;
  return q;
}

static void get_eqs(reader *r, st_feq_list *l) {
  l->n = get_count(r, 0, sizeof(int), "an equation count out of range");
  l->items = alloc(r, sizeof *l->items * (size_t)l->n);
  for (int i = 0; i < l->n && !r->failed; i++) l->items[i] = get_eq(r);
  if (r->failed) l->n = 0;
}

static void get_stmts(reader *r, st_fstmt_list *l);

static st_fstmt *get_stmt(reader *r) {
  st_fstmt *s = alloc(r, sizeof *s);
  if (!s || !deeper(r)) return NULL;
  const unsigned char *at = r->p;
  s->kind = (st_fstmt_kind)get_range(r, FS_ASSIGN, FS_CALL, "a statement kind out of range");
  s->target = get_expr(r);
  s->value = get_expr(r);
  s->targets = get_exprs(r, &s->ntargets);
  s->conds = get_exprs(r, &s->nconds);
  if (get_range(r, 0, 1, "a flag out of range")) {
    int nb = stmt_branches(s->kind, s->nconds);
    s->branches = alloc(r, sizeof *s->branches * (size_t)(nb ? nb : 1));
    for (int i = 0; i < nb && !r->failed; i++) get_stmts(r, &s->branches[i]);
  }
  s->loop_local = s->kind == FS_FOR && r->nlocals
                      ? get_range(r, 0, r->nlocals - 1, "a loop variable out of range")
                      : get_int(r, "a loop variable");
  s->range = get_expr(r);
  s->message = get_expr(r);
  s->level = get_int(r, "a level");
  s->loc = get_loc(r);
  int k = s->kind, branching = k == FS_IF || k == FS_WHEN || k == FS_WHILE;
  int valued = k == FS_ASSIGN || k == FS_TUPLE || k == FS_REINIT || k == FS_ASSERT || k == FS_CALL;
  need(r, at, (!valued || s->value) && (k != FS_ASSIGN && k != FS_REINIT ? 1 : !!s->target) &&
                  (k != FS_TUPLE || s->value->kind == FX_CALL) &&
                  (k != FS_FOR || (s->range && s->branches)) &&
                  (!branching || (s->branches && all_present(s->conds, s->nconds))) &&
                  (k != FS_WHILE || s->nconds == 1),
       "a statement without the parts of its kind");
  r->depth--;
  return s;
}

static void get_stmts(reader *r, st_fstmt_list *l) {
  l->n = get_count(r, 0, sizeof(int), "a statement count out of range");
  l->items = alloc(r, sizeof *l->items * (size_t)l->n);
  for (int i = 0; i < l->n && !r->failed; i++) l->items[i] = get_stmt(r);
  if (r->failed) l->n = 0;
}

static const char **get_strs(reader *r, int *n) {
  *n = get_count(r, 1, sizeof(int), "a string count out of range");
  if (*n < 0) {
    *n = 0;
    return NULL;
  }
  const char **list = alloc(r, sizeof *list * (size_t)(*n ? *n : 1));
  for (int i = 0; i < *n && !r->failed; i++) list[i] = get_str(r);
  return list;
}

static void get_var(reader *r, st_fvar *v) {
  v->name = get_str(r);
  v->description = get_str(r);
  v->type = (st_ftype)get_range(r, ST_T_REAL, ST_T_CLOCK, "a type out of range");
  v->enum_type = get_str(r);
  v->enum_literals = get_strs(r, &v->n_enum_literals);
  v->variability = (st_variability)get_range(r, ST_V_CONSTANT, ST_V_CONTINUOUS,
                                             "a variability out of range");
  v->causality = (st_causality)get_range(r, ST_C_NONE, ST_C_OUTPUT, "a causality out of range");
  int bits = get_range(r, 0, 63, "flags out of range");
  v->is_flow = bits & 1;
  v->is_stream = bits >> 1 & 1;
  v->is_protected = bits >> 2 & 1;
  v->is_final = bits >> 3 & 1;
  v->evaluate = bits >> 4 & 1;
  v->is_state_der = bits >> 5 & 1;
  v->binding = get_expr(r);
  v->start = get_expr(r);
  v->fixed = get_range(r, -1, 1, "a fixed flag out of range");
  v->fixed_expr = get_expr(r);
  v->nominal = get_expr(r);
  v->min = get_expr(r);
  v->max = get_expr(r);
  v->state_select = (st_state_select)get_range(r, ST_SS_NEVER, ST_SS_ALWAYS,
                                               "a stateSelect out of range");
  v->unit = get_str(r);
  v->display_unit = get_str(r);
  v->loc = get_loc(r);
  if (!v->name) bad(r, "a variable without a name");
}

static const st_fexternal *get_external(reader *r) {
  if (!get_range(r, 0, 1, "a flag out of range")) return NULL;
  st_fexternal *x = alloc(r, sizeof *x);
  if (!x) return NULL;
  x->language = get_str(r);
  x->args = get_exprs(r, &x->nargs);
  if (!x->args) x->nargs = -1;
  x->output = get_range(r, -1, r->nlocals - 1, "an output local out of range");
  x->includes = get_strs(r, &x->nincludes);
  x->libraries = get_strs(r, &x->nlibraries);
  x->include_dir = get_str(r);
  x->library_dir = get_str(r);
  x->sources_dir = get_str(r);
  x->destructor = get_range(r, 0, r->nfunctions, "a destructor out of range");
  x->loc = get_loc(r);
  return x;
}

static void get_function(reader *r, st_ffunction *f) {
  f->name = get_str(r);
  f->nlocals = get_count(r, 0, sizeof(int), "a local count out of range");
  f->locals = alloc(r, sizeof *f->locals * (size_t)f->nlocals);
  r->nlocals = f->nlocals;
  for (int i = 0; i < f->nlocals && !r->failed; i++) {
    st_flocal *l = &f->locals[i];
    l->name = get_str(r);
    l->type = (st_ftype)get_range(r, ST_T_REAL, ST_T_CLOCK, "a type out of range");
    l->causality = (st_causality)get_range(r, ST_C_NONE, ST_C_OUTPUT, "a causality out of range");
    l->ndims = get_range(r, 0, 4, "a number of dimensions out of range");
    for (int d = 0; d < 4; d++) l->dims[d] = get_int(r, "a dimension");
    for (int d = 0; d < 4; d++) l->size[d] = get_expr(r);
    l->binding = get_expr(r);
    l->is_object = get_int(r, "a flag");
    l->record = get_str(r);
    l->loc = get_loc(r);
  }
  get_stmts(r, &f->body);
  f->external_name = get_str(r);
  f->external_nargs = get_range(r, -2, f->nlocals, "an external argument count out of range");
  if (get_range(r, 0, 1, "a flag out of range") && f->external_nargs > 0) {
    int *args = alloc(r, sizeof *args * (size_t)f->external_nargs);
    for (int i = 0; i < f->external_nargs && !r->failed; i++)
      args[i] = get_range(r, 0, f->nlocals - 1, "an external argument out of range");
    f->external_args = args;
  }
  f->ext = get_external(r);
  f->is_impure = get_int(r, "a flag");
  f->loc = get_loc(r);
  f->derivative = get_range(r, 0, r->nfunctions, "a derivative function out of range");
  if (get_range(r, 0, 1, "a flag out of range") && f->nlocals) {
    unsigned char *has = alloc(r, (size_t)f->nlocals);
    get(r, has, (size_t)f->nlocals, "derivative flags");
    f->has_derivative = has;
  }
  if (f->derivative && !f->has_derivative) bad(r, "a derivative function without its input flags");
  f->derivative_loc = get_loc(r);
  r->nlocals = 0;
  if (!f->name) bad(r, "a function without a name");
}

static void get_model(reader *r, st_flat_model *m) {
  m->nvars = r->nvars = get_count(r, 0, sizeof(int), "a variable count out of range");
  m->nfunctions = r->nfunctions = get_count(r, 0, sizeof(int), "a function count out of range");
  m->name = get_str(r);
  m->vars = alloc(r, sizeof *m->vars * (size_t)m->nvars);
  for (int i = 0; i < m->nvars && !r->failed; i++) get_var(r, &m->vars[i]);
  m->functions = alloc(r, sizeof *m->functions * (size_t)m->nfunctions);
  for (int i = 0; i < m->nfunctions && !r->failed; i++) get_function(r, &m->functions[i]);
  get_eqs(r, &m->equations);
  get_eqs(r, &m->initial_equations);
  m->nalgorithms = get_count(r, 0, sizeof(int), "an algorithm count out of range");
  m->algorithms = alloc(r, sizeof *m->algorithms * (size_t)m->nalgorithms);
  for (int i = 0; i < m->nalgorithms && !r->failed; i++) get_stmts(r, &m->algorithms[i]);
  m->ninitial_algorithms = get_count(r, 0, sizeof(int), "an algorithm count out of range");
  m->initial_algorithms = alloc(r, sizeof *m->initial_algorithms * (size_t)m->ninitial_algorithms);
  for (int i = 0; i < m->ninitial_algorithms && !r->failed; i++)
    get_stmts(r, &m->initial_algorithms[i]);
  st_experiment *x = &m->experiment;
  x->has_start = get_int(r, "a flag");
  x->has_stop = get_int(r, "a flag");
  x->has_interval = get_int(r, "a flag");
  x->has_tolerance = get_int(r, "a flag");
  x->start_time = get_double(r);
  x->stop_time = get_double(r);
  x->interval = get_double(r);
  x->tolerance = get_double(r);
  m->loc = get_loc(r);
  if (!r->failed && r->p != r->end) bad(r, "bytes after the end of the model");
}

/* The header: magic, format, byte order, sizes, length and sum of what follows. */
static int check_header(reader *r, size_t n) {
  unsigned char magic[8], sizes[8];
  uint32_t format, mark;
  uint64_t len, sum;
  get(r, magic, 8, "too short for a flat model");
  if (!r->failed && memcmp(magic, MAGIC, 8)) {
    r->p = r->start;
    bad(r, "not a flat model (no STFLAT mark)");
  }
  get(r, &format, 4, "truncated header");
  get(r, &mark, 4, "truncated header");
  get(r, sizes, 8, "truncated header");
  get(r, &len, 8, "truncated header");
  get(r, &sum, 8, "truncated header");
  if (r->failed) return -1;
  st_loc loc = {r->name, 0, 0};
  if (mark != ENDIAN_MARK) {
    st_error(r->diag, loc, "byte 12: written on a machine of the other byte order");
    return -1;
  }
  if (format != ST_FLAT_FORMAT) {
    st_error(r->diag, loc, "byte 8: flat model format %u, this stiction reads format %d",
             (unsigned)format, ST_FLAT_FORMAT);
    return -1;
  }
  for (int i = 2; i < 8; i++)
    if (sizes[i]) {
      st_error(r->diag, loc, "byte %d: a reserved header byte is not 0", 16 + i);
      return -1;
    }
  if (sizes[0] != sizeof(int) || sizes[1] != sizeof(double)) {
    st_error(r->diag, loc, "byte 16: written with %d-byte int and %d-byte double, here %d and %d",
             sizes[0], sizes[1], (int)sizeof(int), (int)sizeof(double));
    return -1;
  }
  if (len != n - HEADER) {
    st_error(r->diag, loc, "byte %zu: %s: %llu bytes of model announced, %zu present", n,
             len > n - HEADER ? "truncated" : "trailing bytes", (unsigned long long)len,
             n - HEADER);
    return -1;
  }
  st_hash h;
  st_hash_init(&h);
  st_hash_add(&h, r->p, n - HEADER);
  if (h.a != sum) {
    st_error(r->diag, loc, "byte 32: the check sum does not match: the file is damaged");
    return -1;
  }
  return 0;
}

static void get_strings(reader *r) {
  r->nstrings = get_count(r, 0, sizeof(int), "a string count out of range");
  r->strings = alloc(r, sizeof *r->strings * (size_t)(r->nstrings ? r->nstrings : 1));
  for (int i = 0; i < r->nstrings && !r->failed; i++) {
    int k = get_count(r, 0, 1, "a string length out of range");
    if (r->failed) break;
    char *s = st_arena_strndup(r->arena, (const char *)r->p, (size_t)k);
    if (!s) bad(r, "out of memory");
    r->p += k;
    r->strings[i] = s;
  }
}

st_flat_model *st_flat_load(const void *bytes, size_t n, const char *name, st_diag *diag) {
  reader r = {.start = bytes, .p = bytes, .end = (const unsigned char *)bytes + n,
              .name = name, .diag = diag};
  if (check_header(&r, n)) return NULL;
  r.arena = st_arena_new();
  st_flat_model *m = r.arena ? st_arena_alloc(r.arena, sizeof *m) : NULL;
  if (!m) {
    st_arena_free(r.arena);
    st_loc loc = {name, 0, 0};
    st_error(diag, loc, "out of memory");
    return NULL;
  }
  memset(m, 0, sizeof *m);
  m->arena = r.arena;
  get_strings(&r);
  get_model(&r, m);
  if (r.failed) {
    st_arena_free(r.arena);
    return NULL;
  }
  return m;
}
