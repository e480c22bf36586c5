/*
 * The flat model: what the front end hands to the equation compiler.
 *
 * Everything is scalar: arrays of components and variables have been expanded, connections
 * turned into equations, modifiers merged into bindings and attributes, conditional
 * components decided. Every variable and equation keeps the source location it came from,
 * so that the compiler can report structural errors against the user's text.
 *
 * Memory: a flat model and everything it points to live in one arena (st_flat_model.arena);
 * st_flat_free() releases it all.
 *
 * Expressions are trees of st_fexpr. A variable reference is an index into vars[]. Inside a
 * function body a reference is an index into that function's locals (FX_LOCAL).
 */
#ifndef ST_FRONT_FLAT_H
#define ST_FRONT_FLAT_H

#include "util/arena.h"
#include "util/diag.h"

#include <stdio.h>

typedef enum st_ftype {
  ST_T_REAL, ST_T_INTEGER, ST_T_BOOLEAN, ST_T_STRING, ST_T_ENUM,
  ST_T_CLOCK  /* synchronous clocks (Modelica 3.6 chapter 16); compile/clocks.c removes them */
} st_ftype;

typedef enum st_variability {
  ST_V_CONSTANT, ST_V_PARAMETER, ST_V_DISCRETE, ST_V_CONTINUOUS
} st_variability;

typedef enum st_causality { ST_C_NONE, ST_C_INPUT, ST_C_OUTPUT } st_causality;

typedef enum st_state_select {
  ST_SS_NEVER, ST_SS_AVOID, ST_SS_DEFAULT, ST_SS_PREFER, ST_SS_ALWAYS
} st_state_select;

/* Operators of FX_BINARY / FX_UNARY. */
typedef enum st_fop {
  FOP_ADD, FOP_SUB, FOP_MUL, FOP_DIV, FOP_POW,
  FOP_LT, FOP_LE, FOP_GT, FOP_GE, FOP_EQ, FOP_NE,
  FOP_AND, FOP_OR, FOP_NOT, FOP_NEG
} st_fop;

/* Built-in operators and functions (FX_BUILTIN). */
typedef enum st_builtin {
  FB_DER, FB_PRE, FB_EDGE, FB_CHANGE, FB_INITIAL, FB_TERMINAL, FB_NOEVENT, FB_SMOOTH,
  FB_SAMPLE, FB_ABS, FB_SIGN, FB_SQRT, FB_MIN, FB_MAX,
  FB_SIN, FB_COS, FB_TAN, FB_ASIN, FB_ACOS, FB_ATAN, FB_ATAN2,
  FB_SINH, FB_COSH, FB_TANH, FB_EXP, FB_LOG, FB_LOG10,
  FB_FLOOR, FB_CEIL, FB_INTEGER, FB_MOD, FB_REM, FB_DIV,
  FB_HOMOTOPY, FB_SEMILINEAR, FB_DELAY, FB_CARDINALITY,
  /* Synchronous operators (Modelica 3.6 chapter 16), lowered by compile/clocks.c before
   * classification. FB_CLOCK: the constructor, index = its st_clock_form; FB_CSAMPLE:
   * sample(u) and sample(u, clock) (the two-argument sample(start, interval) of Real
   * arguments stays FB_SAMPLE). */
  FB_CLOCK, FB_CSAMPLE, FB_HOLD, FB_PREVIOUS, FB_INTERVAL, FB_FIRSTTICK, FB_SUBSAMPLE,
  FB_SUPERSAMPLE, FB_SHIFTSAMPLE, FB_BACKSAMPLE, FB_NOCLOCK,
  FB_SIZE,     /* size(a, d) inside function bodies (in models the front end folds it) */
  /* The array functions inside function bodies (in models the front end expands them,
   * src/front/arrays.c); run by the function machine (src/func). Keep them after FB_SIZE. */
  FB_ZEROS, FB_ONES, FB_FILL, FB_SUM, FB_PRODUCT, FB_AMIN, FB_AMAX, FB_NDIMS, FB_SIZES,
  FB_TRANSPOSE, FB_IDENTITY, FB_DIAGONAL, FB_LINSPACE, FB_VECTOR, FB_SCALAR, FB_MATRIX,
  FB_CROSS, FB_CAT,
  FB_COMPREHENSION, /* {args[0] for locals[index] in args[1]} in a function body */
  /* State machines (Modelica 3.6 chapter 17), lowered by compile/statemachine.c: a state is
   * an FX_STRING holding its instance path. FB_TRANSITION(from, to, condition, immediate,
   * reset, synchronize, priority) and FB_INITIALSTATE(state) are the rhs of FE_CALL
   * equations; ticksInState() and timeInState() carry the path of the instance they are
   * written in. */
  FB_TRANSITION, FB_INITIALSTATE, FB_ACTIVESTATE, FB_TICKSINSTATE, FB_TIMEINSTATE,
  /* String(x, significantDigits, minimumLength, leftJustified, format) with every argument
   * given (format an FX_STRING, "" for none); index: the st_strfmt_kind of x. Built where x
   * is not a constant: in function bodies (the function machine) and assert messages. */
  FB_STRING,
  FB_COUNT_
} st_builtin;

/* The forms of the Clock constructor (FX_BUILTIN FB_CLOCK, in index). */
typedef enum st_clock_form {
  CLK_INFERRED,   /* Clock() */
  CLK_RATIONAL,   /* Clock(intervalCounter, resolution): args[0]/args[1] seconds */
  CLK_REAL,       /* Clock(interval) */
  CLK_EVENT,      /* Clock(condition[, startInterval]) */
  CLK_SOLVER      /* Clock(c, solverMethod): args[0] the clock, str the method */
} st_clock_form;

typedef enum st_fexpr_kind {
  FX_REAL,        /* constant number (also Integer literals, as double) */
  FX_BOOL,        /* constant true/false in value (0/1) */
  FX_STRING,      /* constant string in str */
  FX_ENUM,        /* enumeration literal: value = ordinal (1-based), str = literal name */
  FX_VAR,         /* model variable vars[index] */
  FX_LOCAL,       /* function local/argument locals[index] (function bodies only) */
  FX_TIME,        /* the built-in variable time */
  FX_BINARY,      /* op, args[0], args[1] */
  FX_UNARY,       /* op, args[0] */
  FX_BUILTIN,     /* builtin, args[0..nargs) */
  FX_CALL,        /* user function functions[index], args; for a function with several
                     outputs used in a tuple equation, see FE_TUPLE */
  FX_IF,          /* args[0] ? args[1] : args[2] (elseif chains are nested) */
  FX_ARRAY,       /* {args...} (function bodies and function arguments only) */
  FX_INDEX,       /* args[0][args[1], ...] (function bodies only; 1-based) */
  FX_RANGE,       /* args[0]:args[1] or args[0]:args[1]:args[2] (for-loops in functions) */
  FX_END,         /* 'end' inside a subscript (function bodies only) */
  FX_CALL_DER     /* the time derivative of a call that has no derivative annotation, made
                     by index reduction (never in a saved flat model): the directional
                     derivative of functions[index] (output op, element value, as FX_CALL)
                     at args[0..nargs/2) along args[nargs/2..nargs), the arguments' time
                     derivatives of the same shapes; forward mode through the body. The
                     first half is itself such a derivative's arguments when nargs is 4 (8,
                     ...) times the function's inputs: a second (third, ...) derivative */
} st_fexpr_kind;

typedef struct st_fexpr {
  st_fexpr_kind kind;
  int op;                  /* st_fop or st_builtin */
  int index;               /* variable, local or function index */
  int nargs;
  struct st_fexpr **args;
  double value;
  const char *str;
  st_loc loc;
} st_fexpr;

typedef struct st_fvar {
  const char *name;        /* full Modelica name, e.g. "clutch1.w_rel", "J[2].phi" */
  const char *description; /* or NULL */
  st_ftype type;
  const char *enum_type;   /* enumeration type name for ST_T_ENUM (literal names in enum_literals) */
  const char **enum_literals;
  int n_enum_literals;
  st_variability variability;
  st_causality causality;
  unsigned is_flow : 1;
  unsigned is_stream : 1;  /* a stream variable of a connector (section 15) */
  unsigned is_protected : 1;
  unsigned is_final : 1;
  unsigned evaluate : 1;   /* annotation(Evaluate=true) */
  unsigned is_state_der : 1; /* set by the compiler, not the front end */
  st_fexpr *binding;       /* declaration equation `= expr` (parameters: their value) */
  st_fexpr *start;         /* start attribute or NULL */
  int fixed;               /* -1 unset (default by variability), 0 false, 1 true */
  st_fexpr *fixed_expr;    /* when fixed is given by a non-literal expression */
  st_fexpr *nominal, *min, *max;
  st_state_select state_select;
  const char *unit, *display_unit;
  st_loc loc;              /* the declaration */
} st_fvar;

/* Equations. */
typedef enum st_feq_kind {
  FE_EQUAL,      /* lhs = rhs */
  FE_TUPLE,      /* (outs...) = f(args): tuple[] are FX_VAR or NULL for skipped outputs */
  FE_IF,         /* if conds[0] then branches[0] elseif ... else branches[nconds] */
  FE_WHEN,       /* when conds[0] then branches[0] elsewhen conds[1] then branches[1] ... */
  FE_REINIT,     /* reinit(lhs (FX_VAR), rhs) — only inside FE_WHEN */
  FE_ASSERT,     /* assert(rhs (condition), message (str or expr), level) */
  FE_TERMINATE,  /* terminate(message) */
  FE_CALL        /* a function call used as an equation for its side effects */
} st_feq_kind;

typedef struct st_feq st_feq;

typedef struct st_feq_list {
  st_feq **items;
  int n;
} st_feq_list;

struct st_feq {
  st_feq_kind kind;
  st_fexpr *lhs, *rhs;
  st_fexpr **tuple;        /* FE_TUPLE */
  int ntuple;
  st_fexpr **conds;        /* FE_IF / FE_WHEN */
  int nconds;
  st_feq_list *branches;   /* FE_IF: nconds + 1 (last is else, may be empty); FE_WHEN: nconds */
  st_fexpr *message;       /* FE_ASSERT / FE_TERMINATE */
  int level;               /* FE_ASSERT: 0 error, 1 warning */
  const char *origin;      /* instance path of the component that contributed it, "" for top */
  /* FE_WHEN made by compile/clocks.c from a clock: 1 + its order among simultaneous ticks
   * (a partition that reads another's fresh values latches after it), 0 otherwise;
   * clock_at_start: it fires at the initial event when its tick is then. */
  int clock_rank, clock_at_start;
#define ST_ORIGIN_RISE_COUNTER "$eventclock" /* origin of clocks.c's rise counters */
  st_loc loc;
};

/* Algorithm statements (function bodies and model algorithm sections). */
typedef enum st_fstmt_kind {
  FS_ASSIGN,     /* target := value; target is FX_VAR, FX_LOCAL or FX_INDEX */
  FS_TUPLE,      /* (targets...) := f(args) */
  FS_IF, FS_FOR, FS_WHILE, FS_WHEN,
  FS_REINIT, FS_ASSERT, FS_TERMINATE, FS_BREAK, FS_RETURN, FS_CALL
} st_fstmt_kind;

typedef struct st_fstmt st_fstmt;
typedef struct st_fstmt_list {
  st_fstmt **items;
  int n;
} st_fstmt_list;

struct st_fstmt {
  st_fstmt_kind kind;
  st_fexpr *target, *value;
  st_fexpr **targets;      /* FS_TUPLE */
  int ntargets;
  st_fexpr **conds;        /* FS_IF / FS_WHEN / FS_WHILE (one) */
  int nconds;
  st_fstmt_list *branches; /* as for equations; FS_FOR/FS_WHILE: branches[0] is the body */
  int loop_local;          /* FS_FOR: the iteration variable (a local) */
  st_fexpr *range;         /* FS_FOR: FX_RANGE or FX_ARRAY */
  st_fexpr *message;
  int level;
  st_loc loc;
};

/* A function local: input, output or protected variable of a function. */
typedef struct st_flocal {
  const char *name;
  st_ftype type;
  st_causality causality;  /* ST_C_INPUT, ST_C_OUTPUT, or ST_C_NONE (protected) */
  int ndims;               /* 0 scalar; dims[i] = -1 for ':' (size from the argument) */
  int dims[4];
  st_fexpr *size[4];       /* the declared size expressions (NULL for ':'): where dims[i] is
                              -1 they are evaluated at the call (table[nTable, 2]) */
  st_fexpr *binding;       /* default value or NULL */
  int is_object;           /* an external object (type ST_T_INTEGER: the instance's handle) */
  const char *record;      /* a leaf of a record component: that component's record class */
  int record_ndims;        /* a leaf of an array of records (Complex u[m]: "u.re"): the leading
                              dimensions that are the array's */
  st_loc loc;
} st_flocal;

/* The external clause of a function written in C (Modelica 3.6 section 12.9) that stiction
 * does not provide itself: compile/extlib.c builds and loads its code, compile/extcall.c
 * calls it. Directories are absolute (modelica:// resolved while flattening). */
typedef struct st_fexternal {
  const char *language;     /* "C" (the default), "builtin", ... */
  st_fexpr **args;          /* the explicit call's arguments in the function's scope
                               (FX_LOCAL, size(), literals); NULL with nargs -1: the default
                               call, every input then every output in declaration order */
  int nargs;
  int output;               /* the local assigned the C return value, -1: none (void) */
  const char **includes;    /* Include annotation texts */
  int nincludes;
  const char **libraries;   /* Library annotation names */
  int nlibraries;
  const char *include_dir;  /* IncludeDirectory, default <library>/Resources/Include */
  const char *library_dir;  /* LibraryDirectory, default <library>/Resources/Library */
  const char *sources_dir;  /* <library>/Resources/C-Sources (may not exist) */
  int destructor;           /* the constructor of an external object: 1 + the index of its
                               class's destructor, else 0 */
  st_loc loc;
} st_fexternal;

typedef struct st_ffunction {
  const char *name;        /* full class name, e.g. "Modelica.Math.Vectors.interpolate" */
  st_flocal *locals;
  int nlocals;
  st_fstmt_list body;
  const char *external_name; /* external "C" function name, or NULL for a Modelica body */
  /* The external call's arguments as indices of locals (inputs by name, in the order the
   * clause writes them; doc/library.md, external functions): -1 when the clause has no
   * call (the inputs in declaration order), -2 when an argument is not a plain input name
   * (an expression, size(...), an output): such a function cannot be bound. */
  int external_nargs;
  const int *external_args;
  const st_fexternal *ext;  /* the clause for a C function to load, NULL otherwise */
  int is_impure;
  st_loc loc;
  /* annotation(derivative = f_der) of order 1 (Modelica 3.6 section 12.7.1): 1 + the index
   * of f_der, 0 when none. f_der takes the inputs, then the derivatives of the Real inputs
   * that have_derivative marks (not in noDerivative/zeroDerivative), in order; its outputs are
   * the derivatives of the outputs. have_derivative: per local, NULL when derivative == 0. */
  int derivative;
  const unsigned char *has_derivative;
  st_loc derivative_loc;
} st_ffunction;

typedef struct st_experiment {
  int has_start, has_stop, has_interval, has_tolerance;
  double start_time, stop_time, interval, tolerance;
} st_experiment;

typedef struct st_flat_model {
  st_arena *arena;
  const char *name;        /* the class that was flattened */
  st_fvar *vars;
  int nvars;
  st_feq_list equations;
  st_feq_list initial_equations;
  st_fstmt_list *algorithms;        /* model algorithm sections, one list each */
  int nalgorithms;
  st_fstmt_list *initial_algorithms;
  int ninitial_algorithms;
  st_ffunction *functions;
  int nfunctions;
  st_experiment experiment;
  st_loc loc;
  st_fvar *heap_vars;      /* vars when they are the flattener's own heap array (freed by
                              st_flat_free), else NULL: vars in the arena */
} st_flat_model;

void st_flat_free(st_flat_model *model);

/* Prints the flat model as readable Modelica-like text (what `stiction flatten` shows),
 * ending with the line "N unknowns, M equations". */
void st_flat_print(const st_flat_model *model, FILE *out);

/* The balance of the model: unknowns are discrete and continuous variables (not parameters,
 * constants or top-level inputs); equations are scalar equations (an if-equation counts as
 * one branch, a when-equation as the variables its first branch assigns, an algorithm as the
 * variables it assigns, a declaration equation of a non-parameter as one). */
int st_flat_count_unknowns(const st_flat_model *model);
int st_flat_count_equations(const st_flat_model *model);

/* "der", "pre", ... for an st_builtin. */
const char *st_builtin_name(st_builtin builtin);
/* *v as a variable the compiler adds (clock latches, state-machine state): protected (not
 * recorded under its `$` name), fixed and stateSelect by default, nothing else set. */
void st_fvar_hidden(st_fvar *v, const char *name, st_ftype type, st_variability variability,
                    st_fexpr *start, st_loc loc);

#endif
