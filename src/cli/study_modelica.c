/* The Modelica source of `stiction study` (doc/study.md, "Modelica models").
 *
 * The element is switched in Modelica itself, not in the compiler: every run flattens a
 * one-line wrapper class
 *
 *   model StictionStudyRun
 *     extends CLASS(ELEMENT(law = Stiction.Types.FrictionLaw.Arctan, eps = 1e-3));
 *   end StictionStudyRun;
 *
 * written to a temporary file, so the exact run and every law/width go through the same
 * front end, compiler and runtime as `stiction simulate` (an outer modifier overrides the
 * binding the model gives the element, Modelica 3.6 section 7.2.4). The element must
 * therefore have the parameters law (Stiction.Types.FrictionLaw), eps, sigma0 and sigma1. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/study.h"
#include "compile/compile.h"
#include "front/front.h"

#define WRAPPER "StictionStudyRun"

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
  char path[4096]; /* the wrapper file, removed on close */
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

/* The parameter modifiers of one law: eps is the velocity width 1/W of the regularized
 * sign and of the Karnopp band; LuGre gets sigma0 = W and the damping 2 sqrt(W) that makes
 * the bristle critical on a unit mass (Leine's sigma1 = 20 at sigma0 = 100), as the demo. */
static void law_modifier(int law, double w, char *buf, size_t size) {
  static const char *const lit[] = {"EventDriven", "Arctan", "Tanh", "Karnopp", "LuGre"};
  int n = snprintf(buf, size, "law = Stiction.Types.FrictionLaw.%s", lit[law]);
  if (law == ST_LAW_LUGRE)
    snprintf(buf + n, size - n, ", sigma0 = %.17g, sigma1 = %.17g", w, 2.0 * sqrt(w));
  else if (law != ST_LAW_EXACT)
    snprintf(buf + n, size - n, ", eps = %.17g", 1.0 / w);
}

/* "a.b" with modifiers M -> "a(b(M))". */
static void nest_modifier(const char *element, const char *mods, char *buf, size_t size) {
  size_t n = 0;
  int depth = 1;
  for (const char *p = element; *p && n + 2 < size; p++) {
    if (*p == '.') depth++;
    buf[n++] = *p == '.' ? '(' : *p;
  }
  snprintf(buf + n, size - n, "(%s", mods);
  for (n = strlen(buf); depth-- > 0 && n + 1 < size; n++) buf[n] = ')';
  buf[n < size ? n : size - 1] = 0;
}

static int write_wrapper(const mo_ctx *c, int law, double w, mo_run *r) {
  char mods[512], nested[2048];
  const char *dir = getenv("TMPDIR");
  snprintf(r->path, sizeof r->path, "%s/stiction_study_XXXXXX.mo", dir && *dir ? dir : "/tmp");
  int fd = mkstemps(r->path, 3);
  if (fd < 0) {
    r->path[0] = 0;
    return -1;
  }
  law_modifier(law, w, mods, sizeof mods);
  nest_modifier(c->element, mods, nested, sizeof nested);
  FILE *f = fdopen(fd, "w");
  if (!f) {
    close(fd);
    return -1;
  }
  fprintf(f, "model " WRAPPER "\n  extends %s(%s);\nend " WRAPPER ";\n", c->class_name, nested);
  return fclose(f) ? -1 : 0;
}

static void close_run(st_study_model *m) {
  mo_run *r = m->handle;
  if (!r) return;
  st_compiled_free(r->cm);
  st_flat_free(r->flat);
  st_front_free(r->fe);
  st_diag_free(r->diag);
  if (r->path[0]) unlink(r->path);
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
  if (write_wrapper(c, law, width, r)) snprintf(msg, size, "cannot write a temporary file");
  else if ((r->fe = new_front(c, r->diag)) && !st_front_load_file(r->fe, r->path) &&
           (r->flat = st_front_flatten(r->fe, WRAPPER)) && (r->cm = st_compile(r->flat, r->diag))) {
    set_experiment(&c->experiment, &out->opt);
    out->model = st_compiled_model(r->cm);
    out->user_data = st_compiled_data(r->cm);
    return 0;
  } else {
    snprintf(msg, size, "%s", *st_diag_first_error(r->diag) ? st_diag_first_error(r->diag)
                                                            : "cannot compile the model");
  }
  close_run(out);
  return -1;
}
