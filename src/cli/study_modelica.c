/* The Modelica source of `stiction study` (doc/study.md, "Modelica models").
 *
 * The element is switched in Modelica itself, not in the compiler: every run flattens the
 * class with a top-level modification of the element's parameters, as if it were declared
 *
 *   model Run = CLASS(ELEMENT.law = Stiction.Types.FrictionLaw.Arctan, ELEMENT.eps = 1e-3);
 *
 * (st_front_flatten_modified, the mechanism of `stiction simulate -p`), so the exact run and
 * every law/width go through the same front end, compiler and runtime as `stiction
 * simulate`; an outer modification overrides the binding the model gives the element
 * (Modelica 3.6 section 7.2.4), and law, being structural (Evaluate = true), selects the
 * element's equations before they are built. Two kinds of element:
 *
 *   - a Stiction element with the parameters law (Stiction.Types.FrictionLaw, EventDriven
 *     for the exact run), eps, sigma0 and sigma1 (LeineFriction): only modifications;
 *   - an MSL friction element (BearingFriction, Brake, Clutch, SupportFriction,
 *     Translational Brake): the exact run is the model as written; the regularized runs
 *     substitute the Stiction element of the same kind for it (st_front_flatten_substituted:
 *     same connectors and parameter names, the declaration's modifiers kept) and set its law
 *     and eps (or sigma0, sigma1): arctan, tanh, the Karnopp band and LuGre
 *     (Stiction.Interfaces.PartialFrictionLaw). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/study.h"
#include "compile/compile.h"
#include "front/front.h"
#include "compile/extcall.h"

typedef struct mo_ctx {
  const char *file, *element;
  const char *const *libs;
  int n_libs;
  char *class_name; /* the full name of the class studied (owned) */
  const char *replacement; /* MSL element: the Stiction class of its regularized runs */
  st_experiment experiment;
} mo_ctx;

/* The MSL friction elements and the Stiction elements that replace them (same connectors,
 * parameter names and table shapes; doc/library.md, the Stiction package). */
static const struct {
  const char *msl, *stiction;
} replacements[] = {
    {"Modelica.Mechanics.Rotational.Components.BearingFriction",
     "Stiction.Rotational.Components.BearingFriction"},
    {"Modelica.Mechanics.Rotational.Components.Brake", "Stiction.Rotational.Components.Brake"},
    {"Modelica.Mechanics.Rotational.Components.Clutch", "Stiction.Rotational.Components.Clutch"},
    {"Modelica.Mechanics.Translational.Components.SupportFriction",
     "Stiction.Translational.Components.SupportFriction"},
    {"Modelica.Mechanics.Translational.Components.Brake",
     "Stiction.Translational.Components.Brake"},
};

static const char *replacement_of(const char *cls) {
  for (size_t i = 0; cls && i < sizeof replacements / sizeof replacements[0]; i++)
    if (!strcmp(replacements[i].msl, cls)) return replacements[i].stiction;
  return NULL;
}

typedef struct mo_run {
  st_diag *diag;
  st_front *fe;
  st_flat_model *flat;
  st_compiled *cm;
} mo_run;

static int open_run(const st_study_source *src, int law, double width, st_study_model *out,
                    char *msg, size_t size);
static void close_run(st_study_model *m);

/* A front end with the -L directories first (as `stiction simulate`) and the file loaded. */
static st_front *new_front(const mo_ctx *c, st_diag *diag) {
  st_front *fe = st_front_new(diag);
  if (fe) st_front_set_externals(fe, st_extcall_front_externals());
  if (!fe) return NULL;
  for (int i = 0; i < c->n_libs; i++) st_front_add_library_path(fe, c->libs[i]);
  st_front_add_default_paths(fe);
  if (c->file && st_front_load_file(fe, c->file)) {
    st_front_free(fe);
    return NULL;
  }
  return fe;
}

static const st_fvar *find_var(const st_flat_model *flat, const char *name) {
  for (int i = 0; i < flat->nvars; i++)
    if (!strcmp(flat->vars[i].name, name)) return &flat->vars[i];
  return NULL;
}

static int has_var(const st_flat_model *flat, const char *element, const char *member) {
  char name[512];
  snprintf(name, sizeof name, "%s.%s", element, member);
  return find_var(flat, name) != NULL;
}

/* The element is either a Stiction element with a FrictionLaw parameter `law` that has the
 * event-driven law (not one of the regularized-only elements, which have s_law), or an MSL
 * friction element with a Stiction replacement (c->replacement set). */
static int check_element(mo_ctx *c, st_front *fe, const st_flat_model *flat) {
  char name[512];
  snprintf(name, sizeof name, "%s.law", c->element);
  const st_fvar *v = find_var(flat, name);
  const char *cls = st_front_component_class(fe, c->class_name, c->element);
  if (v && v->type == ST_T_ENUM && v->enum_type && strstr(v->enum_type, "FrictionLaw") &&
      !has_var(flat, c->element, "s_law"))
    return 0;
  if ((c->replacement = replacement_of(cls))) return 0;
  if (v && has_var(flat, c->element, "s_law"))
    fprintf(stderr, "stiction study: %s: '%s' is a regularized element (%s) without an "
            "event-driven law; declare the MSL element instead and study that\n",
            c->class_name, c->element, cls ? cls : "?");
  else
    fprintf(stderr, "stiction study: %s: '%s' is not a friction element: it must be a "
            "Stiction element with a parameter 'law' of type Stiction.Types.FrictionLaw "
            "(e.g. Stiction.Translational.Components.LeineFriction) or an MSL "
            "BearingFriction, Brake, Clutch, SupportFriction or Translational Brake%s%s\n",
            c->class_name, c->element, cls ? "; it is a " : "", cls ? cls : "");
  return -1;
}

int st_study_modelica_init(st_study_source *src, const char *file, const char *class_name,
                           const char *element, const char *const *libs, int n_libs,
                           stiction_options *exp_opt) {
  mo_ctx *c = calloc(1, sizeof *c);
  st_diag *diag = st_diag_new(stderr);
  st_front *fe = NULL;
  st_flat_model *flat = NULL;
  int rc = -1;
  if (!c || !diag) goto out;
  *c = (mo_ctx){.file = file, .element = element, .libs = libs, .n_libs = n_libs};
  fe = new_front(c, diag);
  const char *cls = !fe ? NULL : class_name ? class_name : st_front_default_class(fe);
  if (fe && !cls) fprintf(stderr, "stiction study: %s: no class to study\n", file);
  if (cls && (c->class_name = strdup(cls)) && (flat = st_front_flatten(fe, cls)))
    rc = check_element(c, fe, flat);
  if (!rc) {
    c->experiment = flat->experiment;
    const st_experiment *ex = &flat->experiment;
    if (ex->has_start) exp_opt->start_time = ex->start_time;
    if (ex->has_stop) exp_opt->stop_time = ex->stop_time;
    if (ex->has_tolerance) exp_opt->rtol = ex->tolerance;
    src->ctx = c;
    src->name = c->class_name;
    src->open = open_run;
    src->close = close_run;
  }
out:
  st_flat_free(flat);
  st_front_free(fe);
  st_diag_free(diag);
  if (rc && c) {
    free(c->class_name);
    free(c);
  }
  if (!c || !diag) fprintf(stderr, "stiction study: out of memory\n");
  return rc;
}

int st_study_modelica_has_law(const st_study_source *src, int law, const char **replacement) {
  const mo_ctx *c = src->ctx;
  *replacement = c->replacement;
  return !c->replacement || law == ST_LAW_EXACT || law == ST_LAW_ARCTAN || law == ST_LAW_TANH ||
         law == ST_LAW_KARNOPP || law == ST_LAW_LUGRE;
}

void st_study_modelica_free(st_study_source *src) {
  mo_ctx *c = src->ctx;
  if (c) free(c->class_name);
  free(c);
  src->ctx = NULL;
}

/* The modifications of one law (n of them written to mods): eps is the velocity width 1/W
 * of the regularized sign and of the Karnopp band; LuGre gets sigma0 = W and the damping
 * 2 sqrt(W) that makes the bristle critical on a unit mass (Leine's sigma1 = 20 at
 * sigma0 = 100), as the demo does. */
enum { MOD_LEN = 512 };
static int law_modifiers(const mo_ctx *c, int law, double w, char mods[3][MOD_LEN]) {
  static const char *const lit[] = {"EventDriven", "Arctan", "Tanh", "Karnopp", "LuGre"};
  const char *el = c->element;
  if (law == ST_LAW_EXACT && c->replacement) return 0; /* the MSL element as written */
  snprintf(mods[0], MOD_LEN, "%s.law = Stiction.Types.FrictionLaw.%s", el, lit[law]);
  if (law == ST_LAW_EXACT) return 1;
  if (law != ST_LAW_LUGRE) {
    snprintf(mods[1], MOD_LEN, "%s.eps = %.17g", el, 1.0 / w);
    return 2;
  }
  snprintf(mods[1], MOD_LEN, "%s.sigma0 = %.17g", el, w);
  snprintf(mods[2], MOD_LEN, "%s.sigma1 = %.17g", el, 2.0 * sqrt(w));
  return 3;
}

static void close_run(st_study_model *m) {
  mo_run *r = m->handle;
  if (!r) return;
  st_compiled_free(r->cm);
  st_flat_free(r->flat);
  st_front_free(r->fe);
  st_diag_free(r->diag);
  free(r);
  m->handle = NULL;
}

static void set_experiment(const st_experiment *ex, stiction_options *opt) {
  stiction_options_init(opt);
  if (ex->has_start) opt->start_time = ex->start_time;
  if (ex->has_stop) opt->stop_time = ex->stop_time;
  if (ex->has_interval) opt->interval = ex->interval;
  if (ex->has_tolerance) opt->rtol = ex->tolerance;
}

static int open_run(const st_study_source *src, int law, double width, st_study_model *out,
                    char *msg, size_t size) {
  const mo_ctx *c = src->ctx;
  mo_run *r = calloc(1, sizeof *r);
  out->handle = r;
  if (!r || !(r->diag = st_diag_new(NULL))) {
    snprintf(msg, size, "out of memory");
    close_run(out);
    return -1;
  }
  char mods[3][MOD_LEN];
  const char *args[3] = {mods[0], mods[1], mods[2]};
  int n = law_modifiers(c, law, width, mods);
  st_front_subst subst = {c->element, c->replacement};
  int nsubst = c->replacement && law != ST_LAW_EXACT;
  if ((r->fe = new_front(c, r->diag)) &&
      (r->flat = st_front_flatten_substituted(r->fe, c->class_name, args, n, "--element",
                                              &subst, nsubst)) &&
      (r->cm = st_compile(r->flat, r->diag))) {
    set_experiment(&c->experiment, &out->opt);
    out->model = st_compiled_model(r->cm);
    out->user_data = st_compiled_data(r->cm);
    return 0;
  }
  const char *err = st_diag_first_error(r->diag);
  snprintf(msg, size, "%s", *err ? err : "cannot compile the model");
  close_run(out);
  return -1;
}
