/* Compiled expressions: a stack machine over one flat array of doubles.
 *
 * Why bytecode: the right-hand side is evaluated tens of thousands of times per run, so the
 * hot path must not walk st_fexpr trees (pointer chasing, switch on node kinds, recursion).
 * A program is a short array of instructions; values live in the model's slot array x[]
 * (every variable, parameter and derivative has a slot), pre-values in pre[], relation
 * truth values in rel[].
 *
 * Two interpreters share the programs: st_vm_eval() computes the value, st_vm_eval_dual()
 * also the forward-mode derivative along the tangent xd[] (one directional derivative per
 * pass: a Jacobian column for Newton). */
#ifndef ST_EXEC_BYTECODE_H
#define ST_EXEC_BYTECODE_H

#include <math.h>

#include "front/flat.h" /* FOP_LT .. FOP_NE */
#include "func/builtin.h" /* st_fn1, st_fn2, st_compare */

typedef enum st_opcode {
  OP_CONST, OP_LOAD, OP_PRE, OP_TIME,
  OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_POW, OP_NEG,
  OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE,
  OP_AND, OP_OR, OP_NOT,
  OP_REL,       /* relation arg: pops b, a; frozen or live (event mode) truth value */
  OP_JZ,        /* pops c; jumps to arg when c == 0 */
  OP_JMP,
  OP_FN1,       /* arg: st_builtin with one argument */
  OP_FN2,       /* arg: st_builtin with two arguments (atan2, min, max, mod, rem, div) */
  OP_EDGE, OP_CHANGE, /* arg: slot */
  OP_INITIAL, OP_TERMINAL,
  OP_LAMBDA,    /* homotopy()'s lambda: 1 (the actual expression) except while init.c walks
                   the initial solution from the simplified expressions */
  OP_SAMPLE,    /* pops interval, start */
  OP_CALL,      /* arg: user function call site in vm->calls; pops its argument elements */
  OP_DELAY,     /* arg: history in vm->delays; pops bound, delayTime, expr (delay.h) */
  /* superinstructions (peephole.c): top op= x[arg], top op= k */
  OP_ADDX, OP_SUBX, OP_MULX, OP_DIVX,
  OP_ADDK, OP_SUBK, OP_MULK, OP_DIVK,
  /* tapes (tape.c), value interpreter only: pop into x[arg] / out[arg] */
  OP_STORE, OP_OSTORE,
  OP_COUNT      /* not an opcode: the number of them (st_vm_eval's dispatch table) */
} st_opcode;

typedef struct st_ins {
  int op;
  int arg;
  double k;     /* OP_CONST */
} st_ins;

typedef struct st_prog {
  st_ins *code;
  int n, cap;
  int depth, maxdepth; /* stack depth while building, and its maximum */
} st_prog;

/* Relation kinds of OP_REL (see st_relation in model_impl.h). */
typedef struct st_vm_rel {
  int op;           /* FOP_LT .. FOP_GE */
  int time_right;   /* time relation: evaluate as the right limit at an event instant */
  int tie_keep;     /* Real operands: a tie at an event keeps the previous value (bytecode.c) */
} st_vm_rel;

typedef struct st_vm {
  double *x, *pre, *xd;
  double *rel;            /* frozen relation values (0/1) */
  unsigned char *active;  /* set for each relation evaluated in event mode (NULL: none kept) */
  signed char *crossed;   /* per relation, at a state event: +1/-1 its indicator crossed to
                             true/false (event_pass.c), else 0; NULL: none */
  double *gap;            /* per relation: its indicator's hysteresis when a crossing forced it
                             against its operands (bytecode.c relation), else 0; NULL: none */
  const st_vm_rel *rels;
  double time;
  int event_mode;         /* relations are evaluated and stored, not read */
  int left_limit;         /* with event_mode: relations held, sample() false (the left limit
                             of an event instant, solve.c st_discrete_left_limits) */
  double event_done_t;    /* the last instant whose event passes ran (delay() right limits) */
  double prev_event_t;    /* the instant of the event before the current one (sample()) */
  int initial, terminal;
  double lambda;          /* OP_LAMBDA: 1, or a step of init.c's homotopy path */
  double *stack, *dstack; /* sized for the deepest program */
  struct st_fcalls *calls; /* user function call sites (func_calls.h), NULL when none */
  double *out;            /* OP_OSTORE's target (tape.c) */
  struct st_delays *delays; /* histories of delay() (delay.h), NULL when none */
} st_vm;

/* Building. Returns 0, or -1 when out of memory. */
int st_prog_emit(st_prog *p, int op, int arg, double k);
void st_prog_free(st_prog *p);
/* Index of the next instruction (jump targets). */
static inline int st_prog_here(const st_prog *p) { return p->n; }

/* Whether a time threshold T counts as reached at the event instant t: not later than a few
 * units of rounding (two thresholds meant to coincide, 1e-9 and -2e-8 + 2.1e-8, differ by
 * one). Such a T is no time event of its own (event_pass.c st_next_time_event), so a time
 * relation on it takes its right limit at t (relation()). */
static inline int st_time_reached(double t, double T) {
  return T <= t + fabs(t) * 1e-15 + 1e-300;
}

/* Fuses operand loads into the following arithmetic (peephole.c); 0 or -1 (memory). */
int st_prog_fuse(st_prog *p);

double st_vm_eval(st_vm *vm, const st_prog *p);
/* Value in the return, derivative along xd in *dot. */
double st_vm_eval_dual(st_vm *vm, const st_prog *p, double *dot);

#endif
