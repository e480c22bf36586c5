/*
 * The Modelica abstract syntax tree: what the parser (lexer.l, parser.y) produces and the
 * loader/instantiator consumes. It follows the concrete syntax of the Modelica Language
 * Specification 3.6, appendix "Modelica Concrete Syntax", rule by rule, but drops pure
 * punctuation.
 *
 * Conventions
 *  - Memory: every node, string and array lives in the st_arena given to st_parse_*();
 *    nothing is freed on its own. The source text is copied into the arena too and
 *    registered with the st_diag (for quoted lines in messages), so the arena must outlive
 *    any later report about this file.
 *  - Lists are singly linked through a `next` field, in source order; NULL is the empty list.
 *  - Every node has an st_loc: the file (arena copy of the path or name given to the parser,
 *    the same pointer for all nodes of one parse), line and column (from 1, in bytes, tab = 1)
 *    of the FIRST token of the construct (for a binary expression: of its left operand).
 *  - Identifiers are arena copies, NUL-terminated. A quoted identifier (Q-IDENT) keeps its
 *    quotes: 'my name' is the 9-byte string "'my name'", different from my_name, as the
 *    specification says. Compare names with strcmp.
 *  - Strings (string literals, description strings) are DECODED: escapes such as \" \n \\
 *    are replaced by the characters they denote; UTF-8 is kept as is. A description made of
 *    "a" + "b" is stored concatenated. NULL means "no description".
 *  - Annotations are kept as class modifications (st_ast_mod with args), exactly as
 *    written; several annotation clauses of one class are merged into one argument list.
 */
#ifndef ST_FRONT_AST_H
#define ST_FRONT_AST_H

#include <stdbool.h>
#include <stdio.h>

#include "util/arena.h"
#include "util/diag.h"

typedef struct st_ast_expr st_ast_expr;
typedef struct st_ast_mod st_ast_mod;
typedef struct st_ast_arg st_ast_arg;
typedef struct st_ast_element st_ast_element;
typedef struct st_ast_class st_ast_class;
typedef struct st_ast_equation st_ast_equation;
typedef struct st_ast_stmt st_ast_stmt;

/* ---------------------------------------------------------------------------- names */

/* A dotted name (name / type-specifier in the grammar): `A.B.C`, `.A.B` (global). */
typedef struct st_ast_name {
  st_loc loc;
  bool global;           /* leading dot: look up from the top level only */
  int nparts;            /* >= 1 */
  const char **parts;    /* nparts identifiers */
  const char *text;      /* the whole name as written, "A.B.C" or ".A.B" */
} st_ast_name;

/* One part of a component reference: `name[subs]`. */
typedef struct st_ast_cref_part {
  st_loc loc;
  const char *name;
  st_ast_expr *subs;     /* subscripts (list; AX_COLON for `:`), NULL if none */
  int nsubs;
  struct st_ast_cref_part *next;
} st_ast_cref_part;

/* A component reference `a.b[1].c[i, :]` or `.a.b` (global). */
typedef struct st_ast_cref {
  st_loc loc;
  bool global;
  st_ast_cref_part *parts; /* at least one */
  int nparts;
} st_ast_cref;

/* --------------------------------------------------------------------- expressions */

typedef enum st_ast_op {
  /* binary */
  AOP_ADD, AOP_SUB, AOP_MUL, AOP_DIV, AOP_POW,          /* + - * / ^ */
  AOP_EADD, AOP_ESUB, AOP_EMUL, AOP_EDIV, AOP_EPOW,     /* .+ .- .* ./ .^ */
  AOP_LT, AOP_LE, AOP_GT, AOP_GE, AOP_EQ, AOP_NE,       /* < <= > >= == <> */
  AOP_AND, AOP_OR,
  /* unary */
  AOP_NEG, AOP_PLUS, AOP_ENEG, AOP_EPLUS, AOP_NOT       /* -x +x .-x .+x not x */
} st_ast_op;

/* A for-iterator `i in range` (range NULL when omitted: `for i loop`, deduced from use). */
typedef struct st_ast_iter {
  st_loc loc;
  const char *name;
  st_ast_expr *range;
  struct st_ast_iter *next;
} st_ast_iter;

/* A function-call argument: positional (name NULL) or named `name = value`. The value of
 * a function-partial-application argument is an AX_PARTIAL expression. */
typedef struct st_ast_fnarg {
  st_loc loc;
  const char *name;
  st_ast_expr *value;
  struct st_ast_fnarg *next;
} st_ast_fnarg;

typedef enum st_ast_expr_kind {
  AX_INTEGER,   /* UNSIGNED-NUMBER without fraction/exponent: u.num */
  AX_REAL,      /* UNSIGNED-NUMBER with '.' or exponent: u.num */
  AX_STRING,    /* u.string (decoded) */
  AX_BOOL,      /* u.boolean */
  AX_CREF,      /* u.cref */
  AX_CALL,      /* u.call: f(args), also der(x), initial(), pure(e), and the reduction
                   form sum(e for i in r) (iters != NULL, args = the one expression e) */
  AX_PARTIAL,   /* u.partial: `function F.g(a = 1)` as a function argument */
  AX_BINARY,    /* u.binary */
  AX_UNARY,     /* u.unary (op is AOP_NEG .. AOP_NOT; lhs unused) */
  AX_IF,        /* u.ifexp: if c then a elseif c2 then b else d == nested AX_IF in els */
  AX_RANGE,     /* u.range: start:stop or start:step:stop (step NULL when absent) */
  AX_ARRAY,     /* u.array: {a, b, c}, or a comprehension {e for i in r} (iters != NULL,
                   elems = the one expression e) */
  AX_MATRIX,    /* u.matrix: [a, b; c, d]: rows is a list of AX_ARRAY nodes, one per row */
  AX_TUPLE,     /* u.tuple: parenthesised output-expression-list with a comma `(a, , b)`
                   or `()`; omitted slots are AX_EMPTY. `(a)` is just a. */
  AX_EMPTY,     /* an omitted slot of a tuple */
  AX_END,       /* `end` inside subscripts */
  AX_COLON      /* `:` as a subscript */
} st_ast_expr_kind;

struct st_ast_expr {
  st_ast_expr_kind kind;
  st_loc loc;
  int height;            /* levels of the tree below and with this node (a leaf: 1); the
                            parser refuses trees higher than st_expr_depth_limit() */
  st_ast_expr *next;     /* next in the enclosing list (subscripts, array elements, ...) */
  union {
    struct {
      const char *text;  /* the literal as written, e.g. "1e-3", "007" */
      double real;       /* its value (also for AX_INTEGER) */
      long long integer; /* AX_INTEGER: its value (saturated at LLONG_MAX) */
    } num;
    const char *string;
    bool boolean;
    st_ast_cref *cref;
    struct {
      st_ast_cref *fn;   /* function name; "der", "initial", "pure" for those keywords */
      st_ast_fnarg *args;
      st_ast_iter *iters;
    } call;
    struct {
      st_ast_name *fn;
      st_ast_fnarg *args; /* named arguments only */
    } partial;
    struct {
      st_ast_op op;
      st_ast_expr *lhs, *rhs;
    } binary;
    struct {
      st_ast_op op;
      st_ast_expr *arg;
    } unary;
    struct {
      st_ast_expr *cond, *then, *els;
    } ifexp;
    struct {
      st_ast_expr *start, *step, *stop;
    } range;
    struct {
      st_ast_expr *elems;
      int nelems;
      st_ast_iter *iters;
    } array;
    struct {
      st_ast_expr *rows;
      int nrows;
    } matrix;
    struct {
      st_ast_expr *elems;
      int nelems;
    } tuple;
  } u;
};

/* -------------------------------------------------------------------- modifications */

/* A modification: an optional class modification `(args)` and an optional value
 * `= expr` / `:= expr` / `= break`. Used for component and extends modifiers, short class
 * modifiers and annotations. */
struct st_ast_mod {
  st_loc loc;
  bool has_args;         /* `(...)` present (possibly empty) */
  st_ast_arg *args;
  st_ast_expr *value;    /* NULL if no `=` part, or for `= break` */
  bool assign;           /* written `:=` */
  bool is_break;         /* `= break` (3.6: remove the binding) */
};

typedef enum st_ast_arg_kind {
  AA_MODIFY,        /* [each] [final] name [mod] ["description"] */
  AA_REDECLARE,     /* redeclare [each] [final] element (element->redeclare is set; it
                       may also be replaceable, with a constraining clause) */
  AA_REPLACEABLE,   /* [each] [final] replaceable element [constrainedby ...] */
  AA_BREAK,         /* `break name` in an extends modification (3.6) */
  AA_BREAK_CONNECT  /* `break connect(a, b)` in an extends modification (3.6) */
} st_ast_arg_kind;

/* One argument of a class modification. */
struct st_ast_arg {
  st_ast_arg_kind kind;
  st_loc loc;
  bool each, final;
  st_ast_name *name;       /* AA_MODIFY: the dotted name; AA_BREAK: a one-part name */
  st_ast_mod *mod;         /* AA_MODIFY: NULL when only the name is given */
  const char *description; /* AA_MODIFY */
  st_ast_element *element; /* AA_REDECLARE / AA_REPLACEABLE: one AEL_COMPONENT or AEL_CLASS
                              (a short class definition) with its prefixes */
  st_ast_cref *connect_a, *connect_b; /* AA_BREAK_CONNECT */
  st_ast_arg *next;
};

/* ------------------------------------------------------------------------- elements */

typedef enum st_ast_flow { AF_NONE, AF_FLOW, AF_STREAM } st_ast_flow;
typedef enum st_ast_variability {
  AV_CONTINUOUS, AV_DISCRETE, AV_PARAMETER, AV_CONSTANT /* AV_CONTINUOUS = no prefix */
} st_ast_variability;
typedef enum st_ast_causality { AC_NONE, AC_INPUT, AC_OUTPUT } st_ast_causality;

/* type-prefix: flow/stream, discrete/parameter/constant, input/output. */
typedef struct st_ast_type_prefix {
  st_ast_flow flow;
  st_ast_variability variability;
  st_ast_causality causality;
} st_ast_type_prefix;

typedef enum st_ast_import_kind {
  AI_QUALIFIED,  /* import A.B.C;        name = A.B.C, alias = NULL */
  AI_RENAMING,   /* import D = A.B.C;    name = A.B.C, alias = "D" */
  AI_WILDCARD,   /* import A.B.*;        name = A.B */
  AI_MULTIPLE    /* import A.B.{x, y};   name = A.B, idents = x, y */
} st_ast_import_kind;

typedef struct st_ast_ident_list {
  st_loc loc;
  const char *name;
  struct st_ast_ident_list *next;
} st_ast_ident_list;

/* `constrainedby Name(mod) "description" annotation(...)` */
typedef struct st_ast_constraint {
  st_loc loc;
  st_ast_name *name;
  st_ast_mod *mod;         /* NULL if none */
  const char *description;
  st_ast_mod *annotation;
} st_ast_constraint;

typedef enum st_ast_element_kind {
  AEL_IMPORT,     /* u.import */
  AEL_EXTENDS,    /* u.extends */
  AEL_COMPONENT,  /* u.comp: ONE declared component; `Real x, y;` gives two elements that
                     share type, prefixes and constraining clause */
  AEL_CLASS       /* u.cls: a nested class definition */
} st_ast_element_kind;

struct st_ast_element {
  st_ast_element_kind kind;
  st_loc loc;              /* first token of the element (its first prefix if any) */
  bool is_protected;       /* in a `protected` section */
  /* element prefixes (meaningless for imports) */
  bool redeclare, final, inner, outer, replaceable;
  st_ast_constraint *constraint; /* replaceable ... constrainedby ...; NULL if none */
  const char *description; /* imports, extends: NULL; components, classes: their comment */
  st_ast_mod *annotation;  /* annotation clause of the element, NULL if none */
  union {
    struct {
      st_ast_import_kind kind;
      st_ast_name *name;
      const char *alias;
      st_ast_ident_list *idents;
    } import;
    struct {
      st_ast_name *name;
      st_ast_mod *mod;     /* class-or-inheritance-modification (args only), or NULL */
    } extends;
    struct {
      st_ast_type_prefix prefix;
      st_ast_name *type;
      st_ast_expr *type_subs;  /* `Real[3] x`: subscripts on the type, NULL if none */
      int ntype_subs;
      st_loc name_loc;         /* of the declared identifier */
      const char *name;
      st_ast_expr *subs;       /* `Real x[3]`: subscripts on the declaration */
      int nsubs;
      st_ast_mod *mod;         /* NULL if none */
      st_ast_expr *condition;  /* `if cond` (conditional component), NULL if none */
    } comp;
    st_ast_class *cls;
  } u;
  st_ast_element *next;
};

/* ------------------------------------------------------- equations and statements */

/* A branch of if/when (cond NULL for the final else). Exactly one of eqs/stmts is used,
 * depending on whether it belongs to an equation or a statement. */
typedef struct st_ast_branch {
  st_loc loc;
  st_ast_expr *cond;
  st_ast_equation *eqs;
  st_ast_stmt *stmts;
  struct st_ast_branch *next;
} st_ast_branch;

typedef enum st_ast_equation_kind {
  AE_EQUAL,     /* lhs = rhs */
  AE_IF,        /* branches: if, elseif..., optional else (cond NULL) */
  AE_FOR,       /* iters, body */
  AE_CONNECT,   /* connect(a, b) */
  AE_WHEN,      /* branches: when, elsewhen... */
  AE_CALL       /* call (an AX_CALL): assert(...), reinit(...), terminate(...), f(...) */
} st_ast_equation_kind;

struct st_ast_equation {
  st_ast_equation_kind kind;
  st_loc loc;
  st_ast_expr *lhs, *rhs;          /* AE_EQUAL */
  st_ast_branch *branches;         /* AE_IF, AE_WHEN */
  st_ast_iter *iters;              /* AE_FOR */
  st_ast_equation *body;           /* AE_FOR */
  st_ast_cref *connect_a, *connect_b; /* AE_CONNECT */
  st_ast_expr *call;               /* AE_CALL */
  const char *description;
  st_ast_mod *annotation;
  st_ast_equation *next;
};

typedef enum st_ast_stmt_kind {
  AS_ASSIGN,    /* lhs := rhs; lhs is an AX_CREF, or an AX_TUPLE for (a, b) := f(x) */
  AS_CALL,      /* call (an AX_CALL) */
  AS_IF,        /* branches */
  AS_FOR,       /* iters, body */
  AS_WHILE,     /* cond, body */
  AS_WHEN,      /* branches */
  AS_BREAK,
  AS_RETURN
} st_ast_stmt_kind;

struct st_ast_stmt {
  st_ast_stmt_kind kind;
  st_loc loc;
  st_ast_expr *lhs, *rhs;          /* AS_ASSIGN */
  st_ast_expr *call;               /* AS_CALL */
  st_ast_branch *branches;         /* AS_IF, AS_WHEN */
  st_ast_iter *iters;              /* AS_FOR */
  st_ast_expr *cond;               /* AS_WHILE */
  st_ast_stmt *body;               /* AS_FOR, AS_WHILE */
  const char *description;
  st_ast_mod *annotation;
  st_ast_stmt *next;
};

/* An equation or algorithm section, `initial` or not, in source order. */
typedef enum st_ast_section_kind { ASEC_EQUATION, ASEC_ALGORITHM } st_ast_section_kind;

typedef struct st_ast_section {
  st_ast_section_kind kind;
  st_loc loc;
  bool initial;
  st_ast_equation *eqs;            /* ASEC_EQUATION */
  st_ast_stmt *stmts;              /* ASEC_ALGORITHM */
  struct st_ast_section *next;
} st_ast_section;

/* external [language] [[out =] fn(args)] [annotation] ; */
typedef struct st_ast_external {
  st_loc loc;
  const char *language;            /* "C", "FORTRAN 77", ..., NULL if not given */
  const char *fn;                  /* NULL: the default call (same name, same arguments) */
  st_ast_cref *output;             /* `out = fn(...)`, NULL if none */
  st_ast_expr *args;               /* expression list */
  st_ast_mod *annotation;          /* the external clause's own annotation */
} st_ast_external;

/* -------------------------------------------------------------------------- classes */

typedef enum st_ast_class_kind {
  ACK_CLASS, ACK_MODEL, ACK_RECORD, ACK_OPERATOR_RECORD, ACK_BLOCK, ACK_CONNECTOR,
  ACK_EXPANDABLE_CONNECTOR, ACK_TYPE, ACK_PACKAGE, ACK_FUNCTION, ACK_OPERATOR_FUNCTION,
  ACK_OPERATOR
} st_ast_class_kind;

typedef enum st_ast_purity { APURE_DEFAULT, APURE_PURE, APURE_IMPURE } st_ast_purity;

typedef enum st_ast_class_form {
  ACF_LONG,         /* class X "desc" elements/sections end X; */
  ACF_EXTENDS,      /* class extends X(mod) "desc" ... end X;  (extends_mod may be NULL) */
  ACF_SHORT,        /* class X = [prefix] Base[subs](mod) "desc" annotation; */
  ACF_ENUMERATION,  /* type X = enumeration(a "d", b) or enumeration(:) */
  ACF_DER           /* function X = der(F, x, y) */
} st_ast_class_form;

typedef struct st_ast_enum_literal {
  st_loc loc;
  const char *name;
  const char *description;
  st_ast_mod *annotation;
  struct st_ast_enum_literal *next;
} st_ast_enum_literal;

struct st_ast_class {
  st_loc loc;                /* the first token of the definition (its first prefix) */
  st_loc name_loc;
  const char *name;
  st_ast_class_kind kind;
  st_ast_class_form form;
  st_ast_purity purity;      /* functions (and operator functions) only */
  bool partial, encapsulated;
  bool final;                /* `final class ...` at the top of a stored definition; inside
                                a class the element's prefix is in st_ast_element.final */
  const char *description;
  st_ast_mod *annotation;    /* NULL if none */

  /* ACF_LONG and ACF_EXTENDS */
  st_ast_element *elements;  /* all elements, public and protected, in source order */
  st_ast_section *sections;  /* equation/algorithm sections in source order */
  st_ast_external *external; /* NULL if none */
  st_ast_mod *extends_mod;   /* ACF_EXTENDS: class extends X(mod), NULL if none */

  /* ACF_SHORT */
  st_ast_type_prefix base_prefix;
  st_ast_name *base;
  st_ast_expr *base_subs;
  int nbase_subs;
  st_ast_mod *base_mod;      /* NULL if none */

  /* ACF_ENUMERATION */
  st_ast_enum_literal *literals;
  int nliterals;
  bool enum_unspecified;     /* enumeration(:) */

  /* ACF_DER */
  st_ast_name *der_fn;
  st_ast_ident_list *der_wrt;

  st_ast_class *next;        /* next top-level class of a stored definition (only there) */
};

/* A stored definition: one .mo file. */
typedef struct st_ast_stored_def {
  st_loc loc;
  const char *file;          /* the name given to the parser */
  bool has_within;           /* a `within` clause is present */
  st_ast_name *within;       /* NULL for `within;` (top level) or no clause */
  st_ast_class *classes;     /* list through st_ast_class.next, in source order */
  int nclasses;
} st_ast_stored_def;

/* ------------------------------------------------------------------------ functions */

/* Parses a .mo file. Returns its stored definition (in arena), or NULL when the file cannot
 * be read or has syntax errors; all errors are reported to diag as
 * "file:line:col: error: ..." (several per file where the parser can recover). Expressions
 * deeper than the calling thread's stack can walk (util/stack.h) and nesting beyond the
 * parser's stack are errors; running out of memory is one ("out of memory while parsing"). */
st_ast_stored_def *st_parse_file(st_arena *arena, st_diag *diag, const char *path);

/* The same for text in memory; name is used as the file name in locations. The text is
 * copied. */
st_ast_stored_def *st_parse_string(st_arena *arena, st_diag *diag, const char *name,
                                   const char *text);

/* Printers: readable Modelica-like text that re-parses to the same tree (modulo layout,
 * merged annotations and split component lists). For tests and debugging. */
void st_ast_dump(FILE *out, const st_ast_stored_def *sd);
void st_ast_dump_class(FILE *out, const st_ast_class *cls, int indent);
void st_ast_dump_expr(FILE *out, const st_ast_expr *e);
void st_ast_dump_mod(FILE *out, const st_ast_mod *m);

/* The text of an expression as the printer writes it, in arena (for messages). */
const char *st_ast_expr_text(st_arena *arena, const st_ast_expr *e);
/* The text of a component reference, e.g. "a.b[1].c", in arena. */
const char *st_ast_cref_text(st_arena *arena, const st_ast_cref *cr);

const char *st_ast_class_kind_name(st_ast_class_kind kind); /* "model", "operator record" */

#endif
