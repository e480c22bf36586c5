/* The public Modelica API (include/stiction/modelica.h): a thin layer over the front end
 * (loading, flattening), the compiler (program), the execution of instances (src/exec) and
 * the simulation handle (src/runtime). It adds no mechanism of its own: names are looked up
 * in the program's slots, values set through src/exec, runs driven by stiction_sim. */
#include <stiction/modelica.h>
#include <stiction/stiction.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compile/compile.h"
#include "front/front.h"
#include "compile/extcall.h"

struct stiction_modelica {
  st_diag *diag;
  st_front *fe;
};

struct stiction_program {
  stiction_modelica *mo;
  st_flat_model *flat;
  st_program *prog;
  st_instance *view; /* an instance never run: what the variable list reads */
};

struct stiction_instance {
  const stiction_program *prog;
  st_diag *diag;
  st_instance *in;
  stiction_sim *sim; /* from the start of the run */
  stiction_event_listener listener;
  void *listener_ud;
  int inputs_changed; /* an input was set since the last advance */
};

/* ------------------------------------------------------------------ workspace */

stiction_modelica *stiction_modelica_new(void) {
  stiction_modelica *mo = calloc(1, sizeof *mo);
  if (!mo) return NULL;
  mo->diag = st_diag_new(NULL);
  mo->fe = mo->diag ? st_front_new(mo->diag) : NULL;
  if (mo->fe) st_front_set_externals(mo->fe, st_extcall_front_externals());
  if (!mo->fe) {
    stiction_modelica_free(mo);
    return NULL;
  }
  st_diag_keep(mo->diag);
  return mo;
}

void stiction_modelica_free(stiction_modelica *mo) {
  if (!mo) return;
  st_front_free(mo->fe);
  st_diag_free(mo->diag);
  free(mo);
}

int stiction_modelica_add_library_path(stiction_modelica *mo, const char *dir) {
  if (!mo || !dir) return STICTION_ERR_ARG;
  return st_front_add_library_path(mo->fe, dir) ? STICTION_ERR_NOMEM : STICTION_OK;
}

int stiction_modelica_add_default_paths(stiction_modelica *mo) {
  if (!mo) return STICTION_ERR_ARG;
  return st_front_add_default_paths(mo->fe) ? STICTION_ERR_NOMEM : STICTION_OK;
}

const char *stiction_modelica_default_class(const stiction_modelica *mo) {
  return mo ? st_front_default_class(mo->fe) : NULL;
}

int stiction_modelica_load_file(stiction_modelica *mo, const char *path) {
  if (!mo || !path) return STICTION_ERR_ARG;
  return st_front_load_file(mo->fe, path) ? STICTION_ERR_SYNTAX : STICTION_OK;
}

static int diagnostic(const st_diag *diag, int i, stiction_diagnostic *d) {
  if (!d || d->size < offsetof(stiction_diagnostic, message) + sizeof d->message)
    return STICTION_ERR_ARG;
  st_severity sev;
  st_loc loc;
  const char *text = st_diag_message(diag, i, &sev, &loc);
  if (!text) return STICTION_ERR_ARG;
  d->severity = sev == ST_ERROR ? STICTION_ERROR : sev == ST_WARNING ? STICTION_WARNING
                                                                     : STICTION_NOTE;
  d->file = loc.file;
  d->line = loc.line;
  d->column = loc.col;
  d->message = text;
  return STICTION_OK;
}

int stiction_modelica_n_diagnostics(const stiction_modelica *mo) {
  return mo ? st_diag_count(mo->diag) : STICTION_ERR_ARG;
}

int stiction_modelica_diagnostic(const stiction_modelica *mo, int i, stiction_diagnostic *d) {
  return mo ? diagnostic(mo->diag, i, d) : STICTION_ERR_ARG;
}

/* ------------------------------------------------------------------ programs */

int stiction_modelica_compile(stiction_modelica *mo, const char *class_name,
                              const char *const *modifiers, int n_modifiers,
                              stiction_program **out) {
  if (out) *out = NULL;
  if (!mo || !class_name || !out || n_modifiers < 0 || (n_modifiers > 0 && !modifiers))
    return STICTION_ERR_ARG;
  stiction_program *p = calloc(1, sizeof *p);
  if (!p) return STICTION_ERR_NOMEM;
  p->mo = mo;
  int errors = st_diag_errors(mo->diag);
  p->flat = st_front_flatten_modified(mo->fe, class_name, modifiers, n_modifiers, "<modifiers>");
  if (p->flat) p->prog = st_compile_program(p->flat, mo->diag);
  if (p->prog) p->view = st_instance_new(p->prog, mo->diag);
  if (!p->view) {
    int model_error = st_diag_errors(mo->diag) > errors;
    stiction_program_free(p);
    return model_error ? STICTION_ERR_MODEL : STICTION_ERR_NOMEM;
  }
  *out = p;
  return STICTION_OK;
}

void stiction_program_free(stiction_program *p) {
  if (!p) return;
  st_instance_free(p->view);
  st_program_free(p->prog);
  st_flat_free(p->flat);
  free(p);
}

const char *stiction_program_name(const stiction_program *p) { return p ? p->flat->name : NULL; }

int stiction_program_options(const stiction_program *p, stiction_options *opt) {
  if (!p || !opt) return STICTION_ERR_ARG;
  const st_experiment *ex = &p->flat->experiment;
  stiction_options_init(opt);
  if (ex->has_start) opt->start_time = ex->start_time;
  if (ex->has_stop) opt->stop_time = ex->stop_time;
  if (ex->has_interval) opt->interval = ex->interval;
  if (ex->has_tolerance) opt->rtol = ex->tolerance;
  return STICTION_OK;
}

int stiction_program_n_variables(const stiction_program *p) {
  return p ? st_instance_nslots(p->view) : STICTION_ERR_ARG;
}

static stiction_causality causality(int kind, const st_fvar *v) {
  switch (kind) {
  case 'p': return STICTION_CAUSALITY_PARAMETER;
  case 'c': return STICTION_CAUSALITY_CONSTANT;
  case 'i': return STICTION_CAUSALITY_INPUT;
  default:
    return v && v->causality == ST_C_OUTPUT && !strchr(v->name, '.') ? STICTION_CAUSALITY_OUTPUT
                                                                     : STICTION_CAUSALITY_LOCAL;
  }
}

int stiction_program_variable(const stiction_program *p, int index, stiction_variable *v) {
  if (!p || !v || v->size < offsetof(stiction_variable, is_boolean) + sizeof v->is_boolean ||
      index < 0 || index >= st_instance_nslots(p->view))
    return STICTION_ERR_ARG;
  const st_flat_model *flat = p->flat;
  const st_fvar *fv = index < flat->nvars ? &flat->vars[index] : NULL;
  int kind = st_instance_slot_kind(p->view, index);
  v->name = st_instance_slot_name(p->view, index);
  v->description = fv && fv->description ? fv->description : "";
  v->unit = fv && fv->unit ? fv->unit : "";
  v->causality = causality(kind, fv);
  v->variability = !fv ? STICTION_VARIABILITY_CONTINUOUS
                       : (stiction_variability)fv->variability; /* same order as flat.h */
  v->is_state = kind == 's';
  v->is_derivative = kind == 'd';
  v->is_boolean = fv && (fv->type == ST_T_BOOLEAN || fv->type == ST_T_INTEGER);
  return STICTION_OK;
}

int stiction_program_find(const stiction_program *p, const char *name) {
  if (!p || !name) return STICTION_ERR_ARG;
  int n = st_instance_nslots(p->view);
  for (int i = 0; i < n; i++) {
    const char *s = st_instance_slot_name(p->view, i);
    if (s && strcmp(s, name) == 0) return i;
  }
  return STICTION_ERR_NOT_FOUND;
}

/* ------------------------------------------------------------------ instances */

stiction_instance *stiction_instance_new(const stiction_program *prog) {
  if (!prog) return NULL;
  stiction_instance *in = calloc(1, sizeof *in);
  if (!in) return NULL;
  in->prog = prog;
  in->diag = st_diag_new(NULL);
  if (in->diag) st_diag_keep(in->diag);
  in->in = in->diag ? st_instance_new(prog->prog, in->diag) : NULL;
  if (!in->in) {
    stiction_instance_free(in);
    return NULL;
  }
  return in;
}

void stiction_instance_free(stiction_instance *in) {
  if (!in) return;
  stiction_sim_free(in->sim);
  st_instance_free(in->in);
  st_diag_free(in->diag);
  free(in);
}

int stiction_instance_set(stiction_instance *in, int index, double value) {
  if (!in) return STICTION_ERR_ARG;
  int kind = st_instance_slot_kind(in->in, index);
  if (kind == 'c' || kind == 'e' || kind == 'n') return STICTION_ERR_ARG;
  if (in->sim) { /* running: only inputs */
    if (kind != 'i') return STICTION_ERR_STATE;
    in->inputs_changed = 1;
    return st_instance_set_input(in->in, index, value) ? STICTION_ERR_ARG : STICTION_OK;
  }
  int rc = kind == 'p' ? st_instance_set_parameter(in->in, index, value)
                       : st_instance_set_start(in->in, index, value);
  return rc ? STICTION_ERR_NOMEM : STICTION_OK;
}

int stiction_instance_set_by_name(stiction_instance *in, const char *name, double value) {
  int i = in ? stiction_program_find(in->prog, name) : STICTION_ERR_ARG;
  return i < 0 ? i : stiction_instance_set(in, i, value);
}

int stiction_instance_get(const stiction_instance *in, int index, double *value) {
  if (!in || !value || index < 0 || index >= st_instance_nslots(in->in)) return STICTION_ERR_ARG;
  *value = st_instance_value(in->in, index);
  return STICTION_OK;
}

int stiction_instance_get_by_name(const stiction_instance *in, const char *name, double *value) {
  int i = in ? stiction_program_find(in->prog, name) : STICTION_ERR_ARG;
  return i < 0 ? i : stiction_instance_get(in, i, value);
}

int stiction_instance_set_event_listener(stiction_instance *in, stiction_event_listener fn,
                                         void *user_data) {
  if (!in) return STICTION_ERR_ARG;
  if (in->sim) return STICTION_ERR_STATE;
  in->listener = fn;
  in->listener_ud = user_data;
  return STICTION_OK;
}

/* The simulation handle of the run; the options of the program when opt is NULL. */
static int make_sim(stiction_instance *in, const stiction_options *opt, const stiction_sink *sink) {
  if (in->sim) return STICTION_ERR_STATE;
  stiction_options o;
  if (!opt) stiction_program_options(in->prog, &o);
  else o = *opt;
  /* IDA integrates the DAE form (algebraic loops as unknowns), as `stiction simulate` does */
  if (st_compiled_set_dae(in->in, o.solver == STICTION_SOLVER_IDA) < 0) return STICTION_ERR_NOMEM;
  in->sim = stiction_sim_new(st_compiled_model(in->in), st_compiled_data(in->in), &o);
  if (!in->sim) return STICTION_ERR_NOMEM;
  if (sink) stiction_sim_set_sink(in->sim, sink);
  if (in->listener) stiction_sim_set_event_listener(in->sim, in->listener, in->listener_ud);
  return STICTION_OK;
}

int stiction_instance_run(stiction_instance *in, const stiction_options *opt,
                          const stiction_sink *sink) {
  if (!in) return STICTION_ERR_ARG;
  int rc = make_sim(in, opt, sink);
  return rc ? rc : stiction_sim_run(in->sim);
}

int stiction_instance_start(stiction_instance *in, const stiction_options *opt,
                            const stiction_sink *sink) {
  if (!in) return STICTION_ERR_ARG;
  int rc = make_sim(in, opt, sink);
  in->inputs_changed = 0; /* the start values of inputs are part of initialization */
  return rc ? rc : stiction_sim_start(in->sim);
}

int stiction_instance_advance(stiction_instance *in, double t) {
  if (!in) return STICTION_ERR_ARG;
  if (!in->sim) return STICTION_ERR_STATE;
  if (in->inputs_changed) {
    in->inputs_changed = 0;
    int rc = stiction_sim_inputs_changed(in->sim);
    if (rc) return rc;
  }
  return stiction_sim_advance(in->sim, t);
}

int stiction_instance_finish(stiction_instance *in) {
  if (!in) return STICTION_ERR_ARG;
  return in->sim ? stiction_sim_finish(in->sim) : STICTION_ERR_STATE;
}

double stiction_instance_time(const stiction_instance *in) {
  return in && in->sim ? stiction_sim_time(in->sim) : NAN;
}

int stiction_instance_stopped(const stiction_instance *in) {
  return in && in->sim ? stiction_sim_stopped(in->sim) : 0;
}

const char *stiction_instance_error(const stiction_instance *in) {
  if (!in) return "";
  if (in->sim && stiction_sim_error(in->sim)[0]) return stiction_sim_error(in->sim);
  return st_diag_first_error(in->diag);
}

const stiction_stats *stiction_instance_stats(const stiction_instance *in) {
  return in && in->sim ? stiction_sim_stats(in->sim) : NULL;
}

int stiction_instance_n_diagnostics(const stiction_instance *in) {
  return in ? st_diag_count(in->diag) : STICTION_ERR_ARG;
}

int stiction_instance_diagnostic(const stiction_instance *in, int i, stiction_diagnostic *d) {
  return in ? diagnostic(in->diag, i, d) : STICTION_ERR_ARG;
}
