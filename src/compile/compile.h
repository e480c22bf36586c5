/* The equation compiler: from a flat model (src/front/flat.h) to a compiled program, and
 * instances of it (src/exec) that the runtime simulates as stiction_models
 * (include/stiction/model.h).
 *
 *   st_program *prog = st_compile_program(flat, diag);  // NULL: errors are in diag
 *   st_instance *a = st_instance_new(prog, diag_a);     // as many as wanted, any thread
 *   st_compiled_set_parameter(a, "J1.J", 2);           // st_compiled_* take instances
 *   stiction_sim *sim = stiction_sim_new(st_compiled_model(a), st_compiled_data(a), &opt);
 *   ...
 *   st_instance_free(a);
 *   st_program_free(prog);                              // after its instances
 *
 * The program is immutable: instances share it read-only and each owns its run state
 * (values, parameters, caches, scratch, event state), so instances run in parallel threads.
 * st_compile() is the short form for one run: a program with one instance that owns it.
 *
 *   st_diag *diag = st_diag_new(stderr);
 *   st_compiled *cm = st_compile(flat, diag);       // NULL: errors are in diag
 *   const stiction_model *model = st_compiled_model(cm);
 *   stiction_sim *sim = stiction_sim_new(model, st_compiled_data(cm), &opt);
 *   ...
 *   st_compiled_free(cm);
 *
 * The compiled model borrows the flat model (names, source locations): keep `flat` alive
 * until st_compiled_free(). Errors found while simulating (no solution of an algebraic
 * loop, an inconsistent mixed system, a failed assert) are also reported to diag, located
 * at the equation, and make the callback fail. No global state. */
#ifndef ST_COMPILE_COMPILE_H
#define ST_COMPILE_COMPILE_H

#include <stdio.h>

#include "front/flat.h"
#include "util/diag.h"
#include <stiction/model.h>

typedef struct st_compiled st_compiled;
typedef struct st_compiled st_instance;
typedef struct st_program st_program;

st_program *st_compile_program(const st_flat_model *flat, st_diag *diag);
void st_program_free(st_program *prog); /* safe on NULL */
/* A run of prog; run-time errors go to diag. NULL when out of memory. */
st_instance *st_instance_new(const st_program *prog, st_diag *diag);
void st_instance_free(st_instance *in); /* safe on NULL */

st_compiled *st_compile(const st_flat_model *flat, st_diag *diag);
void st_compiled_free(st_compiled *cm);

const stiction_model *st_compiled_model(const st_compiled *cm);
void *st_compiled_data(st_compiled *cm);

/* Sets a parameter (by its Modelica name) without recompiling; parameters whose bindings
 * depend on it are re-evaluated. Returns 0, or -1 with an error in diag when there is no
 * such parameter. Call before simulating. */
int st_compiled_set_parameter(st_compiled *cm, const char *name, double value);

/* Access by slot (0 .. st_instance_nslots - 1; flat variable i is slot i, derivatives
 * follow). st_instance_set_parameter: a parameter that can be set, before a run;
 * st_instance_set_start: the start value of a variable that is not a parameter (inputs
 * included), before a run; st_instance_set_input: a top-level input during a run (the
 * caller then tells the runtime, stiction_sim_inputs_changed). 0, or -1 when the slot does
 * not take it. */
int st_instance_nslots(const st_instance *in);
const char *st_instance_slot_name(const st_instance *in, int slot);
int st_instance_set_parameter(st_instance *in, int slot, double value);
int st_instance_set_start(st_instance *in, int slot, double value);
int st_instance_set_input(st_instance *in, int slot, double value);
double st_instance_value(const st_instance *in, int slot);
/* What a slot is, for the public variable list (modelica.h): 'p' parameter (settable), 'c'
 * constant or fixed parameter, 'i' top-level input, 's' state, 'd' derivative, 'a'
 * algebraic, 'z' discrete, 'e' eliminated (alias or constant expression), 'n' none
 * (String). */
int st_instance_slot_kind(const st_instance *in, int slot);
/* The flat model the program was compiled from (names, attributes, locations). */
const st_flat_model *st_instance_flat(const st_instance *in);

/* Value of a slot by Modelica name after the last callback ("der(x)" for derivatives);
 * returns 0 and sets *value, -1 when unknown. For tests and the CLI. */
int st_compiled_value(const st_compiled *cm, const char *name, double *value);

/* Restricts the recorded outputs to the names matching any of the glob patterns ('*', '?');
 * n == 0 keeps all non-protected variables. Returns the number of outputs. */
int st_compiled_select_outputs(st_compiled *cm, const char *const *patterns, int n);

/* Switches the model table between the ODE form (the default; CVODE and IDA) and the DAE
 * form for IDA: y = states + the real unknowns of the linear and nonlinear blocks,
 * residual() over both, n_algebraic set. Returns the number of algebraic unknowns (on) or
 * 0, -1 when out of memory. Call before stiction_sim_new(). */
int st_compiled_set_dae(st_compiled *cm, int on);

/* The translation log: states, BLT blocks with their solution method, mixed systems,
 * relations and time events (like Dymola's translation log). */
void st_compiled_dump(const st_compiled *cm, FILE *out);

/* Statistics of the structure, for tests and --dump. */
typedef struct st_compile_info {
  int n_states, n_algebraic, n_discrete, n_parameters, n_aliases;
  int n_blocks, n_assign, n_linear, n_nonlinear, n_mixed, n_discrete_blocks;
  int n_indicators, n_time_relations, n_whens, n_differentiated;
  int mixed_iterations_max; /* most fixed-point passes taken by a mixed system so far */
  int n_constants;          /* variables eliminated by `v = parameter expression` */
  int specialized_programs; /* programs specialized for the current event interval */
  int held_constants;       /* of them, assignments that folded to a constant (held) */
  long tape_runs;           /* evaluations done by a tape so far (specialize.c, tape.c) */
  long specializations;     /* times the programs were specialized so far */
  long specializations_kept; /* events after which they were kept (nothing they folded changed) */
  int n_klu;                /* blocks whose linear solves KLU does (large and sparse) */
  size_t dense_bytes;       /* the instance's dense solver scratch now: Newton matrix, mixed
                               history, frozen blocks' dense factors (sized by the blocks
                               solved densely, not by the largest block) */
  int hc_rows;              /* rows the hidden-constraint elimination built (0: none) */
  int hc_skipped;           /* times it was skipped: no combination of equations to look for */
  long partial_evals;       /* derivatives() near the last full evaluation (partial.c) */
  long partial_blocks;      /* varying blocks those evaluated */
} st_compile_info;
void st_compiled_info(const st_compiled *cm, st_compile_info *info);

/* Between events, evaluate programs specialized to the frozen discrete values and
 * parameters, chained into tapes (specialize.c, tape.c): on by default; off evaluates the
 * programs as compiled (for tests comparing both). */
void st_compiled_set_specialize(st_compiled *cm, int on);

/* Evaluate only the blocks the moved states reach when derivatives() is called near the
 * last full evaluation (partial.c; a difference-quotient Jacobian's column groups): on by
 * default; off evaluates every block at every call (for tests comparing both). */
void st_compiled_set_partial(st_compiled *cm, int on);

/* Name of state i (n_states of the model). */
const char *st_compiled_state_name(const st_compiled *cm, int i);

#endif
