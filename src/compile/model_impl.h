/* Internal representation of a compiled model (user_data of its stiction_model). */
#ifndef ST_COMPILE_MODEL_IMPL_H
#define ST_COMPILE_MODEL_IMPL_H

#include <stdint.h>

#include "exec/bytecode.h"
#include "compile/compile.h"
#include "compile/func_calls.h"
#include "front/flat.h"
#include "util/arena.h"
#include "util/diag.h"

/* What a slot of x[] holds. */
typedef enum st_kind {
  K_PARAM,     /* parameter or constant: set before simulating */
  K_INPUT,     /* top-level input without equation: held at its start value */
  K_STATE,     /* a variable whose der() appears: integrated */
  K_DER,       /* der(state): continuous unknown */
  K_ALG,       /* continuous algebraic unknown */
  K_DISCRETE,  /* Boolean/Integer/discrete Real defined by an equation (changes at events) */
  K_WHEN,      /* discrete variable assigned in when-equations (held between) */
  K_ALIAS,     /* eliminated: equals sign * x[alias_of] (alias.c) */
  K_CONST,     /* eliminated by v = parameter expression: computed with the parameters */
  K_IGNORED    /* String variables */
} st_kind;

typedef struct st_slot {
  const char *name;
  st_kind kind;
  int flat;           /* flat variable index, -1 for derivative slots */
  int state;          /* state index for K_STATE/K_DER, else -1 */
  int der;            /* K_STATE: slot of its derivative */
  int alias_of;       /* K_ALIAS */
  int fixed;          /* fixed = true start (combined over aliases by alias.c) */
  double alias_sign;
  int is_bool;
  int recorded;
  st_loc loc;
} st_slot;

/* A scalar equation of the continuous/discrete system: residual lhs - rhs = 0, or an
 * assignment of a discrete variable (target >= 0). */
typedef struct st_ceq {
  st_fexpr *lhs, *rhs;
  int target;         /* discrete slot assigned by this equation, or -1 */
  st_loc loc;
  const char *origin;
  int differentiated; /* times differentiated by index reduction */
  int algorithm;      /* 1 + the algorithm section whose output `target` is (its incidence is
                         rhs; never emitted), 0 for other equations */
} st_ceq;

typedef enum st_block_kind { BK_ASSIGN, BK_SOLVE, BK_DISCRETE, BK_MIXED, BK_ALGORITHM } st_block_kind;

/* The cached LU factors of a linear block with frozen coefficients (blocks.c, solve.c),
 * valid while st_block.gen == cm->gen: n*n factors and their pivots (util/dense_lu.h), and
 * their nonzeros (solve.c sparse_factors). Only such blocks have them (st_block.fac). */
typedef struct st_factors {
  double *lu;
  int64_t *lupiv;
  int *sp_start, *sp_idx; /* nonzeros of the cached factors (solve.c sparse_factors) */
  double *sp_val;
  double *sp_diag;        /* U(k,k), or its reciprocal where sp_recip[k] (exact: a power of 2) */
  unsigned char *sp_recip;
  int *sp_perm;           /* all row swaps of the factors as one gather: b[k] <- b[sp_perm[k]] */
} st_factors;

/* A block of the BLT order. Most blocks of a large model are one-unknown assignments, which
 * use only the first fields up to hot_assign: the flags are bytes and the factors a pointer,
 * so that each block is small (doc/perf-log.md, issue 18; test_compile block_size). */
typedef struct st_block {
  st_block_kind kind;
  int n;              /* real unknowns and their equations */
  int *slots, *eqs;
  st_prog assign;     /* BK_ASSIGN: value of slots[0] */
  const st_prog *hot_assign, *hot_res; /* between events: specialized (specialize.c) */
  unsigned char linear;   /* BK_SOLVE / mixed real part: one Newton step is exact */
  unsigned char samples;  /* BK_DISCRETE: a dexpr calls sample() (st_discrete_left_limits) */
  unsigned char solved_explicitly;
  unsigned char varying;  /* its real unknowns change between events (else: event passes only) */
  unsigned char sparse_decided; /* sparse was considered (lazily, at the first solve) */
  unsigned char const_jac; /* linear with coefficients frozen between events: LU is reused */
  unsigned char joint;    /* nonlinear, failed at the initial start point: solved jointly with
                           * the initial system (init.c solve_joint) */
  unsigned char pinned;   /* see pin */
  int dae_off;        /* DAE form: index of its first unknown among the algebraic ones, or -1 */
  int alg;            /* BK_ALGORITHM: the section (algorithm.c) */
  int nd;             /* discrete assignments (BK_DISCRETE, BK_MIXED) */
  int *dslots, *deqs;
  st_prog *dexpr;
  st_prog *res;       /* n residual programs (BK_SOLVE, BK_MIXED) */
  int *jac_start, *jac_rows; /* column j of the Jacobian: residuals mentioning slots[j] */
  unsigned char *compared; /* BK_MIXED: real unknowns its discrete equations compare, or NULL
                              (the metric of a singular real part, solve.c singular_step) */
  struct st_sparse_block *sparse; /* KLU state when large and sparse (sparse_block.h) */
  st_factors *fac;    /* const_jac: the cached factors, else NULL */
  long gen;
  /* Torn nonlinear BK_SOLVE (tearing.c), else ntear = 0: Newton over the unknowns
   * slots[tear[k]] on the residuals res[tear_res[k]], after the assignments
   * slots[seq_var[s]] = seq[s] in order; tear_item[tear_col[k] .. tear_col[k + 1]) lists what
   * the tangent of tear variable k reaches: assignments s >= 0, residuals -1 - k' */
  int ntear, nseq;
  int *tear, *tear_res, *seq_var, *tear_col, *tear_item;
  st_prog *seq;
  /* Nonlinear BK_SOLVE: its last ST_SEEDS solutions (seed[k*n ..]) and their times, a ring
   * with nseed entries ending before seed_head (solve.c seed_from_past); NULL: none kept */
  double *seed, *seed_t;
  int nseed, seed_head;
  /* BK_MIXED with compared unknowns: where a singular real part is pinned (solve.c
   * along_null_line); pinned = 0: its singular steps take the least compared values */
  double *pin;
} st_block;

#define ST_SEEDS 4

typedef struct st_relation {
  int op;             /* FOP_LT .. FOP_GE */
  st_fexpr *a, *b;
  st_prog ind;        /* a - b */
  int time_only;      /* one side is `time`, the other is parameter-only */
  int time_left;      /* time is the left operand */
  st_prog threshold;  /* the parameter side of a time relation */
  int indicator;      /* index among indicators, or -1 */
  int always_active;  /* sits behind a condition that can change between events (noEvent) */
  st_loc loc;
  const st_prog *hot_ind; /* between events: ind specialized (specialize.c) */
} st_relation;

typedef enum st_action_kind { A_ASSIGN, A_REINIT, A_TERMINATE, A_ASSERT, A_CALL } st_action_kind;

/* A message built from values when an assert fails (message.c). */
typedef struct st_message st_message;

/* The text of an assert's or terminate's message m as written (a constant's value), and in
 * *built the parts that build it from the values (NULL: the text is the message). */
const char *st_message_compile(st_compiled *cm, const st_fexpr *m, st_message **built);
/* The message built from the values now (malloc'd; NULL when out of memory). */
char *st_message_eval(st_compiled *cm, const st_message *m);

typedef struct st_action {
  st_action_kind kind;
  int slot;
  st_prog value;
  const char *message;
  st_message *built;  /* A_ASSERT: the message built from values, or NULL */
  int level;          /* A_ASSIGN: evaluated after the lower levels are assigned (event_pass.c) */
  st_loc loc;
} st_action;

typedef struct st_when_branch {
  st_prog cond;
  int has_initial;    /* the condition mentions initial() */
  int nactions;
  st_action *actions;
  int *reads;         /* has_initial: the slots its assignments read (not through pre()) */
  int nreads;
  int early;          /* -1: not assigned ahead at initialization (it reads pre()) */
  int impure;         /* its equations call an impure function: fired once at initialization */
  st_loc loc;
} st_when_branch;

typedef struct st_when {
  int nbranches;
  st_when_branch *branches;
  int wc;             /* index of its first branch's condition value in wc[] */
  int clock_rank;     /* st_feq.clock_rank: clock ticks latch by rank after the others */
  int clock_at_start; /* st_feq.clock_at_start: ticks at the start time in st_initialize */
  int clock_tick;     /* a clocked partition's tick (not an event clock's rise counter) */
} st_when;

typedef struct st_assert {
  st_prog cond;
  const char *message;
  st_message *built;  /* the message built from values, or NULL */
  int level;  /* 0 error, 1 warning (flat.h) */
  int warned; /* level warning: reported since the condition last held */
  st_loc loc;
} st_assert;

typedef struct st_sample {
  st_prog start, interval;
  /* den > 0: start = snum/den and interval = inum/den exactly (integers below 2^53), the
   * k-th instant is (snum + k inum)/den rounded once: no drift, 0.3 at k = 3 of 1/10 */
  double snum, inum, den;
} st_sample;

typedef struct st_algorithm st_algorithm; /* algorithm.c */

/* A dynamic state set (index.c, exec/dynset.c): a group of equations of one derivative level
 * whose dummy choice depended on the values of nonlinear coefficients, cut to the rows and
 * candidates that choice is among (set_cut). Its free candidates are all dummies; nstate new
 * states s[j] = sum_i A[j][i] var[i] (der(s[j]) = sum_i A[j][i] cand[i]) stand for those not
 * chosen, A a selection held in K_WHEN slots of each instance and changed at an event when
 * the choice degrades. The fixed candidates are dummies whatever the choice: the kept rows
 * need their columns, eliminated first, to measure it. */
typedef struct st_dynset {
  int neq, ncand, nfix, nstate;
  st_fexpr **resid;   /* neq residuals lhs - rhs of the group's equations (index reduction) */
  st_prog *res;       /* ...emitted before alias elimination: they read the slots as written */
  int *cand, *var;    /* ncand free candidate derivative slots, then nfix fixed; the free
                         ones' integrals */
  int *tier;          /* per free candidate: preference class, higher = rather a dummy */
  int *state;         /* nstate set-state slots */
  int *a;             /* A[j][i] at a[j * ncand + i]: K_WHEN slots */
  int *init_sel;      /* per state: the candidate it stands for as compiled */
  int nread, *read;   /* continuous slots the residuals read (synced through aliases) */
  int *colptr, *colrow; /* per column (ncand + nfix): the residuals that read it (CSR) */
} st_dynset;

/* The compiled program: everything translation produces, read-only once st_compile_program
 * returns, shared by every instance (threads included). Each instance holds a copy of this
 * struct (st_instance.p: the same arrays, reached at a fixed offset from the instance, so the
 * evaluator pays no extra indirection). Blocks, relations, asserts, algorithm sections, call
 * sites and delay() histories carry per-run fields (cached factors, hot programs, pins,
 * samples): an instance has its own copies of those, made from the prototype's. */
typedef struct st_program {
  st_arena *arena;
  const st_flat_model *flat;
  struct st_compiled *proto; /* the translator's instance, never run: every instance starts as
                                a copy of it (parameter values, per-run parts in their initial
                                state); owns the originals of the per-run parts */

  int nslots;
  st_slot *slots;
  int nstates;
  int *state_slot;
  int nparams;
  int *param_order;   /* parameters in evaluation order (bindings after their inputs) */
  st_prog *param_prog;/* per flat variable: binding or start (parameters) */
  unsigned char *zero_param; /* per flat variable: a final or Evaluate parameter that was 0
                                at compilation, or an algebraic variable that such zeros
                                make 0 (zeros.c); products with it were dropped (emit.c) */
  double *held_param; /* per flat variable: the value at compilation of a final or Evaluate
                         parameter that decided an if-expression (equations.c), else NaN */
  unsigned char *pinned_param; /* per flat variable: such a parameter that decided the
                                  branch of a parameter's binding when parameters were
                                  ordered (classify.c); held_param takes its value */
  st_prog *start_prog;/* per slot: start value (NULL code = 0) */
  int nstart_prog;    /* entries of start_prog: index reduction adds slots before it grows */
  st_prog *nominal_prog; /* per slot after alias elimination: its nominal attribute, or an
                            alias's (NULL code = none; model.c st_fill_nominals) */
  int nnominal_prog;

  int neqs;
  st_ceq *eqs;

  int nrels, caprels; /* relations (the array is per instance: st_instance.rels) */
  st_vm_rel *vmrels;
  int nind;
  int *ind_rel;

  int nwhens;
  st_when *whens;
  int nwc;
  int nsamples;
  st_sample *samples;
  int ninit;
  st_ceq *init_eqs;
  st_prog *init_res;
  int ninit_checks;   /* initial equations without continuous unknowns: checked (init.c) */
  st_ceq *init_checks;
  st_prog *init_check_res;
  int ninit_params;   /* parameters with fixed = false that the initial system solves for,
                         and those whose binding reads them (its binding an initial equation) */
  int *init_params;
  unsigned char *init_bound; /* per flat variable: a parameter bound to such parameters */
  int ninit_assign;   /* initial equations that set when-assigned variables (init.c) */
  st_ceq *init_assign;
  st_prog *init_assign_prog;
  unsigned char *init_assign_late; /* per init_assign: it reads continuous unknowns, so it is
                                      evaluated again at the solved point (init.c) */

  int ndisc;
  int *disc_slot;
  const char **disc_names;
  const char **state_names;
  const char **ind_names;

  int maxn;            /* unknowns of the largest block (Newton scratch of an instance) */
  int maxdense;        /* order of the largest Jacobian solved by dense LU (build.c) */
  int maxnd;           /* discrete unknowns of the largest mixed or discrete block */
  int *jac_cols, *jac_rows;  /* structure of df/dy, compressed columns (pattern.c), or NULL */
  long jac_sets;             /* integers its dependency sets took (pattern.c): linear in a chain */
  int n_aliases, n_differentiated;
  long n_emitted_again;  /* parameter programs copied from the previous one (st_emit_again) */
  long zero_call_runs;  /* function bodies zeros.c followed for v = f(...) (zero_calls.c:
                           one per function and distinct abstract inputs) */
  int hc_rows;          /* rows the hidden-constraint elimination built (constraints.c) */
  int hc_skipped;       /* times it was skipped: every equation has an unknown of its own */
  int n_alias_eqs;      /* equations removed by alias elimination (one unknown each) */
  int nconsts;         /* K_CONST slots with their programs, in evaluation order (alias.c) */
  int *const_slot;
  st_prog *const_prog;
  int nsync;           /* K_ALIAS slots kept up to date in x[] for the programs compiled */
  int *sync_slot;      /* before elimination (when-clauses, asserts) */
  int nhomotopy;       /* homotopy() calls emitted: init.c starts from their simplified forms */
  int ndyn;            /* dynamic state sets (index.c), usually 0 */
  st_dynset *dyn;
  const char **dyn_ind_names; /* indicator names, relations' then one per set */
  int stack_cap;       /* entries of vm.stack and vm.dstack: grown by emit.c to the deepest
                          program (a call pushes every element of its array arguments) */
} st_program;

/* One run of a program: values, parameters, relation and when-condition values, caches,
 * solver scratch, specialization, event state, run-time errors, and the stiction_model table
 * whose user_data it is. st_compiled (compile.h) is the same struct. */
struct st_compiled {
  st_program p;        /* a copy of the program (see st_program) */
  st_arena *iarena;    /* this instance's own allocations */
  st_diag *diag;       /* translation errors (the prototype), run-time errors (an instance) */
  st_program *owned;   /* st_compile's instance owns its program; NULL for others */

  double *x, *pre, *xd;
  double *init_pre;    /* pre() during initialization: the start values (Modelica 3.6 section
                          8.6), as st_initialize set them; initial passes read them (event_pass.c) */
  double *init_view;   /* scratch: pre() of an initial pass, init_pre for the discrete slots */
  st_vm vm;
  st_fcalls *fcalls;  /* user function call sites (func_calls.c), NULL when none */
  struct st_delays *delays; /* histories of delay() (delay.c), NULL when none */
  unsigned char *param_overridden;
  unsigned char *start_set;  /* per slot: start value given (st_instance_set_start), or NULL */
  double *start_value;

  int nblocks;
  st_block *blocks;
  st_relation *rels;
  double *rel, *rel_pre;
  double *wc, *wc_pre;
  double *wc_start;    /* the when-conditions just before the clock ticks at the start time */
  double *start_pre;   /* the values just before those ticks */
  int wc_start_set;    /* wc_start and start_pre hold them: the first pass after the
                          initialization takes them as its pre() (event_pass.c) */
  unsigned char *when_fired; /* per when: a branch fired in this event pass (event_pass.c) */
  unsigned char *init_fired; /* per branch (wc index): an impure branch fired at initialization */
  int nasserts;
  st_assert *asserts;
  int nalgs;
  st_algorithm **algs; /* algorithm sections (algorithm.c) */
  int ninit_algs;
  st_algorithm **init_algs; /* initial algorithm sections, run before the initial system */
  int event_iteration; /* pass number of the current event iteration (initial() handling) */
  double last_event_t; /* time of the last event pass before the terminal pass (NaN: none) */
  int initialized;     /* the initial passes ran, the first pass after them is still to come */
  int pass_ticks;      /* clock ticks of this event pass (stiction_event_info.clock_ticks) */
  int pass_other;      /* other when-clauses fired in this event pass */
  int start_ticks;     /* clock ticks at the start time, not yet reported by a pass */
  unsigned char *pre_read; /* per slot: some program reads its pre() (edge(), change()),
                              made at the first pass that ticked a clock (event_pass.c) */
  unsigned char *plant_in; /* per slot: the plant (varying blocks, indicators) reads it and does
                              not compute it; [nslots]: it reads pre(), calls or delays, so
                              every change counts (event_pass.c plant_changed) */
  /* event_pass.c eval_changed: the slots block k reads, rd_slot[rd_start[k] ..
   * rd_start[k + 1]) (aliases followed to the slot holding the value); rdr_block[rdr_start[s]
   * .. rdr_start[s + 1]): the blocks reading slot s; rd_always[k]: its result is not a
   * function of those alone (a call, a delay); dirty: per block, it reads a slot assigned
   * since the blocks were last evaluated in this pass; block_evals: blocks evaluated in event
   * mode in this pass (stiction_event_info.block_evals) */
  int *rd_start, *rd_slot, *rdr_start, *rdr_block;
  unsigned char *rd_always, *dirty;
  int block_evals;
  /* event_pass.c first_event_eval: per block, its event-mode values may differ from those
   * of a between-events evaluation at the same (t, y) and discrete values (relations, pre(),
   * sample(), calls, any block other than an assignment); made with rd_start */
  unsigned char *ev_sensitive;
  long gen_done;       /* gen at the end of the last event pass (event_pass.c) */
  /* model.c evaluate_quietly: x holds a whole between-events evaluation at vm.time, the
   * states loaded and gen = full_gen (st_load_states clears it); the event pass's left
   * limit at the same point is that evaluation (event_pass.c left_limit) */
  int full_eval;
  long full_gen;
  long dyn_switches;   /* dynamic state set changes in this run (dynset.c) */

  int nout;
  int *out_slot;
  int *out_src;       /* out_slot[i] with its alias chain followed (out_sign[i] * x[out_src[i]]) */
  double *out_sign;
  const char **out_names;

  /* Newton scratch: vectors sized for the largest block, J (jdim x jdim) for the largest
   * solved by dense LU, grown at a KLU block's singular step (solve.c dense_room) */
  double *J, *r, *dx, *x0;
  int jdim;
  double *term_scale;  /* per residual: |r| + sum |J x| at the Newton iterate (solve.c) */
  double *xsave;       /* a torn block's unknowns before its torn Newton (solve.c) */
  int64_t *piv;
  double *hist;        /* mixed-system history of discrete vectors */

  long gen;            /* bumped at every event pass and start: invalidates cached LUs */
  int specialize;      /* use programs specialized between events (specialize.c; default 1) */
  long spec_gen;       /* gen the hot programs were made for (-1: none yet) */
  long spec_defer_gen; /* gen whose first evaluation ran the programs as compiled */
  int spec_count;      /* programs specialized for it */
  int spec_held;       /* assignments held as constants this interval (specialize.c) */
  long tape_runs;      /* evaluations by a tape (tape.c) */
  long spec_made, spec_kept; /* specializations made, and kept over an event (specialize.c) */
  struct st_spec *spec;
  struct st_tapes *tapes;
  /* partial.c: evaluations near the last full one (difference-quotient Jacobian columns) */
  struct st_partial *partial;
  int partial_off;     /* st_compiled_set_partial(cm, 0): every evaluation is full */
  int partial_decided; /* partial is made, or NULL for good (the model is not eligible) */
  long partial_evals, partial_blocks; /* evaluations done by partial.c, blocks they ran */
  int mixed_iter_max;
  int lenient_mixed;   /* inside an event iteration: a cycling mixed system is not fatal */
  int mixed_unsettled; /* how many mixed systems cycled in this event pass (solve.c) */
  int reported;        /* a run-time error has been reported to diag */
  int init_eval_failed; /* the initial Newton could not evaluate its start point (init.c) */
  const char *alg_terminate; /* a terminate() statement of a model algorithm ran in event
                              * mode: its message, until the event pass hands it on */
  double *joint_r;     /* non-NULL: the nonlinear blocks write their residuals here in block
                        * order instead of solving (init.c solve_joint) */
  int joint_pos;       /* how many of them st_eval_blocks wrote so far */
  int joint_probe;     /* the nonlinear blocks that fail are marked joint, not an error */
  char *error;         /* the last run-time failure (malloc'd, NULL: none); st_set_error */
  st_loc error_loc;    /* where the last run-time failure is located */
  stiction_model model;
  double *nominal;     /* per entry of y: |nominal| or 1 (model.nominal when one is given) */
  int nominal_cap;
  /* DAE form for IDA (dae.c) */
  int dae;             /* the blocks with dae_off >= 0 give residuals instead of solving */
  int nalg;
  int *alg_slot;       /* y[n_states + k] is x[alg_slot[k]] */
  int *dae_jac_cols, *dae_jac_rows; /* structure of the DAE form (pattern.c), or NULL */
  double *dae_r;       /* their residuals, filled by st_eval_blocks */
  const char **dae_names;
  double *dae_save;    /* x[] kept aside while the algebraic slopes are computed */
  double *dae_y1;      /* states moved along their derivatives (dae.c alg_slopes) */
  stiction_model ode;  /* the ODE table, wrapped by the DAE callbacks */
};
typedef struct st_compiled st_instance;

/* emit.c: expressions to bytecode. flags: */
/* The evaluator's stack starts with ST_STACK_MIN entries and grows to what the deepest
 * program needs, up to ST_STACK_MAX (a call with a table of 10^5 elements as argument). */
#define ST_STACK_MIN 1024
#define ST_STACK_MAX (1 << 20)
enum {
  EMIT_NOEVENT = 1,
  EMIT_PLAIN = 2,   /* parameter/start context: no relations */
  EMIT_VOLATILE = 4 /* skipped or not depending on a condition that is not frozen */
};
int st_emit(st_compiled *cm, st_prog *p, const st_fexpr *e, int flags);
/* Into p: prev, emitted for the call prev_e, with a call site of its own for e when e is
 * another output or element of the same call; 1 done, 0 not such a call, -1 error. */
int st_emit_again(st_compiled *cm, st_prog *p, const st_prog *prev, const st_fexpr *prev_e,
                  const st_fexpr *e);
/* Residual lhs - rhs. */
int st_emit_residual(st_compiled *cm, st_prog *p, const st_fexpr *lhs, const st_fexpr *rhs);
/* Slot of a variable reference or der() of one, -1 otherwise. */
int st_ref_slot(const st_compiled *cm, const st_fexpr *e);
/* emit.c: e is a parameter marked in zero_param */
int st_zero_parameter(const st_compiled *cm, const st_fexpr *e);
/* emit.c: fills zero_param from the parameter values just applied */
int st_mark_zero_parameters(st_compiled *cm);
/* init.c: -1 (reported) when a parameter of zero_param is no longer 0, or one of
 * held_param no longer has its value */
int st_zero_parameters_hold(st_compiled *cm);
/* build.c: room for the solutions a nonlinear block keeps (solve.c), from arena a */
int st_own_seeds(st_compiled *cm, st_arena *a, st_block *b);
/* build.c: room for the cached factors of a linear block of n unknowns (zeroed), or NULL */
st_factors *st_factors_new(st_arena *a, int n);
/* solve.c: forget them (a new run) */
void st_forget_seeds(st_compiled *cm);
/* zeros.c: the terms and algebraic variables zero_param makes 0 become the literal 0 in the
 * equations (after st_collect_equations, before index reduction) */
int st_fold_structural_zeros(st_compiled *cm);
/* zero_calls.c: the call is 0 whatever its arguments that are not final or Evaluate
 * parameters (nor zeros) are, followed through the function body; calls with the same
 * function and inputs (as the analysis sees them) share one run of the body in m */
typedef struct st_zero_memo st_zero_memo;
st_zero_memo *st_zero_memo_new(void);
void st_zero_memo_free(st_zero_memo *m);
long st_zero_memo_runs(const st_zero_memo *m); /* bodies run, not found in m */
int st_call_is_zero(const st_compiled *cm, st_zero_memo *m, const st_fexpr *e);
/* The same with the sign picked up through alias slots (x_alias = -x gives -1). */
int st_resolve_ref(const st_compiled *cm, const st_fexpr *e, double *sign);

/* What an expression depends on. */
enum { DEP_TIME = 1, DEP_CONT = 2, DEP_DISC = 4, DEP_PARAM = 8 };
int st_expr_deps(const st_compiled *cm, const st_fexpr *e);
/* Whether e is noEvent(x) or smooth(p, x): the relations in x make no events. smooth() only
 * says x is continuous (p times differentiable); the specification leaves events inside it
 * to the tool, and an event at a switch the expression does not jump at only costs a restart
 * (MSL Fluid's smooth(0, m_flow/A/d(actualStream(h))) chattered at zero flow). */
int st_quiet_builtin(const st_fexpr *e);
/* Calls fn for every unknown slot (K_DER, K_ALG, K_DISCRETE) referenced, outside pre(). */
void st_expr_unknowns(const st_compiled *cm, const st_fexpr *e,
                      void (*fn)(void *ctx, int slot), void *ctx);

/* symbolic.c */
st_fexpr *st_sym_solve(st_compiled *cm, const st_fexpr *lhs, const st_fexpr *rhs, int slot);
int st_sym_linear(const st_compiled *cm, const st_fexpr *e, const unsigned char *in_block);
int st_sym_frozen_coefficients(const st_compiled *cm, const st_fexpr *e,
                               const unsigned char *in_block);
int st_sym_count(const st_compiled *cm, const st_fexpr *e, int slot);
/* The value of a parameter expression (numbers, parameters, + - * /); -1 when it is not one */
int st_sym_param_value(const st_compiled *cm, const st_fexpr *e, double *v);
/* d e / d slot: ST_COEF_NONE (slot does not occur), ST_COEF_EXACT with the number in *c (e is
 * linear in slot with a coefficient of numbers and parameters), else ST_COEF_GENERIC */
enum { ST_COEF_NONE, ST_COEF_EXACT, ST_COEF_GENERIC };
int st_sym_coefficient(const st_compiled *cm, const st_fexpr *e, int slot, double *c);
/* e reads a marked slot (outside pre(), edge(), change()) */
int st_sym_depends(const st_compiled *cm, const st_fexpr *e, const unsigned char *in);
st_fexpr *st_sym_node(st_arena *a, st_fexpr_kind kind, int op, int nargs);
st_fexpr *st_sym_bin(st_arena *a, int op, st_fexpr *l, st_fexpr *r);
st_fexpr *st_sym_num(st_arena *a, double v);
st_fexpr *st_sym_map_args(st_arena *a, st_fexpr *e, st_fexpr *(*fn)(void *, st_fexpr *),
                          void *ctx);
/* if c then x else y (at c's location); NULL when any is NULL or out of memory */
st_fexpr *st_sym_if(st_arena *a, st_fexpr *c, st_fexpr *x, st_fexpr *y);
st_fexpr *st_sym_diff_time(st_compiled *cm, const st_fexpr *e); /* d/dt, NULL if unsupported */

/* classify.c */
int st_classify(st_compiled *cm);
/* clocks.c: clocked partitions lowered onto when-clauses and equations (cm->p.flat becomes
 * the lowered copy); 0 also when the model has no clocks. */
int st_lower_clocks(st_compiled *cm);
/* build.c: classification, equations and index reduction alone of a flat model */
st_compiled *st_index_alone(const st_flat_model *flat, st_diag *diag);
void st_index_alone_free(st_compiled *cm);
/* statemachine.c: clocked state machines (chapter 17) to clocked equations, before it. */
int st_lower_state_machines(st_compiled *cm);
int st_eval_parameters(st_compiled *cm);
/* equations.c */
int st_collect_equations(st_compiled *cm);
/* event_pass.c, called while collecting equations */
int st_add_when(st_compiled *cm, const st_feq *q);
/* The targets of a tuple (r, {s[1], s[2]}) = f(x), element by element (event_pass.c): how many
 * variables target e stands for, the j-th (0-based, row-major), and f(x) returning element
 * `element` (1-based; 0: a scalar output) of its output number `output`. */
int st_target_leaves(const st_fexpr *e);
const st_fexpr *st_target_leaf(const st_fexpr *e, int j);
st_fexpr *st_output_call(st_compiled *cm, const st_fexpr *call, int output, int element);
/* At initialization, before block k of the event pass: assigns the initial() when-branches
 * whose right sides read only values known by then (block_of[slot]: the block computing it,
 * -1 none), so that a block reading their variables sees them (the MSL's tables call their C
 * code with the next time event an initial() branch computes). pending: per when-condition,
 * cleared as they are assigned. Branches reading pre() are left to the event iteration: after
 * initialization pre() moves on, so such a branch (a counter) would count twice. */
void st_initial_whens_before(st_compiled *cm, const int *block_of, int k, unsigned char *pending);
int st_add_assert(st_compiled *cm, const st_feq *q);
/* algorithm.c: algorithm sections of models */
/* Marks the variables a tuple target in a when sets: r and s[1], s[2] of (r, {s[1], s[2]}). */
void st_mark_when_targets(const st_fexpr *e, unsigned char *in_when);
void st_algorithms_scan(const st_flat_model *f, unsigned char *is_state, unsigned char *in_when);
int st_add_algorithms(st_compiled *cm, int (*push)(st_compiled *, void *, st_ceq), void *ctx);
int st_algorithm_block(st_compiled *cm, st_block *b, const int *comp, int size);
int st_algorithms_without_block(const st_compiled *cm, int *which);
void st_algorithms_pin_reads(const st_compiled *cm, unsigned char *pinned);
int st_run_algorithm(st_compiled *cm, int index);
int st_add_initial_algorithms(st_compiled *cm);
/* Runs the initial algorithms once; -1 (cm->error set) when a statement fails. */
int st_run_initial_algorithms(st_compiled *cm);
void st_algorithms_left_limits(st_compiled *cm); /* wc_pre of their when-statements */
void st_algorithms_free(st_compiled *cm);
/* An instance's own copies of the sections (their `saved` values), bodies shared: 0 or -1. */
int st_algorithms_clone(st_compiled *cm);
/* inline.c: the output call->op of a call as an expression of its arguments, when the
 * function body is a chain of scalar assignments; NULL otherwise */
st_fexpr *st_inline_call(st_compiled *cm, const st_fexpr *call);
/* index.c */
int st_index_reduce(st_compiled *cm);
/* startpoint.c: the values at the start of the run as far as known before initialization
 * (parameters, start values, algebraic variables computed from the equations as written) and
 * the Jacobian entries of the equations there; index reduction's numeric check evaluates the
 * nonlinear coefficients at it. NULL when out of memory. */
typedef struct st_start_point st_start_point;
st_start_point *st_start_point_new(st_compiled *cm);
/* d(lhs - rhs of equation e)/d slot there into *v: 0, or -1 when not finite or not known */
int st_start_point_entry(st_start_point *sp, int e, int slot, double *v);
void st_start_point_free(st_start_point *sp);
/* The slots and equations as they were before an index reduction, to start it again from
 * them (index.c). st_index_save: 0, or -1 when out of memory. */
typedef struct st_index_saved {
  int nslots, neqs, nstates, n_differentiated, ndyn;
  int *state_slot;
  st_slot *slots;
  st_ceq *eqs;
} st_index_saved;
int st_index_save(const st_compiled *cm, st_index_saved *sv);
void st_index_restore(st_compiled *cm, const st_index_saved *sv);
void st_index_saved_free(st_index_saved *sv);
/* 1 when the unknowns (derivatives, algebraics, discretes) are as many as the equations. */
int st_system_is_square(const st_compiled *cm);
/* constraints.c: linear combinations of the equations that leave states only (hidden
 * constraints); with replace, each is written over the equation it came from. The number
 * found, -1 out of memory. */
int st_hidden_constraints(st_compiled *cm, int replace);
/* Warnings for the stateSelect attributes the chosen states do not honour (index.c). */
void st_report_state_select(st_compiled *cm);
/* Dynamic state sets (exec/dynset.c): their residual programs, emitted after index reduction
 * and before alias elimination; at a run's start the selection as compiled; the indicator of
 * set k (positive while its choice is well conditioned); at an event the new choice where it
 * degraded (y and the selection changed, info told). */
int st_dynset_emit(st_compiled *cm);
void st_dynset_reset(st_compiled *cm);
double st_dynset_margin(st_compiled *cm, int k);
int st_dynset_event(st_compiled *cm, double *y, stiction_event_info *info);
/* alias.c */
int st_eliminate_aliases(st_compiled *cm);
int st_linear_terms(const st_compiled *cm, int e, int slot[3], int *unit_coefs);
void st_eval_consts(st_compiled *cm);
void st_sync_aliases(st_compiled *cm);
/* Block k evaluated in event mode (one step of st_eval_blocks(cm, 1)). */
int st_eval_block_event(st_compiled *cm, int k);
/* tearing.c: tear variables and the assignment sequence of a nonlinear block (0, or -1 on
 * memory); st_tear_free frees the sequence's programs */
int st_tear_block(st_compiled *cm, st_block *b);
void st_tear_free(st_block *b);
/* structure.c */
int st_structure(st_compiled *cm);
/* blocks.c */
int st_build_blocks(st_compiled *cm, const int *order_eq, const int *comp_start, int ncomp,
                    const int *match_eq);
/* peephole.c: superinstructions in the programs evaluated between events */
int st_fuse_programs(st_compiled *cm);
/* solve.c */
int st_eval_blocks(st_compiled *cm, int event_mode);
/* The unknowns of the blocks marked joint in block order (slots may be NULL); their count. */
int st_joint_unknowns(const st_compiled *cm, int *slots);
/* One sweep of the discrete equations of the mixed blocks marked joint at the values held (the
 * joint initial solution); how many discrete values changed. */
int st_joint_discrete_sweep(st_compiled *cm);
/* The event pass of initialization: st_eval_blocks(cm, 1) with the initial() when-branches
 * assigned as soon as what they read is computed (st_initial_whens_before). */
int st_eval_blocks_initial(st_compiled *cm);
void st_discrete_left_limits(st_compiled *cm);
/* A linear block with valid cached factors (b->gen == cm->gen): x += -J^-1 r. */
void st_linear_step(st_compiled *cm, const st_block *b, const double *r);
/* 1 when the block's Newton steps are factored by KLU (large and structurally sparse:
 * sparse_block.h); solve.c and the --dump log ask the same question here. */
int st_block_uses_klu(const st_block *b);
/* Between events, after st_specialize: only the blocks with need[k] set. */
int st_eval_slice(st_compiled *cm, const unsigned char *need);
/* event_pass.c: the reader lists rd_start/rd_slot/rdr_start/rdr_block, made once */
void st_block_reads(st_compiled *cm);
/* partial.c: after a full evaluation at (t, y) between events, keep it as the base; then a
 * y that differs from it in a few states only evaluates the blocks those states reach.
 * st_partial_eval: 0 done, 1 not applicable (evaluate all blocks), -1 a block failed. */
void st_partial_base(st_compiled *cm, double t, const double *y);
int st_partial_eval(st_compiled *cm, double t, const double *y);
/* minnorm.c: least-squares minimum-norm solution of A x = b (A destroyed, x in b) */
int st_min_norm_solve(double *A, int n, double *b);
int st_min_norm_solve_sel(double *A, int n, double *b, const unsigned char *sel);
/* ... the solution whose selected entries are nearest target's (target NULL: zero) */
int st_min_norm_solve_toward(double *A, int n, double *b, const unsigned char *sel,
                             const double *target);
/* 1 and a unit vector v spanning the null space of A when it has exactly one dimension, else
 * 0 (A destroyed) */
int st_null_direction(double *A, int n, double *v);
/* event_pass.c */
int st_compile_whens(st_compiled *cm);
int st_mentions_initial(const st_fexpr *e); /* initial() occurs in e */
int st_event_update(st_compiled *cm, double t, double *y, double *yp, stiction_event_info *info);
double st_next_time_event(st_compiled *cm, double t, int *defined);
int st_check_asserts(st_compiled *cm, double t, int *terminate);
/* init.c */
int st_initialize(st_compiled *cm, double t0);
/* event_pass.c: the clock ticks at the start time, at the end of the initialization. */
int st_clock_start_ticks(st_compiled *cm);
void st_apply_parameters(st_compiled *cm);
int st_check_initial_counts(st_compiled *cm);
/* pattern.c: the structure of df/dy into jac_cols/jac_rows (NULL when unknown) */
int st_jacobian_pattern(st_compiled *cm);
/* pattern.c: the structure of dF/dy + cj dF/dy' of the DAE form over n unknowns (col: per
 * slot, its column, -1 for what is computed); arrays from cm->iarena. 0 with *cols NULL
 * when unknown, -1 when out of memory. */
int st_dae_pattern(st_compiled *cm, const int *col, int n, int **cols, int **rows);
/* specialize.c: hot programs of blocks and indicators for the current event interval;
 * st_eval_blocks calls it at the first evaluation between events after gen changed */
void st_specialize(st_compiled *cm);
/* Before an evaluation between events: st_specialize from the second one of an interval on,
 * the programs as compiled for the first. */
void st_spec_refresh(st_compiled *cm);
/* The varying blocks the active indicators depend on (per block), or NULL: all. */
const unsigned char *st_indicator_slice(const st_compiled *cm);
/* Block k is an assignment whose specialized program is a constant, held in its slot until
 * the next event (specialize.c hold_constant): the tapes leave it out. */
int st_spec_block_constant(const st_compiled *cm, int k);
void st_spec_free(const st_compiled *cm, struct st_spec *s);
/* tape.c: each interval's hot programs chained into straight-line tapes (st_specialize
 * builds them); run: 0, or 1 when the tape cannot be used now (evaluate block by block) */
int st_tapes_build(st_compiled *cm, const unsigned char *need);
/* The tapes built for an earlier interval serve this one (its programs were kept). */
void st_tapes_keep(st_compiled *cm);
int st_tape_run_all(st_compiled *cm);
int st_tape_run_indicators(st_compiled *cm, const double **raw);
void st_tapes_free(struct st_tapes *t);
/* model.c */
void st_model_setup(st_compiled *cm);
/* model.c: the nominal values of y from the instance's parameters; -1 out of memory */
int st_fill_nominals(st_compiled *cm);
/* The slot that holds slot s's value (s itself unless s is an alias) and the sign. */
int st_value_slot(const st_compiled *cm, int s, double *sign);
void st_fail(st_compiled *cm, st_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Replaces cm->error (the arguments may include the old one). */
void st_set_error(st_compiled *cm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void st_load_states(st_compiled *cm, const double *y);
int st_record_delays(st_compiled *cm, int event); /* delay.h; 0, or -1 (memory) */
/* runerror.c: run-time errors located at the equation. A non-finite entry of v (n values of
 * the vector `what`) is reported at the equation that produced it first: -1, else 0. */
int st_check_finite_results(st_compiled *cm, const double *v, int n, const char *what);
/* The same when the caller summed v itself while filling it (cb_outputs): sum_finite is
 * st_sum_is_finite's answer for v (util/finite.h). */
int st_check_finite_summed(st_compiled *cm, const double *v, int n, int sum_finite,
                           const char *what);
/* A parameter whose binding called a function that failed (a C function's error, an assert)
 * is reported at its declaration with the reason, also when nothing reads it: -1, else 0. */
int st_check_failed_parameters(st_compiled *cm);
/* cm->error at cm->error_loc (set by the block that failed) to diag. */
void st_report_eval_failure(st_compiled *cm);

#endif
