/* The shared library of stiction's FMUs: the FMI 2.0 functions (fmi2_abi.h) for Model
 * Exchange and Co-Simulation over one compiled program per instance (doc/fmi.md).
 *
 * fmi2Instantiate compiles the flat model saved under resources/stiction (fmu.h) with the
 * compiler of `stiction simulate` (or translates the Modelica text stored there instead,
 * for a model with external C code), after checking its GUID. Co-Simulation
 * steps with stiction's runtime (CVODE, its event handling: stiction_sim_advance); Model
 * Exchange hands the model's callbacks to the importer: its states, derivatives and event
 * indicators, and one pass of the discrete equations per fmi2NewDiscreteStates. All state
 * is in the component: instances are independent, in threads too. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <stiction/stiction.h>

#include "compile/model_impl.h"
#include "fmi/fmi2_abi.h"
#include "fmi/fmu.h"
#include "front/flat_io.h"
#include "front/front.h"
#include "front/libpath.h"
#include "compile/extcall.h"

#define EXPORT __attribute__((visibility("default")))

/* Every function declared from the list, so that the compiler checks each definition below
 * against the standard's signature. */
#define DECLARE(name, ret, args) EXPORT ret name args;
ST_FMI2_FUNCTIONS(DECLARE)

typedef enum phase {
  P_INSTANTIATED, /* parameters and start values may be set */
  P_INIT,         /* initialization mode */
  P_EVENT,        /* ME: event mode */
  P_CONT,         /* ME: continuous-time mode; CS: stepping */
  P_TERMINATED,
  P_ERROR
} phase;

typedef struct fmu {
  fmi2CallbackLogger logger;
  fmi2ComponentEnvironment env;
  char *name, *resources;
  fmi2Type type;
  int logging;
  st_diag *diag;
  st_front *fe;
  char *flat_path;       /* the saved flat model's file: diag's messages borrow it */
  st_flat_model *flat;
  st_program *prog;
  st_instance *in;
  const stiction_model *model;
  phase phase;
  double t0, tstop, rtol;
  int stop_defined, tol_defined;
  /* Model Exchange */
  double t, *y, *dy, *g;
  int n, nx, ng;         /* the model's states (a dummy one when it has none), exported, indicators */
  int initial_event;     /* the event mode after initialization: the iteration is done */
  int fresh;             /* values computed at (t, y) since the last change of either */
  stiction_event_info last;
  /* Co-Simulation */
  stiction_sim *sim;
  int inputs_changed, terminated;
  double last_time;
} fmu;

/* ------------------------------------------------------------------ messages */

static void say(fmu *c, fmi2Status status, const char *category, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The logger takes a printf format: a message goes with its '%' doubled. */
static void say(fmu *c, fmi2Status status, const char *category, const char *fmt, ...) {
  if (!c || !c->logger || (status == fmi2OK && !c->logging)) return;
  va_list ap;
  va_start(ap, fmt);
  char *msg = st_vformat(fmt, ap);
  va_end(ap);
  size_t n = 0;
  for (const char *s = msg; s && *s; s++) n += *s == '%' ? 2 : 1;
  char *esc = msg ? malloc(n + 1) : NULL;
  if (esc) {
    char *d = esc;
    for (const char *s = msg; *s; s++) {
      if (*s == '%') *d++ = '%';
      *d++ = *s;
    }
    *d = 0;
  }
  c->logger(c->env, c->name, status, category, esc ? esc : "out of memory for a message");
  free(esc);
  free(msg);
}

/* The diagnostics reported since `from`, to the logger. */
static void say_diagnostics(fmu *c, int from) {
  for (int i = from; i < st_diag_count(c->diag); i++) {
    st_severity sev;
    st_loc loc;
    const char *text = st_diag_message(c->diag, i, &sev, &loc);
    fmi2Status s = sev == ST_ERROR ? fmi2Error : sev == ST_WARNING ? fmi2Warning : fmi2OK;
    if (loc.file && loc.line)
      say(c, s, "logStatusError", "%s:%d:%d: %s", loc.file, loc.line, loc.col, text);
    else if (loc.file) /* a file as a whole: the saved flat model (its byte in the text) */
      say(c, s, "logStatusError", "%s: %s", loc.file, text);
    else
      say(c, s, "logStatusError", "%s", text ? text : "");
  }
}

static fmi2Status fail(fmu *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static fmi2Status fail(fmu *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = st_vformat(fmt, ap);
  va_end(ap);
  say(c, fmi2Error, "logStatusError", "%s", msg ? msg : "out of memory");
  free(msg);
  return fmi2Error;
}

/* A model callback or run failed: the component cannot go on. */
static fmi2Status broken(fmu *c, const char *what) {
  const char *why = c->sim && stiction_sim_error(c->sim)[0] ? stiction_sim_error(c->sim)
                                                             : st_diag_first_error(c->diag);
  c->phase = P_ERROR;
  return fail(c, "%s failed at t = %.17g: %s", what, c->type == fmi2CoSimulation ? c->last_time : c->t,
              why && why[0] ? why : "(no message)");
}

static int allowed(fmu *c, const char *fn, unsigned phases) {
  if (!c) return 0;
  if (phases & (1u << c->phase)) return 1;
  fail(c, "%s is not allowed now (state %d)", fn, (int)c->phase);
  return 0;
}
#define ANY_BUT_ERROR ((1u << P_INSTANTIATED) | (1u << P_INIT) | (1u << P_EVENT) | \
                       (1u << P_CONT) | (1u << P_TERMINATED))

/* ------------------------------------------------------------------ translation */

/* "file:///dir", "file:/dir" or "file://localhost/dir", percent escapes decoded. */
static char *uri_path(const char *uri) {
  const char *p = NULL;
  if (!uri) return NULL;
  if (!strncmp(uri, "file://localhost/", 17)) p = uri + 16;
  else if (!strncmp(uri, "file:///", 8)) p = uri + 7;
  else if (!strncmp(uri, "file:/", 6)) p = uri + 5;
  else if (uri[0] == '/') p = uri;
  if (!p) return NULL;
  char *out = malloc(strlen(p) + 1), *d = out;
  for (; out && *p; p++) {
    int hi, lo;
    if (*p == '%' && p[1] && p[2] && sscanf(p + 1, "%1x%1x", &hi, &lo) == 2) {
      *d++ = (char)(hi * 16 + lo);
      p += 2;
    } else {
      *d++ = *p;
    }
  }
  if (out) *d = 0;
  if (out && d > out + 1 && d[-1] == '/') d[-1] = 0;
  return out;
}

/* Without a usable resource location: resources/ beside binaries/ of this library. */
static char *resources_beside_library(void) {
  Dl_info info;
  if (!dladdr((void *)resources_beside_library, &info) || !info.dli_fname) return NULL;
  const char *slash = strrchr(info.dli_fname, '/'); /* DIR/binaries/linux64/ID.so */
  return slash ? st_format("%.*s/../../resources", (int)(slash - info.dli_fname), info.dli_fname)
               : st_format("../../resources");
}

/* The flat model saved at export (front/flat_io.h), compiled: no parser, no flattener. */
static int load_flat(fmu *c, const char *dir, const char *name) {
  char *path = c->flat_path = st_format("%s/%s", dir, name);
  long len = 0;
  char *bytes = path ? st_read_file(path, &len) : NULL;
  if (bytes) c->flat = st_flat_load(bytes, (size_t)len, path, c->diag);
  else fail(c, "cannot read %s", path ? path : name);
  free(bytes);
  if (c->flat) c->prog = st_compile_program(c->flat, c->diag);
  say_diagnostics(c, 0);
  if (c->flat && !c->prog) fail(c, "the model %s does not translate", c->flat->name);
  return c->prog ? 0 : -1;
}

static int translate(fmu *c, const char *guid) {
  char *dir = st_format("%s/stiction", c->resources), *err = NULL;
  char actual[ST_FMU_GUID_LEN + 1];
  st_fmu_manifest m;
  int rc = -1;
  if (!dir || st_fmu_manifest_read(&m, dir, &err)) {
    fail(c, "%s", err ? err : "out of memory");
    goto out;
  }
  if (st_fmu_guid_of(&m, dir, actual, &err)) {
    fail(c, "%s", err ? err : "out of memory");
  } else if (!guid || strcmp(guid, actual)) {
    fail(c, "GUID %s does not match the FMU's model text (%s)", guid ? guid : "(null)", actual);
  } else if (m.flat) {
    rc = load_flat(c, dir, m.flat);
  } else {
    char *lib = st_format("%s/library", dir);
    rc = lib ? st_front_add_library_path(c->fe, lib) : -1;
    free(lib);
    for (int i = 0; !rc && i < m.n_loads; i++) {
      char *path = st_format("%s/%s", dir, m.loads[i]);
      rc = path ? st_front_load_file(c->fe, path) : -1;
      free(path);
    }
    if (!rc) c->flat = st_front_flatten_modified(c->fe, m.class_name, m.modifiers,
                                                 m.n_modifiers, "<modifiers>");
    if (c->flat) c->prog = st_compile_program(c->flat, c->diag);
    rc = c->prog ? 0 : -1;
    say_diagnostics(c, 0);
    if (rc) fail(c, "the model %s does not translate", m.class_name);
  }
  st_fmu_manifest_free(&m);
out:
  free(err);
  free(dir);
  return rc;
}

static int new_instance(fmu *c) {
  c->in = st_instance_new(c->prog, c->diag);
  if (!c->in) return -1;
  c->model = st_compiled_model(c->in);
  c->n = c->model->n_states;
  c->ng = c->model->n_indicators;
  const st_experiment *ex = &c->flat->experiment;
  c->t0 = c->t = ex->has_start ? ex->start_time : 0;
  c->phase = P_INSTANTIATED;
  c->initial_event = 0;
  c->fresh = 0;
  return 0;
}

static void free_run(fmu *c) {
  stiction_sim_free(c->sim);
  c->sim = NULL;
  st_instance_free(c->in);
  c->in = NULL;
  free(c->y);
  free(c->dy);
  free(c->g);
  c->y = c->dy = c->g = NULL;
  c->inputs_changed = c->terminated = 0;
}

static void free_fmu(fmu *c) {
  if (!c) return;
  free_run(c);
  st_program_free(c->prog);
  st_flat_free(c->flat);
  st_front_free(c->fe);
  st_diag_free(c->diag);
  free(c->flat_path);
  free(c->resources);
  free(c->name);
  free(c);
}

EXPORT const char *fmi2GetTypesPlatform(void) { return "default"; }
EXPORT const char *fmi2GetVersion(void) { return "2.0"; }

EXPORT fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType,
                                     fmi2String fmuGUID, fmi2String fmuResourceLocation,
                                     const fmi2CallbackFunctions *functions, fmi2Boolean visible,
                                     fmi2Boolean loggingOn) {
  fmu *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->logger = functions ? functions->logger : NULL;
  c->env = functions ? functions->componentEnvironment : NULL;
  c->name = strdup(instanceName ? instanceName : "");
  c->type = fmuType;
  c->logging = loggingOn;
  if (fmuType != fmi2ModelExchange && fmuType != fmi2CoSimulation) {
    fail(c, "unknown FMU type %d", (int)fmuType);
    free_fmu(c);
    return NULL;
  }
  c->resources = uri_path(fmuResourceLocation);
  if (!c->resources) c->resources = resources_beside_library();
  c->diag = st_diag_new(NULL);
  if (c->diag) st_diag_keep(c->diag);
  c->fe = c->diag ? st_front_new(c->diag) : NULL;
  if (c->fe) st_front_set_externals(c->fe, st_extcall_front_externals());
  int translated = c->name && c->resources && c->fe ? translate(c, fmuGUID) == 0 : -1;
  if (translated <= 0 || new_instance(c)) { /* translate() says why it failed */
    if (translated) fail(c, "cannot instantiate the FMU: out of memory");
    free_fmu(c);
    return NULL;
  }
  say(c, fmi2OK, "logEvents", "instantiated %s (%d states, %d event indicators)",
      c->flat->name, c->n, c->ng);
  return c;
}

EXPORT void fmi2FreeInstance(fmi2Component comp) { free_fmu(comp); }

EXPORT fmi2Status fmi2SetDebugLogging(fmi2Component comp, fmi2Boolean loggingOn, size_t n,
                                      const fmi2String categories[]) {
  fmu *c = comp;
  if (!c) return fmi2Error;
  c->logging = loggingOn;
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetupExperiment(fmi2Component comp, fmi2Boolean toleranceDefined,
                                      fmi2Real tolerance, fmi2Real startTime,
                                      fmi2Boolean stopTimeDefined, fmi2Real stopTime) {
  fmu *c = comp;
  if (!allowed(c, "fmi2SetupExperiment", 1u << P_INSTANTIATED)) return fmi2Error;
  if (!isfinite(startTime) || (stopTimeDefined && !(stopTime > startTime)) ||
      (toleranceDefined && !(tolerance > 0)))
    return fail(c, "fmi2SetupExperiment: start %g, stop %g, tolerance %g out of range", startTime,
                stopTime, tolerance);
  c->t0 = c->t = startTime;
  c->stop_defined = stopTimeDefined;
  c->tstop = stopTime;
  c->tol_defined = toleranceDefined;
  c->rtol = tolerance;
  return fmi2OK;
}

EXPORT fmi2Status fmi2EnterInitializationMode(fmi2Component comp) {
  fmu *c = comp;
  if (!allowed(c, "fmi2EnterInitializationMode", 1u << P_INSTANTIATED)) return fmi2Error;
  c->phase = P_INIT;
  return fmi2OK;
}

/* The options of a co-simulation run: the experiment's (as `stiction simulate` takes them)
 * over the importer's start, stop and tolerance. Without a stop time the run may go far; the
 * indicators are still looked at every 1/500 of the experiment's span (simulate.h max_step). */
static void cs_options(const fmu *c, stiction_options *opt) {
  const st_experiment *ex = &c->flat->experiment;
  stiction_options_init(opt);
  double span = (ex->has_stop ? ex->stop_time : 1) - (ex->has_start ? ex->start_time : 0);
  if (ex->has_interval) opt->interval = ex->interval;
  if (ex->has_tolerance) opt->rtol = ex->tolerance;
  if (c->tol_defined) opt->rtol = c->rtol;
  opt->start_time = c->t0;
  if (c->stop_defined) {
    opt->stop_time = c->tstop;
  } else {
    opt->stop_time = c->t0 + 1e6 * (span > 0 ? span : 1);
    opt->max_step = span > 0 ? span / 500 : 0;
    opt->interval = opt->stop_time - opt->start_time;
  }
}

/* derivatives() with its failure reported: the model keeps a local one quiet for an
 * integrator that could retry (model.h report_failure); the importer's cannot. */
static int derivatives(fmu *c, void *ud, double t) {
  int rc = c->model->derivatives(ud, t, c->y, c->dy);
  if (rc > 0 && c->model->report_failure) c->model->report_failure(ud);
  return rc;
}

/* Model Exchange: the values at start, then the initial event iteration (Modelica
 * initial()), as the runtime does before integrating. */
static int me_initialize(fmu *c) {
  c->y = calloc((size_t)c->n, sizeof *c->y);
  c->dy = calloc((size_t)c->n, sizeof *c->dy);
  c->g = calloc((size_t)c->ng + 1, sizeof *c->g);
  if (!c->y || !c->dy || !c->g) return -1;
  void *ud = st_compiled_data(c->in);
  c->nx = c->in->p.nstates; /* without the dummy state of a model that has none */
  if (c->model->start_values(ud, c->t0, c->y, c->dy)) return -1;
  memset(&c->last, 0, sizeof c->last);
  for (int it = 0; it < 100; it++) {
    stiction_event_info info = {.initial = 1, .iteration = it};
    if (derivatives(c, ud, c->t0) ||
        c->model->event_update(ud, c->t0, c->y, c->dy, &info))
      return -1;
    c->last.states_changed |= info.states_changed || info.equations_changed;
    c->last.terminate |= info.terminate;
    c->last.next_time_defined = info.next_time_defined;
    c->last.next_time = info.next_time;
    if (!info.discrete_changed) break;
    if (it == 99) return -1;
  }
  c->t = c->t0;
  c->initial_event = 1;
  c->fresh = 0;
  return 0;
}

EXPORT fmi2Status fmi2ExitInitializationMode(fmi2Component comp) {
  fmu *c = comp;
  if (!allowed(c, "fmi2ExitInitializationMode", 1u << P_INIT)) return fmi2Error;
  if (c->type == fmi2ModelExchange) {
    if (me_initialize(c)) return broken(c, "initialization");
    c->phase = P_EVENT;
    return fmi2OK;
  }
  stiction_options opt;
  cs_options(c, &opt);
  c->sim = stiction_sim_new(c->model, st_compiled_data(c->in), &opt);
  if (!c->sim) return fail(c, "out of memory");
  c->last_time = c->t0;
  if (stiction_sim_start(c->sim)) return broken(c, "initialization");
  c->phase = P_CONT;
  return fmi2OK;
}

EXPORT fmi2Status fmi2Terminate(fmi2Component comp) {
  fmu *c = comp;
  if (!allowed(c, "fmi2Terminate", (1u << P_EVENT) | (1u << P_CONT))) return fmi2Error;
  c->phase = P_TERMINATED;
  if (c->sim) return stiction_sim_finish(c->sim) ? broken(c, "the terminal pass") : fmi2OK;
  if (!c->model->terminal || !c->y) return fmi2OK;
  for (int it = 0; it < 100; it++) { /* Modelica terminal(), iterated like an event */
    stiction_event_info info = {.iteration = it};
    if (c->model->terminal(st_compiled_data(c->in), c->t, c->y, c->dy, &info))
      return broken(c, "the terminal pass");
    if (!info.discrete_changed) break;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2Reset(fmi2Component comp) {
  fmu *c = comp;
  if (!c) return fmi2Error;
  free_run(c);
  c->stop_defined = c->tol_defined = 0;
  return new_instance(c) ? fail(c, "out of memory") : fmi2OK;
}

/* ------------------------------------------------------------------ values */

/* The values of the instance at the current point: Model Exchange evaluates the model at
 * (t, y) when either changed since the last evaluation. */
static int refresh(fmu *c) {
  if (c->type != fmi2ModelExchange || c->fresh || !c->y ||
      (c->phase != P_EVENT && c->phase != P_CONT && c->phase != P_TERMINATED))
    return 0;
  if (derivatives(c, st_compiled_data(c->in), c->t)) return -1;
  c->fresh = 1;
  return 0;
}

static int check_vr(fmu *c, fmi2ValueReference vr, int type) {
  if (vr >= (fmi2ValueReference)st_instance_nslots(c->in) || st_fmu_slot_type(c->in, (int)vr) != type) {
    fail(c, "value reference %u is not a %s variable", vr,
         type == 'r' ? "Real" : type == 'i' ? "Integer" : "Boolean");
    return -1;
  }
  return 0;
}

static fmi2Status get_values(fmu *c, const fmi2ValueReference vr[], size_t nvr, int type,
                             double *out) {
  if (!allowed(c, "fmi2Get*", ANY_BUT_ERROR)) return fmi2Error;
  if (refresh(c)) return broken(c, "evaluating the model");
  for (size_t i = 0; i < nvr; i++) {
    if (check_vr(c, vr[i], type)) return fmi2Error;
    out[i] = st_instance_value(c->in, (int)vr[i]);
  }
  return fmi2OK;
}

/* Parameters before the run; start values before initialization ends; inputs at any time
 * (between steps in CS, where the change is an event of the next step). */
static fmi2Status set_value(fmu *c, fmi2ValueReference vr, int type, double v) {
  if (check_vr(c, vr, type)) return fmi2Error;
  int slot = (int)vr, kind = st_instance_slot_kind(c->in, slot);
  int before = c->phase == P_INSTANTIATED || c->phase == P_INIT;
  int rc = -1;
  if (kind == 'p' && before) rc = st_instance_set_parameter(c->in, slot, v);
  else if (kind == 'i' && before) rc = st_instance_set_start(c->in, slot, v);
  else if (kind == 'i') {
    rc = st_instance_set_input(c->in, slot, v);
    c->inputs_changed = 1;
    c->fresh = 0;
  } else if (kind == 's' && before) {
    rc = st_instance_set_start(c->in, slot, v);
  } else {
    return fail(c, "%s cannot be set %s", st_instance_slot_name(c->in, slot),
                before ? "(not a parameter, input or state)" : "after initialization");
  }
  return rc ? fail(c, "cannot set %s", st_instance_slot_name(c->in, slot)) : fmi2OK;
}

EXPORT fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                              fmi2Real value[]) {
  return get_values(c, vr, nvr, 'r', value);
}

EXPORT fmi2Status fmi2GetInteger(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                 fmi2Integer value[]) {
  double *v = malloc(sizeof *v * (nvr + 1));
  fmi2Status s = v ? get_values(comp, vr, nvr, 'i', v) : fmi2Error;
  for (size_t i = 0; s == fmi2OK && i < nvr; i++) value[i] = (fmi2Integer)lround(v[i]);
  free(v);
  return s;
}

EXPORT fmi2Status fmi2GetBoolean(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                 fmi2Boolean value[]) {
  double *v = malloc(sizeof *v * (nvr + 1));
  fmi2Status s = v ? get_values(comp, vr, nvr, 'b', v) : fmi2Error;
  for (size_t i = 0; s == fmi2OK && i < nvr; i++) value[i] = v[i] != 0;
  free(v);
  return s;
}

EXPORT fmi2Status fmi2GetString(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                fmi2String value[]) {
  return nvr ? fail(comp, "the FMU has no String variables") : fmi2OK;
}

/* Setting n values, each converted to a double (Integer, Boolean: 0/1). */
static fmi2Status set_values(fmu *c, const char *fn, const fmi2ValueReference vr[], size_t nvr,
                             int type, const double *v) {
  if (!allowed(c, fn, ANY_BUT_ERROR & ~(1u << P_TERMINATED))) return fmi2Error;
  for (size_t i = 0; i < nvr; i++)
    if (set_value(c, vr[i], type, v[i])) return fmi2Error;
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                              const fmi2Real value[]) {
  return set_values(comp, "fmi2SetReal", vr, nvr, 'r', value);
}

EXPORT fmi2Status fmi2SetInteger(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                 const fmi2Integer value[]) {
  double *v = malloc(sizeof *v * (nvr + 1));
  for (size_t i = 0; v && i < nvr; i++) v[i] = value[i];
  fmi2Status s = v ? set_values(comp, "fmi2SetInteger", vr, nvr, 'i', v) : fmi2Error;
  free(v);
  return s;
}

EXPORT fmi2Status fmi2SetBoolean(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                 const fmi2Boolean value[]) {
  double *v = malloc(sizeof *v * (nvr + 1));
  for (size_t i = 0; v && i < nvr; i++) v[i] = value[i] != 0;
  fmi2Status s = v ? set_values(comp, "fmi2SetBoolean", vr, nvr, 'b', v) : fmi2Error;
  free(v);
  return s;
}

EXPORT fmi2Status fmi2SetString(fmi2Component comp, const fmi2ValueReference vr[], size_t nvr,
                                const fmi2String value[]) {
  return nvr ? fail(comp, "the FMU has no String variables") : fmi2OK;
}

/* Not offered (modelDescription.xml says so): FMU states, directional derivatives, input
 * and output derivatives. */
static fmi2Status unsupported(fmi2Component comp, const char *fn) {
  return fail(comp, "%s is not supported by this FMU", fn);
}
EXPORT fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate *s) {
  return unsupported(c, "fmi2GetFMUstate");
}
EXPORT fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate s) {
  return unsupported(c, "fmi2SetFMUstate");
}
EXPORT fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate *s) {
  return unsupported(c, "fmi2FreeFMUstate");
}
EXPORT fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate s, size_t *n) {
  return unsupported(c, "fmi2SerializedFMUstateSize");
}
EXPORT fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate s, fmi2Byte b[], size_t n) {
  return unsupported(c, "fmi2SerializeFMUstate");
}
EXPORT fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte b[], size_t n,
                                          fmi2FMUstate *s) {
  return unsupported(c, "fmi2DeSerializeFMUstate");
}
EXPORT fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference u[],
                                               size_t nu, const fmi2ValueReference k[], size_t nk,
                                               const fmi2Real dk[], fmi2Real du[]) {
  return unsupported(c, "fmi2GetDirectionalDerivative");
}
EXPORT fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                              size_t nvr, const fmi2Integer order[],
                                              const fmi2Real value[]) {
  return unsupported(c, "fmi2SetRealInputDerivatives");
}
EXPORT fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
                                               size_t nvr, const fmi2Integer order[],
                                               fmi2Real value[]) {
  return unsupported(c, "fmi2GetRealOutputDerivatives");
}

/* ------------------------------------------------------------------ Model Exchange */

static int is_me(fmu *c, const char *fn) {
  if (c && c->type == fmi2ModelExchange) return 1;
  if (c) fail(c, "%s: this instance is not Model Exchange", fn);
  return 0;
}

EXPORT fmi2Status fmi2EnterEventMode(fmi2Component comp) {
  fmu *c = comp;
  if (!is_me(c, "fmi2EnterEventMode") ||
      !allowed(c, "fmi2EnterEventMode", (1u << P_CONT) | (1u << P_EVENT)))
    return fmi2Error;
  c->phase = P_EVENT;
  return fmi2OK;
}

/* One pass of the discrete equations at (t, y) with pre() = the values before it; the
 * importer repeats while newDiscreteStatesNeeded. The first event mode, after
 * initialization, reports the initial iteration done by fmi2ExitInitializationMode. */
EXPORT fmi2Status fmi2NewDiscreteStates(fmi2Component comp, fmi2EventInfo *e) {
  fmu *c = comp;
  if (!is_me(c, "fmi2NewDiscreteStates") ||
      !allowed(c, "fmi2NewDiscreteStates", 1u << P_EVENT) || !e)
    return fmi2Error;
  stiction_event_info info = {0};
  if (c->initial_event) {
    info = c->last;
    c->last.states_changed = 0;
  } else {
    void *ud = st_compiled_data(c->in);
    if (derivatives(c, ud, c->t) ||
        c->model->event_update(ud, c->t, c->y, c->dy, &info))
      return broken(c, "the event iteration");
    c->fresh = 0;
  }
  e->newDiscreteStatesNeeded = !c->initial_event && info.discrete_changed;
  e->terminateSimulation = info.terminate;
  e->nominalsOfContinuousStatesChanged = fmi2False;
  /* A mode switch changes the right-hand side, not the states; an importer that restarts its
   * integrator only when told the states changed would carry the old mode's history into the
   * new one (the stuck friction element creeping on), so a switch says so too. */
  e->valuesOfContinuousStatesChanged = info.states_changed || info.equations_changed;
  e->nextEventTimeDefined = info.next_time_defined != 0;
  e->nextEventTime = info.next_time_defined ? info.next_time : 0;
  if (info.terminate && info.message)
    say(c, fmi2OK, "logEvents", "terminate() at t = %.17g: %s", c->t, info.message);
  return fmi2OK;
}

EXPORT fmi2Status fmi2EnterContinuousTimeMode(fmi2Component comp) {
  fmu *c = comp;
  if (!is_me(c, "fmi2EnterContinuousTimeMode") ||
      !allowed(c, "fmi2EnterContinuousTimeMode", 1u << P_EVENT))
    return fmi2Error;
  c->initial_event = 0;
  c->phase = P_CONT;
  return fmi2OK;
}

EXPORT fmi2Status fmi2CompletedIntegratorStep(fmi2Component comp, fmi2Boolean noSetPrior,
                                              fmi2Boolean *enterEventMode,
                                              fmi2Boolean *terminateSimulation) {
  fmu *c = comp;
  if (!is_me(c, "fmi2CompletedIntegratorStep") ||
      !allowed(c, "fmi2CompletedIntegratorStep", 1u << P_CONT))
    return fmi2Error;
  if (enterEventMode) *enterEventMode = fmi2False; /* no step events: all are indicators or time */
  if (terminateSimulation) *terminateSimulation = fmi2False;
  return fmi2OK;
}

EXPORT fmi2Status fmi2SetTime(fmi2Component comp, fmi2Real time) {
  fmu *c = comp;
  if (!is_me(c, "fmi2SetTime") || !allowed(c, "fmi2SetTime", (1u << P_EVENT) | (1u << P_CONT) |
                                                                 (1u << P_INIT) |
                                                                 (1u << P_INSTANTIATED)))
    return fmi2Error;
  c->t = time;
  c->fresh = 0;
  return fmi2OK;
}

static int check_nx(fmu *c, size_t n, size_t want, const char *fn) {
  if (!c->y) {
    fail(c, "%s before initialization", fn);
    return -1;
  }
  if (n != want) {
    fail(c, "%s: %zu values, the model has %zu", fn, n, want);
    return -1;
  }
  return 0;
}

/* A Model Exchange call on a vector of n values, allowed in phases, where the model has
 * want: 1, or 0 after saying why. */
static int me_vector(fmu *c, const char *fn, unsigned phases, size_t n, size_t want) {
  return is_me(c, fn) && allowed(c, fn, phases) && check_nx(c, n, want, fn) == 0;
}

EXPORT fmi2Status fmi2SetContinuousStates(fmi2Component comp, const fmi2Real x[], size_t nx) {
  fmu *c = comp;
  if (!me_vector(c, "fmi2SetContinuousStates", (1u << P_EVENT) | (1u << P_CONT), nx,
                 (size_t)c->nx))
    return fmi2Error;
  if (nx) memcpy(c->y, x, nx * sizeof *x);
  c->fresh = 0;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetContinuousStates(fmi2Component comp, fmi2Real x[], size_t nx) {
  fmu *c = comp;
  if (!me_vector(c, "fmi2GetContinuousStates", ANY_BUT_ERROR, nx, (size_t)c->nx))
    return fmi2Error;
  if (nx) memcpy(x, c->y, nx * sizeof *x);
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component comp, fmi2Real x[], size_t nx) {
  fmu *c = comp;
  if (!is_me(c, "fmi2GetNominalsOfContinuousStates") ||
      !allowed(c, "fmi2GetNominalsOfContinuousStates", ANY_BUT_ERROR))
    return fmi2Error;
  for (size_t i = 0; i < nx; i++)
    x[i] = c->model->nominal && i < (size_t)c->n ? c->model->nominal[i] : 1.0;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetDerivatives(fmi2Component comp, fmi2Real dx[], size_t nx) {
  fmu *c = comp;
  if (!me_vector(c, "fmi2GetDerivatives", ANY_BUT_ERROR, nx, (size_t)c->nx)) return fmi2Error;
  if (refresh(c)) return broken(c, "the derivatives");
  if (nx) memcpy(dx, c->dy, nx * sizeof *dx);
  return fmi2OK;
}

/* The model's indicators: a relation's sign change, shifted by a tiny hysteresis towards
 * the side it is on (model.h), so that a relation sitting on its threshold after an event
 * switches as soon as it moves. */
EXPORT fmi2Status fmi2GetEventIndicators(fmi2Component comp, fmi2Real g[], size_t ng) {
  fmu *c = comp;
  if (!me_vector(c, "fmi2GetEventIndicators", ANY_BUT_ERROR, ng, (size_t)c->ng))
    return fmi2Error;
  if (ng && c->model->indicators(st_compiled_data(c->in), c->t, c->y, NULL, c->g))
    return broken(c, "the event indicators");
  if (ng) memcpy(g, c->g, ng * sizeof *g);
  return fmi2OK;
}

/* ------------------------------------------------------------------ Co-Simulation */

EXPORT fmi2Status fmi2DoStep(fmi2Component comp, fmi2Real t, fmi2Real h,
                             fmi2Boolean noSetFMUStatePriorToCurrentPoint) {
  fmu *c = comp;
  if (!c || c->type != fmi2CoSimulation) return c ? fail(c, "fmi2DoStep: not Co-Simulation") : fmi2Error;
  if (!allowed(c, "fmi2DoStep", 1u << P_CONT)) return fmi2Error;
  if (c->terminated) return fmi2Discard;
  double now = stiction_sim_time(c->sim);
  if (fabs(t - now) > 1e-9 * fmax(1, fabs(now)) || !(h >= 0))
    return fail(c, "fmi2DoStep from %.17g by %g: the FMU is at %.17g", t, h, now);
  if (c->inputs_changed) {
    c->inputs_changed = 0;
    if (stiction_sim_inputs_changed(c->sim)) return broken(c, "the input event");
  }
  double to = fmax(t + h, now);
  if (c->stop_defined && to > c->tstop && to - c->tstop <= 1e-12 * fmax(1, fabs(c->tstop)))
    to = c->tstop; /* a last step that rounding put past the stop time */
  if (stiction_sim_advance(c->sim, to)) return broken(c, "the step");
  c->last_time = stiction_sim_time(c->sim);
  if (stiction_sim_terminated(c->sim)) {
    c->terminated = 1;
    say(c, fmi2OK, "logEvents", "the model terminated at t = %.17g", c->last_time);
    return fmi2Discard;
  }
  return fmi2OK;
}

EXPORT fmi2Status fmi2CancelStep(fmi2Component comp) {
  return fail(comp, "fmi2CancelStep: steps are not asynchronous");
}

EXPORT fmi2Status fmi2GetStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Status *value) {
  fmu *c = comp;
  if (!c || s != fmi2DoStepStatus) return c ? fail(c, "fmi2GetStatus: kind %d", (int)s) : fmi2Error;
  *value = c->phase == P_ERROR ? fmi2Error : fmi2OK;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetRealStatus(fmi2Component comp, const fmi2StatusKind s, fmi2Real *value) {
  fmu *c = comp;
  if (!c || s != fmi2LastSuccessfulTime || !c->sim)
    return c ? fail(c, "fmi2GetRealStatus: kind %d", (int)s) : fmi2Error;
  *value = c->last_time;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetIntegerStatus(fmi2Component comp, const fmi2StatusKind s,
                                       fmi2Integer *value) {
  return fail(comp, "fmi2GetIntegerStatus: no integer status");
}

EXPORT fmi2Status fmi2GetBooleanStatus(fmi2Component comp, const fmi2StatusKind s,
                                       fmi2Boolean *value) {
  fmu *c = comp;
  if (!c || s != fmi2Terminated) return c ? fail(c, "fmi2GetBooleanStatus: kind %d", (int)s) : fmi2Error;
  *value = c->terminated;
  return fmi2OK;
}

EXPORT fmi2Status fmi2GetStringStatus(fmi2Component comp, const fmi2StatusKind s,
                                      fmi2String *value) {
  return fail(comp, "fmi2GetStringStatus: no string status");
}

