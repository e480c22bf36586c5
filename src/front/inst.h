/*
 * Internals of the front end's second half: the class tree of loaded libraries (loader.c),
 * lookup (lookup.c), modifiers (modifier.c), the instance tree (instantiate.c), expression
 * and equation translation (translate.c, sections.c), connections (connect.c), functions
 * (func_translate.c, interp.c) and the flat-model builder (builder.c). front.c ties them together.
 *
 * Flattening runs in two phases:
 *   1. instantiate: build the instance tree of the class, merging modifiers, expanding arrays
 *      and deciding conditional components; every scalar primitive component becomes a flat
 *      variable whose binding and attributes are kept untranslated (AST + scope).
 *   2. translate: bindings, attributes and equation sections become st_fexpr/st_feq against
 *      the complete tree; connections become equations.
 * Values needed in phase 1 (array sizes, conditions) translate bindings on demand.
 */
#ifndef ST_FRONT_INST_H
#define ST_FRONT_INST_H

#include "front/ast.h"
#include "front/flat.h"
#include "front/front.h"
#include "front/libpath.h"

#include <string.h>
#include "front/nameindex.h"

/* The most elements one array or one range of a model may have (arrays.c, translate.c):
 * 10^6, the scale issue 18 asks of a model, bounds what bad input can make us allocate. */
#define ST_MAX_ELEMS 1000000

/* ----------------------------------------------------------------------- class tree */

typedef struct st_cls st_cls;
struct st_cls {
  const char *name;        /* short name ("" for the root) */
  const char *full;        /* full name "A.B.C" */
  st_cls *parent;          /* enclosing class; NULL for the root */
  const st_ast_class *ast; /* NULL for the root and the predefined types */
  int prim;                /* st_ftype of Real/Integer/Boolean/String, else -1 */
  st_cls **kids;           /* nested classes, in load order */
  int nkids, capkids;
  st_name_index index;     /* of kids, by name */
  /* its own component declarations with their index by name, and its extends and import
   * clauses: built at the first lookup in it (lookup.c), as a class of 10^5 declarations was
   * scanned for each name looked up */
  const st_ast_element **comps, **clauses;
  int ncomps, nclauses;
  st_name_index comp_index;
  char *dir;               /* directory package: its files are read one by one on lookup */
  const char **missing;    /* names looked up in dir and not stored there */
  int nmissing, capmissing;
  int visiting;            /* guards cyclic extends during lookup */
  int busy;                /* being instantiated: guards recursive classes */
  /* A specialization (Modelica 3.5 sections 7.2 and 7.3): class `origin` (same AST) seen
   * with some of its nested classes redeclared and, for a package, constants modified by
   * an extends clause. Its nested classes are specializations too (kept in kids), whose
   * parent is this one, so that names looked up inside them find the redeclared classes.
   * NULL origin: a class of the library itself. */
  st_cls *origin;
  struct st_cls_redecl *redecls; /* outermost first: the first of a name counts */
  int nredecls;
  struct st_cls_mod *mods;       /* outermost first */
  int nmods;
  st_cls *clones;          /* of an origin: its specializations, to share equal ones */
  st_cls *next_clone;
};

/* A redeclared nested class: `name` denotes cls. */
typedef struct st_cls_redecl {
  const char *name;
  st_cls *cls;
} st_cls_redecl;

/* The modifier of an extends clause of a package, resolved in scope: it gives the values
 * of the base package's constants (`extends PartialMedium(nX = 2)`). */
typedef struct st_cls_mod {
  const st_ast_mod *mod;
  st_cls *scope;
} st_cls_mod;

struct st_front {
  st_diag *diag;
  const st_front_externals *externals; /* C calls while flattening, or NULL (front.h) */
  st_arena *arena;         /* ASTs and the class tree */
  st_libpath path;
  st_dircache listings;    /* the library directories' entries, each read once */
  st_cls *root;
  st_cls *predefined;      /* Real, Integer, Boolean, String, StateSelect, ... */
  const char *default_class;
  const char **missing;    /* top-level names not on the library path */
  int nmissing, capmissing;
  /* Classes found by st_lookup_class and st_lookup_extends (lookup.c): the same type and
   * base-class names are looked up again for every instance and every inherited member.
   * Emptied whenever classes are added other than by loading the library on demand. */
  struct st_lookup_memo *memo;
  int nmemo, capmemo;
  size_t scratch_used;     /* bytes of the last flattening's scratch arena (st_fl.tmp) */
};

st_cls *st_cls_new(st_front *fe, st_cls *parent, const char *name, const st_ast_class *ast);
/* "A.B.C" to a class from the top level, loading libraries as needed; NULL if none. */
st_cls *st_front_class_by_name(st_front *fe, const char *name);
/* The class defined by ast with its nested classes, not added to parent. */
st_cls *st_cls_make(st_front *fe, st_cls *parent, const st_ast_class *ast);
/* A specialization of origin (a class of the library) to be filled in: no redeclarations,
 * no nested classes yet. */
st_cls *st_cls_copy(st_front *fe, st_cls *origin, st_cls *parent, const char *full);
/* Adds (or replaces, by name) a nested class. */
void st_cls_add(st_front *fe, st_cls *parent, st_cls *kid);
/* The nested class `name` of c, reading c's directory first if needed; NULL if none. */
st_cls *st_cls_kid(st_front *fe, st_cls *c, const char *name);
/* Loads the top-level class `name` from the library path; NULL if not there (and then
 * st_front_is_missing() says so from then on). */
st_cls *st_front_load_top(st_front *fe, const char *name);
int st_front_is_missing(const st_front *fe, const char *name);
/* Drops the remembered lookups: a class given later (on the command line, a duplicate
 * definition) may replace or hide one found before. */
void st_front_forget_lookups(st_front *fe);
int st_front_add_predefined(st_front *fe);

static inline int st_cls_is(const st_cls *c, st_ast_class_kind kind) {
  return c && c->ast && c->ast->kind == kind;
}

/* A class extending ExternalObject (Modelica 3.6 section 12.9.7): its components are
 * Integer parameters holding a handle of the instance's objects (compile/extcall.c); a call
 * of the class is a call of its constructor. */
static inline int st_cls_is_external_object(const st_cls *c) {
  if (!c || !c->ast || c->ast->form != ACF_LONG) return 0;
  for (const st_ast_element *e = c->ast->elements; e; e = e->next)
    if (e->kind == AEL_EXTENDS && e->u.extends.name &&
        !strcmp(e->u.extends.name->text, "ExternalObject"))
      return 1;
  return 0;
}

/* --------------------------------------------------------------------------- lookup */

/* What a name denotes: a class, or a component declared in class `owner`. */
typedef struct st_elem {
  st_cls *cls;
  const st_ast_element *comp;
  st_cls *owner;
} st_elem;

/* An element of c by name: nested classes and components, also inherited ones (no imports,
 * no enclosing scopes). 0 when found. */
int st_lookup_member(st_front *fe, st_cls *c, const char *name, st_elem *out);
/* The first name looked up from scope outwards (Modelica 3.5 section 5.3.1): members,
 * imports, enclosing classes (stopping at `encapsulated`), top-level classes and library
 * path, predefined types. */
int st_lookup_simple(st_front *fe, st_cls *scope, const char *name, st_elem *out);
/* A dotted class name: first part as above, then qualified descent. NULL (with an error
 * at loc) if it does not name a class. */
st_cls *st_lookup_class(st_front *fe, st_cls *scope, const st_ast_name *name);
st_cls *st_lookup_class_path(st_front *fe, st_cls *scope, const char *const *parts, int n,
                             int global);
/* The base class of an extends clause declared in c. */
st_cls *st_lookup_extends(st_front *fe, st_cls *c, const st_ast_element *ext);
/* The extends clause of a type that is only that (besides nested classes such as
 * equalityConstraint), `type T extends Real[3, 3];`: like a short class. NULL otherwise. */
const st_ast_element *st_cls_type_extends(const st_cls *cls);
/* Follows short class definitions (type X = Y(...)) to the class that defines X. */
st_cls *st_cls_resolve_short(st_front *fe, st_cls *c);
/* c with the nested classes of redecls redeclared (outermost first): a specialization of
 * c's origin, shared with an equal one made before. c itself when nredecls is 0. */
st_cls *st_cls_specialize(st_front *fe, st_cls *c, const st_cls_redecl *redecls, int nredecls);
/* The class that `redeclare package Medium = X` (an element of a modifier, written in
 * scope) gives: the class definition itself, in scope; one per element and scope. */
st_cls *st_cls_redeclared(st_front *fe, st_cls *scope, const st_ast_element *el);
/* The modifier value of constant `name` of c from the extends clauses that specialized it,
 * with the scope to translate it in; NULL when none. */
const st_ast_expr *st_cls_constant_mod(const st_cls *c, const char *name, st_cls **scope);

/* ------------------------------------------------------------------------- instances */

typedef struct st_inst st_inst;
typedef struct st_fl st_fl;

/* Where the names of an expression are resolved: components of inst (NULL: none), then
 * classes and constants lexically from cls. */
typedef struct st_env {
  st_inst *inst;
  st_cls *cls;
} st_env;

/* A merged modifier for one element: value, attribute/element sub-modifiers. Immutable
 * once built; merging makes new nodes. */
/* What a `redeclare` in a modifier brings (Modelica 3.5 section 7.3), kept apart from
 * st_mod because few modifiers have one (a component chain builds ~90 modifiers per
 * component, none of them a redeclaration: issue 18). Immutable, shared by merges. */
typedef struct st_mod_redecl {
  /* `redeclare [each] [final] T name(...)`: the new declaration, whose type is looked up
   * from env; the modifier's value and subs are its modifier. */
  const st_ast_element *element;
  st_env env;
  st_cls *cls;             /* `redeclare package Medium = X`: the new class (lookup.c) */
} st_mod_redecl;

typedef struct st_mod st_mod;
struct st_mod {
  const char *name;        /* the element it applies to (one identifier) */
  int final, each;
  const st_ast_expr *value; /* binding, or NULL */
  st_env env;              /* where value's names are resolved */
  int nindex;              /* take value[index...] (a non-`each` modifier split over an array) */
  /* take the field (a dotted path) of the record value, after its first field_nindex
   * indices: the part of a record binding `r = x` that binds one field of r */
  int field_nindex;
  const int *index;
  const char *field;
  const st_mod_redecl *redecl; /* NULL: no redeclaration */
  st_mod *subs;            /* sub-modifiers (list through next) */
  st_mod *next;
  const char *description;
  st_loc loc;
};

/* Prefixes passed down to the elements of a structured component. */
typedef struct st_prefix {  /* chars: an st_inst per scalar of the model holds one */
  signed char variability; /* st_variability; ST_V_CONTINUOUS when none */
  signed char causality;   /* st_causality */
  signed char flow;
  signed char is_protected;
  signed char is_final;
} st_prefix;

typedef struct st_section_ref {
  const st_ast_section *sec;
  st_env env;
  struct st_section_ref *next;
} st_section_ref;

struct st_inst { /* one per component and scalar of the model: ordered to pack (issue 18) */
  const char *name;        /* local name with subscripts: "J", "J[2]" */
  const char *path;        /* full instance path: "a.J[2]"; "" for the top instance */
  st_inst *parent;
  st_cls *cls;             /* the component's class (after short classes) */
  int var;                 /* its flat variable, or -1 */
  int ndims;               /* > 0: an array node whose kids are the elements, row-major */
  int dims[4];
  signed char prim;        /* st_ftype for a scalar primitive, -1 otherwise */
  signed char disabled;    /* a conditional component whose condition is false */
  signed char is_connector; /* the class (or a short-class chain) is a connector */
  /* A class's components are all declared (named here) before any is instantiated; each is
   * then instantiated in declaration order, or earlier when a name used while instantiating
   * another one (an array size, a condition, a binding evaluated then) refers to it: the
   * order of declarations is free (Modelica 3.5 section 5.6.1). */
  signed char pending;     /* 1 declared, 2 being instantiated, 0 instantiated */
  signed char default_inner; /* the inner added at the top level for an outer without one */
  st_prefix prefix;
  int nkids, capkids;
  st_inst **kids;
  st_name_index index;     /* of kids, by name */
  st_section_ref *sections, *last_section;
  st_loc loc;              /* the declaration */
  const st_ast_element *decl; /* the declaration */
  st_cls *owner;           /* the class whose scope the declaration is written in */
  const st_ast_element *redecl; /* `redeclare T name` among the elements of a derived class */
  st_cls *redecl_owner;
  st_mod *mod;             /* the modifier from outside the declaration */
  /* An `outer` component is the `inner` one of the same name in the nearest enclosing
   * instance (Modelica 3.5 section 5.4): looking it up gives that one. */
  st_inst *alias;
  /* An `inner outer` element is two (section 5.4): itself the outer (its own scope's
   * references find the enclosing inner), and this inner part, which the outers below find
   * and which takes the element's modifiers; a kid of the same parent that no name lookup
   * finds, with the element's path. */
  st_inst *inner_part;
  st_mod *binding;         /* a record component's binding (records.c) */
};

st_inst *st_inst_kid(const st_inst *in, const char *name);
/* A new kid of parent (its path from the parent's), without class or variable. */
st_inst *st_inst_new_kid(st_fl *fl, st_inst *parent, const char *name, st_loc loc);
/* The component `name` of in, instantiated first if it is still only declared. */
st_inst *st_inst_member(st_fl *fl, st_inst *in, const char *name);

/* ----------------------------------------------------------------- flattening run */

/* A variable's untranslated binding or attribute. */
typedef struct st_lazy {
  const st_ast_expr *expr;
  st_env env;
  int nindex;
  const int *index;
  const char *field;       /* see st_mod */
  int field_nindex;
  int state;               /* 0 untranslated, 1 translating (cycle), 2 done */
  st_fexpr *value;
} st_lazy;

enum { LZ_BINDING, LZ_START, LZ_FIXED, LZ_NOMINAL, LZ_MIN, LZ_MAX, LZ_STATESELECT, LZ_COUNT };

typedef struct st_varinfo {
  st_inst *inst;
  st_lazy *attr[LZ_COUNT]; /* in fl->tmp; NULL when not given (most are not) */
} st_varinfo;

typedef struct st_connection {
  st_inst *a, *b;
  int a_outside, b_outside;
  const char *origin;
  st_loc loc;
} st_connection;

/* An inStream(v) in an equation: a node that reads v until connect.c rewrites it. */
typedef struct st_stream_use {
  st_fexpr *node;
  int var;
} st_stream_use;

typedef struct st_eqbuf {
  st_feq **items;
  int n, cap;
} st_eqbuf;

typedef struct st_iter_binding {
  const char *name;
  double value;
} st_iter_binding;

/* A functional input bound at a call (Modelica 3.5 section 12.4.2): the name g or
 * `function g(a = x)` given for input f. The called function is translated once per such
 * binding (a specialization): a call f(u) in its body calls g, with the bound arguments as
 * extra inputs "f.a" that the call site fills. */
typedef struct st_fn_arg {
  const char *name;    /* the input, "f" */
  st_cls *target;      /* g */
  int nbound;
  const char **bound;  /* names of g's inputs bound by the call */
  st_fexpr **values;   /* their values in the caller's scope */
} st_fn_arg;

typedef struct st_fn_spec {
  int n;
  st_fn_arg *args;
  const char *key;     /* "f = g(a)": the specialization's identity and name */
} st_fn_spec;

/* A user function being translated: names resolve to its locals first. */
typedef struct st_fnctx {
  st_ffunction *fn;
  st_cls *cls;
  int caplocals;
  const st_fn_spec *spec; /* its functional inputs' bindings, or NULL */
} st_fnctx;

typedef struct st_ocgraph st_ocgraph; /* overconstrained.c */
typedef struct st_inline_frame st_inline_frame; /* inline.c */

struct st_fl {
  st_front *fe;
  st_diag *diag;
  st_arena *arena;         /* the flat model's */
  st_arena *tmp;           /* instances and modifiers, freed after flattening */
  st_inst *top;
  st_fvar *vars;
  st_varinfo *info;
  int nvars, capvars;
  st_eqbuf equations, initial_equations;
  st_fstmt_list *algorithms, *initial_algorithms;
  int nalgorithms, ninitial_algorithms, capalg, capialg;
  st_ffunction *functions;
  const st_cls **function_cls;
  const char **function_key; /* per function: its st_fn_spec key, or NULL */
  int nfunctions, capfunctions;
  st_connection *connections;
  int nconnections, capconnections;
  st_stream_use *instreams; /* inStream() results, filled in once the sets are known */
  int ninstreams, capinstreams;
  struct st_conn_sets *sets; /* the connection sets, kept for inStream() in later bindings */
  st_iter_binding iters[32];
  int niters, iter_base;   /* visible iterators: [iter_base, niters) */
  st_fnctx *fnctx;         /* non-NULL inside a function body */
  int end_size;            /* value of `end` in the subscript being translated */
  int sizing;              /* evaluating an array size: impure functions run too (the MSL's
                              readMatrixSize sizing readRealMatrix's result) */
  int initial_section;     /* translating an initial equation section */
  int string_exprs;        /* translating an assert message: String() of a variable is kept
                              as FB_STRING, evaluated when the assert fails */
  int raw_call;            /* the next call translated is a tuple's right side: kept a call */
  st_ocgraph *oc;           /* the graph of overconstrained connections, or NULL */
  st_inline_frame *inl;     /* the names of the function body being inlined, or NULL */
  st_inst **record_bound;   /* record components with a binding, `Pair pq = f(time)` */
  int nrecord_bound, caprecord_bound;
  struct st_deferred_connect *deferred; /* connect-equations into expandable connectors
                                           that wait for the other side's members */
  int ndeferred, capdeferred;
  int connect_pass;        /* 0 before the equations, 1 while only connect-equations are
                              translated (cardinality() needs them all first), 2 after */
  /* Per type class: the merged modifier of its chain of short classes and type extends
   * (`Position = Length`, `Length = Real(final unit = "m")`), built once (resolve_type). */
  struct st_type_mod *type_mods;
  int ntype_mods, captype_mods;
  /* Per record class: its leaves (st_rec_leaves without a prefix), collected once: a field
   * access `v.re` asks for them at each use, and collecting evaluates the fields' sizes. */
  struct st_rec_memo *rec_memos;
  int nrec_memos, caprec_memos;
  int errors;
  int out_of_memory;       /* a malloc'd table could not grow (see also st_arena_failed) */
  int depth;               /* instantiation depth (guards runaway recursion) */
  /* The last array binding translated whole (st_fl_lazy): the elements of one array are
   * translated one after the other, and each needs only its element of the same value. */
  const st_ast_expr *memo_expr;
  st_env memo_env;
  st_fexpr *memo_value;
  /* Class substitutions of st_front_flatten_substituted (front.h), and which were used. */
  const st_front_subst *subst;
  int nsubst;
  unsigned char *subst_used;
};

/* Reports an error at loc with the instance path; counts it. */
void st_fl_error(st_fl *fl, st_loc loc, const st_inst *in, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* modifier.c */
st_mod *st_mod_from_ast(st_fl *fl, const st_ast_mod *m, st_env env, int each, int final,
                        const char *name, st_loc loc);
st_mod *st_mod_merge(st_fl *fl, st_mod *outer, st_mod *inner);
st_mod *st_mod_find(const st_mod *m, const char *name);
/* The node that st_mod_merge of layers[0] over layers[1] over ... (outermost first, NULL
 * skipped) would give, without its sub-modifiers and without building the merged tree (a
 * scalar's modifier is read once, attribute by attribute, and the merged trees were most of
 * a component chain's scratch memory: issue 18): the one layer given, or the merge in *buf
 * (subs not merged; name NULL when out of memory); NULL when no layer is given. */
st_mod *st_mod_merge_top(st_fl *fl, st_mod *const *layers, int n, st_mod *buf);
/* The modifier of array element `index` (1-based, row-major over ndims). */
st_mod *st_mod_element(st_fl *fl, st_mod *m, const int *index, int ndims);
/* The modifier of a record component whose binding is split over its fields. */
st_mod *st_mod_record_binding(st_fl *fl, st_mod *m, st_cls *rec);
/* The part of a whole binding value that a modifier or lazy binding takes: indices, then
 * the field after the first field_nindex of them. */
st_fexpr *st_fx_part_value(st_fl *fl, st_fexpr *v, const int *index, int nindex,
                           const char *field, int field_nindex, st_loc loc);

/* instantiate.c */
/* Instantiates cls as the top-level model; mod (may be NULL) is applied as if the model
 * were declared with it, e.g. the parameter values of `stiction simulate -p`. */
st_inst *st_instantiate(st_fl *fl, st_cls *cls, st_mod *mod);

/* builder.c */
int st_fl_add_var(st_fl *fl, st_inst *in, st_ftype type);
void st_fl_add_eq(st_fl *fl, st_eqbuf *buf, st_feq *eq);
st_feq *st_feq_new(st_fl *fl, st_feq_kind kind, st_loc loc, const char *origin);
st_fexpr *st_fl_lazy(st_fl *fl, st_lazy *lz);
/* st_fl_lazy of attribute attr (LZ_*) of variable var, safe while fl->info grows. */
st_fexpr *st_fl_var_attr(st_fl *fl, int var, int attr);
/* The entry of attribute attr of variable var, made empty when there is none; NULL when out
 * of memory. */
st_lazy *st_fl_var_lazy(st_fl *fl, int var, int attr);
st_fexpr *st_fl_binding(void *fl, int var);
/* Evaluates an expression of constants/parameters; 0 on success. */
int st_fl_eval(st_fl *fl, const st_fexpr *e, double *out);
/* The type of an expression, with user-function results. */
st_ftype st_fl_type(st_fl *fl, const st_fexpr *e);
int st_fl_eval_ast(st_fl *fl, const st_ast_expr *e, st_env env, double *out);
st_flat_model *st_fl_finish(st_fl *fl, const char *name);

/* translate.c: AST expression to flat expression (NULL after an error). */
st_fexpr *st_translate(st_fl *fl, const st_ast_expr *e, st_env env);
/* The text of a String literal or of a String constant or parameter (following their
 * bindings), else NULL. */
const char *st_fl_string_const(st_fl *fl, const st_fexpr *e);
/* Resolves a component reference to an instance node (connect). NULL after an error. */
st_inst *st_resolve_inst(st_fl *fl, const st_ast_cref *cr, st_env env, int *outside);
/* The same for any component (connector 0) or only a connector (1). */
st_inst *st_resolve_node(st_fl *fl, const st_ast_cref *cr, st_env env, int *outside,
                         int connector);
/* The values of a for-range (a:b, a:s:b or an array expression) as FX_ARRAY. */
st_fexpr *st_range_values(st_fl *fl, const st_ast_expr *e, st_env env);
st_fexpr *st_fx_index_value(st_fl *fl, st_fexpr *value, const int *index, int nindex,
                            st_loc loc);

/* arrays.c: the built-in array functions of models on expanded arrays (nested FX_ARRAY).
 * *handled is 0 when name is not one of them here (then the caller looks further). */
st_fexpr *st_fl_array_builtin(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                              int *handled);
/* clockops.c: Clock(...), sample(u[, clock]), hold, previous, subSample, ... (Modelica 3.6
 * chapter 16) as FX_BUILTIN; *handled is 0 when name is none of them (sample(start,
 * interval) of the time events included). */
st_fexpr *st_fl_clock_call(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                           int *handled);
/* clockops.c: transition(...) and initialState(s) used as equations (chapter 17). */
st_fexpr *st_fl_state_equation(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                               int *handled);
/* a*b of two arrays: scalar product, matrix-vector and matrix-matrix products. */
st_fexpr *st_fl_array_product(st_fl *fl, st_fexpr *a, st_fexpr *b, st_loc loc);
/* cat(k, parts...) of translated arrays (k = 1 or 2); NULL after an error. */
st_fexpr *st_fl_cat(st_fl *fl, int k, st_fexpr **parts, int n, st_loc loc, st_inst *in);
/* A built-in call (FX_BUILTIN, translated arguments) with array arguments applied element by
 * element: der(x) for Real x[3] is {der(x[1]), der(x[2]), der(x[3])}. */
st_fexpr *st_fl_map_builtin(st_fl *fl, st_fexpr *r);
/* fill(v, n, ...), zeros(n, ...), ones(n, ...) as translated in a function body (an input's
 * default) with sizes known now: the array value a model needs; else b itself. */
st_fexpr *st_fl_filled_value(st_fl *fl, st_fexpr *b);
/* The dimensions of an expanded array (0 for a scalar, at most max), -1 when ragged. */
int st_fx_shape(const st_fexpr *a, int *dims, int max);

/* operators.c: operator records (Modelica 3.6 chapter 14). Operator name (quoted: "'+'")
 * applied to a and b (NULL for a unary operator), one of them a record value. */
st_fexpr *st_op_apply(st_fl *fl, const char *name, st_fexpr *a, st_fexpr *b, st_loc loc,
                      st_env env);
/* The same on arrays of operator records (element-wise, vector products; elementwise: the
 * operator was .+ .- .* ./ .^); NULL without an error when neither operand is one. */
st_fexpr *st_op_array(st_fl *fl, const char *name, int elementwise, st_fexpr *a, st_fexpr *b,
                      st_loc loc, st_env env);
/* Whether v is an array (not a record value) whose elements are record values. */
int st_op_record_array(const st_fexpr *v);
/* sum() or product() (name) of an array of operator records: the record's '+' or '*' over
 * its elements; an error for an empty array (no '0' operator is looked for). */
st_fexpr *st_op_reduce(st_fl *fl, const char *name, st_fexpr *a, st_loc loc, st_env env);
/* The 'constructor' function of operator record rec that takes the arguments of call, or
 * NULL. */
st_cls *st_op_constructor(st_fl *fl, st_cls *rec, const st_ast_expr *call);
/* A call of user function fn with translated arguments in the order of its inputs (a record
 * input takes a record value); missing ones take their defaults; inlined as st_translate
 * inlines (inline.c). */
st_fexpr *st_fl_call_values(st_fl *fl, st_cls *fn, st_fexpr **args, int nargs, st_loc loc,
                            st_env env);

/* records.c: record values (FX_ARRAY with str = the record class) of leaves in flat order. */
typedef struct st_rec_leaf {
  const char *name;             /* dotted path below the record: "a", "s.x" */
  const st_ast_element *decl;   /* its declaration, in class owner */
  st_cls *owner;
  st_ftype type;
  int ndims, dims[4];           /* dims -1 where not constant */
  const st_ast_expr *size[4];
  int top;                      /* index of the top-level field it belongs to */
  const st_ast_expr *dflt;      /* its default: the declaration's binding, or the one an
                                   extends clause or enclosing record field gives; or NULL */
  st_cls *dflt_cls;             /* where dflt's names are resolved */
  int array_of_records;         /* a field of an array of records (dims lead with its size) */
} st_rec_leaf;
int st_cls_is_record(const st_cls *c);
int st_fx_is_record(const st_fexpr *e);
/* Field j of every element of v, an array of records with n fields: the array of that field;
 * NULL if v is not one. */
st_fexpr *st_rec_field_array(st_fl *fl, const st_fexpr *v, int j, int n);
/* The leaves of record class rec (names prefixed by prefix., unless NULL) in fl->tmp; their
 * number, or -1 after an error. Without a prefix they are collected once per class and
 * shared: read-only. */
int st_rec_leaves(st_fl *fl, st_cls *rec, const char *prefix, st_rec_leaf **out);
/* The value of a record or connector instance node. */
st_fexpr *st_rec_of_inst(st_fl *fl, st_inst *node, st_loc loc);
/* A record constructor call R(...) of record class rec. */
st_fexpr *st_rec_construct(st_fl *fl, const st_ast_expr *call, st_cls *rec, st_env env);
/* The value of a record constant declared with modifier m (`constant R c(a = 1)`), m's
 * values translated in env. */
st_fexpr *st_rec_from_mod(st_fl *fl, const st_ast_mod *m, st_cls *rec, st_env env, st_loc loc);
/* Record components bound as a whole (`Pair pq = f(time)`): each leaf variable gets the
 * field of the value as its binding. */
void st_fl_record_bindings(st_fl *fl);
/* The field (dotted path) of a record value. */
st_fexpr *st_rec_field(st_fl *fl, st_fexpr *value, const char *field, st_loc loc);

/* The declared inputs or outputs of a translated function: a record is one group of
 * consecutive locals "r.a", "r.b" (first and count are ordinals among those locals). */
typedef struct st_fn_group {
  const char *name;
  int first, count;
  int record;
} st_fn_group;
int st_fn_groups(st_fl *fl, const st_ffunction *fn, st_causality causality, st_fn_group **out);
const st_fexpr *st_fn_call_of(const st_fexpr *v);
/* Tuple targets (one per declared output, NULL for skipped) spread over the output locals:
 * a record target gives one per leaf. The number of output locals, or -1 after an error. */
int st_fn_tuple_targets(st_fl *fl, const st_ffunction *fn, st_fexpr **targets, int ntargets,
                        st_fexpr ***out, st_loc loc);

/* sections.c */
void st_translate_sections(st_fl *fl);
/* The number of connect-equations that name connector c (an element of a connected array
 * counts too); all connections are known once st_translate_sections has begun. */
int st_fl_cardinality(const st_fl *fl, const st_inst *c);
void st_fl_free_connection_sets(st_fl *fl);
/* inStream(v) / actualStream(v) (section 15.2-15.3); *handled = 0 for other names. */
st_fexpr *st_fl_stream_call(st_fl *fl, const st_ast_expr *e, const char *name, st_env env,
                            int *handled);
/* a * b where a is a port's flow variable and b (or each element of b) is actualStream of a
 * stream variable of that port: the product is continuous where actualStream switches (it
 * is zero there), so the switch gets noEvent (section 15.3 lets a tool treat it as
 * smooth(0, ...); Dymola does): no event, no chattering at zero flow. */
void st_fl_stream_product(st_fl *fl, const st_fexpr *a, st_fexpr *b);
st_fstmt_list st_translate_stmts(st_fl *fl, const st_ast_stmt *s, st_env env);

/* connect.c */
void st_fl_add_connection(st_fl *fl, st_inst *a, int a_outside, st_inst *b, int b_outside,
                          st_loc loc, const char *origin);
void st_connections_to_equations(st_fl *fl);

/* overconstrained.c (Modelica 3.5 section 9.4). Connections.branch/root/potentialRoot
 * (is... says whether call is one): recorded in the first pass over the equations; 1 when
 * call was one. */
int st_fl_is_connections_statement(const st_ast_expr *call);
int st_fl_connections_statement(st_fl *fl, const st_ast_expr *call, st_env env);
/* After the first pass: the spanning forest, its roots and which connections it breaks. */
void st_fl_build_connection_graph(st_fl *fl);
/* connect.c: connect(a, b) where a or b may be a member an expandable connector does not
 * have yet (Modelica 3.6 section 9.1.3): the member is added like the other side; when
 * neither side is known yet the equation waits (st_fl_expandable_connections). */
void st_fl_connect(st_fl *fl, const st_ast_equation *eq, st_env env, const char *origin);
/* After the connect-equations: the waiting ones, then connected expandable connectors get
 * the union of their members. */
void st_fl_expandable_connections(st_fl *fl);
/* Connections.isRoot(x) / rooted(x) as a Boolean constant; NULL when call is neither. */
st_fexpr *st_fl_connections_query(st_fl *fl, const st_ast_expr *call, st_env env);
/* Whether connection c's pairing of overconstrained records a and b closes a loop; then
 * st_fl_equality_constraint adds 0 = equalityConstraint(a, b) instead of a = b. */
int st_fl_connection_broken(st_fl *fl, const st_inst *a, const st_inst *b,
                            const st_connection *c);
void st_fl_equality_constraint(st_fl *fl, st_inst *a, st_inst *b, st_loc loc,
                               const char *origin);

/* inline.c: the value of call r (of function fn, class cls) in a model by its body when the
 * function is annotated Inline = true (or InlineAfterIndexReduction) and the body is a
 * sequence of assignments; NULL to
 * keep the call. While a body is translated, st_fl_inline_value gives the value bound to a
 * name of the function (NULL: none). */
st_fexpr *st_fl_inline_call(st_fl *fl, st_cls *cls, const st_ffunction *fn, const st_fexpr *r);
st_fexpr *st_fl_inline_value(const st_fl *fl, const char *name);
/* x translated in class cls (no instance) with names[i] standing for values[i] (NULL: not
 * bound): the defaults of a record's fields that read its other fields, `c = a*b`. */
st_fexpr *st_fl_translate_bound(st_fl *fl, const st_ast_expr *x, st_cls *cls,
                                const char *const *names, st_fexpr *const *values, int n);

/* func_translate.c: a URI as an absolute path: modelica://Lib/rest is rest under the library
 * Lib (a loaded top-level class or one on the library path), file://path is path, anything
 * else is relative to root. The URI itself when Lib is found nowhere. */
const char *st_fl_resolve_uri(st_fl *fl, const char *uri, const char *root);
/* path made absolute (in fl's arena), NULL when no file is there. */
const char *st_fl_existing_path(st_fl *fl, const char *path);

/* func_translate.c: the index of the flat function for class fn (translated once). -1 on error. */
int st_fl_function(st_fl *fl, st_cls *fn, st_loc loc);
/* The same for a function with functional inputs, specialized to spec (NULL: none). */
int st_fl_function_spec(st_fl *fl, st_cls *fn, const st_fn_spec *spec, st_loc loc);
/* interp.c: calls function fn on constant arguments at flattening time (parameter bindings
 * such as table = f(...), conditions). 0 with *result a constant (FX_REAL/FX_BOOL or nested
 * FX_ARRAY), -1 when an argument is not constant or the body cannot be interpreted. */
int st_fl_call(st_fl *fl, const st_fexpr *call, st_fexpr **result);
/* The local for a for-loop iterator inside the function being translated (added once). */
int st_fn_iterator_local(st_fl *fl, const char *name, st_loc loc);

#endif
