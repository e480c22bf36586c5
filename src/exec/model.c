/* The stiction_model callbacks of a compiled model. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exec/delay.h"
#include "compile/model_impl.h"

/* Indicator hysteresis (model.h, doc/events.md): a relation that is exactly on its threshold
 * when integration restarts must switch as soon as it moves, so the indicator is shifted by
 * this much towards the side the relation is on (Dymola switches `w > 0` at about 1e-10). */
#define ST_HYSTERESIS 1e-10

static void replace_error(st_compiled *cm, char *msg) {
  free(cm->error);
  cm->error = msg;
}

void st_set_error(st_compiled *cm, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  replace_error(cm, st_vformat(fmt, ap));
  va_end(ap);
}

void st_fail(st_compiled *cm, st_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = st_vformat(fmt, ap);
  va_end(ap);
  st_error(cm->diag, loc, "%s", msg ? msg : "out of memory for a message");
  replace_error(cm, msg);
  cm->reported = 1;
}

void st_load_states(st_compiled *cm, const double *y) {
  cm->full_eval = 0;
  for (int i = 0; i < cm->p.nstates; i++) cm->x[cm->p.state_slot[i]] = y[i];
}

/* A sample of every delay() history at the current values (delay.h says which evaluations
 * record); event: the values after an event pass. */
int st_record_delays(st_compiled *cm, int event) {
  if (!cm->delays) return 0;
  int mode = cm->vm.event_mode;
  cm->vm.event_mode = event;
  int rc = st_delays_record(cm->delays, &cm->vm);
  cm->vm.event_mode = mode;
  if (rc) st_set_error(cm, "out of memory for the delay() histories");
  return rc;
}

static int evaluate_quietly(st_compiled *cm, double t, const double *y) {
  st_load_states(cm, y);
  cm->vm.time = t;
  cm->vm.initial = 0;
  if (st_eval_blocks(cm, 0)) return 1;
  cm->full_eval = 1;
  cm->full_gen = cm->gen;
  return 0;
}

static int evaluate(st_compiled *cm, double t, const double *y) {
  if (evaluate_quietly(cm, t, y) == 0) return 0;
  /* the runtime stops on this failure: say where, once, in the user's text */
  st_report_eval_failure(cm);
  return 1;
}

/* derivatives() fails quietly (positive): at an integrator's trial point a loop may have no
 * solution that a shorter step has (Analog's HeatingNPN_NORGate: the Newton from the last
 * point of a 22 s trial step); the runtime asks for the report when it stops on it. */
static void cb_report_failure(void *ud) { st_report_eval_failure(ud); }

static double nominal_of(st_compiled *cm, int slot) {
  if (slot < 0 || slot >= cm->p.nnominal_prog || !cm->p.nominal_prog[slot].n) return 1.0;
  double v = fabs(st_vm_eval(&cm->vm, &cm->p.nominal_prog[slot]));
  return isfinite(v) && v > 0 ? v : 1.0;
}

/* The runtime scales the absolute tolerance of y[i] by nominal[i] (Dymola's rule for the
 * nominal attribute): a spring's w_rel(nominal = 1e-4) near 1e-3 is otherwise integrated to
 * an absolute 1e-8, a percent of it. At the start, since a nominal may be a parameter
 * expression; model.nominal stays NULL when no entry has one. */
int st_fill_nominals(st_compiled *cm) {
  int ns = cm->p.nstates > 0 ? cm->p.nstates : 1, n = ns + (cm->dae ? cm->nalg : 0);
  cm->model.nominal = NULL;
  if (!cm->p.nominal_prog) return 0;
  if (cm->nominal_cap < n) {
    cm->nominal = st_arena_alloc(cm->iarena, sizeof(double) * (size_t)n);
    if (!cm->nominal) return -1;
    cm->nominal_cap = n;
  }
  int any = 0;
  for (int i = 0; i < n; i++) {
    int slot = i < cm->p.nstates ? cm->p.state_slot[i] : i >= ns ? cm->alg_slot[i - ns] : -1;
    cm->nominal[i] = nominal_of(cm, slot);
    any |= cm->nominal[i] != 1.0;
  }
  if (any) cm->model.nominal = cm->nominal;
  return 0;
}

static int cb_start(void *ud, double t0, double *y, double *yp) {
  st_compiled *cm = ud;
  cm->vm.terminal = 0;
  cm->event_iteration = 0; /* initial() rule of when-statements (algorithm.c) */
  st_delays_reset(cm->delays);
  st_forget_seeds(cm);
  if (st_initialize(cm, t0) || st_record_delays(cm, 1) || st_fill_nominals(cm)) return -1;
  if (cm->p.nstates == 0) y[0] = yp[0] = 0.0; /* the dummy state, see st_model_setup */
  for (int i = 0; i < cm->p.nstates; i++) {
    y[i] = cm->x[cm->p.state_slot[i]];
    yp[i] = cm->x[cm->p.slots[cm->p.state_slot[i]].der];
  }
  return 0;
}

static int cb_derivatives(void *ud, double t, const double *y, double *ydot) {
  st_compiled *cm = ud;
  /* a Jacobian's column group: only what the moved states reach (partial.c) */
  int rc = st_partial_eval(cm, t, y);
  if (rc < 0) return 1;
  if (rc > 0) {
    if (evaluate_quietly(cm, t, y)) return 1;
    st_partial_base(cm, t, y);
  }
  /* the last call at a time is the iterate the integrator accepts (delay.h) */
  if (st_record_delays(cm, 0)) return -1;
  for (int i = 0; i < cm->p.nstates; i++) ydot[i] = cm->x[cm->p.slots[cm->p.state_slot[i]].der];
  if (cm->p.nstates == 0) ydot[0] = 0.0;
  /* a NaN/Inf is returned as it is: the runtime stops with STICTION_ERR_NONFINITE */
  st_check_finite_results(cm, ydot, cm->p.nstates, "the derivatives");
  return 0;
}

/* Only the blocks the active indicators read (specialize.c: indicator_slice); the others
 * keep stale values until the next evaluation, which every other callback starts with.
 * raw[i]: the value of indicator i's program when it is active (tape.c), else NULL. */
static int evaluate_slice(st_compiled *cm, double t, const double *y, const double **raw) {
  st_load_states(cm, y);
  cm->vm.time = t;
  cm->vm.initial = 0;
  cm->vm.event_mode = 0;
  *raw = NULL;
  st_spec_refresh(cm);
  if (st_tape_run_indicators(cm, raw) == 0) return 0;
  const unsigned char *need = st_indicator_slice(cm);
  if (!need) return st_eval_blocks(cm, 0) ? 1 : 0;
  return st_eval_slice(cm, need) ? 1 : 0;
}

/* Indicator i before hysteresis: positive where its relation is true. */
static double indicator_value(st_compiled *cm, int i, const double *raw) {
  int k = cm->p.ind_rel[i];
  double v = raw ? raw[i] : st_vm_eval(&cm->vm, cm->rels[k].hot_ind);
  return cm->rels[k].op == FOP_LT || cm->rels[k].op == FOP_LE ? -v : v;
}

static int cb_indicators(void *ud, double t, const double *y, const double *yp, double *g) {
  st_compiled *cm = ud;
  const double *raw;
  if (evaluate_slice(cm, t, y, &raw)) return 1;
  for (int i = 0; i < cm->p.nind; i++) {
    int k = cm->p.ind_rel[i];
    if (!cm->vm.active[k]) { /* cannot matter before the next event: no crossing */
      g[i] = cm->rel[k] != 0 ? 1.0 : -1.0;
      continue;
    }
    double v = indicator_value(cm, i, raw);
    double h = cm->vm.gap && cm->vm.gap[k] > ST_HYSTERESIS ? cm->vm.gap[k] : ST_HYSTERESIS;
    g[i] = v + (cm->rel[k] != 0 ? h : -h);
  }
  /* the dynamic state sets read every unknown of their groups: all blocks evaluated */
  if (cm->p.ndyn && evaluate_quietly(cm, t, y)) return 1;
  for (int k = 0; k < cm->p.ndyn; k++) g[cm->p.nind + k] = st_dynset_margin(cm, k);
  st_check_finite_results(cm, g, cm->p.nind, "the event indicators");
  return 0;
}

/* After the last event pass: a relation taken at its crossing keeps the window as its hysteresis
 * (bytecode.c relation) only when integration restarts with its indicator on the side it
 * crossed from. Otherwise its next crossing is found at the usual ST_HYSTERESIS: the
 * friction block's w coming back to 0 was seen 1e-7 late, its end position 1e-7 off. */
static void keep_needed_gaps(st_compiled *cm, double t, const double *y) {
  int any = 0;
  for (int k = 0; k < cm->p.nrels; k++) any |= cm->vm.gap[k] > 0;
  const double *raw;
  if (!any || evaluate_slice(cm, t, y, &raw)) return;
  for (int i = 0; i < cm->p.nind; i++) {
    int k = cm->p.ind_rel[i];
    if (!(cm->vm.gap[k] > 0) || !cm->vm.active[k]) continue;
    double v = indicator_value(cm, i, raw);
    if ((v > 0) == (cm->rel[k] != 0)) cm->vm.gap[k] = 0;
  }
}

static int cb_event_update(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  int rc = st_event_update(ud, t, y, yp, info);
  /* a pass that changed discrete values is followed by another, which sets the gaps again */
  if (rc == 0 && ((st_compiled *)ud)->p.ndyn) rc = st_dynset_event(ud, y, info);
  if (rc == 0 && !info->discrete_changed) keep_needed_gaps(ud, t, y);
  return rc;
}

/* The terminal pass: an event pass with terminal() true (Modelica 3.6 section 3.7.4). The
 * flag stays set, so that the final row is computed with it too; start_values clears it. */
static int cb_terminal(void *ud, double t, double *y, double *yp, stiction_event_info *info) {
  st_compiled *cm = ud;
  cm->vm.terminal = 1;
  return st_event_update(cm, t, y, yp, info);
}

static int cb_get_discrete(void *ud, double *d) {
  st_compiled *cm = ud;
  for (int i = 0; i < cm->p.ndisc; i++) d[i] = cm->x[cm->p.disc_slot[i]];
  return 0;
}

int st_value_slot(const st_compiled *cm, int s, double *sign) {
  *sign = 1;
  while (cm->p.slots[s].kind == K_ALIAS) {
    *sign *= cm->p.slots[s].alias_sign;
    s = cm->p.slots[s].alias_of;
  }
  return s;
}

static double slot_value(const st_compiled *cm, int s) {
  double sign;
  s = st_value_slot(cm, s, &sign);
  return sign * cm->x[s];
}

int st_instance_nslots(const st_instance *in) { return in->p.nslots; }

const char *st_instance_slot_name(const st_instance *in, int slot) {
  return slot >= 0 && slot < in->p.nslots ? in->p.slots[slot].name : NULL;
}

const st_flat_model *st_instance_flat(const st_instance *in) { return in->p.flat; }

double st_instance_value(const st_instance *in, int slot) {
  return slot >= 0 && slot < in->p.nslots ? slot_value(in, slot) : NAN;
}

int st_instance_slot_kind(const st_instance *in, int slot) {
  if (slot < 0 || slot >= in->p.nslots) return 'n';
  int fixed = slot < in->p.flat->nvars && in->p.flat->vars[slot].variability == ST_V_CONSTANT;
  switch (in->p.slots[slot].kind) {
  case K_PARAM: return fixed ? 'c' : 'p';
  case K_INPUT: return 'i';
  case K_STATE: return 's';
  case K_DER: return 'd';
  case K_ALG: return 'a';
  case K_DISCRETE: case K_WHEN: return 'z';
  case K_ALIAS: case K_CONST: return 'e';
  default: return 'n';
  }
}

int st_instance_set_parameter(st_instance *in, int slot, double value) {
  if (st_instance_slot_kind(in, slot) != 'p') return -1;
  in->param_overridden[slot] = 1;
  in->x[slot] = value;
  in->gen++;
  return 0;
}

int st_instance_set_start(st_instance *in, int slot, double value) {
  int k = st_instance_slot_kind(in, slot);
  if (k == 'p' || k == 'c' || k == 'n' || k == 'e') return -1;
  if (!in->start_set) {
    in->start_set = st_arena_alloc(in->iarena, (size_t)in->p.nslots);
    in->start_value = st_arena_alloc(in->iarena, sizeof(double) * (size_t)in->p.nslots);
    if (!in->start_set || !in->start_value) return -1;
  }
  in->start_set[slot] = 1;
  in->start_value[slot] = value;
  return 0;
}

/* Inputs count as parameters to the translator (held between events): the constants
 * computed from them follow, and the runtime's event at the change re-specializes. */
int st_instance_set_input(st_instance *in, int slot, double value) {
  if (st_instance_slot_kind(in, slot) != 'i') return -1;
  in->x[slot] = in->p.slots[slot].is_bool ? value != 0 : value;
  st_eval_consts(in);
  in->gen++;
  return 0;
}

/* out[i] = out_sign[i] * x[out_src[i]], summed on the way: 1 when the sum is finite, which
 * proves every value finite (util/finite.h) -- the check of a row then costs one addition
 * per value instead of a second pass. Two entries per turn: two independent sums, half the
 * loop tests. */
static int copy_outputs(const st_compiled *cm, double *restrict out) {
  const int *restrict src = cm->out_src;
  const double *restrict sign = cm->out_sign, *restrict x = cm->x;
  int n = cm->nout, i = 0;
  double s0 = 0, s1 = 0;
  for (; i + 2 <= n; i += 2) {
    double a = sign[i] * x[src[i]], b = sign[i + 1] * x[src[i + 1]];
    out[i] = a;
    out[i + 1] = b;
    s0 += a;
    s1 += b;
  }
  if (i < n) s0 += out[i] = sign[i] * x[src[i]];
  return isfinite(s0 + s1);
}

static int cb_outputs(void *ud, double t, const double *y, const double *yp, double *out) {
  st_compiled *cm = ud;
  if (evaluate(cm, t, y)) return -1;
  st_check_finite_summed(cm, out, cm->nout, copy_outputs(cm, out), "the recorded variables");
  return 0;
}

int st_compiled_value(const st_compiled *cm, const char *name, double *value) {
  for (int s = 0; s < cm->p.nslots; s++)
    if (cm->p.slots[s].name && strcmp(cm->p.slots[s].name, name) == 0) {
      *value = slot_value(cm, s);
      return 0;
    }
  return -1;
}

void st_model_setup(st_compiled *cm) {
  stiction_model *m = &cm->model;
  memset(m, 0, sizeof *m);
  m->size = sizeof *m;
  m->name = cm->p.flat->name;
  /* A model without states (only algebraic and discrete equations) still needs time to
   * advance through the integrator: it gets one dummy state with der = 0, as Dymola and
   * OpenModelica do. It is not recorded. */
  static const char *const dummy_name[] = {"$dummy"};
  m->n_states = cm->p.nstates > 0 ? cm->p.nstates : 1;
  m->n_indicators = cm->p.nind + cm->p.ndyn;
  m->n_discrete = cm->p.ndisc;
  m->n_outputs = cm->nout;
  m->output_names = cm->out_names;
  m->state_names = cm->p.nstates > 0 ? cm->p.state_names : dummy_name;
  m->indicator_names = cm->p.dyn_ind_names ? cm->p.dyn_ind_names : cm->p.ind_names;
  m->discrete_names = cm->p.disc_names;
  m->start_values = cb_start;
  m->derivatives = cb_derivatives;
  m->report_failure = cb_report_failure;
  m->indicators = cm->p.nind + cm->p.ndyn ? cb_indicators : NULL;
  m->event_update = cb_event_update;
  m->terminal = cb_terminal;
  m->get_discrete = cb_get_discrete;
  m->outputs = cb_outputs;
  m->ode_jac_cols = cm->p.jac_cols;
  m->ode_jac_rows = cm->p.jac_rows;
}
