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
 * element's equations before they are built. The element must therefore have the parameters
 * law (Stiction.Types.FrictionLaw), eps, sigma0 and sigma1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/study.h"
#include "compile/compile.h"
#include "front/front.h"

typedef struct mo_ctx {
  const char *file, *element;
  const char *const *libs;
  int n_libs;
  char *class_name; /* the full name of the class studied (owned) */
  st_experiment experiment;
} mo_ctx;

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

/* The element must carry a FrictionLaw parameter `law` with every literal the study uses. */
static int check_element(const mo_ctx *c, const st_flat_model *flat) {
  char name[512];
  snprintf(name, sizeof name, "%s.law", c->element);
  const st_fvar *v = find_var(flat, name);
  if (!v || v->type != ST_T_ENUM || !v->enum_type || !strstr(v->enum_type, "FrictionLaw")) {
    fprintf(stderr, "stiction study: %s: '%s' is not a friction element with a parameter "
            "'law' of type Stiction.Types.FrictionLaw (e.g. a "
            "Stiction.Translational.Components.LeineFriction)\n", c->class_name, c->element);
    return -1;
  }
  return 0;
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
    rc = check_element(c, flat);
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
static int law_modifiers(const char *el, int law, double w, char mods[3][MOD_LEN]) {
  static const char *const lit[] = {"EventDriven", "Arctan", "Tanh", "Karnopp", "LuGre"};
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
  int n = law_modifiers(c->element, law, width, mods);
  if ((r->fe = new_front(c, r->diag)) &&
      (r->flat = st_front_flatten_modified(r->fe, c->class_name, args, n, "--element")) &&
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
